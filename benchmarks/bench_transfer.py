"""How close to a bare socket pair does the loopback transfer come? Figures for issue 21.

    PYTHONPATH=. python benchmarks/bench_transfer.py [--size 200MiB] [--chunk 1MiB] [--rounds 5]
                        [--repeat 3] [--warmup 1] [--cipher ID ...] [--dir DIR]

One run measures, interleaved round by round (bare, bare-timeout, none, aes-256-gcm, bare, ...;
the machine is shared, so each round sees the same load):

- **bare**: a bare Python socket pair on 127.0.0.1 in the same arrangement as a transfer: a
  receiver process and a sender process (spawned like the transfer's ends, serving every run of
  a round), the sender ``sendall``-ing 1 MiB from one preallocated buffer, the receiver
  ``recv_into`` a preallocated 1 MiB buffer, sockets as a plain script has them (blocking; the
  issue's pair: 3,170 MiB/s there, about 3,100 here); timed from the sender's first byte to the
  receiver's last, as a transfer is. The targets are against this pair;
- **bare-timeout**: the same pair with a socket timeout on both ends, as the transfer's ends
  have one. Python then polls a non-blocking socket, and here that moves the bare pair about
  40 % faster (4,400 MiB/s): a stricter reference, printed beside the other;
- **none** and **aes-256-gcm** (and any ``--cipher``): the transfer itself, through
  :func:`app.core.transfer.runner.transfer` (the engine ``python main.py transfer`` runs),
  timed from the first byte sent to the last chunk verified.

Printed: each round's medians, then per arm the median throughput in MiB/s over every timed run,
the median over the rounds of its ratio to the same round's median of each bare pair, each
end's median CPU time over the run's time, and each end's largest peak resident memory above
its baseline (the kernel's high-water mark, reset just before each run). Targets (issue 21):
none >= 0.80 of bare, AES-256-GCM >= 0.65 of bare, each end under 64 MiB above its baseline;
the last lines say whether they are met against each bare pair (the exit code: against bare).

The input file is written in ``--dir`` (default: the system temp folder, where ``transfer
--size`` writes its generated input) and deleted afterwards. The load average is printed.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import socket
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.core.bench.memory_probe import current_rss_bytes, peak_rss_bytes, reset_peak
from app.core.runtime.children import Child
from app.core.runtime.events import drained
from app.core.transfer.runner import TransferOptions, transfer
from app.core.units import MIB, parse_size

BARE = "bare"  # blocking sockets, as a plain script has them (the pair)
BARE_TIMEOUT = "bare-timeout"  # the same with a socket timeout, as the transfer's ends have
BARE_CHUNK = MIB
TARGET_RATIO = {"none": 0.80, "aes-256-gcm": 0.65}
TARGET_PEAK_MIB = 64.0
TIMEOUT_S = 30.0
NOISY_PERCENT = 10.0  # a round where other processes used this share of the CPUs is flagged


# --- the bare socket pair: two processes, like the transfer's ends -----------------------------


def _commands(conn: Connection) -> Iterator[tuple[Any, ...]]:
    """Each ``("run", ...)`` sent to an end, until anything else or the pipe closes."""
    while True:
        try:
            command = conn.recv()
        except (EOFError, OSError):
            return
        if command[0] != "run":
            return
        yield command


def _bare_receiver(conn: Connection) -> None:
    """Listen on 127.0.0.1; for each ``("run", size, blocking)`` accept one connection, read
    ``size`` bytes into one preallocated buffer and reply ``(last_byte_ns, cpu_s, baseline,
    peak)``."""
    listener = socket.create_server(("127.0.0.1", 0), backlog=1)
    listener.settimeout(TIMEOUT_S)
    conn.send(listener.getsockname()[1])
    buf = memoryview(bytearray(BARE_CHUNK))
    for _, size, blocking in _commands(conn):
        baseline = current_rss_bytes()
        reset_peak()
        sock, _ = listener.accept()
        with sock:
            sock.settimeout(None if blocking else TIMEOUT_S)
            got = 0
            cpu0 = time.process_time()
            while got < size:
                n = sock.recv_into(buf)
                if not n:
                    break
                got += n
            end_ns = time.perf_counter_ns()
            cpu_s = time.process_time() - cpu0
            sock.sendall(b"k")  # the sender's "done", after the clock stopped
        if got != size:
            raise SystemExit(f"bare receiver: {got} of {size} bytes")
        conn.send((end_ns, cpu_s, baseline, max(peak_rss_bytes(), baseline)))


def _bare_sender(conn: Connection) -> None:
    """For each ``("run", port, size, blocking)`` connect and ``sendall`` ``size`` bytes, 1 MiB
    at a time from one preallocated buffer; reply ``(first_byte_ns, cpu_s, baseline, peak)``."""
    buf = memoryview(bytearray(os.urandom(BARE_CHUNK)))
    for _, port, size, blocking in _commands(conn):
        baseline = current_rss_bytes()
        reset_peak()
        with socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT_S) as sock:
            sock.settimeout(None if blocking else TIMEOUT_S)
            start_ns = time.perf_counter_ns()
            cpu0 = time.process_time()
            left = size
            while left:
                n = min(left, BARE_CHUNK)
                sock.sendall(buf[:n])
                left -= n
            cpu_s = time.process_time() - cpu0
            sock.recv(1)
        conn.send((start_ns, cpu_s, baseline, max(peak_rss_bytes(), baseline)))


@dataclass(frozen=True)
class Sample:
    """One timed run: throughput, each end's CPU time over the run's time (100 = one core)
    and each end's peak resident memory above its baseline."""

    mib_s: float
    sender_cpu_percent: float
    receiver_cpu_percent: float
    sender_peak_mib: float
    receiver_peak_mib: float


