"""Both ends' CPU and memory every 50 ms during a transfer, as the loopback study's paper
sampled them (psutil, 50 ms). The supervisor reads the two processes from outside (their CPU
times and resident memory, from the kernel), so the ends do nothing extra while they work.

A point's CPU % is the process's CPU time (user and system, every thread) over the wall time
since the previous point, x 100 (100 = one core busy; the receiver's reader and opener threads
can take it above 100); its memory is the resident set at that moment. Beside them, what every
other process took of the machine's CPUs over the same span (the kernel's busy time of all
CPUs less the two ends', in % of one core): a busy machine said, as the bench says it.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from types import TracebackType

import psutil

INTERVAL_S = 0.05  # the paper's
ROLES = ("sender", "receiver")
# The kernel's CPU times that are no process's work here: waiting, the hypervisor's (steal), and
# a guest's (already inside user time on Linux).
NOT_BUSY = frozenset({"idle", "iowait", "steal", "guest", "guest_nice"})


@dataclass(frozen=True)
class LoadPoint:
    seconds: float  # since the run's start
    sender_cpu_percent: float
    sender_rss_bytes: int
    receiver_cpu_percent: float
    receiver_rss_bytes: int
    others_cpu_percent: float = 0.0  # every other process (this supervisor's polling too)

    def to_list(self) -> list[float | int]:
        return [
            self.seconds,
            self.sender_cpu_percent,
            self.sender_rss_bytes,
            self.receiver_cpu_percent,
            self.receiver_rss_bytes,
            self.others_cpu_percent,
        ]

    @classmethod
    def from_list(cls, data: list[float | int]) -> LoadPoint:
        t, s_cpu, s_rss, r_cpu, r_rss, *others = data
        return cls(float(t), float(s_cpu), int(s_rss), float(r_cpu), int(r_rss), float(sum(others)))


class LoadSampler:
    """``with LoadSampler({"sender": pid, "receiver": pid}) as sampler:`` samples both every
    :data:`INTERVAL_S` in a thread of its own until the block ends; ``sampler.points`` then
    holds the series (a process that ended stops being read; the series stops with it)."""

    def __init__(self, pids: Mapping[str, int], interval_s: float = INTERVAL_S) -> None:
        self.interval_s = interval_s
        self.processes = {role: psutil.Process(pids[role]) for role in ROLES}
        self.points: list[LoadPoint] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="transfer-load", daemon=True)

    def __enter__(self) -> LoadSampler:
        self._thread.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self._stop.set()
        self._thread.join()

    def _read(self) -> dict[str, tuple[float, int]] | None:
        try:
            out = {}
            for role, process in self.processes.items():
                with process.oneshot():
                    times = process.cpu_times()
                    out[role] = (times.user + times.system, process.memory_info().rss)
            every = psutil.cpu_times()._asdict()
            out["machine"] = (sum(v for k, v in every.items() if k not in NOT_BUSY), 0)
            return out
        except (psutil.Error, OSError):
            return None

    def _run(self) -> None:
        start = time.monotonic()
        last, last_at = self._read(), start
        while last is not None and not self._stop.wait(self.interval_s):
            now, at = self._read(), time.monotonic()
            if now is None:
                return
            span = max(at - last_at, 1e-9)
            cpu = {
                role: 100 * (now[role][0] - last[role][0]) / span for role in (*ROLES, "machine")
            }
            others = max(0.0, cpu["machine"] - cpu["sender"] - cpu["receiver"])
            self.points.append(
                LoadPoint(
                    at - start,
                    cpu["sender"],
                    now["sender"][1],
                    cpu["receiver"],
                    now["receiver"][1],
                    others,
                )
            )
            last, last_at = now, at
