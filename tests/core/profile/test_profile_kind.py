"""The profile kind: its row gives it every format and its own files, the history keeps it,
its command profiles real jobs in fresh workers, and a missing profiler or a cancel leaves a
result or nothing behind."""

from __future__ import annotations

import json
import os
import sys
import threading
import time
import xml.etree.ElementTree as ET
from dataclasses import replace
from pathlib import Path

import psutil
import pytest
from leftovers import outlived

from app.cli.main import main
from app.core.bench.inputs import inspect_file
from app.core.bench.jobs import BenchOptions, Job
from app.core.kinds import formats, table
from app.core.profile import run as profile_run
from app.core.profile.definition import DEFINITION
from app.core.profile.document import profile_document
from app.core.profile.exports import collapsed_text, speedscope
from app.core.profile.flame import flame_svg
from app.core.profile.result import ProfileEntry, ProfileResult, ProfileRound
from app.core.profile.sampler import no_profiler
from app.core.runtime.events import Finished
from tests.core.history.history_factories import stored_and_shown

HARNESS_FRAME = "MessageCipher.final (app/core/ciphers/message.py)"
RUST = "cryptography/hazmat/bindings/_rust.abi3.so"
HOSTILE = 'evil<script>alert("x")</script> & =cmd|x (ab) (pyaes/aes.py)'


def a_round(pyaes: int, native: int, slow: float = 1.1) -> ProfileRound:
    return ProfileRound(
        plain_s=((0.010, 0.011), (0.010, 0.011)),
        profiled_s=((0.010 * slow, 0.011 * slow), (0.010 * slow, 0.011 * slow)),
        stacks={
            f"encrypt;{HARNESS_FRAME};AES.encrypt (pyaes/aes.py)": pyaes,
            f"decrypt;{HOSTILE}": 1,
            f"decrypt;x (y.py);aesni_ctr32_encrypt_blocks ({RUST})": native,
            "encrypt": 1,
        },
        untimed=40,
        native=True,
        user_s=1.0,
        system_s=0.01,
    )  # fmt: skip


def made(rounds: int = 6) -> ProfileResult:
    entry = ProfileEntry(
        "aes-128-ctr",
        "pyaes",
        128,
        "random 23.00 KB",
        23_000,
        tuple(a_round(90 + r, 8) for r in range(rounds)),
    )
    return ProfileResult(
        results=(entry,), failures=(), rounds=rounds, rate=199, profiler="py-spy 0.4.3",
        environment={}, started_at="2026-11-28T15:00:00+00:00",
        finished_at="2026-11-28T15:01:00+00:00",
    )  # fmt: skip


def test_its_row_gives_it_every_renderer_and_its_own_files(tmp_path: Path) -> None:
    result = made()
    kind = table.kind_of(result)
    assert kind.name == "profile" and kind.stored and kind.defined() is DEFINITION
    suffixes = set(kind.files.suffixes)
    assert {".svg", ".txt", ".speedscope.json", ".json", ".html", ".csv", ".md", ".tex"} <= suffixes
    interpreted = profile_document(result).tables[0].rows[0][3].text()  # type: ignore[union-attr]
    for suffix in kind.files.suffixes:
        path = tmp_path / f"p{suffix}"
        formats.save(result, path)
        if suffix == ".xlsx":
            continue  # the workbook: tests/core/test_one_number.py and the renderer's tests
        text = path.read_text(encoding="utf-8")
        if suffix in (".html", ".md", ".tex", ".adoc"):
            assert interpreted in text, suffix  # one number, the same in every format
        markup = suffix in (".html", ".svg", ".md")  # where a tag would be read as one
        assert "<script>alert" not in text or not markup, suffix
    assert (
        json.loads((tmp_path / "p.speedscope.json").read_text())["profiles"][0]["type"] == "sampled"
    )
    assert "format" in json.loads(
        (tmp_path / "p.json").read_text()
    )  # the stored one, not speedscope
    # ".speedscope.json" is told apart from ".json" by the longest suffix
    assert (
        formats.check_output(kind.files, tmp_path / "x.SPEEDSCOPE.json").suffix
        == ".speedscope.json"
    )


def test_the_document_gives_shares_with_intervals_over_rounds() -> None:
    doc = profile_document(made())
    groups, classes, frames, cost = doc.tables
    (row,) = groups.rows
    interpreted, compiled = row[3], row[4]
    assert interpreted.rounds == 6 and interpreted.interval is not None  # type: ignore[union-attr]
    assert 89 < interpreted.median < 93 and abs(interpreted.median + compiled.median - 100) < 1e-9  # type: ignore[union-attr]
    assert [r[2] for r in classes.rows][:2] == ["cipher's Python code", "native cipher code"]
    assert frames.rows[0][0] == "AES.encrypt (aes.py)"
    assert any(r[0] == "the timed loop itself (harness)" for r in frames.rows)
    assert cost.rows[0][4].text().startswith("1.10")  # type: ignore[union-attr]
    assert "[n/a]" in profile_document(made(rounds=2)).tables[0].rows[0][3].text()  # type: ignore[union-attr]


