#!/usr/bin/env bash
# Test a built CipherBench the way a user runs it (Linux; macOS for the command-line part).
#
#   packaging/smoke_test.sh [APP_DIR]     (default: packaging/dist/cipherbench)
#
# Checks: list; selftest (exit 0); sysinfo (every library version known, from the bundled
# dist-info); bench of aes-256-gcm and bf-cbc on 2 MB, which runs every job in a spawned worker
# process of the frozen executable, to .xlsx and .json (every job present and verified); an
# encrypt/decrypt round trip with --password-env; the window under Xvfb when xvfb-run is
# installed (starts, stays up 8 s, no Python traceback; screenshot with ImageMagick if present).
# Exit status: the number of failed checks.
set -uo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
app_dir="${1:-$here/dist/cipherbench}"
exe="$app_dir/cipherbench"
[[ -x "$exe" ]] || { echo "smoke: no executable at $exe (run packaging/build.sh)" >&2; exit 2; }
tmp="$(mktemp -d)"
failures=0
pass() { echo "PASS  $*"; }
fail() { echo "FAIL  $*"; failures=$((failures + 1)); }
# Run from a neutral directory with a clean environment, as a user would (no checkout on the path).
cd "$tmp"
unset PYTHONPATH PYTHONHOME VIRTUAL_ENV

# The checks read the outputs with the host's python3 (not the app's: it must stand alone).
py() { python3 "$@"; }
elapsed() { local ms=$((($(date +%s%N) - start) / 1000000)); printf '%d.%02d' $((ms / 1000)) $((ms % 1000 / 10)); }

if "$exe" list >"$tmp/list.txt" 2>"$tmp/list.err" && grep -q '^aes-256-gcm' "$tmp/list.txt"; then
    pass "list ($(($(wc -l <"$tmp/list.txt") - 1)) entries)"
else
    fail "list"; cat "$tmp/list.err"
fi

start=$(date +%s%N)
if "$exe" selftest >"$tmp/selftest.txt" 2>&1; then
    pass "selftest exit 0 ($(elapsed) s): $(grep -m1 -E 'entries passed' "$tmp/selftest.txt")"
else
    fail "selftest exit $?"; tail -20 "$tmp/selftest.txt"
fi

cat >"$tmp/check_sysinfo.py" <<'PY'
import json, sys
env = json.load(open(sys.argv[1]))
packages = env["packages"]
print("  " + ", ".join(f"{name} {version}" for name, version in packages.items()))
print("  OpenSSL:", env.get("openssl_version"), "| PyCryptodome AES hardware:",
      env.get("pycryptodome_aes_hw"))
missing = [name for name, version in packages.items() if not version]
sys.exit(1 if missing or not env.get("openssl_version") else 0)
PY
if "$exe" sysinfo --json >"$tmp/sysinfo.json" 2>"$tmp/sysinfo.err" &&
    py "$tmp/check_sysinfo.py" "$tmp/sysinfo.json"; then
    pass "sysinfo: every library version present"
else
    fail "sysinfo"; cat "$tmp/sysinfo.err"
fi

cat >"$tmp/check_bench.py" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))
rows = run["results"]
for r in rows:
    print(f"  {r['cipher']:12} {r['library']:13} verified={r['verified']} "
          f"encrypt {r['encrypt']['throughput_mb_s']:.1f} MB/s, "
          f"decrypt {r['decrypt']['throughput_mb_s']:.1f} MB/s")
for failure in run["failures"]:
    print("  failure:", failure)
sys.exit(0 if len(rows) == 4 and all(r["verified"] for r in rows) and not run["failures"] else 1)
PY
start=$(date +%s%N)
if "$exe" bench --size 2MB --cipher aes-256-gcm --cipher bf-cbc --out "$tmp/x.xlsx" \
    --out "$tmp/x.json" >"$tmp/bench.txt" 2>"$tmp/bench.err" &&
    py "$tmp/check_bench.py" "$tmp/x.json" && [[ -s "$tmp/x.xlsx" ]]; then
    python3 -c 'import sys, openpyxl; print("  xlsx sheets:", ", ".join(openpyxl.load_workbook(sys.argv[1]).sheetnames))' \
        "$tmp/x.xlsx" 2>/dev/null || true  # only when the host's python3 has openpyxl
    pass "bench in spawned workers: 4 jobs verified, x.xlsx $(stat -c %s "$tmp/x.xlsx") bytes ($(elapsed) s)"
