"""Frozen results. Units are in field names; raw samples are kept and statistics derived."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field, fields, replace
from typing import Any

from app.core.bench.run_info import Environment, RunOptions, ToolInfo
from app.core.bench.stats import TimingStats, summarize
from app.core.document.estimate import split_rounds
from app.core.runtime.envelope import EntryFailure


@dataclass(frozen=True)
class MonitorSample:
    """The worker process seen from outside every 50 ms (the loopback study's monitor)."""

    t_s: float  # since the job started
    cpu_percent: float  # of one core; above 100 when a library uses several threads
    rss_bytes: int


@dataclass(frozen=True)
class Aggregate:
    """N copies of a job run at once in separate worker processes (``bench --processes N``),
    like ``openssl speed -multi``. Each throughput, in MB/s (10^6 bytes/s), is what the
    machine did with all of them: the copies' bytes per CPU-second times the cores they kept
    busy over the wall time they ran (:func:`app.core.bench.multicore.aggregate_of`)."""

    processes: int
    encrypt_throughput_mb_s: float
    decrypt_throughput_mb_s: float


@dataclass(frozen=True)
class TimedSpan:
    """When a worker ran its timed repetitions, so that the copies of ``--processes`` can be
    compared: ``time.monotonic_ns()`` at the first timed repetition's start and the last one's
    end (one clock for every process of the machine), the process's CPU time in between, and
    the CPU time of the encryption and decryption calls alone. Not exported: the timestamps
    mean nothing outside the run."""

    start_ns: int
    end_ns: int
    cpu_ns: int
    encrypt_cpu_ns: int
    decrypt_cpu_ns: int


@dataclass(frozen=True)
class RoundInfo:
    """One round of a result merged over rounds (a study runs each job several times, each
    time in a fresh worker): how many of the merged samples it produced, in order, where it
    ran in that round's random order and the share of a core its worker got while timed."""

    round: int  # 0-based, in the run
    position: int  # 0-based place in that round's order
    encrypt_n: int  # samples of ``encrypt.samples_s`` from this round (they come in order)
    decrypt_n: int
    cpu_percent: float


class _PerDirection:
    """Memory figures kept per direction, as fields named ``<direction>_<figure>``."""

    def _figure(self, direction: str, figure: str) -> int:
        return int(getattr(self, f"{direction}_{figure}"))

    def python_peak(self, direction: str) -> int:
        return self._figure(direction, "python_peak_bytes")


@dataclass(frozen=True)
class DirectionMemory(_PerDirection):
    """The memory pass's peaks, each direction apart (bytes): the kernel's high-water mark of
    the worker and tracemalloc's peak, reset between the encryption and the decryption (both
    hold the pass's buffers)."""

    encrypt_peak_rss_bytes: int
    decrypt_peak_rss_bytes: int
    encrypt_python_peak_bytes: int
    decrypt_python_peak_bytes: int

    def peak_rss(self, direction: str) -> int:
        return self._figure(direction, "peak_rss_bytes")


@dataclass(frozen=True)
class WorkloadMemory(_PerDirection):
    """The memory of one direction-by-direction pass of ``workload`` (bytes)."""

    workload: str
    encrypt_python_peak_bytes: int
    decrypt_python_peak_bytes: int
    encrypt_rss_delta_bytes: int  # resident memory after the encryption minus before it
    decrypt_rss_delta_bytes: int

    def rss_delta(self, direction: str) -> int:
        return self._figure(direction, "rss_delta_bytes")


@dataclass(frozen=True)
class JobResult:
    cipher: str  # registry id, e.g. "aes-256-gcm"
    library: str
    algorithm: str
    key_bits: int
    mode: str
    data_mode: str
    input_label: str
    input_bytes: int
    output_bytes: int  # ciphertext size (stream-mode AEAD: one tag per chunk)
    chunk_bytes: int | None  # stream mode only
    verified_round_trips: int  # round trips whose decrypted output was checked equal to the input
    encrypt: TimingStats
    decrypt: TimingStats
    key_setup_s: tuple[float, ...]  # context creation (key schedule), timed on its own
    ciphertext_preview_hex: str  # first 32 bytes of ciphertext
    peak_rss_bytes: int | None  # kernel high-water mark of the worker in the memory pass
    baseline_rss_bytes: int | None  # worker RSS when that pass began
    # tracemalloc peak in the memory pass (what the AES key-length study reports)
    python_peak_bytes: int | None
    cpu_percent: float  # process CPU time / wall time over the timed runs
    warnings: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()  # the entry's security notes (ECB, 64-bit block, ...)
    monitor: tuple[MonitorSample, ...] = ()
    aggregate: Aggregate | None = None  # only with ``--processes N`` above 1
    rounds: tuple[RoundInfo, ...] = ()  # merged over rounds (a study); empty: one worker
    copy: int = 1  # 2, 3 ...: the same entry run again in one study (an A/A control)
    # Calls timed together in one sample (a call shorter than a millisecond is batched); the
    # samples are per call. 1 in files written before batching.
    calls_per_sample: int = 1
    # The memory of a paper's program shape, by direction (BenchOptions.memory_workload)
    workload_memory: WorkloadMemory | None = None
    # The memory pass's peaks by direction (None: not measured, or the peak cannot be reset)
    direction_memory: DirectionMemory | None = None
    # Measured by the worker for the copies' aggregate; left out of to_dict and equality.
    timed_span: TimedSpan | None = field(default=None, compare=False, repr=False)

    @property
    def label(self) -> str:
        """ "aes-128-cbc [pycryptodome]", and " #2" for a second copy of the entry."""
        base = f"{self.cipher} [{self.library}]"
        return base if self.copy == 1 else f"{base} #{self.copy}"

    def with_rounds(self, rounds: tuple[RoundInfo, ...]) -> JobResult:
        """This result with its samples' rounds told, its statistics computed again over them
        (the cell's median is its rounds' median)."""
        enc, dec = (
            summarize(
                getattr(self, d).samples_s,
                self.input_bytes,
                getattr(self, d).warmup_s,
                [getattr(r, f"{d}_n") for r in rounds],
            )
            for d in ("encrypt", "decrypt")
        )
        return replace(self, rounds=rounds, encrypt=enc, decrypt=dec)

    def round_samples(self, direction: str) -> tuple[tuple[float, ...], ...]:
        """The timed samples of ``direction`` ("encrypt" or "decrypt") by round: the unit of
        evidence of every claim (:mod:`app.core.study.claims`). One round without ``rounds``."""
        samples = getattr(self, direction).samples_s
        return split_rounds(samples, [getattr(r, f"{direction}_n") for r in self.rounds])

    def round_cpu_percent(self) -> tuple[float, ...]:
        """Each round's share of a core (the whole run's when not merged over rounds)."""
        return tuple(r.cpu_percent for r in self.rounds) or (self.cpu_percent,)

    @property
    def verified(self) -> bool:
        """At least one round trip was checked and none differed (a difference raises)."""
        return self.verified_round_trips > 0

    @property
    def expansion_bytes(self) -> int:
        return self.output_bytes - self.input_bytes

    def memory_above_baseline(self, direction: str = "") -> int | None:
        """The memory pass's peak above the baseline: in ``direction`` ("encrypt" or
        "decrypt") when the pass measured each apart, else (or for "") the pass's own."""
        if direction and self.direction_memory is not None and self.baseline_rss_bytes is not None:
            return self.direction_memory.peak_rss(direction) - self.baseline_rss_bytes
        return self.memory_above_baseline_bytes

    @property
    def memory_above_baseline_bytes(self) -> int | None:
        if self.peak_rss_bytes is None or self.baseline_rss_bytes is None:
            return None
        return self.peak_rss_bytes - self.baseline_rss_bytes

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        del d["timed_span"]
        d["verified"] = self.verified
        d["expansion_bytes"] = self.expansion_bytes
        d["memory_above_baseline_bytes"] = self.memory_above_baseline_bytes
        for direction in ("encrypt", "decrypt"):
            d[direction]["stdev_percent"] = getattr(self, direction).stdev_percent
        return d

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> JobResult:
        """Inverse of :meth:`to_dict` (derived keys such as ``verified`` are recomputed).
        Raises ``KeyError``, ``TypeError`` or ``ValueError`` on a malformed record."""
        values = {f.name: data[f.name] for f in fields(cls) if f.name in data}
        values.setdefault("ciphertext_preview_hex", "")  # the history keeps none
        if "verified_round_trips" not in data:  # written before the count: at least one
            values["verified_round_trips"] = 1 if data["verified"] is True else 0
        rounds = data.get("rounds", ())
        for direction in ("encrypt", "decrypt"):
            sizes = [int(r[f"{direction}_n"]) for r in rounds]
            values[direction] = _timing_from_dict(data[direction], int(data["input_bytes"]), sizes)
        for name in ("key_setup_s", "warnings", "notes"):
            values[name] = tuple(data.get(name, ()))
        values["monitor"] = tuple(MonitorSample(**m) for m in data.get("monitor", ()))
        aggregate = data.get("aggregate")  # absent from files written before --processes
        values["aggregate"] = None if aggregate is None else Aggregate(**aggregate)
        values["rounds"] = tuple(RoundInfo(**r) for r in data.get("rounds", ()))
        workload = data.get("workload_memory")  # absent from files written before it
        values["workload_memory"] = None if workload is None else WorkloadMemory(**workload)
        by_direction = data.get("direction_memory")  # absent from files written before it
        values["direction_memory"] = (
            None if by_direction is None else DirectionMemory(**by_direction)
        )
        return cls(**values)


def _timing_from_dict(
    data: Mapping[str, Any], input_bytes: int, round_sizes: Sequence[int] = ()
) -> TimingStats:
    """The statistics derived again from the raw samples, as pyperf does: a stored median,
    spread or throughput is never trusted (an edited or truncated file cannot disagree with
    its own samples)."""
    samples = tuple(float(x) for x in data["samples_s"])
    warmups = tuple(float(x) for x in data.get("warmup_s", ()))
    return summarize(samples, input_bytes, warmups, round_sizes)


@dataclass(frozen=True)
class RunResult:
    """Everything one run produced, with the machine it ran on."""

    results: tuple[JobResult, ...]
    failures: tuple[EntryFailure, ...]
    environment: Environment
    options: RunOptions
    started_at: str  # ISO 8601, UTC
    finished_at: str
    cancelled: bool = False
    tool: ToolInfo = field(default_factory=ToolInfo)

    def __post_init__(self) -> None:
        # Also accept both in their JSON form, as a file or a test writes them.
        if not isinstance(self.environment, Environment):
            object.__setattr__(self, "environment", Environment.from_dict(self.environment))
        if not isinstance(self.options, RunOptions):
            object.__setattr__(self, "options", RunOptions.from_dict(self.options))
        object.__setattr__(self, "tool", ToolInfo.of(self.tool))

    def to_dict(self) -> dict[str, Any]:
        return {
            "tool": self.tool.to_dict(),
            "started_at": self.started_at,
            "finished_at": self.finished_at,
            "cancelled": self.cancelled,
            "options": self.options.to_dict(),
            "environment": self.environment.to_dict(),
            "results": [r.to_dict() for r in self.results],
            "failures": [asdict(f) for f in self.failures],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RunResult:
        """Inverse of :meth:`to_dict` (pyperf style: a saved run loads back as objects).
        Raises ``KeyError``, ``TypeError`` or ``ValueError`` on a malformed document."""
        return cls(
            results=tuple(JobResult.from_dict(r) for r in data["results"]),
            failures=tuple(EntryFailure(**f) for f in data["failures"]),
            environment=Environment.from_dict(data["environment"]),
            options=RunOptions.from_dict(data["options"]),
            started_at=data["started_at"],
            finished_at=data["finished_at"],
            cancelled=bool(data.get("cancelled", False)),
            tool=ToolInfo.of(data.get("tool")),
        )
