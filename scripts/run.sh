#!/usr/bin/env bash
# Sets up (scripts/setup.sh) and starts CipherBench: the window with no arguments, otherwise the
# command line (e.g. scripts/run.sh bench --size 10MB --cipher aes-256-gcm). On a set-up machine
# setup.sh only compares its stamp (a few milliseconds, no Python), so the window opens at once;
# CIPHERBENCH_FORCE_SETUP=1 makes it check everything again.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec "${VENV:-.venv}/bin/python" main.py "$@"
