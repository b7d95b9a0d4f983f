#!/usr/bin/env bash
# Installs what CipherBench needs: on Debian/Ubuntu the Qt system libraries (as root, or with
# passwordless sudo; otherwise it prints the command to run), then a virtual environment in
# .venv with the Python packages. Safe to run again: it installs only what is missing.
# Usage: scripts/setup.sh [--dev]      (--dev adds the test tools)
#
# A complete setup writes a stamp, $VENV/.cipherbench-setup-stamp: a checksum of what it
# installed from (requirements*.txt, constraints.txt, the [project] table of pyproject.toml,
# this script, the environment's pyvenv.cfg with its Python version), written only when no
# Debian package was missing. While that still matches, the next run returns at once (a few
# milliseconds, no Python started), so scripts/run.sh opens the window without a second of
# pip. CIPHERBENCH_FORCE_SETUP=1 (or deleting the stamp) makes it check everything again.
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON=${PYTHON:-python3}
VENV=${VENV:-.venv}
DEV=0
[ "${1:-}" = "--dev" ] && DEV=1
STAMP="$VENV/.cipherbench-setup-stamp"

# One line of the stamp: "runtime <checksum>" or "dev <checksum>" (a dev setup also satisfies
# a runtime one: requirements-dev.txt includes requirements.txt, with the same constraints).
stamp_line() {
    local kind=$1 files="requirements.txt constraints.txt scripts/setup.sh $VENV/pyvenv.cfg"
    [ "$kind" = dev ] && files="$files requirements-dev.txt"
    # shellcheck disable=SC2086
    echo "$kind $({ echo "unpinned=${CIPHERBENCH_UNPINNED:-}"; cat $files;
        sed -n '/^\[project\]/,/^\[tool\./p' pyproject.toml; } 2>/dev/null | cksum)"
}
KIND=runtime
[ "$DEV" = 1 ] && KIND=dev
if [ -z "${CIPHERBENCH_FORCE_SETUP:-}" ] && [ -x "$VENV/bin/python" ] && [ -f "$STAMP" ] &&
    grep -qxF "$(stamp_line $KIND)" "$STAMP"; then
    exit 0
fi
rm -f "$STAMP"

# From here on it takes seconds (a first start about a minute): say what is happening.
say() { echo "setup: $*" >&2; }
START=$SECONDS
if [ -x "$VENV/bin/python" ]; then
    say "what $VENV was set up from changed: checking it (a few seconds)..."
else
    say "setting up CipherBench in $VENV (first start: up to a minute, once)..."
fi

# Qt needs these even offscreen; the xcb ones are for a real window (PLATFORM.md).
DEB_PKGS="libglib2.0-0 libgl1 libegl1 libfontconfig1 libxkbcommon0 libdbus-1-3 \
libxkbcommon-x11-0 libxcb-cursor0 libxcb-icccm4 libxcb-image0 libxcb-keysyms1 \
libxcb-render-util0 libxcb-render0 libxcb-shape0 libxcb-util1 libxcb-xkb1"
# The tests also compare with `openssl speed`, compile the LaTeX tables (pdflatex, booktabs),
# open every HTML export in a headless browser and every CSV and workbook in a spreadsheet
# (no script runs, no name becomes a formula), and profile a job under perf.
[ "$DEV" = 1 ] && DEB_PKGS="$DEB_PKGS openssl texlive-latex-base texlive-latex-recommended \
chromium libreoffice-calc-nogui linux-perf"

DEB_COMPLETE=1
if command -v dpkg-query >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1; then
    missing=""
    for p in $DEB_PKGS; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
            || missing="$missing $p"
    done
    if [ -n "$missing" ]; then
        if [ "$(id -u)" = 0 ]; then SUDO=""; elif sudo -n true 2>/dev/null; then SUDO="sudo";
        else SUDO="none"; fi
        if [ "$SUDO" = none ]; then
            echo "setup: these Debian packages are missing (the window and the GUI tests need" \
                 "them):$missing" >&2
            echo "setup: install them with: sudo apt-get install -y$missing" >&2
            DEB_COMPLETE=0  # no stamp: the next run checks (and says so) again
        else
            say "installing the Debian packages it needs:$missing (20-60 s)..."
            # Another apt (unattended upgrades after boot) may hold the lock: wait for it up to
            # 5 minutes, then say so in one line instead of apt's raw "Could not get lock".
            lock="-o DPkg::Lock::Timeout=300"
            if ! { $SUDO apt-get $lock update -qq \
                && DEBIAN_FRONTEND=noninteractive $SUDO apt-get $lock install -y -qq \
                    --no-install-recommends $missing >/dev/null; }; then
                echo "setup: apt-get could not install:$missing. If another package manager" \
                     "(unattended upgrades, a software centre) was running, wait for it to" \
                     "finish and run this again; otherwise: sudo apt-get install -y$missing" >&2
                exit 1
            fi
        fi
    fi
fi

if ! "$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
    echo "setup: CipherBench needs Python 3.11 or newer; '$PYTHON' is" \
         "$("$PYTHON" --version 2>&1 || echo missing). Set PYTHON=/path/to/python3.11" >&2
    exit 1
fi
FIRST=0
if [ ! -x "$VENV/bin/python" ]; then
    FIRST=1
    say "creating the virtual environment $VENV with $("$PYTHON" --version 2>&1)" \
        "(about 5 s)..."
    "$PYTHON" -m venv "$VENV"
fi
req=requirements.txt
[ "$DEV" = 1 ] && req=requirements-dev.txt
pins="-c constraints.txt"
[ -n "${CIPHERBENCH_UNPINNED:-}" ] && pins=""
# The distributions' names, as requirements*.txt list them (without versions and comments).
names=$(sed -e 's/#.*//' -e 's/[<>=!~;[ ].*//' -e '/^-/d' -e '/^$/d' requirements.txt)
[ "$DEV" = 1 ] && names="$names $(sed -e 's/#.*//' -e 's/[<>=!~;[ ].*//' -e '/^-/d' \
    -e '/^$/d' requirements-dev.txt)"
if [ "$FIRST" = 1 ]; then
    say "installing the Python packages (up to 40 s; pip stays quiet):"
else
    say "checking the Python packages (installing what is missing or outdated):"
fi
# shellcheck disable=SC2086
echo $names | sed 's/ /, /g' | fold -s -w 70 | sed -e 's/ *$//' -e 's/^/setup:   /' >&2
# shellcheck disable=SC2086
"$VENV/bin/python" -m pip install -q --disable-pip-version-check -r "$req" $pins

if [ "$DEB_COMPLETE" = 1 ]; then
    stamp_line runtime >"$STAMP.tmp.$$"
    if [ "$DEV" = 1 ]; then stamp_line dev >>"$STAMP.tmp.$$"; fi
    mv "$STAMP.tmp.$$" "$STAMP"
    say "done in $((SECONDS - START)) s; later starts skip this while nothing changes"
else
    say "done in $((SECONDS - START)) s, but for the Debian packages above"
fi
