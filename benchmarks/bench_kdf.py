"""What does the password derivation cost a reader, and how fast does it stop? Figures for issue 7.

    python benchmarks/bench_kdf.py [--repeat 5] [--slow-passes 64]

1. Argon2id with the default parameters (what this version writes), in this process as
   ``decrypt_file`` runs it: median, min and max over ``--repeat`` runs (one warm-up discarded),
   beside the estimate the reader's policy scales from.
2. Time to refuse a hostile header asking for the format's maximum, 1 GiB x 64 passes: from
   calling ``decrypt_file`` to its ``ExpensiveKdf`` (nothing derived, nothing written).
3. An allowed expensive derivation (64 MiB x ``--slow-passes``, in a child process), cancelled
   after 0.5 s: from setting the cancel flag to ``decrypt_file`` raising ``Cancelled`` with the
   child reaped, and whether the child is still there afterwards. Also the cost of the child
   itself: the same derivation run to the end in-process and in the child, at a cost just above
   the isolation threshold.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import psutil

from app.core.ciphers.registry import lookup
from app.core.errors import Cancelled
from app.core.files import container_format, container_keys
from app.core.files.container import Argon2Params, ExpensiveKdf, decrypt_file, kdf_cost

HOSTILE = Argon2Params(memory_kib=2**20, iterations=64, lanes=4)


def _crafted(path: Path, argon2: Argon2Params) -> Path:
    """A well-formed password file with ``argon2``'s cost and a random MAC (never opens)."""
    spec = lookup("aes-256-gcm", "cryptography")
    signed = container_format.encode_header(spec, 64, argon2, os.urandom(16), os.urandom(32))
    path.write_bytes(signed + os.urandom(32) + os.urandom(1 + spec.tag_bytes))
    return path


def _default_kdf(repeat: int) -> None:
    params = container_keys.DEFAULT_ARGON2
    salt = os.urandom(16)
    container_keys.derive_master(b"correct horse", salt, params)  # warm-up, discarded
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter_ns()
        container_keys.derive_master(b"correct horse", salt, params)
        times.append((time.perf_counter_ns() - t0) / 1e9)
    print(
        f"default Argon2id ({params.memory_kib // 1024} MiB x {params.iterations} passes x "
        f"{params.lanes} lanes, in-process): median {statistics.median(times):.3f} s, "
        f"min {min(times):.3f} s, max {max(times):.3f} s over {repeat} runs "
        f"(the policy's estimate: {kdf_cost(params).seconds:.2f} s)"
    )


def _refusal(folder: Path) -> None:
    src = _crafted(folder / "hostile.cbf", HOSTILE)
    t0 = time.perf_counter_ns()
    try:
        decrypt_file(src, folder / "out", password="anything")
    except ExpensiveKdf as exc:
        seconds = (time.perf_counter_ns() - t0) / 1e9
        print(f"hostile 1 GiB x 64 passes header: refused in {seconds * 1e3:.2f} ms ({exc})")
    else:
        raise AssertionError("the hostile header was accepted")
    assert not (folder / "out").exists()


def _cancel(folder: Path, passes: int) -> None:
    params = Argon2Params(memory_kib=64 * 1024, iterations=passes, lanes=1)
    src = _crafted(folder / "slow.cbf", params)
    pids: list[int] = []
    real_start = container_keys._start_deaf_to_ctrl_c

    def start(proc: Any) -> None:
        real_start(proc)
        pids.append(proc.pid)

    container_keys._start_deaf_to_ctrl_c = start
    cancel = threading.Event()
    set_at: list[int] = []

    def press_cancel() -> None:
        set_at.append(time.perf_counter_ns())
        cancel.set()

    timer = threading.Timer(0.5, press_cancel)
    timer.start()
    try:
        decrypt_file(src, folder / "out", password="pw", allow_expensive_kdf=True, cancel=cancel)
    except Cancelled:
        stopped = (time.perf_counter_ns() - set_at[0]) / 1e9
    finally:
        container_keys._start_deaf_to_ctrl_c = real_start
        timer.join()
    left = [pid for pid in pids if psutil.pid_exists(pid)]
    print(
        f"allowed expensive derivation (64 MiB x {passes} passes, {kdf_cost(params).describe()}),"
        f" cancelled after 0.5 s: cancel to child gone {stopped * 1e3:.1f} ms; "
        f"children left: {len(left)}; output written: {(folder / 'out').exists()}"
    )


def _child_overhead() -> None:
    threshold = container_keys.ISOLATE_ABOVE_SECONDS
    reference = container_keys.DEFAULT_ARGON2
    passes = int(threshold / kdf_cost(reference).seconds * reference.iterations) + 1
    params = Argon2Params(reference.memory_kib, passes, reference.lanes)
    salt = os.urandom(16)
    t0 = time.perf_counter_ns()
    here = container_keys.argon2_master(b"pw", salt, params)
    t1 = time.perf_counter_ns()
    there = container_keys.derive_master(b"pw", salt, params)  # above the threshold: a child
    t2 = time.perf_counter_ns()
    assert here == there
    print(
        f"just above the isolation threshold ({reference.memory_kib // 1024} MiB x {passes} "
        f"passes): in-process {(t1 - t0) / 1e9:.3f} s, in a child {(t2 - t1) / 1e9:.3f} s"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--slow-passes", type=int, default=64)
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()}")
    _default_kdf(args.repeat)
    with tempfile.TemporaryDirectory(prefix="cipherbench-bench-kdf-") as name:
        folder = Path(name)
        _refusal(folder)
        _cancel(folder, args.slow_passes)
    _child_overhead()
    print(f"load average after: {os.getloadavg()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