def test_a_job_the_profiler_slowed_much_is_said_to_be_in_doubt() -> None:
    assert not any("slowed" in n for n in profile_document(made()).tables[0].notes)  # 1.1x
    entry = made().results[0]
    slow = tuple(a_round(90, 8, slow=3.0) for _ in range(6))
    result = replace(made(), results=(replace(entry, rounds=slow),))
    (said,) = [n for n in profile_document(result).tables[0].notes if "slowed" in n]
    assert said.startswith("The profiler slowed aes-128-ctr [pyaes] 3.00x") and "perf" in said


def test_the_flame_graph_is_one_well_formed_svg_with_zoom_and_search() -> None:
    svg = flame_svg(made())
    root = ET.fromstring(svg)  # well formed, the hostile name escaped
    titles = [t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}title")]
    assert any(t.startswith(HOSTILE) for t in titles)
    assert "function zoom" in svg and "function search" in svg
    assert any(t.startswith("AES.encrypt (pyaes/aes.py) (5") for t in titles)  # summed rounds
    assert collapsed_text(made()).splitlines()[0].startswith("aes-128-ctr [pyaes];decrypt;")
    profile = speedscope(made())
    assert profile["profiles"][0]["endValue"] == sum(made().results[0].stacks().values())  # type: ignore[index]


def test_the_history_stores_and_shows_it(capsys: pytest.CaptureFixture[str]) -> None:
    assert "cipher's Python code" in stored_and_shown(made(), capsys)


def _values(**given: object) -> dict[str, object]:
    return DEFINITION.values(
        {k: (list(v) if isinstance(v, tuple) else v) for k, v in given.items()}
    )


def test_without_a_profiler_the_job_is_still_timed_and_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(profile_run, "find_profiler", lambda name: None)
    values = _values(
        cipher=("aes-128-ctr",), library=("cryptography",), size="64KB", rounds="1", rate="2000"
    )
    *_, finished = profile_run.run(values, threading.Event())
    assert isinstance(finished, Finished)
    (entry,) = finished.result.results
    (only,) = entry.rounds
    assert only.note == no_profiler("py-spy") and not only.stacks and all(only.plain_s)
    document = profile_document(finished.result)
    assert "pip install py-spy" in " ".join(document.tables[0].notes)


