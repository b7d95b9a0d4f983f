"""The start of a decrypted file as the Decrypt dialog previews it: text, or a hex dump."""

from __future__ import annotations

import os
from dataclasses import dataclass

PREVIEW_BYTES = 4096


@dataclass(frozen=True)
class Preview:
    kind: str  # "text", "binary" (hex dump) or "empty"
    text: str
    shown_bytes: int
    total_bytes: int


def read_preview(path: str | os.PathLike[str], limit: int = PREVIEW_BYTES) -> Preview:
    """The start of ``path``: text when it is UTF-8 without control bytes, else a hex dump."""
    total = os.path.getsize(path)
    with open(path, "rb") as f:
        data = f.read(limit)
    if not data:
        return Preview("empty", "", 0, total)
    text = as_text(data, cut=total > len(data))
    if text is not None:
        return Preview("text", text, len(data), total)
    return Preview("binary", hex_dump(data), len(data), total)


def as_text(data: bytes, *, cut: bool = False) -> str | None:
    """``data`` as text when it is UTF-8 (a character cut at the end is allowed when ``cut``)
    and looks like text: no NUL, almost no other control characters."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        if not (cut and exc.start >= len(data) - 3 and exc.reason == "unexpected end of data"):
            return None
        text = data[: exc.start].decode("utf-8")
    text = text.removeprefix("\ufeff")
    controls = sum(1 for c in text if ord(c) < 32 and c not in "\t\n\r\f\v")
    if "\x00" in text or controls > len(text) // 100:
        return None
    return text


def hex_dump(data: bytes, width: int = 16) -> str:
    """``hexdump -C`` style: offset, bytes in hex, printable ASCII."""
    lines = []
    for offset in range(0, len(data), width):
        row = data[offset : offset + width]
        half = width // 2
        hex_part = " ".join(f"{b:02x}" for b in row[:half])
        if len(row) > half:
            hex_part += "  " + " ".join(f"{b:02x}" for b in row[half:])
        text = "".join(chr(b) if 32 <= b < 127 else "." for b in row)
        lines.append(f"{offset:08x}  {hex_part:<{width * 3}}  |{text}|")
    return "\n".join(lines)
