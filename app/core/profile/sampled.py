"""``python -m app.core.profile.sampled JOB TIMES FOLDER WORKER``: the process the profiler
starts and samples (``WORKER``: the pid of the worker that started the profiler). It runs the
pickled bench job in ``JOB`` (work files in ``FOLDER``) and writes ``("done", {"samples_s":
(encrypt, decrypt samples), "pid": its pid, "spans": [(direction, start ns, end ns) of each
timed call, on perf_counter_ns]})`` or ``("failed", message)`` to ``TIMES``."""

from __future__ import annotations

import contextlib
import os
import pickle
import sys
import traceback
from pathlib import Path
from typing import Any


def _parent_of(pid: int) -> int | None:
    """``pid``'s parent (Linux: /proc); None where it cannot be read (then no one can tell)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as fh:
            return int(fh.read().rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return None


def main(argv: list[str]) -> int:
    from app.core.runtime.termination import die_with_parent

    job_file, times_file, folder, worker = argv
    profiler = os.getppid()
    die_with_parent(profiler)  # Linux: if the profiler dies from now on, so does this process
    grandparent = _parent_of(profiler) if sys.platform.startswith("linux") else None
    if grandparent is not None and grandparent != int(worker):
        # The profiler died (a cancel, a kill) while this interpreter was starting, and the
        # parent read above is whoever took the orphan in; or the profiler on the PATH is a
        # wrapper that started it through another process. Either way, no job to sample here.
        with contextlib.suppress(OSError):
            said = "the profiler ended, or started the job through another process"
            Path(times_file).write_bytes(pickle.dumps(("failed", said)))
        os._exit(1)
    message: tuple[str, Any]
    try:
        from app.core.bench import workloads
        from app.core.bench.measure import run_job
        from app.core.errors import UserError, VerificationError

        job = pickle.loads(Path(job_file).read_bytes())
        spans: list[tuple[str, int, int]] = []

        def observe(decrypt: bool, start: int, end: int) -> None:
            spans.append(("decrypt" if decrypt else "encrypt", start, end))

        workloads.span_observers.append(observe)
        try:
            result, _ = run_job(job, work_dir=folder)
            samples = (result.encrypt.samples_s, result.decrypt.samples_s)
            message = ("done", {"samples_s": samples, "pid": os.getpid(), "spans": spans})
        except (UserError, VerificationError) as exc:
            message = ("failed", str(exc))
    except BaseException as exc:  # reported to the worker, which fails the round with it
        message = ("failed", f"{type(exc).__name__}: {exc}\n{traceback.format_exc()}")
    Path(times_file).write_bytes(pickle.dumps(message))
    return 0 if message[0] == "done" else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
