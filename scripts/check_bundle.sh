#!/usr/bin/env bash
# Builds the PyInstaller one-folder app (packaging/build.sh, with the checkout's .venv as
# scripts/setup.sh makes it) and runs it as a user would, from a folder outside the checkout:
# selftest (exit 0), list, study --list (the presets shipped as resources), a 1 MB bench
# (every job in a spawned worker, a new copy of the frozen executable), a study's figures
# (matplotlib) and a profile (py-spy starting the bundle's executable). CI runs it after the
# tests. DIST_DIR / WORK_DIR move the build (default packaging/dist, packaging/build).
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"
export DIST_DIR="${DIST_DIR:-$root/packaging/dist}" WORK_DIR="${WORK_DIR:-$root/packaging/build}"

bash scripts/setup.sh
bash packaging/build.sh
exe="$DIST_DIR/cipherbench/cipherbench"

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
unset PYTHONPATH PYTHONHOME VIRTUAL_ENV
fail() { echo "check_bundle: FAIL: $*" >&2; exit 1; }

"$exe" --version
"$exe" selftest >selftest.txt 2>&1 || { cat selftest.txt; fail "selftest"; }
grep -m1 -E "entries passed" selftest.txt
"$exe" list >list.txt || fail "list"
grep -q "^aes-256-gcm " list.txt || fail "list has no aes-256-gcm"
echo "list: $(($(wc -l <list.txt) - 1)) entries"
[[ -f "$DIST_DIR/cipherbench/_internal/docs/guide/read-a-claim.md" ]] ||
    fail "the docs (the Help window's pages) are not in the bundle"
[[ -f "$DIST_DIR/cipherbench/_internal/LICENSE" ]] || fail "the licence is not in the bundle"
"$exe" study --list >studies.txt || fail "study --list"
grep -q "^aes-key-sizes .*(Yudiono et al. 2026)$" studies.txt || { cat studies.txt; fail "the study presets are missing"; }
echo "study --list: $(wc -l <studies.txt) presets"
"$exe" bench --size 1MB --cipher aes-256-gcm --repeat 2 --out bench.json >bench.txt 2>&1 ||
    { cat bench.txt; fail "bench"; }
grep -q '"verified": true' bench.json && ! grep -q '"verified": false' bench.json ||
    fail "bench: a job was not verified (bench.json)"
echo "bench in spawned workers: ok"
# The print figures: matplotlib and its SVG and PDF backends are in the bundle.
"$exe" study aes-key-sizes --sizes 1KB --repeat 2 --rounds 1 --time-budget 0 --no-history \
    --quiet --out f.svg --out f.pdf >study.txt 2>&1 || { cat study.txt; fail "study figures"; }
head -c 5 f.pdf | grep -q "^%PDF" && grep -q "aes-256-cbc \[pycryptodome\]" f.svg ||
    fail "study: the figures (f.svg, f.pdf) are not drawn"
echo "study figures (matplotlib): ok"
# A profile: py-spy (the checkout's, as a user's on the PATH) starts the sampled job as the
# bundle's own executable, and finds its timed calls in the frames it names.
if [[ -x "$root/.venv/bin/py-spy" ]]; then
    PATH="$root/.venv/bin:$PATH" "$exe" profile aes-128-ctr --library cryptography --size 64KB \
        --rounds 1 --no-history --quiet --out profile.json >profile.txt 2>&1 ||
        { cat profile.txt; fail "profile"; }
    samples=$("$root/.venv/bin/python" -c 'import json, sys
r = json.load(open(sys.argv[1]))["results"][0]["rounds"][0]
print(sum(r["stacks"].values()) if not r["note"] else "none: " + r["note"])' profile.json)
    case "$samples" in
        "none: the profiler could not run"*) echo "profile: skipped ($samples)" ;;
        none*|0) fail "profile: no sample of the job's timed calls ($samples)" ;;
        *) echo "profile (py-spy on the bundle): $samples samples" ;;
    esac
fi
echo "check_bundle: PASS ($exe, $(du -sh "$DIST_DIR/cipherbench" | cut -f1))"
