"""What the window remembers between sessions, in ``QSettings``. Never keys or results.

Structured values are stored as JSON strings: INI and registry backends otherwise disagree on
lists with one element and on booleans.
"""

from __future__ import annotations

import json
import os
from typing import Any

from PySide6.QtCore import QByteArray, QSettings

MAX_RECENT_FILES = 8


class _JsonValue:
    """A setting stored as JSON, read and written as an attribute of :class:`AppSettings`;
    None when it was never set or cannot be read."""

    def __init__(self, key: str) -> None:
        self.key = key

    def __get__(self, settings: AppSettings | None, owner: type | None = None) -> Any:
        if settings is None:  # on the class: the descriptor itself
            return self
        return settings._json(self.key, None)

    def __set__(self, settings: AppSettings, value: dict[str, Any]) -> None:
        settings._set_json(self.key, value)


class AppSettings:
    """Typed access to the window's ``QSettings``."""

    def __init__(self, qsettings: QSettings | None = None) -> None:
        self.qsettings = qsettings if qsettings is not None else QSettings()

    def _json(self, key: str, default: Any) -> Any:
        raw = self.qsettings.value(key)
        if not isinstance(raw, str):
            return default
        try:
            return json.loads(raw)
        except ValueError:
            return default

    def _set_json(self, key: str, value: Any) -> None:
        self.qsettings.setValue(key, json.dumps(value))

    # geometry and splitters (opaque Qt blobs)
    def bytes_value(self, key: str) -> QByteArray | None:
        raw = self.qsettings.value(key)
        return raw if isinstance(raw, QByteArray) and not raw.isEmpty() else None

    def set_bytes_value(self, key: str, value: QByteArray) -> None:
        self.qsettings.setValue(key, value)

    @property
    def last_folder(self) -> str:
        raw = self.qsettings.value("paths/last_folder")
        return raw if isinstance(raw, str) and os.path.isdir(raw) else os.path.expanduser("~")

    @last_folder.setter
    def last_folder(self, folder: str) -> None:
        self.qsettings.setValue("paths/last_folder", folder)

    @property
    def recent_files(self) -> list[str]:
        value = self._json("paths/recent_files", [])
        return [p for p in value if isinstance(p, str)][:MAX_RECENT_FILES]

    def add_recent_file(self, path: str) -> list[str]:
        files = [path] + [p for p in self.recent_files if p != path]
        files = files[:MAX_RECENT_FILES]
        self._set_json("paths/recent_files", files)
        return files

    def remove_recent_file(self, path: str) -> list[str]:
        files = [p for p in self.recent_files if p != path]
        self._set_json("paths/recent_files", files)
        return files

    def clear_recent_files(self) -> None:
        self._set_json("paths/recent_files", [])

    # the main window's cipher selection and options, as its panels save them
    selection = _JsonValue("choices/selection")
    options = _JsonValue("choices/options")

    @property
    def generated_size(self) -> str:
        raw = self.qsettings.value("choices/generated_size")
        return raw if isinstance(raw, str) else ""

    @generated_size.setter
    def generated_size(self, text: str) -> None:
        self.qsettings.setValue("choices/generated_size", text)

    @property
    def hidden_columns(self) -> list[str] | None:
        """Headers of the results-table columns the user hid; None: never chosen."""
        value = self._json("table/hidden_columns", None)
        return [h for h in value if isinstance(h, str)] if isinstance(value, list) else None

    @hidden_columns.setter
    def hidden_columns(self, headers: list[str]) -> None:
        self._set_json("table/hidden_columns", list(headers))

    @property
    def keep_history(self) -> bool:
        """Store every finished run in the history (default on)."""
        value = self._json("history/keep", True)
        return value if isinstance(value, bool) else True

    @keep_history.setter
    def keep_history(self, keep: bool) -> None:
        self._set_json("history/keep", bool(keep))

    def sync(self) -> None:
        self.qsettings.sync()
