"""Texts the window shows about its input and environment, made from engine values."""

from __future__ import annotations

import importlib

from PySide6.QtCore import QMimeDatabase

from app.core.bench.jobs import InputSpec
from app.core.units import file_size
from app.gui.panels.input_panel import InputInfo


def sentence(text: str) -> str:
    """``text`` with a capital first letter (``str.capitalize`` would lowercase paths)."""
    return text[:1].upper() + text[1:]


def describe_type(path: str) -> str:
    mime = QMimeDatabase().mimeTypeForFile(path)
    comment = mime.comment() or "file"
    return f"{comment} ({mime.name()})"


def input_info(spec: InputSpec) -> InputInfo:
    short = file_size(spec.size_bytes)
    size = f"{short} ({spec.size_bytes:,} bytes)"
    if spec.generated:
        return InputInfo(spec.label, spec.path, size, "random bytes (incompressible)", True, short)
    return InputInfo(spec.label, spec.path, size, describe_type(spec.path), short_size=short)


def capture_environment_text() -> tuple[dict, str]:
    """The environment and its text (blocking: run it in a worker)."""
    from app.core.bench.environment import capture_environment, format_environment

    env = capture_environment()
    # Import the engine now, while the user chooses: importing it when Run is clicked would
    # hold the GIL and stall the window for tens of milliseconds.
    for module in ("app.core.bench.inputs", "app.core.bench.plan", "app.core.bench.runner"):
        importlib.import_module(module)

    return env, format_environment(env)
