"""A transfer study (``workload = "transfer"``, the loopback study) on the terminal: per input a
table of total time (median ±IQR), throughput, each end's CPU % and memory above its baseline, then
the fits and comparisons; no line longer than the terminal."""

from __future__ import annotations

from app.core.document.numbers import mib_text, rate_text, seconds_text
from app.core.document.terminal import fitted_table
from app.core.study import report_text
from app.core.study.report_text import wrap
from app.core.study.transfer_report import claims
from app.core.study.transfer_result import TransferStudyResult, end_mib, transfer_rate
from app.core.text import display_text


def format_transfer_study(result: TransferStudyResult, width: int = 80) -> str:
    lines = report_text.title(result.study, width)
    lines.extend(wrap(report_text.what_ran(result), width, indent=""))
    preamble = (
        f"Loopback transfers: {result.how_run()}. TIME = first byte sent to last byte "
        "verified, median of the timed runs, ±IQR their interquartile range; "
        f"{result.units} from the median; CPU = CPU time / wall time per end (100 = one core); "
        "MiB = peak resident memory above each end's baseline (2^20 bytes)."
    )
    lines.extend(wrap(preamble, width, indent=""))
    units = result.units
    for input_label, group in result.by_input().items():
        lines.append(f"\nInput: {input_label} ({group[0].input_bytes:,} bytes)")
        rows = [["CIPHER", "TIME", "±IQR", units, "CPU S/R %", "MiB S/R"]]
        for r in group:
            rows.append(
                [
                    r.label,
                    seconds_text(r.timing.median_s),
                    seconds_text(r.timing.iqr_s),
                    rate_text(transfer_rate(r, units)),
                    f"{r.sender.cpu_percent:.0f}/{r.receiver.cpu_percent:.0f}",
                    f"{mib_text(end_mib(r, 'sender'))}/{mib_text(end_mib(r, 'receiver'))}",
                ]
            )
        lines.append(fitted_table(rows, width, keep=1))
        unverified = [r.label for r in group if not r.verified]
        lines.append(
            f"NOT VERIFIED: {', '.join(unverified)}"
            if unverified
            else "Every run verified (sealed chunks authenticated, both ends' digests equal)."
        )
    said = claims(result)
    if said:
        lines.append("\nFits (time against size) and comparisons:")
        for line in said:
            lines.extend(wrap(line, width))
    lines.extend(report_text.published(result, width))
    lines.extend(report_text.notes(result, width, name_inputs=True, cut_short="every cell ran"))
    return display_text("\n".join(lines))
