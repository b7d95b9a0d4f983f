"""Text that any UTF-8 writer accepts.

A file name is bytes on Linux; Python turns the bytes that are not UTF-8 into lone surrogates
(``b"data\\xff.bin"`` becomes ``"data\\udcff.bin"``), which ``json``, ``csv``, openpyxl and a
UTF-8 terminal all refuse to write. :func:`display_text` shows such a byte as ``\\xff`` instead:
readable, and the name can still be told from its neighbours.

:func:`did_you_mean` words the nearest names to a mistyped one (an unknown cipher, library or
preset), for the errors that name it.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping


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


def _folded(text: str) -> str:
    """``text`` as :func:`close_matches` compares it: lower case, without dashes, underscores,
    spaces or slashes (``AES_256`` and ``aes256`` both read ``aes256``)."""
    return "".join(c for c in text.lower() if c not in "-_ /")


def close_matches(
    word: str, choices: Iterable[str], aliases: Mapping[str, str] | None = None, limit: int = 5
) -> tuple[list[str], bool]:
    """The ``choices`` nearest to ``word`` (a mistyped name), best first, at most ``limit``,
    and whether more matched. A choice matches when it is similar (difflib's ratio, 0.6 or
    more, compared without dashes) or begins with ``word``; ``aliases`` maps a choice to
    another name it may be asked by (``bf-cbc``: ``Blowfish``). Equal scores keep the order of
    ``choices``."""
    wanted = _folded(word)
    if not wanted:
        return [], False
    scored: list[tuple[float, int, str]] = []
    for index, choice in enumerate(choices):
        best = 0.0
        for name in (choice, (aliases or {}).get(choice, "")):
            folded = _folded(name)
            if not folded:
                continue
            score = difflib.SequenceMatcher(None, wanted, folded).ratio()
            if len(wanted) >= 2 and folded.startswith(wanted):
                score += 0.5  # what was typed is the start of the name: say it first
            best = max(best, score)
        if best >= 0.6:
            scored.append((-best, index, choice))
    scored.sort()
    return [choice for _, _, choice in scored[:limit]], len(scored) > limit


def did_you_mean(
    word: str, choices: Iterable[str], aliases: Mapping[str, str] | None = None
) -> str:
    """`` (did you mean aes-256-cbc, aes-256-gcm, ...?)`` for the :func:`close_matches` of
    ``word``, to follow "unknown cipher 'aes256'"; empty when none is close."""
    matches, more = close_matches(word, choices, aliases)
    if not matches:
        return ""
    return f" (did you mean {', '.join(matches)}{', ...' if more else ''}?)"