def test_its_command_profiles_a_real_job(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "p.json"
    code = main(
        ["profile", "aes-128-ctr", "--library", "cryptography", "--size", "256KB", "--rounds",
         "1", "--rate", "1000", "--quiet", "--no-history", "--out", str(out)]
    )  # fmt: skip
    assert code == 0
    (entry,) = json.loads(out.read_text())["results"]
    (only,) = entry["rounds"]
    if only["note"].startswith("the profiler could not run"):
        pytest.skip(only["note"])  # a machine that forbids ptrace even of a child
    assert sum(only["stacks"].values()) >= 20 and only["native"]
    assert "native cipher code" in capsys.readouterr().out


def _is_spy(process: psutil.Process) -> bool:
    """Whether ``process`` is py-spy (a child that has just ended, a zombie, is not)."""
    try:
        return "py-spy" in " ".join(process.cmdline()[:1])
    except psutil.Error:
        return False


@pytest.mark.long
def test_a_cancel_stops_the_profiler_and_its_job(tmp_path: Path) -> None:
    # the highest rate: each timed call as short as allowed, so py-spy starts soon whichever
    # of the round's two halves comes first
    values = _values(
        cipher=("aes-128-ctr",), library=("pyaes",), size="1KB", rounds="3", rate="2000"
    )
    cancel = threading.Event()
    seen: list[psutil.Process] = []

    def watch() -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not cancel.is_set():
            try:  # a child may end while the tree is read: read it again
                spies = [p for p in psutil.Process().children(recursive=True) if _is_spy(p)]
                if spies:
                    seen.extend([*spies, *spies[0].children(recursive=True)])
                    cancel.set()
                    return
            except psutil.Error:
                pass
            time.sleep(0.05)

    watcher = threading.Thread(target=watch)
    watcher.start()
    *_, finished = profile_run.run(values, cancel)
    watcher.join()
    if not seen:
        pytest.skip("no py-spy process was seen (no profiler here)")
    assert isinstance(finished, Finished) and finished.result.cancelled
    alive = outlived(seen, 10)
    assert not alive, alive


@pytest.mark.long
def test_a_profile_killed_with_sigkill_leaves_no_process_and_no_folder(tmp_path: Path) -> None:
    import os
    import signal
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[3]
    env = dict(os.environ, TMPDIR=str(tmp_path), CIPHERBENCH_NO_HISTORY="1")
    command = [sys.executable, str(root / "main.py"), "profile", "aes-128-ctr", "--library",
               "pyaes", "--size", "1KB", "--rounds", "3", "--rate", "2000", "--quiet"]  # fmt: skip
    proc = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        spies: list[psutil.Process] = []
        while time.monotonic() < deadline and not spies and proc.poll() is None:
            family = psutil.Process(proc.pid).children(recursive=True)
            spies = [p for p in family if p.name() == "py-spy"]
            time.sleep(0.05)
        if not spies:
            pytest.skip("no py-spy process was seen (no profiler here)")
        family = [*psutil.Process(proc.pid).children(recursive=True)]
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.wait(10)
    alive = outlived(family, 10)
    assert not alive, alive
    deadline = time.monotonic() + 10
    while any(tmp_path.glob("cipherbench-*")) and time.monotonic() < deadline:
        time.sleep(0.1)  # the janitor's grace
    assert not list(tmp_path.glob("cipherbench-*"))


def test_every_kinds_defaults_are_values_as_if_typed() -> None:
    """A default written as text ("1MB") reaches the run parsed: ``profile`` without --size
    ended in an internal error (a str compared with an int)."""
    assert DEFINITION.values({})["size"] == 1_000_000
    for kind in table.defined_kinds():
        definition = kind.defined()
        assert definition is not None
        for option in definition.options:
            value = option.value(None)
            typed = [option.default] if option.many else option.default
            if isinstance(option.default, str) and option.default:
                assert value == option.value(typed), (kind.name, option.name)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc and PR_SET_PDEATHSIG")
def test_a_job_whose_profiler_died_while_it_started_ends_at_once(tmp_path: Path) -> None:
    """An orphan would run its whole job unsampled (minutes of pyaes on a large file): the
    sampled process checks that its parent is still the worker's profiler."""
    import pickle
    import subprocess

    job, times = tmp_path / "job.pickle", tmp_path / "times.pickle"
    job.write_bytes(pickle.dumps(_tiny_job(tmp_path)))
    # Its parent is this test, which no process -1 started: as if the profiler had died and
    # another process taken the orphan in. A real job, which it must not run.
    done = subprocess.run(
        [sys.executable, "-m", "app.core.profile.sampled", str(job), str(times), str(tmp_path),
         "-1"], cwd=Path(__file__).resolve().parents[3], timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 1
    assert pickle.loads(times.read_bytes()) == (
        "failed",
        "the profiler ended, or started the job through another process",
    )  # the worker's round fails with it, where a wrapper started the job
    times.unlink()
    done = subprocess.run(  # and the same job, its parent the "worker" it names, runs
        [sys.executable, "-m", "app.core.profile.sampled", str(job), str(times), str(tmp_path),
         str(os.getppid())], cwd=Path(__file__).resolve().parents[3], timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 0 and pickle.loads(times.read_bytes())[0] == "done"


def _tiny_job(folder: Path) -> Job:
    """A bench job on 4 KB, timed for 1 ms a direction, no memory pass."""
    plain = folder / "plain.bin"
    plain.write_bytes(bytes(4096))
    options = BenchOptions(
        repeat=1, warmup=0, measure_memory=False, memory_workload="", min_time_s=0.001
    )
    return Job("aes-128-ctr", "cryptography", 128, inspect_file(plain), options)


def test_a_bundle_starts_the_profiled_job_as_itself_and_asks_for_whole_file_names(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A PyInstaller bundle has no ``python -m``: its executable takes the sampled module's
    arguments itself; and py-spy names its files bare (``aes.py``) unless told otherwise."""
    import app.__main__ as entry
    from app.core.profile import sampled, sampler

    monkeypatch.setattr(sys, "frozen", True, raising=False)
    started: list[list[str]] = []
    monkeypatch.setattr(sampled, "main", lambda argv: started.append(argv) or 0)
    assert entry.main(["-m", "app.core.profile.sampled", "j", "t", "f", "7"]) == 0
    assert started == [["j", "t", "f", "7"]]

    commands: list[list[str]] = []
    monkeypatch.setattr(sampler, "_call", lambda command, *_a, **_k: commands.append(command) or "")
    said = sampler._profiled(_tiny_job(tmp_path), sampler.Profiler("py-spy", "py-spy"), 99,
                             str(tmp_path))  # fmt: skip
    assert said["note"].startswith("the profiler could not run")  # nothing was run
    (command,) = commands
    job_part = command[command.index("--") + 1 :]
    assert "--full-filenames" in command[: command.index("--")]
    assert job_part[:3] == [sys.executable, "-m", "app.core.profile.sampled"]
    assert job_part[-1] == str(os.getpid())  # the worker: this process here
