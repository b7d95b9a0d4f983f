"""The main window's claims: each pair of jobs on each input compared, both directions, by the
claims' statistics (:mod:`app.core.study.claims`), off the GUI thread (hundreds of pairs take a
while, and the window must not wait)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QObject, Signal

from app.core.bench.results import RunResult
from app.gui.worker import TaskRunner


def claims_of(results: list[Any]) -> list[Any]:
    """Every pair on each input, both directions, with the claims' margin and target."""
    from app.core.study.cell_pairs import pair_comparisons
    from app.core.study.claims import DEFAULT_MARGIN, DEFAULT_TARGET

    return pair_comparisons(results, margin=DEFAULT_MARGIN, target=DEFAULT_TARGET)


class RunClaims(QObject):
    """``changed(list[PairComparison])`` after a run, ``changed(None)`` when one starts."""

    changed = Signal(object)

    def __init__(self, runner: TaskRunner, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._runner = runner
        self._latest: RunResult | None = None

    def clear(self) -> None:
        """A run has started: its comparisons come when it has finished."""
        self._latest = None
        self.changed.emit(None)

    def reset(self) -> None:
        """No results any more (Reset): nothing to compare, no run to wait for."""
        self._latest = None
        self.changed.emit([])

    def compare(self, run: RunResult) -> None:
        self._latest = run
        if len(run.results) < 2:
            self.changed.emit([])
            return

        def resulted(claims: list[Any]) -> None:
            self._on_resulted(run, claims)

        def failed(_text: str) -> None:
            self._on_resulted(run, [])

        self._runner.run_task(claims_of, list(run.results), on_result=resulted, on_failure=failed)

    def _on_resulted(self, run: RunResult, claims: list[Any]) -> None:
        if run is self._latest:  # not a run since replaced by another
            self.changed.emit(claims)
