#!/usr/bin/env bash
# Build the one-folder CipherBench app with PyInstaller:
#
#   packaging/build.sh            -> packaging/dist/cipherbench/cipherbench
#
# Variables (optional):
#   PYTHON=/path/to/python   the Python whose packages are bundled (default: the checkout's
#                            .venv, as scripts/setup.sh makes it, else python3). It needs
#                            requirements.txt installed; PyInstaller is installed into it
#                            when missing (the version in packaging/requirements-build.txt).
#   DIST_DIR=dir             where the app goes        (default: packaging/dist)
#   WORK_DIR=dir             PyInstaller's build files  (default: packaging/build)
#   CIPHERBENCH_WINDOWED=1   no console window (Windows) / a .app bundle (macOS); see the spec.
#   CIPHERBENCH_ICON=file    executable icon (Windows .ico / macOS .icns; .png with Pillow).
# Both output folders are git-ignored (packaging/.gitignore).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"

if [[ -z "${PYTHON:-}" ]]; then
    if [[ -x "$root/.venv/bin/python" ]]; then
        PYTHON="$root/.venv/bin/python"
    elif [[ -x "$root/.venv/Scripts/python.exe" ]]; then  # Windows (Git Bash / MSYS2)
        PYTHON="$root/.venv/Scripts/python.exe"
    else
        PYTHON="$(command -v python3 || command -v python)"
    fi
fi
DIST_DIR="${DIST_DIR:-$here/dist}"
WORK_DIR="${WORK_DIR:-$here/build}"

"$PYTHON" - <<'PY'
import sys
if sys.version_info < (3, 11):
    sys.exit(f"build: Python 3.11 or newer is needed, this is {sys.version.split()[0]}")
missing = []
for module in ("PySide6", "pyqtgraph", "cryptography", "Crypto", "pyaes", "openpyxl", "psutil"):
    try:
        __import__(module)
    except ImportError:
        missing.append(module)
if missing:
    sys.exit("build: missing in this Python: " + ", ".join(missing)
             + " (pip install -r requirements.txt)")
PY

if ! "$PYTHON" -c "import PyInstaller" 2>/dev/null; then
    echo "build: installing PyInstaller into $PYTHON" >&2
    "$PYTHON" -m pip install -q -r "$here/requirements-build.txt"
fi

echo "build: $("$PYTHON" -m PyInstaller --version 2>/dev/null | sed 's/^/PyInstaller /'), $("$PYTHON" --version)" >&2
start=$(date +%s)
cd "$root"
"$PYTHON" -m PyInstaller --noconfirm --clean \
    --distpath "$DIST_DIR" --workpath "$WORK_DIR" \
    "$here/cipherbench.spec"
end=$(date +%s)

name="${CIPHERBENCH_NAME:-cipherbench}"
app="$DIST_DIR/$name"
echo "build: done in $((end - start)) s: $app ($(du -sh "$app" | cut -f1))" >&2
echo "build: try  $app/$name selftest   or   $here/smoke_test.sh" >&2
