#!/usr/bin/env bash
# `pip install .` into a fresh virtual environment, then the installed commands as a user runs
# them, from a folder outside the checkout:
#   cipherbench --version (also beside a package of the user's named app), selftest (exit 0), study --list (the presets, from the wheel's data),
#   a 1 MB bench, a small study and a profile under py-spy (their workers are spawned and
#   re-import the command's script), the resources found inside the installed package, and
#   cipherbench-gui: under Xvfb its window appears and closes on SIGTERM (xvfb-run and xdotool; installed with apt-get when
#   root on Debian), else offscreen it stays up and exits 143 on SIGTERM with no traceback.
# The wheel is built from a copy of its sources (pyproject.toml, setup.py, README.md, LICENSE,
# requirements.txt, whose dependencies pyproject.toml reads, app/, resources/, docs/), so the checkout
# gets no build/ or *.egg-info and no stale build/lib file can slip into it. The dependencies are the versions of constraints.txt (from pip's cache or the
# configured indexes). PYTHON=/path/to/python3.11 picks the interpreter (default python3).
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"
PYTHON="${PYTHON:-python3}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
fail() { echo "check_install: FAIL: $*" >&2; exit 1; }
seconds() { echo $(( $(date +%s) - $1 )); }

start=$(date +%s)
mkdir "$tmp/src" "$tmp/work" "$tmp/config"
cp -r pyproject.toml setup.py README.md LICENSE requirements.txt app resources docs "$tmp/src/"
find "$tmp/src" -name __pycache__ -prune -exec rm -rf {} +
"$PYTHON" -m venv "$tmp/venv"
"$tmp/venv/bin/python" -m pip install -q --disable-pip-version-check "$tmp/src" \
    -c "$root/constraints.txt"
bin="$tmp/venv/bin"
echo "check_install: pip install . into a fresh venv: $(seconds "$start") s," \
     "$(du -sh "$tmp/venv" | cut -f1)"
[[ -x "$bin/cipherbench" ]] || fail "no cipherbench command"
[[ -x "$bin/cipherbench-gui" ]] || fail "no cipherbench-gui launcher"

cd "$tmp/work"
unset PYTHONPATH PYTHONHOME VIRTUAL_ENV
export XDG_CONFIG_HOME="$tmp/config"  # the window's settings: not the user's

"$bin/cipherbench" --version
# Installed as `cipherbench`, not `app`: a folder of the user's own named app, first on the path,
# changes nothing (a bench below also spawns workers from here).
mkdir app && echo 'raise SystemExit("the user'"'"'s own app package ran")' >app/__init__.py
export PYTHONPATH="$tmp/work"
"$bin/cipherbench" --version | grep -q "^CipherBench " || fail "another app package shadowed it"
"$bin/cipherbench" selftest >selftest.txt 2>&1 || { cat selftest.txt; fail "selftest"; }
grep -m1 -E "entries passed" selftest.txt
"$bin/cipherbench" study --list >studies.txt || fail "study --list"
grep -q "^aes-key-sizes .*(Yudiono et al. 2026)$" studies.txt || { cat studies.txt; fail "the study presets are missing"; }
echo "study --list: $(wc -l <studies.txt) presets"
where="$("$bin/python" -c 'from cipherbench.core.resources import resource_path; print(resource_path())')"
[[ "$where" == "$tmp/venv/"* ]] || fail "resources found at $where, not in the installed package"
[[ -f "$where/icon.png" && -f "$where/icon.svg" ]] || fail "no icons in $where"
echo "resources: $where"
docs="$("$bin/python" -c 'from cipherbench.core.resources import docs_path; print(docs_path())')"
[[ -f "$docs/README.md" && -f "$docs/guide/read-a-claim.md" ]] || fail "no docs in $docs (Help)"
echo "docs (the Help window's pages): $docs"
"$bin/cipherbench" bench --size 1MB --cipher aes-256-gcm --repeat 2 --out bench.json \
    >bench.txt 2>&1 || { cat bench.txt; fail "bench"; }
grep -q '"verified": true' bench.json && ! grep -q '"verified": false' bench.json ||
    fail "bench: a job was not verified (bench.json)"
echo "bench in spawned workers: ok"
"$bin/cipherbench" study aes-key-sizes --sizes 100KB --repeat 2 --out study.json \
    >study.txt 2>&1 || { cat study.txt; fail "study"; }
echo "study aes-key-sizes --sizes 100KB: ok"
# The profile: py-spy from the wheel's dependencies, the sampled job started from the package.
"$bin/cipherbench" profile aes-128-ctr --library cryptography --size 256KB --rounds 1 \
    --rate 99 --out profile.svg >profile.txt 2>&1 || { cat profile.txt; fail "profile"; }
grep -q "native cipher code" profile.txt || { cat profile.txt; fail "profile: no native samples"; }
grep -q "aesni\|aes_gcm\|ctr32" profile.svg || fail "profile.svg: no OpenSSL frame"
echo "profile under py-spy: ok"

# The launcher: a real window under Xvfb when possible.
if ! { command -v xvfb-run && command -v xdotool && command -v xauth; } >/dev/null &&
    [[ "$(id -u)" == 0 ]] && command -v apt-get >/dev/null; then
    echo "check_install: installing xvfb xauth xdotool" >&2
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
        --no-install-recommends xvfb xauth xdotool >/dev/null || true
fi
unset QT_QPA_PLATFORM
if { command -v xvfb-run && command -v xdotool && command -v xauth; } >/dev/null; then
    timeout 120 xvfb-run -a -s "-screen 0 1366x768x24 -noreset" bash -c '
        "$1" >gui.log 2>&1 & pid=$!
        window=$(timeout 60 xdotool search --sync --onlyvisible --name "^CipherBench" | head -1)
        kill -TERM "$pid" 2>/dev/null; wait "$pid"; code=$?
        echo "window $window, exit $code" >gui.state
    ' _ "$bin/cipherbench-gui" || true
    grep -qE "^window [0-9]+, exit 143$" gui.state 2>/dev/null ||
        { cat gui.state gui.log 2>/dev/null; fail "cipherbench-gui: no window under Xvfb"; }
    ! grep -qE "Traceback|Error" gui.log || { cat gui.log; fail "cipherbench-gui printed an error"; }
    echo "cipherbench-gui: window shown under Xvfb, closed in order on SIGTERM"
else
    code=0
    QT_QPA_PLATFORM=offscreen timeout --preserve-status 15 "$bin/cipherbench-gui" >gui.log 2>&1 ||
        code=$?
    [[ "$code" == 143 ]] && ! grep -qE "Traceback|Error" gui.log ||
        { cat gui.log; fail "cipherbench-gui offscreen: exit $code"; }
    echo "cipherbench-gui: up offscreen for 15 s, exit 143 on SIGTERM (no Xvfb for a window check)"
fi
echo "check_install: PASS ($(seconds "$start") s)"