else
    fail "bench"; cat "$tmp/bench.txt" "$tmp/bench.err"
fi

head -c 3000000 /dev/urandom >"$tmp/plain.bin"
export CB_SMOKE_PASSWORD="correct horse battery staple"
if "$exe" encrypt "$tmp/plain.bin" -o "$tmp/plain.cbx" --password-env CB_SMOKE_PASSWORD \
    >"$tmp/enc.txt" 2>&1 &&
    "$exe" decrypt "$tmp/plain.cbx" -o "$tmp/plain.out" --password-env CB_SMOKE_PASSWORD \
    >"$tmp/dec.txt" 2>&1 && cmp -s "$tmp/plain.bin" "$tmp/plain.out"; then
    pass "encrypt/decrypt round trip (3 MB, --password-env)"
else
    fail "encrypt/decrypt"; cat "$tmp/enc.txt" "$tmp/dec.txt"
fi
export CB_SMOKE_PASSWORD="wrong"
if "$exe" decrypt "$tmp/plain.cbx" -o "$tmp/wrong.out" --password-env CB_SMOKE_PASSWORD \
    >"$tmp/wrong.txt" 2>&1; then
    fail "decrypt with a wrong password succeeded"
else
    pass "decrypt with a wrong password refused (exit $?): $(head -1 "$tmp/wrong.txt")"
fi
unset CB_SMOKE_PASSWORD

# Screenshot of the virtual display: ImageMagick's `import`, else any Python with PySide6
# (SCREENSHOT_PYTHON=/path/to/venv/bin/python) grabbing the root window from outside.
cat >"$tmp/grab.py" <<'PY'
import sys
from PySide6.QtWidgets import QApplication
app = QApplication(["grab"])
sys.exit(0 if app.primaryScreen().grabWindow(0).save(sys.argv[1]) else 1)
PY
if command -v xvfb-run >/dev/null; then
    xvfb-run -a -s "-screen 0 1600x1000x24" bash -c '
        exe=$1 tmp=$2 shotpy=$3
        XDG_CONFIG_HOME="$tmp/config" "$exe" >"$tmp/gui.log" 2>&1 & pid=$!  # own settings
        sleep 8
        if kill -0 $pid 2>/dev/null; then echo up >"$tmp/gui.state"; else echo died >"$tmp/gui.state"; fi
        command -v xwininfo >/dev/null && xwininfo -root -tree | grep -F "(\"cipherbench\" \"CipherBench\")" >"$tmp/gui.windows"
        if command -v import >/dev/null; then import -window root "$tmp/gui.png" 2>/dev/null
        elif command -v magick >/dev/null; then magick import -window root "$tmp/gui.png" 2>/dev/null
        elif [[ -n "$shotpy" ]]; then "$shotpy" "$tmp/grab.py" "$tmp/gui.png" 2>/dev/null; fi
        kill $pid 2>/dev/null; wait $pid 2>/dev/null; true
    ' _ "$exe" "$tmp" "${SCREENSHOT_PYTHON:-}"
    shot=""
    if [[ -s "$tmp/gui.png" ]] && cp "$tmp/gui.png" "$here/smoke-window.png" 2>/dev/null; then
        shot=", screenshot packaging/smoke-window.png"
    fi
    mapped=""
    [[ -s "$tmp/gui.windows" ]] && mapped=", window mapped: $(head -1 "$tmp/gui.windows" | awk '{print $(NF-1)}')"
    if [[ "$(cat "$tmp/gui.state" 2>/dev/null)" == up ]] && ! grep -q -E 'Traceback|Error' "$tmp/gui.log" &&
        { ! command -v xwininfo >/dev/null || [[ -s "$tmp/gui.windows" ]]; }; then
        pass "window under Xvfb stayed up 8 s, no errors$mapped$shot"
    else
        fail "window: $(cat "$tmp/gui.state" 2>/dev/null)"
    fi
    [[ -s "$tmp/gui.log" ]] && { echo "  window output:"; sed 's/^/    /' "$tmp/gui.log"; }
else
    echo "SKIP  window (xvfb-run not installed)"
fi

echo "app: $app_dir ($(du -sh "$app_dir" | cut -f1)); failures: $failures"
rm -rf "$tmp"
exit "$failures"
