"""A name in the window is text: a file named like HTML is not drawn as a heading, its control
and bidi characters are shown, and a tooltip of a path shows the path."""

from __future__ import annotations

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from app.gui.label import Label, plain_tip
from app.gui.panels.input_panel import InputInfo, InputPanel

NAME = "<h1 style=color:red>big</h1>\x1b[2J\u202etxt.exe"


def test_a_label_never_reads_its_text_as_rich_text(qtbot: QtBot) -> None:
    label = Label(NAME)
    qtbot.addWidget(label)
    assert label.textFormat() == Qt.TextFormat.PlainText and label.text() == NAME


def test_the_input_panel_shows_a_hostile_file_name_as_it_is(qtbot: QtBot) -> None:
    panel = InputPanel()
    qtbot.addWidget(panel)
    panel.set_inputs([InputInfo(NAME, "/data/" + NAME, "1 KB", "text")])
    shown = panel.name_label.text()
    assert shown.startswith("<h1 style=color:red>big</h1>")
    assert "\\x1b[2J" in shown and "\\u202e" in shown and "\x1b" not in shown
    assert "&lt;h1" in panel.name_label.toolTip() and "<h1" not in panel.name_label.toolTip()


def test_an_empty_tip_clears_the_tooltip() -> None:
    assert plain_tip("") == ""
