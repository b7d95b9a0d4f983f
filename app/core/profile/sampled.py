"""``python -m app.core.profile.sampled JOB TIMES FOLDER``: the process the profiler starts and
samples. It runs the pickled bench job in ``JOB`` (work files in ``FOLDER``) and writes
``("done", {"samples_s": (encrypt, decrypt samples), "pid": its pid, "spans": [(direction,
start ns, end ns) of each timed call, on perf_counter_ns]})`` or ``("failed", message)`` to
``TIMES``."""

from __future__ import annotations

import os
import pickle
import sys
import traceback
from pathlib import Path
from typing import Any


def main(argv: list[str]) -> int:
    from app.core.runtime.termination import die_with_parent

    die_with_parent(os.getppid())  # the profiler: if it dies, so does this process
    job_file, times_file, folder = argv
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
