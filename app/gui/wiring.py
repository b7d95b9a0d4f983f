"""Connecting a sender's signals to the handlers named for them.

The GUI names its handlers ``_on_<source>_<signal>`` (STYLE.md 8), so a controller's or a
window's connections follow from its method names, as Qt's ``QMetaObject.connectSlotsByName``
follows ``on_<objectName>_<signal>``. :func:`connect_handlers` makes them, so adding a signal
and its handler is one method, not one more hand-kept ``connect`` line beside it.
"""

from __future__ import annotations

from PySide6.QtCore import QMetaMethod, QObject


def signal_names(sender: QObject) -> set[str]:
    """The names of every signal ``sender`` has (its class's and Qt's own)."""
    meta = sender.metaObject()
    methods = (meta.method(i) for i in range(meta.methodCount()))
    return {
        bytes(m.name().data()).decode()
        for m in methods
        if m.methodType() == QMetaMethod.MethodType.Signal
    }


def connect_handlers(sender: QObject, receiver: object, source: str) -> None:
    """Connect each signal ``x`` of ``sender`` to ``receiver._on_<source>_x`` where the receiver
    has one. A handler named for a signal the sender lacks raises ``TypeError``: a misspelt
    name must fail at once, not leave the handler silently unconnected."""
    prefix = f"_on_{source}_"
    signals = signal_names(sender)
    for name in sorted(n for n in dir(type(receiver)) if n.startswith(prefix)):
        signal = name.removeprefix(prefix)
        if signal not in signals:
            owner = type(receiver).__name__
            raise TypeError(f"{owner}.{name}: {type(sender).__name__} has no signal {signal!r}")
        getattr(sender, signal).connect(getattr(receiver, name))
