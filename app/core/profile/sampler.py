"""One round of a profile, in a fresh worker: the job timed here as the bench times it, and the
same job in a fresh process started by the profiler (py-spy or perf, its parent, so no ptrace
permission is needed), the two in a random order. Only the profiled process's timed calls are
kept (:mod:`.stacks`, :mod:`.perf`); its times against the unprofiled ones give the profiler's
overhead."""

from __future__ import annotations

import os
import pickle
import platform
import re
import secrets
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.core.bench.jobs import Job
from app.core.bench.measure import run_job
from app.core.errors import UserError
from app.core.profile import perf
from app.core.profile.result import ProfileRound
from app.core.profile.stacks import Sampled, parse_raw
from app.core.runtime.termination import die_with_parent

INSTALL = {"py-spy": "pip install py-spy", "perf": perf.INSTALL}
_APP_ROOT = str(Path(__file__).resolve().parents[3])  # the folder holding the app package


@dataclass(frozen=True)
class Profiler:
    name: str  # one of PROFILERS
    path: str  # its program


def no_profiler(name: str) -> str:
    """The round's note when ``name`` is not installed (or, for perf, not on Linux)."""
    if name == "perf" and sys.platform != "linux":
        return "no profiler: perf runs on Linux only; the job was timed without a profile"
    return (
        f"no profiler: {name} is not installed ({INSTALL[name]}); "
        "the job was timed without a profile"
    )


def find_profiler(name: str = "py-spy") -> Profiler | None:
    """``name``'s program: py-spy beside this Python (a virtual environment's scripts) or on
    the PATH; perf on the PATH, on Linux."""
    if name == "perf":
        path = shutil.which("perf") if sys.platform == "linux" else None
        return Profiler(name, path) if path else None
    program = "py-spy.exe" if sys.platform == "win32" else "py-spy"
    here = Path(sys.executable).parent / program
    if here.is_file() and os.access(here, os.X_OK):
        return Profiler(name, str(here))
    path = shutil.which(program)
    return Profiler(name, path) if path else None


def profiler_version(profiler: Profiler) -> str:
    """``"py-spy 0.4.3"``, ``"perf version 6.1.187"``, or the name when it does not say."""
    try:
        done = subprocess.run(
            [profiler.path, "--version"], capture_output=True, text=True, timeout=20, check=False
        )
    except (OSError, subprocess.SubprocessError):
        return profiler.name
    return done.stdout.strip() or profiler.name


def native_supported(profiler: Profiler) -> bool:
    """Whether native frames are sampled here: always by perf; by py-spy on Linux and
    Windows, x86-64."""
    return profiler.name == "perf" or (
        sys.platform in ("linux", "win32") and platform.machine().lower() in ("x86_64", "amd64")
    )


def profile_round(
    payload: tuple[Job, int, Profiler | str, str], progress: Callable[[float], None]
) -> Any:
    """The round function of :mod:`app.core.runtime.rounds`: ``(job, rate, profiler,
    folder)`` -> :class:`ProfileRound` (as a dict, to cross the pipe as plain data). The
    round's files go in a folder of their own inside ``folder``, which the supervisor owns (its
    scratch folder, removed even if the supervisor is killed)."""
    job, rate, profiler, folder = payload  # profiler: the one asked for, or the name not found
    profiled_first = isinstance(profiler, Profiler) and secrets.randbelow(2) == 1
    with tempfile.TemporaryDirectory(prefix="round-", dir=folder) as tmp:
        outcome: dict[str, Any] = {"profiled_first": profiled_first}
        steps = ["profiled", "plain"] if profiled_first else ["plain", "profiled"]
        for i, step in enumerate(steps):
            if step == "plain":
                outcome.update(_plain(job, tmp))
            elif not isinstance(profiler, Profiler):
                outcome["note"] = no_profiler(profiler)
            else:
                outcome.update(_profiled(job, profiler, rate, tmp))
            progress((i + 1) / len(steps))
    return ProfileRound(
        plain_s=outcome["plain_s"],
        profiled_s=outcome.get("profiled_s", ((), ())),
        stacks=outcome.get("stacks", {}),
        untimed=outcome.get("untimed", 0),
        errors=outcome.get("errors", 0),
        native=outcome.get("native", False),
        user_s=outcome["user_s"],
        system_s=outcome["system_s"],
        profiled_first=profiled_first,
        note=outcome.get("note", ""),
    ).to_dict()


