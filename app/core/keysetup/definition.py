"""What a key setup run asks for (its options); running it is :mod:`.run`, imported when a
run starts, so a menu that lists the kinds loads nothing of it."""

from __future__ import annotations

from app.core.runtime.definition import Definition, Option, whole_number

DEFINITION = Definition(
    command="keysetup",
    title="Key setup",
    summary="time to make a cipher context from a fresh key, per entry and library",
    options=(
        Option("cipher", "a cipher id (repeatable)", default=("aes-128-gcm",), many=True),
        Option("library", "a library, or all (default: the compiled ones)"),
        Option("rounds", "rounds, each entry in a fresh worker", whole_number(1, 100), 6),
    ),
    run="app.core.keysetup.run:run",
)
