"""The study's claims in words, for the window's read-only panel: the same lines as the
terminal report (:mod:`app.core.study.report_text`), left for the panel to wrap."""

from __future__ import annotations

from app.core.study import report_text, transfer_report
from app.core.study.result import StudyResult
from app.core.study.transfer_result import TransferStudyResult
from app.core.text import display_text

EMPTY = "Fits of time against size and the comparisons appear here when a study has run."


def claims_text(result: StudyResult | TransferStudyResult | None, units: str | None = None) -> str:
    """Everything the results say beyond the table, as plain text, throughputs in ``units``
    (default: the result's)."""
    if result is None:
        return EMPTY
    if isinstance(result, TransferStudyResult):
        shown = result.in_units(units or result.units)
        lines = [transfer_report.method(shown), "", *transfer_report.claims(shown)]
        lines += report_text.published(shown, None)  # the paper's figures and claims
        lines += [
            f"Failed: {f.cipher_label} on {f.input_label}: {f.message}" for f in shown.failures
        ]
        return display_text("\n".join(lines))
    lines = [
        *report_text.preamble(result, None, units),
        *report_text.claims(result, None, units),
        *report_text.notes(result, None),
    ]
    return display_text("\n".join(lines))
