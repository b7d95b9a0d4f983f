"""A benchmark run (``bench``) as a publication table and its Methods paragraph: one row per
job (cipher entry, library, mode, input), encryption and decryption throughput in MB/s as a
median [95 % interval], memory where it was measured.

The interval is over what the run kept. With ``--rounds N`` (N >= 2) each job ran in N fresh
workers and the interval is over those rounds, as a study's. With one round, all repetitions
of a job come from one worker process: the interval is over them, and covers only the noise
within that process (not what differs between processes, memory placements or moments); the
table's notes and the Methods say so rather than pass it off as more.
"""

from __future__ import annotations

from app.core.bench.results import JobResult, RunResult
from app.core.document.estimate import CELL_RATE, Estimate, rate_estimate
from app.core.document.model import Table
from app.core.document.numbers import figure
from app.core.publish.methods import (
    MEMORY_SENTENCE,
    TIMED_REGION,
    interval_sentence,
    machine_sentence,
    span_text,
)
from app.core.publish.table import failure_notes, rate_unit, too_few_note
from app.core.units import MB, MIB

UNITS = "MB/s"
DIRECTIONS = ("encrypt", "decrypt")


def by_rounds(run: RunResult) -> bool:
    """Whether the intervals are over rounds: every job ran in two or more fresh workers."""
    return bool(run.results) and all(len(j.round_samples("encrypt")) >= 2 for j in run.results)


def throughput(job: JobResult, direction: str) -> Estimate:
    """MB/s of ``direction``: over rounds (each round's input over its median time), or over
    the repetitions of one worker (the input over their median time, as ``throughput_mb_s``)."""
    return rate_estimate(job.input_bytes, job.round_samples(direction), MB)


def _memory(job: JobResult) -> str:
    above = job.memory_above_baseline_bytes
    return "-" if above is None else figure(above / MIB)


def _measured_memory(run: RunResult) -> bool:
    return any(j.memory_above_baseline_bytes is not None for j in run.results)


def bench_table(run: RunResult) -> Table:
    """One row per job: encryption and decryption throughput, memory, how many values."""
    per_round = by_rounds(run)
    what = "rounds" if per_round else "repetitions"
    memory = _measured_memory(run)
    rows: list[tuple[str | Estimate, ...]] = []
    counts: list[int] = []
    for j in run.results:
        enc, dec = (throughput(j, d) for d in DIRECTIONS)
        counts += [enc.rounds, dec.rounds]
        extra = (_memory(j),) if memory else ()
        n = f"{enc.rounds}" if enc.rounds == dec.rounds else f"{enc.rounds} / {dec.rounds}"
        rows.append((j.cipher, j.library, j.mode, j.input_label, enc, dec, *extra, n))
    if per_round:
        over = (
            f"{CELL_RATE}, with its distribution-free 95 % interval over those rounds in "
            "brackets; a round is one fresh worker process."
        )
    else:
        over = (
            "the input over the median time of the repetitions, with its distribution-free "
            "95 % interval over them in brackets. The repetitions of a job all ran in one "
            "worker process: the interval shows the noise within that process, not what "
            "differs between processes or moments (bench --rounds 6 or more gives intervals "
            "over fresh workers)."
        )
    notes = [f"Throughput in {rate_unit(UNITS)}: {over}"]
    if any("/" in str(row[-1]) for row in rows):
        notes.append(f"{what.capitalize()}: of encryption / of decryption where they differ.")
    if memory:
        notes.append(
            "Memory: peak resident memory above the worker's baseline, in MiB (2^20 bytes), "
            "from a separate untimed pass; -: not measured."
        )
    advice = "run with --rounds 6 or more" if per_round else "run with --repeat 6 or more"
    notes += too_few_note(counts, what, advice)
    notes += failure_notes(
        ((f"{f.cipher} [{f.library}]", f.message) for f in run.failures), run.cancelled
    )
    mode = run.options.data_mode
    return Table(
        caption="Encryption and decryption throughput" + (f" ({mode} mode)" if mode else ""),
        headers=(
            "Cipher",
            "Library",
            "Mode",
            "Input",
            f"Encryption ({UNITS})",
            f"Decryption ({UNITS})",
            *(("Memory (MiB)",) if memory else ()),
            what.capitalize(),
        ),
        rows=tuple(rows),
        notes=tuple(notes),
        text_columns=4,
    )


def bench_methods(run: RunResult) -> str:
    """The Methods paragraph of a benchmark run."""
    per_round = by_rounds(run)
    opts = run.options
    jobs = run.results
    mode = opts.data_mode or "memory"
    chunks = sorted({j.chunk_bytes for j in jobs if j.chunk_bytes and j.data_mode == "stream"})
    read = f", read in chunks of {', '.join(f'{c:,}' for c in chunks)} bytes" if chunks else ""
    job = f"Each job (one cipher entry of one library on one input, {mode} mode{read})"
    if per_round:
        rounds = span_text(len(j.round_samples("encrypt")) for j in jobs)
        how = (
            f"{job} was run in {rounds} rounds, each round a fresh worker process per job and "
            "the jobs in a random order of their own."
        )
    else:
        how = f"{job} ran in a fresh worker process of its own, one job after another."
    reps = span_text(len(s) for j in jobs for s in j.round_samples("encrypt"))
    bounds = ""
    if opts.repeat is not None and opts.min_time_s is not None and opts.max_repeat is not None:
        bounds = (
            f" (at least {opts.repeat}, more until each direction had run {opts.min_time_s:g} s, "
            f"at most {opts.max_repeat})"
        )
    checked = sum(j.verified_round_trips for j in jobs)
    timed = (
        f"Within a worker, {opts.warmup if opts.warmup is not None else '?'} warm-up call(s) "
        f"were discarded and {reps} timed repetitions of encryption and of decryption "
        f"taken{bounds} {TIMED_REGION}, each direction's in runs of about 20 ms after an "
        f"untimed warm-up; the last decryption of each run was compared with the input "
        f"({checked:,} round trips checked)."
    )
    if per_round:
        level = (
            "; a round is one worker process at one moment, so the interval covers what "
            "varies between processes and moments"
        )
    else:
        level = (
            "; here these are the repetitions within one worker process, so the interval "
            "covers the timer's and the moment's noise within that process but not what "
            "varies between processes, memory placements or moments (bench --rounds N runs "
            "each job in N fresh workers and gives intervals over them)"
        )
    return " ".join(
        [
            machine_sentence(run.environment),
            how,
            timed,
            "Throughput is the input size over the median time"
            + (" of a round" if per_round else "")
            + f", in {rate_unit(UNITS)}.",
            interval_sentence("rounds" if per_round else "repetitions", level),
            *([MEMORY_SENTENCE] if _measured_memory(run) else []),
        ]
    )
