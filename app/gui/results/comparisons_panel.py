"""The Comparisons tab of the main window: the last run's claims in plain words, each naming
its direction, interval and the rounds it rests on, grouped by input."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QPlainTextEdit, QVBoxLayout, QWidget

from app.core.text import display_text
from app.gui.label import Label

WAITING = "Comparisons appear here when a run with two jobs or more has finished."
NO_ROUNDS = (
    "Each job ran in {rounds}: too few for a claim, because what varies between workers "
    "(7-11 % here for a decryption) shows only between rounds. Set Rounds to {needed} or more "
    "(Options) for 95 % intervals."
)


class ComparisonsPanel(QWidget):
    """Shows ``set_claims(list[PairComparison] | None)``; None: a run is going on."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.note = Label(WAITING)
        self.note.setWordWrap(True)
        self.text = QPlainTextEdit()
        self.text.setReadOnly(True)
        layout = QVBoxLayout(self)
        layout.addWidget(self.note)
        layout.addWidget(self.text, 1)

    def set_claims(self, claims: list[Any] | None) -> None:
        if claims is None:
            self.note.setText("Comparing when the run has finished…")
            self.text.clear()
            return
        if not claims:
            self.note.setText(WAITING)
            self.text.clear()
            return
        rounds = min(p.comparison.rounds for p in claims)
        from app.core.study.claims import MIN_ROUNDS_FOR_INTERVAL

        ran = "one worker" if rounds == 1 else f"{rounds} rounds"
        self.note.setText(
            NO_ROUNDS.format(rounds=ran, needed=MIN_ROUNDS_FOR_INTERVAL)
            if rounds < MIN_ROUNDS_FOR_INTERVAL
            else "95 % intervals over the rounds; faster or slower only beyond 1 %, equal "
            "within 1 % below it (Help > What the numbers mean)."
        )
        lines: list[str] = []
        current = None
        for p in claims:
            if p.input_label != current:
                lines.append(("\n" if lines else "") + f"On {p.input_label}:")
                current = p.input_label
            lines.append(f"  {p.sentence()}")
        self.text.setPlainText(display_text("\n".join(lines)))
