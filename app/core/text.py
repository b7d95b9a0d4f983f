"""Text that any UTF-8 writer accepts.

A file name is bytes on Linux; Python turns the bytes that are not UTF-8 into lone surrogates
(``b"data\\xff.bin"`` becomes ``"data\\udcff.bin"``), which ``json``, ``csv``, openpyxl and a
UTF-8 terminal all refuse to write. :func:`display_text` shows such a byte as ``\\xff`` instead:
readable, and the name can still be told from its neighbours. :func:`visible_text` goes one
step further for text that reaches a terminal, a spreadsheet or a paper: every control
character (C0, DEL, C1) and every bidirectional or invisible format control is written as an
escape too, so a name cannot clear a screen, retitle a terminal, split a table row or reverse
the text after it.

:func:`did_you_mean` words the nearest names to a mistyped one (an unknown cipher, library or
preset), for the errors that name it; :func:`unknown_choice` the whole of such an error.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Mapping, Sequence


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


# C0 and DEL, C1, and the format controls that reorder or hide text (bidi embeddings, overrides
# and isolates, the marks, zero-width characters, the BOM).
_CONTROLS = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def visible_text(text: str, keep: str = "") -> str:
    """``text`` as :func:`display_text` shows it, with every control and bidi character
    written as ``\\x1b`` or ``\\u202e`` (except those in ``keep``, say ``"\\n"`` for text
    of several lines): what a name holds is shown, never obeyed."""
    text = display_text(text)
    if not _CONTROLS.search(text):
        return text
    if not keep:
        return _CONTROLS.sub(_escape, text)
    return _CONTROLS.sub(lambda m: m.group() if m.group() in keep else _escape(m), text)


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
    another name it may be asked by (``bf-cbc``: ``Blowfish``). Of equal scores, the one that
    shares a longer start with ``word`` comes first (``aes-128-cbx``: ``aes-128-cbc`` before
    ``aes-128-ecb``), then the order of ``choices``."""
    wanted = _folded(word)
    if not wanted:
        return [], False
    scored: list[tuple[float, int, int, str]] = []
    for index, choice in enumerate(choices):
        best, start = 0.0, 0
        for name in (choice, (aliases or {}).get(choice, "")):
            folded = _folded(name)
            if not folded:
                continue
            score = difflib.SequenceMatcher(None, wanted, folded).ratio()
            if len(wanted) >= 2 and folded.startswith(wanted):
                score += 0.5  # what was typed is the start of the name: say it first
            best = max(best, score)
            start = max(start, _shared_start(wanted, folded))
        if best >= 0.6:
            scored.append((-best, -start, index, choice))
    scored.sort()
    return [choice for *_, choice in scored[:limit]], len(scored) > limit


def _shared_start(a: str, b: str) -> int:
    """How many characters ``a`` and ``b`` share from their start."""
    return next(
        (i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b))
    )


def did_you_mean(
    word: str, choices: Iterable[str], aliases: Mapping[str, str] | None = None
) -> str:
    """`` (did you mean aes-256-cbc, aes-256-gcm, ...?)`` for the :func:`close_matches` of
    ``word``, to follow "unknown cipher 'aes256'"; empty when none is close."""
    matches, more = close_matches(word, choices, aliases)
    if not matches:
        return ""
    return f" (did you mean {', '.join(matches)}{', ...' if more else ''}?)"


def counted(n: int, noun: str) -> str:
    """``1 round``, ``6 rounds``, ``1,024 chunks``: a count and its noun, plural unless one."""
    return f"{n:,} {noun}{'' if n == 1 else 's'}"


def unknown_choice(noun: str, word: str, choices: Sequence[str], more: str = "") -> str:
    """``unknown preset 'fast' (did you mean fastest?); choose from a, b`` and ``more`` (", or
    give a .toml file"): the error for a ``word`` not among ``choices``."""
    listed = ", ".join(choices)
    return f"unknown {noun} {word!r}{did_you_mean(word, choices)}; choose from {listed}{more}"
