"""Connecting signals to the handlers named for them."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QObject, Signal

from app.gui.wiring import connect_handlers


class _Sender(QObject):
    changed = Signal(int)
    finished = Signal()


class _Receiver:
    def __init__(self) -> None:
        self.seen: list[object] = []

    def _on_sender_changed(self, value: int) -> None:
        self.seen.append(value)

    def _on_sender_finished(self) -> None:
        self.seen.append("finished")

    def _on_other_changed(self, value: int) -> None:  # another source's: left alone
        self.seen.append(("other", value))


def test_each_signal_reaches_the_handler_named_for_it() -> None:
    sender, receiver = _Sender(), _Receiver()
    connect_handlers(sender, receiver, "sender")
    sender.changed.emit(3)
    sender.finished.emit()
    assert receiver.seen == [3, "finished"]


def test_a_handler_for_a_signal_the_sender_lacks_is_refused() -> None:
    class Misspelt(_Receiver):
        def _on_sender_chnged(self, value: int) -> None: ...

    with pytest.raises(TypeError, match="_on_sender_chnged"):
        connect_handlers(_Sender(), Misspelt(), "sender")
