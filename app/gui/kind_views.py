"""The views a kind's window shows beside its document's tables, by kind name: a view has
``set_result(result)`` and is made when its window is; one that also has
``show_progress(detail)`` is live: it is shown while a run goes and given each progress's
detail."""

from __future__ import annotations

from importlib import import_module
from typing import Any

from PySide6.QtWidgets import QWidget

# kind name -> (the tab's title, "module:Class" of the view), imported when a window opens
EXTRA_VIEWS: dict[str, tuple[str, str]] = {
    "profile": ("Flame graph", "app.gui.profile.flame_view:FlameView"),
    "leak": ("|t| against calls", "app.gui.leak.t_curve_view:TCurveView"),
}


def extra_view(kind_name: str) -> tuple[str, Any] | None:
    """``(title, a new view)`` for ``kind_name``, or None when its tables are all it shows."""
    if kind_name not in EXTRA_VIEWS:
        return None
    title, name = EXTRA_VIEWS[kind_name]
    module, _, cls = name.partition(":")
    view: QWidget = getattr(import_module(module), cls)()
    return title, view
