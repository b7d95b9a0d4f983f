"""Text that any UTF-8 writer accepts.

A file name is bytes on Linux; Python turns the bytes that are not UTF-8 into lone surrogates
(``b"data\\xff.bin"`` becomes ``"data\\udcff.bin"``), which ``json``, ``csv``, openpyxl and a
UTF-8 terminal all refuse to write. :func:`display_text` shows such a byte as ``\\xff`` instead:
readable, and the name can still be told from its neighbours.
"""

from __future__ import annotations


def display_text(text: str) -> str:
    """``text`` with every lone surrogate written as a backslash escape: ``\\xff`` for a byte a
    file name held (surrogateescape), ``\\ud800`` for any other. Other text is returned as it is."""
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        pass
    try:
        return text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    except UnicodeEncodeError:  # a surrogate no byte produced (e.g. a Windows file name)
        return text.encode("utf-8", "backslashreplace").decode("utf-8")
