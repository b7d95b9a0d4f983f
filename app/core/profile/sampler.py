"""One round of a profile, in a fresh worker: the job timed here as the bench times it, and the
same job in a fresh process started by py-spy (its parent, so no ptrace permission is needed),
the two in a random order. Only the profiled process's timed calls are kept
(:mod:`.stacks`); its times against the unprofiled ones give the profiler's overhead."""

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
from pathlib import Path
from typing import Any

from app.core.bench.jobs import Job
from app.core.bench.measure import run_job
from app.core.errors import UserError
from app.core.profile.result import ProfileRound
from app.core.profile.stacks import parse_raw
from app.core.runtime.termination import die_with_parent

INSTALL = "pip install py-spy"
NO_PROFILER = (
    f"no profiler: py-spy is not installed ({INSTALL}); the job was timed without a profile"
)
_APP_ROOT = str(Path(__file__).resolve().parents[3])  # the folder holding the app package


def find_profiler() -> str | None:
    """py-spy beside this Python (a virtual environment's scripts) or on the PATH."""
    name = "py-spy.exe" if sys.platform == "win32" else "py-spy"
    here = Path(sys.executable).parent / name
    if here.is_file() and os.access(here, os.X_OK):
        return str(here)
    return shutil.which("py-spy")


def profiler_version(path: str) -> str:
    """``"py-spy 0.4.3"``, or ``"py-spy"`` when it does not say."""
    try:
        done = subprocess.run(
            [path, "--version"], capture_output=True, text=True, timeout=20, check=False
        )
    except (OSError, subprocess.SubprocessError):
        return "py-spy"
    return done.stdout.strip() or "py-spy"


def native_supported() -> bool:
    """Whether py-spy unwinds native frames here (Linux and Windows on x86-64)."""
    return sys.platform in ("linux", "win32") and platform.machine().lower() in (
        "x86_64",
        "amd64",
    )


def profile_round(
    payload: tuple[Job, int, str | None, str], progress: Callable[[float], None]
) -> Any:
    """The round function of :mod:`app.core.runtime.rounds`: ``(job, rate, profiler,
    folder)`` -> :class:`ProfileRound` (as a dict, to cross the pipe as plain data). The
    round's files go in a folder of their own inside ``folder``, which the supervisor owns (its
    scratch folder, removed even if the supervisor is killed)."""
    job, rate, profiler, folder = payload
    profiled_first = profiler is not None and secrets.randbelow(2) == 1
    with tempfile.TemporaryDirectory(prefix="round-", dir=folder) as tmp:
        outcome: dict[str, Any] = {"profiled_first": profiled_first}
        steps = ["profiled", "plain"] if profiled_first else ["plain", "profiled"]
        for i, step in enumerate(steps):
            if step == "plain":
                outcome.update(_plain(job, tmp))
            elif profiler is None:
                outcome["note"] = NO_PROFILER
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


def _profiled(job: Job, profiler: str, rate: int, tmp: str) -> dict[str, Any]:
    folder = Path(tmp)
    job_file, out_file = folder / "job.pickle", folder / "times.pickle"
    raw, log = folder / "stacks.txt", folder / "py-spy.log"
    job_file.write_bytes(pickle.dumps(job))
    native = native_supported()
    command = [profiler, "record", "--format", "raw", "--nolineno", "--rate", str(rate)]
    command += ["--output", str(raw), *(["--native"] if native else []), "--"]
    command += [sys.executable, "-m", "app.core.profile.sampled", str(job_file), str(out_file)]
    command.append(str(folder))
    path = os.environ.get("PYTHONPATH")
    env = dict(os.environ, PYTHONPATH=_APP_ROOT + (os.pathsep + path if path else ""))
    me = os.getpid()
    with open(log, "wb") as log_fh:
        code = subprocess.call(
            command,
            stdin=subprocess.DEVNULL,
            stdout=log_fh,
            stderr=subprocess.STDOUT,
            env=env,
            preexec_fn=(lambda: die_with_parent(me)) if sys.platform == "linux" else None,
        )
    said = log.read_text(encoding="utf-8", errors="replace")
    if out_file.is_file():
        status, value = pickle.loads(out_file.read_bytes())
        if status != "done":
            raise UserError((str(value).splitlines() or ["the profiled job failed"])[0])
    else:
        value = ((), ())
    if not raw.is_file():
        last = [line for line in said.splitlines() if line.strip()][-1:] or [f"exit code {code}"]
        return {"note": f"the profiler could not run: {last[0].removeprefix('Error: ')}"}
    with open(raw, encoding="utf-8", errors="replace") as fh:
        sampled = parse_raw(fh)
    errors = re.search(r"Errors: (\d+)", said)
    return {
        "profiled_s": value,
        "stacks": dict(sampled.timed),
        "untimed": sampled.untimed,
        "errors": int(errors[1]) if errors else 0,
        "native": native,
    }
