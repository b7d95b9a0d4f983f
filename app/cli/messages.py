"""The command line's wording of the core's structured errors: the one place that adds options.

The core's messages name no command-line option (the window has none to give); :func:`cli_message`
adds the option or command that helps, for ``main`` to print as ``cipherbench: error: ...``.
"""

from __future__ import annotations

from app.core.ciphers.registry import UnknownCipher
from app.core.errors import UserError
from app.core.files.container_keys import ExpensiveKdf
from app.core.files.protect import KeyFileExists, KeyFileMissing, NeedsKeyFile, RawKeyGiven
from app.core.files.rawexport_key import ContainerKeyGiven
from app.core.runtime.output_checks import OutputExists

# What to add to a structured error's own message.
_HINTS: tuple[tuple[type[UserError], str], ...] = (
    (OutputExists, "; overwrite it with --force"),
    (UnknownCipher, "; `python main.py list` shows them all"),
    (ExpensiveKdf, "; pass --allow-expensive-kdf if you trust it"),
    (NeedsKeyFile, "; give it with --key-file"),
    (KeyFileMissing, "; create one with --new-key-file"),
    (RawKeyGiven, "; decrypt that with --raw --key-in"),
    (ContainerKeyGiven, "; decrypt without --raw"),
)


def cli_message(exc: UserError) -> str:
    """``exc``'s message for the terminal, with the option that helps where there is one."""
    if isinstance(exc, KeyFileExists):
        return f"{exc.path} already exists; use --key-file {exc.path} to encrypt with it"
    for kind, hint in _HINTS:
        if isinstance(exc, kind):
            return f"{exc}{hint}"
    return str(exc)
