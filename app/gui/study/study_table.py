"""The study's paper-style table: the engine's study columns (app.core.study.columns: Algorithm,
Library, Input, Size, times with their IQR, throughputs in the chosen unit, memory above the
worker's baseline, repetitions) through the one column model."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QObject

from app.core.bench.results import JobResult
from app.core.study.columns import STUDY_COLUMNS, TRANSFER_STUDY_COLUMNS
from app.core.transfer.results import TransferResult
from app.gui.results.column_model import ColumnTableModel
from app.gui.results.sweep_tables import SweepTableView


class StudyTableModel(ColumnTableModel):
    """One row per (cipher entry, input), all runs so far; throughputs in :attr:`units`; a
    transfer study's rows through its own columns."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(STUDY_COLUMNS, parent)

    def set_results(  # type: ignore[override]
        self, results: Sequence[JobResult | TransferResult], units: str
    ) -> None:
        transfer = bool(results) and isinstance(results[0], TransferResult)
        columns = TRANSFER_STUDY_COLUMNS if transfer else STUDY_COLUMNS
        super().set_results(results, units, columns)


class StudyTableView(SweepTableView):
    """The study's table, its columns as wide as their longest text, measured from the model's
    texts once per change (Qt's ``ResizeToContents`` asks every cell for a size hint on every
    change and every paint: 25-40 ms for a dozen rows here)."""