@dataclass
class Arm:
    """What one arm (bare or a cipher) measured, its timed runs grouped by round."""

    name: str
    rounds: list[list[Sample]] = field(default_factory=list)

    def runs(self) -> list[Sample]:
        return [x for r in self.rounds for x in r]

    def round_median(self, i: int) -> float:
        return statistics.median(x.mib_s for x in self.rounds[i])


def _bare_round(size: int, runs: int, warmup: int, *, blocking: bool = False) -> list[Sample]:
    """The timed runs of one round of the bare pair (two fresh processes); ``blocking``: sockets
    without a timeout, as a plain script has them."""
    receiver = Child(_bare_receiver, name="bench-bare-receiver")
    sender = Child(_bare_sender, name="bench-bare-sender")
    try:
        port = receiver.conn.recv()
        samples: list[Sample] = []
        for i in range(warmup + runs):
            receiver.conn.send(("run", size, blocking))
            sender.conn.send(("run", port, size, blocking))
            start_ns, s_cpu, s_base, s_peak = sender.conn.recv()
            end_ns, r_cpu, r_base, r_peak = receiver.conn.recv()
            seconds = (end_ns - start_ns) / 1e9
            if i >= warmup:
                samples.append(
                    Sample(
                        size / MIB / seconds,
                        100 * s_cpu / seconds,
                        100 * r_cpu / seconds,
                        (s_peak - s_base) / MIB,
                        (r_peak - r_base) / MIB,
                    )
                )
        return samples
    finally:
        for end in (receiver, sender):
            with contextlib.suppress(OSError):
                end.conn.send(("stop",))
            end.stop()


def _transfer_round(path: str, cipher: str, options: TransferOptions) -> list[Sample]:
    """The timed runs of one transfer (:func:`transfer`: two fresh processes)."""
    r = drained(transfer(path, cipher, options))
    if not r.verified:
        raise SystemExit(f"{cipher}: a run was not verified")
    return [
        Sample(
            r.input_bytes / MIB / run.total_seconds,
            100 * run.sender.cpu_seconds / run.total_seconds,
            100 * run.receiver.cpu_seconds / run.total_seconds,
            run.sender.peak_above_baseline_bytes / MIB,
            run.receiver.peak_above_baseline_bytes / MIB,
        )
        for run in r.runs
    ]


