"""The Comparisons tab of the main window: the last run's claims in plain words, each naming
its direction, interval and the rounds it rests on, grouped by input."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QHBoxLayout, QPlainTextEdit, QPushButton, QVBoxLayout, QWidget

from app.core.text import display_text
from app.gui.label import Label

WAITING = "Comparisons appear here when a run with two jobs or more has finished."
NO_ROUNDS = (
    "Each job ran in {rounds}: too few for a claim, because what varies between workers "
    "(7-11 % here for a decryption) shows only between rounds. A comparison needs {needed} "
    "rounds or more (Rounds, in Options); {table} also give each figure of the table its 95 % "
    "interval, as the button below does."
)

MIXED = (
    "95 % intervals over the rounds where the jobs ran in {needed} rounds or more; the inputs "
    "of runs with fewer have none (their lines say so)."
)


class ComparisonsPanel(QWidget):
    """Shows ``set_claims(list[PairComparison] | None)``; None: a run is going on. After a run
    with too few rounds for a claim, one button asks for the same run again in enough rounds
    (``rounds_requested``: the rounds; the window sets them and runs)."""

    rounds_requested = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        from app.core.study.claims import MIN_ROUNDS_FOR_INTERVAL

        self.needed = max(MIN_ROUNDS_FOR_INTERVAL, 6)  # 6: the presets' rounds, an interval
        self.note = Label(WAITING)
        self.note.setWordWrap(True)
        self.rerun_button = QPushButton(f"Run again in {self.needed} rounds for verdicts")
        self.rerun_button.setToolTip(
            "Sets Rounds (Options) to this and runs the chosen ciphers on the listed inputs "
            "again: each job in a fresh worker per round, the repetitions split over the rounds "
            "(about the same time as one round)."
        )
        self.rerun_button.setVisible(False)
        self.rerun_button.clicked.connect(lambda: self.rounds_requested.emit(self.needed))
        self.text = QPlainTextEdit()
        self.text.setReadOnly(True)
        row = QHBoxLayout()
        row.addWidget(self.rerun_button)
        row.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addWidget(self.note)
        layout.addLayout(row)
        layout.addWidget(self.text, 1)

    def set_claims(self, claims: list[Any] | None) -> None:
        self.rerun_button.setVisible(False)
        if claims is None:
            self.note.setText("Comparing when the run has finished…")
            self.text.clear()
            return
        if not claims:
            self.note.setText(WAITING)
            self.text.clear()
            return
        from app.core.study.claims import MIN_ROUNDS_FOR_INTERVAL as NEEDED

        short = [p.comparison.rounds for p in claims if p.comparison.rounds < NEEDED]
        # The button answers the latest run (its inputs come last): after it ran in enough
        # rounds, the earlier inputs' lines still say why they have no interval.
        self.rerun_button.setVisible(claims[-1].comparison.rounds < NEEDED)
        if len(short) == len(claims):
            rounds = min(short)
            ran = "one worker" if rounds == 1 else f"{rounds} rounds"
            self.note.setText(NO_ROUNDS.format(rounds=ran, needed=NEEDED, table=self.needed))
        elif short:
            self.note.setText(MIXED.format(needed=NEEDED))
        else:
            self.note.setText(
                "95 % intervals over the rounds; faster or slower only beyond 1 %, equal "
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