def _plain(job: Job, tmp: str) -> dict[str, Any]:
    before = os.times()
    result, _ = run_job(job, work_dir=tmp)
    after = os.times()
    return {
        "plain_s": (result.encrypt.samples_s, result.decrypt.samples_s),
        "user_s": after.user - before.user,
        "system_s": after.system - before.system,
    }


def _profiled(job: Job, profiler: Profiler, rate: int, tmp: str) -> dict[str, Any]:
    folder = Path(tmp)
    job_file, out_file = folder / "job.pickle", folder / "times.pickle"
    data, log = folder / "samples", folder / "profiler.log"
    job_file.write_bytes(pickle.dumps(job))
    native = native_supported(profiler)
    if profiler.name == "perf":
        command = perf.record_command(profiler.path, rate, str(data))
    else:
        command = [profiler.path, "record", "--format", "raw", "--nolineno", "--rate", str(rate)]
        if getattr(sys, "frozen", False):  # a bundle's files by their path in it (app/...),
            command.append("--full-filenames")  # not by their bare names, as rules.py reads them
        command += ["--output", str(data), *(["--native"] if native else []), "--"]
    # A bundle's executable takes the same ``-m`` (app/__main__.py): it has no Python of its own.
    command += [sys.executable, "-m", "app.core.profile.sampled", str(job_file), str(out_file)]
    command += [str(folder), str(os.getpid())]
    said = _call(command, log)
    sampling: dict[str, Any] = {"samples_s": ((), ()), "pid": 0, "spans": []}
    if out_file.is_file():
        status, value = pickle.loads(out_file.read_bytes())
        if status != "done":
            raise UserError((str(value).splitlines() or ["the profiled job failed"])[0])
        sampling = value
    if not data.is_file() or not out_file.is_file():
        last = [line for line in said.splitlines() if line.strip()][-1:] or ["it stopped"]
        note = perf.refused(said) if profiler.name == "perf" else ""
        return {"note": note or f"the profiler could not run: {last[0].removeprefix('Error: ')}"}
    sampled = _read_perf(profiler, data, folder, sampling) if profiler.name == "perf" else None
    if sampled is None:
        with open(data, encoding="utf-8", errors="replace") as fh:
            sampled = parse_raw(fh)
    errors = re.search(r"Errors: (\d+)", said)
    return {
        "profiled_s": sampling["samples_s"],
        "stacks": dict(sampled.timed),
        "untimed": sampled.untimed,
        "errors": int(errors[1]) if errors else 0,
        "native": native,
    }


def _call(
    command: list[str], log: Path, output: Path | None = None, timeout: float | None = None
) -> str:
    """Run ``command`` (killed with this worker, or after ``timeout`` seconds) with its
    messages in ``log`` and its output in ``output`` (or ``log`` too); the messages."""
    path = os.environ.get("PYTHONPATH")
    env = dict(os.environ, PYTHONPATH=_APP_ROOT + (os.pathsep + path if path else ""))
    me = os.getpid()
    with open(log, "wb") as log_fh, open(output or os.devnull, "wb") as out_fh:
        subprocess.call(
            command,
            stdin=subprocess.DEVNULL,
            stdout=out_fh if output else log_fh,
            stderr=log_fh,
            env=env,
            preexec_fn=(lambda: die_with_parent(me)) if sys.platform == "linux" else None,
            timeout=timeout,
        )
    return log.read_text(encoding="utf-8", errors="replace")


def _read_perf(profiler: Profiler, data: Path, folder: Path, sampling: dict[str, Any]) -> Sampled:
    """perf's samples of the sampled process inside its timed calls."""
    script, log = folder / "script.txt", folder / "script.log"
    try:
        said = _call(perf.script_command(profiler.path, str(data)), log, script, timeout=600)
    except subprocess.TimeoutExpired:
        raise UserError(
            "perf script took more than 10 minutes to read the samples; sample less often"
        ) from None
    if not script.stat().st_size:
        last = [line for line in said.splitlines() if line.strip()][-1:] or ["no output"]
        raise UserError(f"perf script could not read the samples: {last[0]}")
    with open(script, encoding="utf-8", errors="replace") as fh:
        return perf.parse_script(fh, sampling["pid"], sampling["spans"])