def _write_input(size: int, folder: str | None) -> str:
    fd, path = tempfile.mkstemp(prefix="cipherbench-transfer-", suffix=".bin", dir=folder)
    with os.fdopen(fd, "wb") as fh:
        left = size
        while left:
            n = min(left, 4 * MIB)
            fh.write(os.urandom(n))
            left -= n
    return path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", default="200MiB")
    parser.add_argument("--chunk", default="1MiB", help="the transfer's chunk size")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs per arm and round")
    parser.add_argument("--warmup", type=int, default=1, help="discarded runs per arm and round")
    parser.add_argument("--cipher", action="append", default=[], help="default: none, aes-256-gcm")
    parser.add_argument("--dir", default=None, help="where the input file is written")
    args = parser.parse_args()
    size = parse_size(args.size)
    options = TransferOptions(
        chunk_bytes=parse_size(args.chunk), repeat=args.repeat, warmup=args.warmup
    )
    ciphers = args.cipher or ["none", "aes-256-gcm"]
    arms = {name: Arm(name) for name in [BARE, BARE_TIMEOUT, *ciphers]}
    print(f"load average before: {os.getloadavg()}, {os.cpu_count()} CPUs")
    path = _write_input(size, args.dir)
    print(
        f"{size / MIB:,.0f} MiB over 127.0.0.1 ({os.path.dirname(path)}), transfer chunks of "
        f"{options.chunk_bytes / MIB:g} MiB; {args.rounds} rounds of {args.warmup} warm-up + "
        f"{args.repeat} runs per arm"
    )
    noisy: list[int] = []
    try:
        for i in range(args.rounds):
            before = _cpu_now()
            arms[BARE].rounds.append(_bare_round(size, args.repeat, args.warmup, blocking=True))
            arms[BARE_TIMEOUT].rounds.append(_bare_round(size, args.repeat, args.warmup))
            for cipher in ciphers:
                arms[cipher].rounds.append(_transfer_round(path, cipher, options))
            others = _others_percent(before, _cpu_now())
            if others is not None and others >= NOISY_PERCENT:
                noisy.append(i + 1)
            print(
                f"  round {i + 1}: "
                + ", ".join(f"{arm.name} {arm.round_median(i):,.0f}" for arm in arms.values())
                + " MiB/s"
                + (
                    f"; other processes used {others:.0f} % of the CPUs"
                    if others is not None
                    else ""
                )
            )
    finally:
        os.unlink(path)
    print(f"load average after: {os.getloadavg()}")
    print()
    print(
        f"{'arm':<14} {'MiB/s':>7} {'/bare':>6} {'/b-tmo':>6} {'target':>7}  "
        f"{'/bare per round':<29} {'send CPU%':>9} {'recv CPU%':>9} {'send +MiB':>9} "
        f"{'recv +MiB':>9}"
    )
    met = {BARE: True, BARE_TIMEOUT: True}
    for arm in arms.values():
        ratios = {ref: _ratios(arm, arms[ref], args.rounds) for ref in met}
        runs = arm.runs()
        send_peak = max(x.sender_peak_mib for x in runs)
        recv_peak = max(x.receiver_peak_mib for x in runs)
        target = TARGET_RATIO.get(arm.name)
        for ref in met:
            ok = max(send_peak, recv_peak) < TARGET_PEAK_MIB
            met[ref] = met[ref] and ok and (target is None or _median(ratios[ref]) >= target)
        print(
            f"{arm.name:<14} {statistics.median(x.mib_s for x in runs):7,.0f} "
            f"{_median(ratios[BARE]):6.2f} {_median(ratios[BARE_TIMEOUT]):6.2f} "
            f"{f'>={target:.2f}' if target else '':>7}  "
            f"{' '.join(f'{x:.2f}' for x in ratios[BARE]):<29} "
            f"{statistics.median(x.sender_cpu_percent for x in runs):9.0f} "
            f"{statistics.median(x.receiver_cpu_percent for x in runs):9.0f} "
            f"{send_peak:9.1f} {recv_peak:9.1f}"
        )
    print(
        "MiB/s: median of every timed run. /bare, /b-tmo: median over the rounds of (the arm's "
        "median / that round's median of bare, of bare-timeout). CPU%: each end's CPU time over "
        "the run's time, median (100 = one core). +MiB: each end's largest peak resident memory "
        f"above its baseline (target < {TARGET_PEAK_MIB:.0f})."
    )
    if noisy:
        print(
            f"warning: other processes used >= {NOISY_PERCENT:.0f} % of the CPUs in round(s) "
            f"{', '.join(map(str, noisy))}; the transfer needs both cores, the bare pair about "
            "one, so load lowers its ratios: rerun on a quiet machine"
        )
    for ref, ok in met.items():
        print(f"targets against {ref}: {'all met' if ok else 'SOME MISSED'}")
    return 0 if met[BARE] else 1


def _cpu_now() -> tuple[float, float, float] | None:
    """(wall s, CPU s of the whole machine, CPU s of this process and its reaped children), or
    None where ``/proc/stat`` is missing."""
    try:
        with open("/proc/stat", encoding="ascii") as fh:
            fields = [int(x) for x in fh.readline().split()[1:]]
    except (OSError, ValueError):
        return None
    busy = sum(fields) - fields[3] - (fields[4] if len(fields) > 4 else 0)  # minus idle, iowait
    t = os.times()
    ours = t.user + t.system + t.children_user + t.children_system
    return time.monotonic(), busy / os.sysconf("SC_CLK_TCK"), ours


def _others_percent(
    before: tuple[float, float, float] | None, after: tuple[float, float, float] | None
) -> float | None:
    """The share of all CPUs other processes used between two :func:`_cpu_now` readings."""
    if before is None or after is None or after[0] <= before[0]:
        return None
    others = (after[1] - before[1]) - (after[2] - before[2])
    return max(0.0, 100 * others / ((after[0] - before[0]) * (os.cpu_count() or 1)))


def _ratios(arm: Arm, reference: Arm, rounds: int) -> list[float]:
    return [arm.round_median(i) / reference.round_median(i) for i in range(rounds)]


def _median(values: list[float]) -> float:
    return statistics.median(values)


if __name__ == "__main__":
    sys.exit(main())
