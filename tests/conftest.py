"""Test-wide settings: Qt renders offscreen, so the GUI tests need no display; each test gets
its own temporary folder, so a test can check that nothing CipherBench made is left in it, and
its own run history."""

import gc
import os
import subprocess
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from jobs_here import jobs_here
from rounds_here import rounds_here
from transfers_here import transfers_here


def pytest_collection_finish(session: pytest.Session) -> None:
    """Everything imported and collected so far lives as long as the session: frozen out of
    the collector's way, so that the engine's and the window's ``gc.collect()`` (a memory pass,
    the GUI thread's collections) cost here what they cost in a worker, not 55 ms each."""
    gc.freeze()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The tests marked ``long`` (seconds each, on their own) go first, so that two workers end
    together instead of one waiting for the other's last long test. The ``docs`` tier (every
    command of the docs, for real: minutes) runs only when ``-m`` names it (``-m docs``); any
    other selection, ``-m 'not slow'`` too, leaves it out."""
    items.sort(key=lambda item: item.get_closest_marker("long") is None)  # stable: else as found
    if "docs" in (config.getoption("markexpr") or ""):
        return
    docs = [item for item in items if item.get_closest_marker("docs") is not None]
    if docs:
        config.hook.pytest_deselected(items=docs)
        items[:] = [item for item in items if item.get_closest_marker("docs") is None]


os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


@pytest.fixture(autouse=True)
def scratch_tmp(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch, request: pytest.FixtureRequest
) -> Iterator[Path]:
    """The temporary folder CipherBench uses during this test (its scratch root goes there).
    The folder's janitor (a spawned process that deletes it if this one is killed: 0.2 s of
    CPU to start) is left out of this process, where the fixture removes the folder itself,
    except for the tests marked ``real_janitor``; processes a test starts have theirs."""
    from app.core.runtime import scratch

    folder = tmp_path_factory.mktemp("systmp")
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    monkeypatch.setenv("TMPDIR", str(folder))  # and its child processes', as in real life
    monkeypatch.setattr(scratch, "_root", None)
    if request.node.get_closest_marker("real_janitor") is None:
        monkeypatch.setattr(scratch, "_start_janitor", lambda folder: None)
    yield folder
    scratch.remove_root()


@pytest.fixture(autouse=True)
def history_db(tmp_path_factory: pytest.TempPathFactory, monkeypatch) -> Path:
    """The run history this test uses: its own file, so no test writes the user's history."""
    path = tmp_path_factory.mktemp("history") / "history.sqlite3"
    monkeypatch.setenv("CIPHERBENCH_HISTORY", str(path))
    monkeypatch.delenv("CIPHERBENCH_NO_HISTORY", raising=False)
    return path


@pytest.fixture(autouse=True)
def fresh_parser() -> Iterator[None]:
    """The command line's parser is built once a process (app.cli.main.build_parser): once a
    test here, after what the test patched (a command's handler, say)."""
    yield
    import sys

    main = sys.modules.get("app.cli.main")
    if main is not None:
        main.build_parser.cache_clear()


@pytest.fixture(autouse=True)
def no_columns(monkeypatch) -> None:
    """No COLUMNS from the shell that runs the tests: the command line fits its text to it even
    in a pipe, so a test sets the width it is about (tests/cli/test_cli_width.py)."""
    monkeypatch.delenv("COLUMNS", raising=False)


@pytest.fixture
def spawn() -> Iterator[Callable[..., subprocess.Popen[str]]]:
    """``spawn(args, **popen_kwargs)``: a child process this test owns; whatever happens to the
    test, teardown kills any still running and waits for it (a leaked ``Popen`` would fail the
    next test with a ResourceWarning)."""
    started: list[subprocess.Popen[str]] = []

    def start(args: list[str], **kwargs: object) -> subprocess.Popen[str]:
        kwargs.setdefault("text", True)
        proc: subprocess.Popen[str] = subprocess.Popen(args, **kwargs)  # type: ignore[call-overload]
        started.append(proc)
        return proc

    yield start
    for proc in started:
        if proc.poll() is None:
            proc.kill()
        proc.communicate()  # reaps it and closes its pipes


@pytest.fixture
def in_process_transfers() -> Iterator[None]:
    """A transfer's two ends as threads of this process (tests/transfers_here.py)."""
    with transfers_here():
        yield


@pytest.fixture
def in_process_jobs() -> Iterator[None]:
    """Bench and study jobs in this process (tests/jobs_here.py), the window's tests too (a job
    there runs in a pool thread, where its memory pass does not collect garbage)."""
    with jobs_here():
        yield


@pytest.fixture
def in_process_rounds() -> Iterator[None]:
    """A sweep's rounds in this process, a ladder's AES-off step in its worker
    (tests/rounds_here.py)."""
    with rounds_here():
        yield
