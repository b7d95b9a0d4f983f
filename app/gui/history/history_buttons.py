"""The History window's buttons as data: what each says, its tooltip, the handler it calls, and
the row it sits in (two rows, so the window fits a narrow screen: looking at runs and running
one here above, keeping them below)."""

from __future__ import annotations

from typing import NamedTuple

from PySide6.QtWidgets import QBoxLayout, QHBoxLayout, QPushButton, QWidget


class Button(NamedTuple):
    name: str  # the window's attribute: ``<name>_button``, calling ``_on_<name>_clicked``
    text: str
    tip: str
    row: int
    gap_before: bool = False


BUTTONS = (
    Button("open", "&Open", "Show the selected run's table and charts as they were", 0),
    Button(
        "compare",
        "&Compare",
        "Select exactly two runs: per job, the ratio of times with a 95 % interval",
        0,
    ),
    Button(
        "trend",
        "&Trend",
        "The selected run's series (the same definition on the same machine) over time: each "
        "entry's throughput, steps beyond the noise marked with what changed",
        0,
    ),
    Button(
        "merge",
        "&Merge",
        "Select two or more bench runs or cipher studies (machines, library versions): one "
        "table with a column group per run, median [95 % interval], a view normalised to a "
        "reference entry, and what differs between the machines",
        0,
    ),
    Button(
        "run_here",
        "&Run this on my machine",
        "Run the selected cipher study on this machine with exactly its definition (ciphers, "
        "sizes, rounds, repetitions, data seed), store it, and show it merged with the original",
        0,
        gap_before=True,
    ),
    Button(
        "run_file",
        "Run a study &file here…",
        "Run the cipher study in an exported JSON file (study --out x.json, or a history "
        "export) on this machine as defined, and show it merged with the original; the file "
        "itself is not imported",
        0,
    ),
    Button("delete", "&Delete…", "Delete the selected runs from the history", 1),
    Button("import", "&Import…", "Add a run exported as JSON (here or on another machine)", 1),
    Button("export", "E&xport…", "Write the selected run as JSON or in its kind's formats", 1),
)


def add_buttons(window: QWidget, layout: QBoxLayout) -> None:
    """Make every button as ``window.<name>_button``, connected to its handler, in its row."""
    rows = [QHBoxLayout() for _ in range(1 + max(b.row for b in BUTTONS))]
    for b in BUTTONS:
        button = QPushButton(b.text)
        button.setToolTip(b.tip)
        button.clicked.connect(getattr(window, f"_on_{b.name}_clicked"))
        setattr(window, f"{b.name}_button", button)
        if b.gap_before:
            rows[b.row].addSpacing(16)
        rows[b.row].addWidget(button)
    for row in rows:
        row.addStretch(1)
        layout.addLayout(row)
