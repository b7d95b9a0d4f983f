"""scripts/run.sh on a set-up machine: scripts/setup.sh skips its work while the stamp of the last
complete setup matches, and does it again when anything it installed from changes.

The scripts run for real (bash) in a copy of the checkout's setup files, with a fake virtual
environment whose ``python`` only records how it was called, and PATH stubs for the Debian and
user checks; nothing is installed.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
COPIED = ("scripts/setup.sh", "scripts/run.sh", "requirements.txt", "requirements-dev.txt",
          "constraints.txt", "pyproject.toml")  # fmt: skip
PIP = "-m pip install"

pytestmark = pytest.mark.skipif(
    sys.platform == "win32" or not shutil.which("bash"), reason="the scripts are bash"
)

FAKE_PYTHON = """#!/usr/bin/env bash
echo "python $*" >>"$CALLS"
case "$*" in
    --version) echo "Python 3.11.7" ;;
    "-m venv "*)  # a virtual environment whose python is this one
        mkdir -p "$3/bin" && cp "$0" "$3/bin/python" && echo "version = 3.11.7" >"$3/pyvenv.cfg" ;;
esac
"""
STUBS = {
    # Every Debian package is installed, unless MISSING_DEB is set.
    "dpkg-query": '[ -n "${MISSING_DEB:-}" ] && exit 1; echo "install ok installed"',
    # APT_LOCKED: another apt holds the lock past the wait (apt's exit code 100)
    "apt-get": 'echo "apt-get $*" >>"$CALLS"; [ -z "${APT_LOCKED:-}" ] || exit 100',
    "id": 'echo "${FAKE_UID:-0}"',
    "sudo": "exit 1",  # no passwordless sudo
}


class Checkout:
    """A copy of the setup files with a fake .venv; ``run`` returns the calls it made."""

    def __init__(self, root: Path) -> None:
        self.root = root
        for name in COPIED:
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, root / name)
        venv_bin = root / ".venv" / "bin"
        venv_bin.mkdir(parents=True)
        self._script(venv_bin / "python", FAKE_PYTHON)
        (root / ".venv" / "pyvenv.cfg").write_text("home = /usr/bin\nversion = 3.11.7\n")
        self.stubs = root / "stubs"
        self.stubs.mkdir()
        for name, body in STUBS.items():
            self._script(self.stubs / name, f"#!/usr/bin/env bash\n{body}\n")
        self.calls = root / "calls.log"
        self.stamp = root / ".venv" / ".cipherbench-setup-stamp"

    @staticmethod
    def _script(path: Path, text: str) -> None:
        path.write_text(text)
        path.chmod(0o755)

    def run(self, script: str, *args: str, fails: bool = False, **env: str) -> list[str]:
        self.calls.write_text("")
        environ = {
            key: value
            for key, value in os.environ.items()
            if key not in ("VENV", "CIPHERBENCH_FORCE_SETUP", "CIPHERBENCH_UNPINNED")
        }
        environ.update(
            PATH=f"{self.stubs}{os.pathsep}{os.environ['PATH']}",
            PYTHON=str(self.root / ".venv" / "bin" / "python"),
            CALLS=str(self.calls),
        )
        environ.update(env)
        done = subprocess.run(
            ["bash", str(self.root / script), *args],
            env=environ,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert (done.returncode != 0) == fails, done.stderr
        self.stderr = done.stderr
        return self.calls.read_text().splitlines()

    def edit(self, name: str, extra: str) -> None:
        with open(self.root / name, "a") as f:
            f.write(extra)


@pytest.fixture
def checkout(tmp_path: Path) -> Checkout:
    return Checkout(tmp_path / "checkout")


def _installs(calls: list[str]) -> int:
    return sum(PIP in call for call in calls)


def test_setup_runs_once_then_the_stamp_skips_it(checkout: Checkout) -> None:
    first = checkout.run("scripts/run.sh", "list")
    assert _installs(first) == 1 and first[-1] == "python main.py list"
    assert checkout.stamp.is_file()
    again = checkout.run("scripts/run.sh", "bench", "--size", "1MB")
    assert again == ["python main.py bench --size 1MB"]  # no pip, no Python but the app


def _change(checkout: Checkout, name: str) -> None:
    path = checkout.root / name
    text = path.read_text()
    if name == "pyproject.toml":
        # The [project] table (dependencies are requirements.txt's, read through it).
        path.write_text(
            text.replace('requires-python = ">=3.11"', 'requires-python = ">=3.11.1"', 1)
        )
    elif name == ".venv/pyvenv.cfg":  # the environment's Python was upgraded
        path.write_text(text.replace("3.11.7", "3.11.9"))
    else:
        path.write_text(text + "\n# changed\n")
    assert path.read_text() != text


@pytest.mark.parametrize(
    "changed",
    ["requirements.txt", "constraints.txt", "pyproject.toml", ".venv/pyvenv.cfg",
     "scripts/setup.sh"],
)  # fmt: skip
def test_a_change_to_what_was_installed_from_runs_setup_again(
    checkout: Checkout, changed: str
) -> None:
    checkout.run("scripts/run.sh")
    assert checkout.run("scripts/run.sh") == ["python main.py"]
    _change(checkout, changed)
    assert _installs(checkout.run("scripts/run.sh")) == 1
    assert checkout.run("scripts/run.sh") == ["python main.py"]


def test_dependencies_of_pyproject_are_part_of_the_stamp_and_its_tool_settings_not(
    checkout: Checkout,
) -> None:
    checkout.run("scripts/run.sh")
    checkout.edit("pyproject.toml", '\n[tool.example]\nsetting = "new"\n')  # after [project]
    assert checkout.run("scripts/run.sh") == ["python main.py"]


def test_forced_unpinned_or_missing_venv_runs_setup(checkout: Checkout) -> None:
    checkout.run("scripts/run.sh")
    assert _installs(checkout.run("scripts/run.sh", CIPHERBENCH_FORCE_SETUP="1")) == 1
    assert _installs(checkout.run("scripts/run.sh", CIPHERBENCH_UNPINNED="1")) == 1
    assert _installs(checkout.run("scripts/run.sh")) == 1  # back to pinned
    checkout.stamp.unlink()
    assert _installs(checkout.run("scripts/run.sh")) == 1


def test_a_dev_setup_also_counts_for_run_but_not_the_reverse(checkout: Checkout) -> None:
    checkout.run("scripts/setup.sh")
    dev = checkout.run("scripts/setup.sh", "--dev")
    assert _installs(dev) == 1 and "-r requirements-dev.txt" in dev[-1]
    assert checkout.run("scripts/setup.sh", "--dev") == []
    assert checkout.run("scripts/run.sh") == ["python main.py"]
    checkout.edit("requirements-dev.txt", "\n# changed\n")
    assert _installs(checkout.run("scripts/setup.sh", "--dev")) == 1
    assert checkout.run("scripts/run.sh") == ["python main.py"]  # requirements.txt unchanged


def test_missing_debian_packages_leave_no_stamp(checkout: Checkout) -> None:
    """Not root, no sudo: setup says what to install and checks again on the next start."""
    calls = checkout.run("scripts/run.sh", MISSING_DEB="1", FAKE_UID="1000")
    assert _installs(calls) == 1 and not checkout.stamp.exists()
    assert _installs(checkout.run("scripts/run.sh", MISSING_DEB="1", FAKE_UID="1000")) == 1
    as_root = checkout.run("scripts/run.sh", MISSING_DEB="1")  # installs them with apt-get
    lock = "apt-get -o DPkg::Lock::Timeout=300"  # waits for another apt holding the lock
    assert any(call.startswith(f"{lock} install") for call in as_root)
    assert checkout.stamp.exists()
    assert checkout.run("scripts/run.sh") == ["python main.py"]


def test_another_apt_holding_the_lock_is_said_in_one_line(checkout: Checkout) -> None:
    calls = checkout.run("scripts/setup.sh", MISSING_DEB="1", APT_LOCKED="1", fails=True)
    assert calls == ["apt-get -o DPkg::Lock::Timeout=300 update -qq"]
    (said,) = [line for line in checkout.stderr.splitlines() if line.startswith("setup: apt-get")]
    assert "wait for it to finish and run this again" in said
    assert not checkout.stamp.exists()


def test_a_first_setup_says_what_it_does_and_how_long_and_a_set_up_start_says_nothing(
    checkout: Checkout,
) -> None:
    """The first start took about 40 s with one line of output (issue 20)."""
    python = checkout.root / "system-python"
    shutil.copy2(checkout.root / ".venv" / "bin" / "python", python)
    shutil.rmtree(checkout.root / ".venv")
    calls = checkout.run("scripts/run.sh", PYTHON=str(python))
    assert any(call.startswith("python -m venv") for call in calls) and _installs(calls) == 1
    said = checkout.stderr.splitlines()
    assert said[0] == (
        "setup: setting up CipherBench in .venv (first start: up to a minute, once)..."
    )
    assert said[1] == (
        "setup: creating the virtual environment .venv with Python 3.11.7 (about 5 s)..."
    )
    assert said[2] == "setup: installing the Python packages (up to 40 s; pip stays quiet):"
    listed = " ".join(line.removeprefix("setup:").strip() for line in said[3:-1])
    assert listed.startswith("PySide6-Essentials, pyqtgraph, numpy,") and "pyaes" in listed
    assert all(len(line) <= 80 for line in said)
    assert said[-1].startswith("setup: done in ") and said[-1].endswith(
        " s; later starts skip this while nothing changes"
    )

    assert checkout.run("scripts/run.sh", PYTHON=str(python)) == ["python main.py"]
    assert checkout.stderr == ""  # set up: silent (and no Python but the app's)
    checkout.edit("constraints.txt", "\n# changed\n")
    checkout.run("scripts/run.sh", PYTHON=str(python))
    assert checkout.stderr.startswith("setup: what .venv was set up from changed: checking it")
