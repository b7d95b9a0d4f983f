#!/usr/bin/env bash
# Sets up (scripts/setup.sh --dev) and runs the whole test suite. Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --dev
export QT_QPA_PLATFORM=offscreen
exec "${VENV:-.venv}/bin/python" -m pytest "$@"
