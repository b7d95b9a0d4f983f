"""The ``history`` command's tables: the runs (``format_list``), a run's report as its own
command prints it (``format_run``), a comparison (``format_comparison``) and a run's series
over time (``format_trend``). Each returns text or lines of at most the given width; the
command (:mod:`app.cli.history`) prints them."""

from __future__ import annotations

import dataclasses
import textwrap
from collections.abc import Callable, Sequence
from typing import Any

from app.core.document.numbers import seconds_text
from app.core.kinds import table
from app.core.text import display_text, visible_text

_VERDICTS = {  # the comparison's verdicts, short enough for an 80-column table
    "improvement": "faster",
    "regression": "SLOWER",
    "equal within the margin": "equal (1 %)",
    "no clear difference": "undecided",
    "too few rounds": "too few rounds",
    "not comparable": "not comparable",
}


def format_list(runs: Sequence[Any], width: int = 80) -> list[str]:
    """One line per run: id, local date, machine, kind, inputs, ciphers; no line over
    ``width``. Several inputs read ``a.txt, b.pdf +2`` (a long name keeps its end, its
    extension), several ciphers ``aes-128-cbc, aes-192-cbc +1``. A name's control characters
    are written out (``\x1b``) before the columns are measured, so they stay in line."""
    runs = [_shown(r) for r in runs]
    id_width = max(2, *(len(str(r.id)) for r in runs))
    machine_width = min(16, max(7, *(len(r.machine) for r in runs)))
    if width - (id_width + machine_width + 32) < 30:  # a narrow terminal: a shorter machine
        machine_width = 7
    # What is left after KIND goes to the inputs and the ciphers: the inputs take what they
    # need if the ciphers fit beside them, else at least half.
    room = width - (id_width + machine_width + 32) - 2
    ciphers_need = max(len(_flags(r) + ", ".join(r.ciphers)) for r in runs)
    input_room = max(8, room // 2, room - ciphers_need)
    inputs = [_some(r.inputs, input_room, _clip_middle) or "-" for r in runs]
    input_width = max(5, *(len(text) for text in inputs))
    head = (
        f"{'ID':>{id_width}}  {'DATE':<16}  {'MACHINE':<{machine_width}}  {'KIND':<8}  "
        f"{'INPUT':<{input_width}}  CIPHERS"
    )
    lines = [head[:width]]
    for r, input_text in zip(runs, inputs, strict=True):
        machine = _clip(r.machine, machine_width)
        start = f"{r.id:>{id_width}}  {r.date_text():<16}  {machine:<{machine_width}}  "
        start += f"{r.kind:<8}  {input_text:<{input_width}}  "
        flags = _flags(r)
        ciphers = flags + _some(r.ciphers, width - len(start) - len(flags), _clip)
        lines.append((start + ciphers)[:width].rstrip())
    return lines


def _shown(run: Any) -> Any:
    """``run`` with its names (host, CPU, inputs, ciphers: an imported file's may hold
    anything) as the terminal shows them."""

    def seen(text: str | None) -> str | None:
        return None if text is None else visible_text(text)

    return dataclasses.replace(
        run,
        hostname=seen(run.hostname),
        cpu_model=seen(run.cpu_model),
        inputs=tuple(visible_text(i) for i in run.inputs),
        ciphers=tuple(visible_text(c) for c in run.ciphers),
    )


def _flags(run: Any) -> str:
    return ("(cancelled) " if run.cancelled else "") + (
        "(imported) " if run.source == "imported" else ""
    )


def _some(items: Sequence[str], room: int, clip: Callable[[str, int], str]) -> str:
    """As many of ``items`` as fit in ``room`` characters, then ``+N`` for the others
    (``"a.txt, b.pdf +1"``); the first ``clip``-ped when even it does not fit."""
    for shown in range(len(items), 0, -1):
        rest = len(items) - shown
        text = ", ".join(items[:shown]) + (f" +{rest}" if rest else "")
        if len(text) <= room:
            return text
    more = f" +{len(items) - 1}" if len(items) > 1 else ""
    return clip(items[0], max(3, room - len(more))) + more if items else ""


def _clip(text: str, width: int) -> str:
    return text if len(text) <= width else text[: max(0, width - 3)] + "..."


def _clip_middle(text: str, width: int) -> str:
    """``text`` in ``width`` characters, its start and its end (a file's extension) kept."""
    if len(text) <= width:
        return text
    if width <= 3:
        return text[:width]
    tail = (width - 3) // 2
    return text[: width - 3 - tail] + "..." + text[len(text) - tail :]


def format_run(kind: str, result: Any, width: int) -> str:
    """The run's report as its own command prints it."""
    if kind == "bench":
        from app.cli.report import format_results

        return format_results(result)
    if kind == "study":
        from app.cli.study import format_study
        from app.cli.study_transfer import format_transfer_study
        from app.core.study.transfer_result import TransferStudyResult

        if isinstance(result, TransferStudyResult):
            return format_transfer_study(result, width)
        return format_study(result, width)
    if kind == "sweep":
        from app.cli.sweep import format_sweep

        return format_sweep(result, width)
    if kind != "transfer":  # a kind made from its definition: its document, as its command
        from app.core.document.terminal import render

        return render(table.kind_of(result).document_of(result), width)
    from app.cli.transfer import format_transfers

    lines = [format_transfers(result.results, result.input_label, width)]
    lines += [f"FAILED {f.label}: {f.message}" for f in result.failures]
    return display_text("\n".join(lines))


def format_comparison(c: Any, width: int = 80) -> list[str]:
    """A table per job (direction, both medians, ratio, CI, verdict), then what is only in
    one run and the notes; no line over ``width``."""
    ra, rb = f"run {c.run_a.id}", f"run {c.run_b.id}"

    def wrap(text: str) -> list[str]:
        return textwrap.wrap(text, width, subsequent_indent="  ", break_on_hyphens=False)

    lines = wrap(
        f"Run {c.run_b.id} ({c.run_b.date_text()}, {c.run_b.machine}) against run {c.run_a.id} "
        f"({c.run_a.date_text()}, {c.run_a.machine})."
    )
    lines += wrap(
        f"RATIO = time in {rb} / in {ra}, the Hodges-Lehmann estimate over pairs of round "
        f"medians (not the ratio of the two medians shown; below 1: {rb} is faster); 95 % CI "
        "over the rounds of each run (each job in a fresh worker per round; at least 4 a side)."
    )
    level = None
    for job in c.jobs:
        lines.append("")
        lines.extend(wrap(job.label))
        rows = [("", ra, rb, "RATIO", "95 % CI", "VERDICT")]
        for d in job.directions:
            level = d.confidence
            ci = f"{d.low:.3f}-{d.high:.3f}" if d.low == d.low else "-"  # nan: no interval
            ratio = f"{d.ratio:.3f}" if d.ratio == d.ratio else "-"
            rows.append(
                (
                    d.direction,
                    seconds_text(d.median_a_s),
                    seconds_text(d.median_b_s),
                    ratio,
                    ci,
                    _VERDICTS.get(d.verdict, d.verdict),
                )
            )
        widths = [max(len(r[i]) for r in rows) for i in range(6)]
        for r in rows:
            cells = [r[0].ljust(widths[0])]
            cells += [v.rjust(w) for v, w in zip(r[1:5], widths[1:5], strict=True)]
            lines.append(("  " + "  ".join([*cells, r[5]])).rstrip()[:width])
    if level is None:
        lines.append("")
        lines.append("No job ran in both runs (same cipher entry on the same input or size).")
    for name, only in ((ra, c.only_in_a), (rb, c.only_in_b)):
        if only:
            lines.append("")
            lines.extend(wrap(f"Only in {name}: " + "; ".join(only)))
    if c.notes:
        lines.append("")
        lines.append("Notes:")
        for note in c.notes:
            lines.extend(wrap(f"- {note}"))
    lines.append("")
    lines.append(
        f"{c.improvements} faster, {c.regressions} slower (the whole 95 % interval beyond 1 %)."
    )
    return lines


_SLOWER, _FASTER = "v", "^"  # beside a figure at a step: lower or higher throughput after it


def format_trend(t: Any, entries: Sequence[Any], width: int = 80) -> list[str]:
    """Run ``t.run_id``'s series: a table per entry (date, run, each direction's median MB/s
    [95 % CI]) with the steps marked and labelled, then what changed along the series; no line
    over ``width``."""
    from app.core.history.trend_results import NOTHING_CHANGED, quiet_sentence

    def wrap(text: str, indent: str = "") -> list[str]:
        return textwrap.wrap(
            text,
            width,
            initial_indent=indent,
            subsequent_indent=indent + "  ",
            break_on_hyphens=False,
        )

    runs = t.runs
    cpu = f" ({t.cpu_model})" if t.cpu_model and t.cpu_model != t.machine else ""
    lines = wrap(
        f"Run {t.run_id}'s series: {len(runs)} {t.kind} runs with the same definition on "
        f"{t.machine}{cpu}, {runs[0].date_text()} to {runs[-1].date_text()}."
    )
    lines += wrap(
        f"{t.method()} Beside a figure, {_SLOWER} is lower and {_FASTER} higher throughput "
        "from that run on; * marks the run."
    )
    for name in dict.fromkeys(e.entry for e in entries):
        directions = [e for e in entries if e.entry == name]
        lines.append("")
        lines.extend(wrap(name))
        table = _trend_table(runs, directions)
        if max(map(len, table)) > width:  # one table per direction
            table = [row for e in directions for row in ["", *_trend_table(runs, [e])]][1:]
        lines.extend(row[:width] for row in table)
        steps = sorted(
            ((s, e.direction) for e in directions for s in e.steps), key=lambda p: p[0].position
        )
        for step, direction in steps:
            lines.extend(wrap(step.sentence(direction), "  "))
        if not steps:
            lines.extend(wrap(quiet_sentence(directions), "  "))
    lines.append("")
    if t.changes:
        lines.append("What changed in the environment along the series:")
        for c in t.changes:
            lines.extend(wrap(f"- {c.sentence()}"))
    else:
        lines.extend(wrap(NOTHING_CHANGED))
    marked = [e for e in entries if e.steps]
    count = sum(len(e.steps) for e in marked)
    lines.append(
        f"{count} step(s) in {len(marked)} of {len(entries)} series (entry x direction)."
        if count
        else f"No step beyond the noise in {len(entries)} series (entry x direction)."
    )
    return lines


def _trend_table(runs: Sequence[Any], directions: Sequence[Any]) -> list[str]:
    """Rows of date, run id and each direction's figure with a step's marker; ``*`` before a
    run where any of them has a step."""
    id_width = max(3, *(len(str(r.id)) for r in runs))
    cells = []
    for e in directions:  # "1,000 [985, 1,020]": the medians aligned on their last digit
        parts = [p.text().partition(" [") if p is not None else ("-", "", "") for p in e.points]
        room = max(len(median) for median, _, _ in parts)
        cells.append([f"{median:>{room}}{sep}{rest}" for median, sep, rest in parts])
    widths = [
        max(len(f"{e.direction.upper()} MB/s"), *(len(c) for c in col))
        for e, col in zip(directions, cells, strict=True)
    ]
    head = f"  {'DATE':<16}  {'RUN':>{id_width}}"
    for e, w in zip(directions, widths, strict=True):
        head += f"  {f'{e.direction.upper()} MB/s':<{w}}  "
    rows = [head.rstrip()]
    for i, r in enumerate(runs):
        steps = [e.step_at(i) for e in directions]
        row = f"{'*' if any(steps) else ' '} {r.date_text():<16}  {r.id:>{id_width}}"
        for col, w, step in zip(cells, widths, steps, strict=True):
            mark = "" if step is None else _FASTER if step.faster else _SLOWER
            row += f"  {col[i]:<{w}} {mark:1}"
        rows.append(row.rstrip())
    return rows
