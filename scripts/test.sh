#!/usr/bin/env bash
# Sets up (scripts/setup.sh --dev), checks lint, formatting, the import layering and types, and
# runs the whole test suite. Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --dev
export QT_QPA_PLATFORM=offscreen
bin="${VENV:-.venv}/bin"
"$bin/ruff" check .
"$bin/ruff" format --check .
"$bin/lint-imports" --no-cache > /tmp/cipherbench-lint-imports.$$ 2>&1 \
    || { cat /tmp/cipherbench-lint-imports.$$; rm -f /tmp/cipherbench-lint-imports.$$; exit 1; }
grep -E "KEPT|Contracts:" /tmp/cipherbench-lint-imports.$$ || true
rm -f /tmp/cipherbench-lint-imports.$$
"$bin/mypy"
exec "$bin/python" -m pytest "$@"
