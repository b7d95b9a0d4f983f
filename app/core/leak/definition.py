"""What a leak test asks for (its options); running it is :mod:`.run`, imported when a run
starts, so a menu that lists the kinds loads nothing of it."""

from __future__ import annotations

from app.core.leak.job import CLASSES, CONTROLS
from app.core.runtime.definition import Definition, Option, entry_options, whole_number

AES_INSTRUCTIONS = ("on", "off", "both")

DEFINITION = Definition(
    command="leak",
    title="Timing leakage",
    summary="whether an entry's time depends on its data (dudect's test): two classes of "
    "inputs, Welch's t, the effect's size",
    options=(
        *entry_options("aes-128-ecb", "; or a control: " + ", ".join(CONTROLS)),
        Option(
            "classes",
            "what tells the two classes apart: "
            + "; ".join(f"{name}: {what}" for name, what in CLASSES.items()),
            default="fixed-random",
            choices=tuple(CLASSES),
        ),
        Option(
            "length", "message bytes (whole blocks for ECB and CBC)", whole_number(1, 65536), 16
        ),
        Option("budget", "seconds of calls an entry", whole_number(2, 86400), 20),
        Option(
            "aes_instructions",
            "on, off (the CPU's AES instructions switched off in the worker, as the ladder "
            "does) or both",
            default="on",
            choices=AES_INSTRUCTIONS,
            label="AES instructions",
        ),
        Option(
            "seed",
            "the classes' draw (default: a new one, printed in the method)",
            whole_number(0, 2**63 - 1),
        ),
    ),
    run="app.core.leak.run:run",
)
