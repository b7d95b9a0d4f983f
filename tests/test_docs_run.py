"""Every command the docs show, run as written (tier ``docs``: ``pytest -m docs``; CI runs it
after the suite, it takes minutes because the commands measure for real).

Each page gets a folder of its own holding the files its commands name (small ones) and a
history of twelve runs of one small AES-GCM study, so ``history show 12``, ``compare 3 5`` and
``rerun study.json`` find what they ask for. The page's commands then run in the order the page
shows them, through the shell (globs and quotes as a reader's shell reads them) and on a
terminal (a command that asks for a password gets one). Where a page shows alternatives that
write the same file, the file an earlier command wrote is removed first, as a reader trying the
second would. A command passes when it exits 0 without stopping to ask a question and every
file it names as an output (``-o``, ``--out``, a key or definition file) is there and not empty.
"""

from __future__ import annotations

import os
import re
import select
import shlex
import shutil
import signal
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

import pytest
from test_docs import COMMANDS

from app.core.history.store import History
from app.core.study.result import StudyResult
from tests.core.history.history_factories import study_result

pytestmark = pytest.mark.docs

ROOT = Path(__file__).resolve().parents[1]
PASSWORD = b"correct horse battery staple\n"
PROMPT = re.compile(rb"Password( again)?: $")
QUESTION = re.compile(rb"\[y/N\] ?$")  # a docs command that stops to ask is a failure
DEADLINE_S = 900.0

# Files the pages name as inputs, with their sizes (bytes): small, so a study over them is quick.
INPUTS = {
    "notes.txt": 20_000,
    "paper.pdf": 60_000,
    "data.zip": 120_000,
    "report.pdf": 50_000,
    "big.iso": 4_000_000,
    "thesis.pdf": 30_000,
    "data.bin": 10_000,
    "notes/a.txt": 5_000,
    "notes/b.txt": 7_000,
}
# Exports of stored runs that the pages use as files another machine sent.
EXPORTS = {"a.json": 1, "b.json": 2, "study.json": 3, "phone.json": 4, "ws.json": 5}
STORED_RUNS = 12


def _study_result(day: int) -> StudyResult:
    """One run of a small study of AES-128-GCM and AES-256-GCM (cryptography) on 2 and 4 KB."""
    gcm = (("aes-128-gcm", 128, "GCM", 2e-6), ("aes-256-gcm", 256, "GCM", 2.4e-6))
    return study_result(f"2026-11-{day:02d}T10:00:00+00:00", gcm, "cryptography")


def _workspace(folder: Path) -> dict[str, str]:
    """Fill ``folder`` with the pages' inputs and a history; the environment to run in."""
    for name, size in INPUTS.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(os.urandom(size))
    env = dict(os.environ)
    env["CIPHERBENCH_HISTORY"] = str(folder / "history.db")
    env["COLUMNS"] = "80"
    with History.open(env["CIPHERBENCH_HISTORY"]) as history:
        for day in range(1, STORED_RUNS + 1):
            history.record(_study_result(day))
        for name, run_id in EXPORTS.items():
            history.export(run_id, folder / name)
    return env


def _outputs(argv: list[str]) -> list[str]:
    """The files a command names as its outputs."""
    named = ("-o", "--out", "--save-definition", "--new-key-file", "--key-out")
    return [argv[i + 1] for i, a in enumerate(argv[:-1]) if a in named]


def _run_on_a_terminal(command: str, folder: Path, env: dict[str, str]) -> tuple[int, str]:
    """Run ``command`` through the shell with a terminal as its stdin, stdout and stderr,
    answering each password prompt; its exit code and what it printed."""
    master, slave = os.openpty()
    process = subprocess.Popen(
        command,
        shell=True,
        cwd=folder,
        env=env,
        stdin=slave,
        stdout=slave,
        stderr=slave,
        start_new_session=True,
    )
    os.close(slave)
    printed = b""
    deadline = time.monotonic() + DEADLINE_S
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 0.5)
            if ready:
                try:
                    chunk = os.read(master, 65536)
                except OSError:  # the terminal closed: every process on it ended
                    break
                if not chunk:
                    break
                printed += chunk
                if PROMPT.search(printed):
                    printed += b"\n"
                    os.write(master, PASSWORD)
                elif QUESTION.search(printed):
                    printed += b"\n(a question: the docs command stopped to ask)"
                    break
            elif process.poll() is not None:
                break
    finally:
        os.close(master)
        if process.poll() is None:  # asked, or out of time: the whole command, not the shell
            os.killpg(process.pid, signal.SIGKILL)
        code = process.wait(timeout=30)
    return code, printed.decode("utf-8", "replace")


def _pages() -> dict[str, list[str]]:
    """Each page's commands in its order; a command shown word for word on an earlier page
    runs there only (the profile of the README's first screen takes a minute)."""
    by_page: dict[str, list[str]] = defaultdict(list)
    for page, command in COMMANDS:
        by_page[page].append(command)
    seen: set[str] = set()
    for page, commands in by_page.items():
        kept = []
        for i, command in enumerate(commands):
            later = " ".join(commands[i + 1 :])
            needed = any(f" {o}" in later for o in _outputs(shlex.split(command)))
            if command not in seen or needed:
                kept.append(command)
            seen.add(command)
        by_page[page] = kept
    return {page: commands for page, commands in by_page.items() if commands}


PAGES = _pages()


@pytest.mark.parametrize("page", sorted(PAGES))
def test_every_command_of_the_page_runs_as_written(page: str, tmp_path: Path) -> None:
    env = _workspace(tmp_path)
    python = shlex.quote(sys.executable)
    main = shlex.quote(str(ROOT / "main.py"))
    for command in PAGES[page]:
        argv = shlex.split(command)
        for output in _outputs(argv):  # an earlier alternative wrote it: as a reader would
            target = tmp_path / output
            if target.is_dir():
                shutil.rmtree(target)
            elif target.exists() and argv.count(output) == 1:
                target.unlink()
        line = f"{python} {main} " + command.removeprefix("python main.py ")
        # An import is what the other machine does: into the history that exported the run it
        # is refused ("already in the history as run 12"), as it should be.
        there = env | {"CIPHERBENCH_HISTORY": str(tmp_path / "other.db")}
        started = time.monotonic()
        code, printed = _run_on_a_terminal(
            line, tmp_path, there if argv[2:4] == ["history", "import"] else env
        )
        took = time.monotonic() - started
        print(f"{took:6.1f} s  {command}")
        assert code == 0, f"{page}: {command} exited {code}:\n{printed[-3000:]}"
        for output in _outputs(argv):
            made = tmp_path / output
            assert made.exists(), f"{page}: {command} left no {output}"
            assert any(made.iterdir()) if made.is_dir() else made.stat().st_size, output
