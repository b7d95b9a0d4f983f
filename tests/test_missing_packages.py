"""`python main.py` with a Python that lacks CipherBench's packages (issue 20: an 11-line
ModuleNotFoundError traceback): one sentence naming the package pip installs and how to start
CipherBench with it, exit code 2.

The Python here has every package, so a folder of packages that fail to import, first on
PYTHONPATH, plays the one that lacks them.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from packaging.requirements import Requirement

from app.core import dependencies
from app.core.dependencies import DISTRIBUTIONS, PROGRAMS, missing_dependency

ROOT = Path(__file__).resolve().parent.parent


def _lacking(folder: Path, *modules: str) -> Path:
    """A folder whose ``modules`` fail to import as a missing one does."""
    for module in modules:
        (folder / module).mkdir(parents=True)
        (folder / module / "__init__.py").write_text(
            f'raise ModuleNotFoundError("No module named {module!r}", name={module!r})\n'
        )
    return folder


def _main(fake: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(fake), "QT_QPA_PLATFORM": "offscreen"}
    return subprocess.run(
        [sys.executable, "main.py", *argv],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.parametrize(
    ("modules", "argv", "package"),
    [
        (("cryptography",), ["list"], "the package cryptography"),
        (("psutil",), ["sysinfo"], "the package psutil"),
        (("PySide6",), [], "the package PySide6-Essentials (module PySide6)"),
        (("numpy",), ["leak", "tag-compare-eq"], "the package numpy"),
        (("numpy",), ["study", "aes-key-sizes"], "the package numpy"),  # before it measures
    ],
)
def test_a_missing_package_is_one_sentence(tmp_path: Path, modules, argv, package) -> None:
    done = _main(_lacking(tmp_path, *modules), *argv)
    assert done.returncode == 2, done.stderr
    assert done.stdout == "" and "Traceback" not in done.stderr
    assert done.stderr.startswith("cipherbench: error: ") and done.stderr.count("\n") == 1
    assert package in done.stderr and "scripts/run.sh" in done.stderr


def test_the_sentence_points_to_the_set_up_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    exc = ModuleNotFoundError("No module named 'Crypto'", name="Crypto")
    monkeypatch.setattr(sys, "prefix", "/usr")  # the system's Python, not .venv's
    monkeypatch.setattr(sys, "executable", "/usr/bin/python3")
    monkeypatch.chdir(ROOT)
    assert missing_dependency(exc) == (
        "this Python (/usr/bin/python3) lacks the package pycryptodome (module Crypto); start "
        "CipherBench with scripts/run.sh, which sets up .venv with every package it needs, or "
        "with .venv/bin/python main.py once it is set up"
    )
    # .venv's own Python lacking one: set it up again.
    monkeypatch.setattr(sys, "prefix", str(ROOT / ".venv"))
    assert "CIPHERBENCH_FORCE_SETUP=1 scripts/run.sh" in (missing_dependency(exc) or "")
    # Installed with pip (no scripts/ beside app/): pip names the package.
    monkeypatch.setattr(dependencies, "_CHECKOUT", ROOT / "nowhere")
    assert (missing_dependency(exc) or "").endswith(
        "install it with: /usr/bin/python3 -m pip install 'pycryptodome'"
    )


def test_a_package_too_old_is_said_so() -> None:
    """The system's cryptography 38 has no argon2: it is there, but too old."""
    exc = ModuleNotFoundError(
        "No module named 'cryptography.hazmat.primitives.kdf.argon2'",
        name="cryptography.hazmat.primitives.kdf.argon2",
    )
    said = missing_dependency(exc) or ""
    assert said.startswith("this Python's cryptography ") and "is too old for CipherBench" in said
    assert "(it has no cryptography.hazmat.primitives.kdf.argon2)" in said


def test_other_errors_are_not_taken_for_a_missing_package() -> None:
    assert missing_dependency(ModuleNotFoundError("x", name="app.core.nothing")) is None
    assert missing_dependency(ImportError("cannot import name 'x' from 'app.cli'")) is None
    assert missing_dependency(ValueError("cryptography")) is None


def test_every_requirement_has_its_modules_named() -> None:
    """DISTRIBUTIONS lists the modules of requirements.txt's distributions, and no others
    (PROGRAMS the distributions of a program alone)."""
    lines = (ROOT / "requirements.txt").read_text().splitlines()
    required = {
        Requirement(line).name for line in lines if line.strip() and not line.startswith("#")
    }
    assert set(DISTRIBUTIONS.values()) | set(PROGRAMS) == required
