#!/usr/bin/env bash
# Installs what CipherBench needs: on Debian/Ubuntu the Qt system libraries (as root, or with
# passwordless sudo; otherwise it prints the command to run), then a virtual environment in
# .venv with the Python packages. Safe to run again: it installs only what is missing.
# Usage: scripts/setup.sh [--dev]      (--dev adds the test tools)
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON=${PYTHON:-python3}
VENV=${VENV:-.venv}
DEV=0
[ "${1:-}" = "--dev" ] && DEV=1

# Qt needs these even offscreen; the xcb ones are for a real window (PLATFORM.md).
DEB_PKGS="libglib2.0-0 libgl1 libegl1 libfontconfig1 libxkbcommon0 libdbus-1-3 \
libxkbcommon-x11-0 libxcb-cursor0 libxcb-icccm4 libxcb-image0 libxcb-keysyms1 \
libxcb-render-util0 libxcb-render0 libxcb-shape0 libxcb-util1 libxcb-xkb1"
[ "$DEV" = 1 ] && DEB_PKGS="$DEB_PKGS openssl"

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
        else
            echo "setup: installing Debian packages:$missing" >&2
            $SUDO apt-get update -qq
            DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends \
                $missing >/dev/null
        fi
    fi
fi

if ! "$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
    echo "setup: CipherBench needs Python 3.11 or newer; '$PYTHON' is" \
         "$("$PYTHON" --version 2>&1 || echo missing). Set PYTHON=/path/to/python3.11" >&2
    exit 1
fi
if [ ! -x "$VENV/bin/python" ]; then
    echo "setup: creating the virtual environment $VENV" >&2
    "$PYTHON" -m venv "$VENV"
fi
req=requirements.txt
[ "$DEV" = 1 ] && req=requirements-dev.txt
pins="-c constraints.txt"
[ -n "${CIPHERBENCH_UNPINNED:-}" ] && pins=""
# shellcheck disable=SC2086
"$VENV/bin/python" -m pip install -q --disable-pip-version-check -r "$req" $pins
