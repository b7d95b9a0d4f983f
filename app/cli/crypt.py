"""The ``encrypt`` and ``decrypt`` subcommands: CipherBench files and raw exports.

::

    python main.py encrypt IN -o OUT [--cipher ID] [--library NAME] [--key-bits N]
        [--password-file F | --password-env VAR | --key-file K | --new-key-file K]
        [--chunk-size SIZE] [--force]
    python main.py encrypt IN -o OUT --cipher ID --raw --key-out K.json [--force]
    python main.py decrypt IN -o OUT [--password-file F | --password-env VAR | --key-file K]
        [--allow-expensive-kdf] [--force]
    python main.py decrypt IN -o OUT --raw --key-in K.json [--force]

Secrets: ``--password-file F`` takes the first line of F; ``--password-env VAR`` the variable's
value; ``--key-file K`` reads an existing key file; ``--new-key-file K`` (encrypt only) creates K
(mode 0600, never over an existing file) and encrypts with it. With none of them and a terminal,
the password is asked without echo (twice when encrypting); without a terminal it is an error.

A file whose Argon2id cost is above the reader's policy (:mod:`app.core.files.container_keys`) is
refused before anyone is asked for a password, with the estimated time and memory, unless
``--allow-expensive-kdf``; such a derivation runs in a child process, so Ctrl-C stops it at once.

:func:`commands` declares both subcommands, each with ``handler=fn``, ``fn(args) -> int``. Every
bad input raises :class:`UserError` (one sentence) for the caller's ``main`` to print as
``cipherbench: error: ...`` with exit status 2; the core's structured errors get their option
hints there, from :func:`app.cli.messages.cli_message`. A progress bar goes to stderr when it is a
terminal. Passwords and keys are never printed.
"""

from __future__ import annotations

import argparse
import functools
import getpass
import os
import sys
import time
from collections.abc import Callable

from app.cli.command import Command
from app.cli.running import library_name
from app.cli.terminal import redraw
from app.core.ciphers.registry import LIBRARIES, CipherSpec, weakness_labels
from app.core.errors import UserError
from app.core.files.container import (
    DEFAULT_CHUNK_BYTES,
    DEFAULT_CIPHER,
    ContainerInfo,
    KdfCost,
    ProgressCallback,
    choose_spec,
)
from app.core.files.protect import (
    DecryptContainer,
    EncryptContainer,
    ExportRaw,
    Secret,
    decrypt_container,
    describe_secret,
    encrypt_container,
    export_raw_file,
)
from app.core.files.rawexport import decrypt_raw
from app.core.files.request_fields import request_from
from app.core.runtime.children import hide_from_children
from app.core.runtime.output_checks import protect, protecting
from app.core.runtime.secrets import hold_secrets
from app.core.units import MB, file_size, parse_size

_PASSWORD_FILE_MAX_BYTES = 64 * 1024


def commands() -> tuple[Command, ...]:
    """``encrypt`` and ``decrypt``, declared here rather than in :func:`app.cli.main._commands`:
    this module may be missing from a build."""
    return (
        Command(
            "encrypt",
            help="encrypt a file to the CipherBench format (or raw, for OpenSSL)",
            description="Encrypt IN into OUT: the CipherBench format (authenticated, chunked; a "
            "password or a key file), or with --raw the bare ciphertext plus a JSON key file.",
            arguments=_encrypt_arguments,
            handler=run_encrypt,
        ),
        Command(
            "decrypt",
            help="decrypt a CipherBench file (or a raw export with its key file)",
            description="Decrypt IN into OUT. OUT appears only once every chunk and the end of "
            "IN authenticated.",
            arguments=_decrypt_arguments,
            handler=run_decrypt,
        ),
    )


def _encrypt_arguments(enc: argparse.ArgumentParser) -> None:
    _add_in_out(enc, reads="file to encrypt (only read)", writes="encrypted file")
    enc.add_argument("--cipher", default=DEFAULT_CIPHER, metavar="ID", help="default %(default)s")
    enc.add_argument(
        "--library",
        type=library_name(),
        metavar="NAME",
        help=f"{', '.join(LIBRARIES)} (default: the fastest that has ID)",
    )
    enc.add_argument("--key-bits", type=int, metavar="N", help="for Blowfish and RC4")
    secrets_group = enc.add_mutually_exclusive_group()
    _add_secret_options(secrets_group)
    secrets_group.add_argument(
        "--new-key-file", metavar="K", help="create a new key file K (mode 0600) and use it"
    )
    enc.add_argument(
        "--chunk-size",
        metavar="SIZE",
        default=str(DEFAULT_CHUNK_BYTES),
        help="plaintext bytes per authenticated chunk (default 1MiB)",
    )
    enc.add_argument("--raw", action="store_true", help="bare ciphertext for other tools")
    enc.add_argument("--key-out", metavar="K.json", help="with --raw: where the key goes")
    enc.add_argument("--force", action="store_true", help="overwrite OUT (and K.json)")


def _decrypt_arguments(dec: argparse.ArgumentParser) -> None:
    _add_in_out(dec, reads="encrypted file (only read)", writes="decrypted file")
    _add_secret_options(dec.add_mutually_exclusive_group())
    dec.add_argument(
        "--library",
        type=library_name(),
        metavar="NAME",
        help=f"{', '.join(LIBRARIES)} (default: the fastest that has it)",
    )
    dec.add_argument("--raw", action="store_true", help="IN is a raw export")
    dec.add_argument("--key-in", metavar="K.json", help="with --raw: its key file")
    dec.add_argument(
        "--allow-expensive-kdf",
        action="store_true",
        help="pay a password derivation above the usual cost (only for a file you trust)",
    )
    dec.add_argument("--force", action="store_true", help="overwrite OUT")


def _add_in_out(parser: argparse.ArgumentParser, *, reads: str, writes: str) -> None:
    """What both commands start with: the file IN they read and the file OUT (``-o``) they
    write."""
    parser.add_argument("input", metavar="IN", help=reads)
    parser.add_argument("-o", "--output", metavar="OUT", required=True, help=writes)


def _add_secret_options(group: argparse._MutuallyExclusiveGroup) -> None:
    group.add_argument("--password-file", metavar="F", help="password: the first line of F")
    group.add_argument("--password-env", metavar="VAR", help="password: environment variable")
    group.add_argument("--key-file", metavar="K", help="an existing key file instead")


# --- handlers --------------------------------------------------------------------------------


def _guarding_secrets(handler: Callable[[argparse.Namespace], int]) -> Callable[..., int]:
    """``handler`` with the password and key files it reads as inputs: no output may replace
    them (``--force`` included), or the secret is gone with the file; and the process that
    holds the secret leaves no core dump."""

    @functools.wraps(handler)
    def guarded(args: argparse.Namespace) -> int:
        hold_secrets()
        with protecting():
            for name, what in (
                ("password_file", "the password file"),
                ("key_file", "the key file"),
            ):
                if getattr(args, name, None):
                    protect(getattr(args, name), what)
            return handler(args)

    return guarded


@_guarding_secrets
def run_encrypt(args: argparse.Namespace) -> int:
    spec = choose_spec(args.cipher, args.library, args.key_bits)
    warning = weakness_warning(spec)
    if args.raw:
        return _run_encrypt_raw(args, spec, warning)
    if args.key_out:
        raise UserError("--key-out goes with --raw; a CipherBench file takes a password or a key")
    secret = (
        Secret.NEW_KEY_FILE
        if args.new_key_file
        else Secret.KEY_FILE
        if args.key_file
        else Secret.PASSWORD
    )
    request = EncryptContainer(
        args.input,
        args.output,
        secret,
        cipher_id=spec.id,
        library=spec.library,
        key_bits=spec.key_bits,
        chunk_bytes=parse_size(args.chunk_size),
        key_path=args.new_key_file or args.key_file,
        force=args.force,
    )
    with _ProgressBar("encrypting") as bar:

        def ready() -> None:  # every check passed and the secret is known
            if warning:
                _stderr(warning)
            bar.restart()

        done = encrypt_container(
            request,
            ask_password=lambda: _password(args, confirm=True),
            on_ready=ready,
            on_progress=bar.callback,
        )
    print(f"encrypted {args.input} -> {args.output}: {_describe(done.info)}")
    if done.new_key_file is not None:
        print(f"new key file {done.new_key_file}: keep it private and keep a copy")
    return 0


def _run_encrypt_raw(args: argparse.Namespace, spec: CipherSpec, warning: str | None) -> int:
    if not args.key_out:
        raise UserError("--raw needs --key-out K.json, the file that receives the key")
    if args.password_file or args.password_env or args.key_file or args.new_key_file:
        raise UserError("--raw makes a random key for --key-out; it takes no password or key")
    if warning:
        _stderr(warning)
    with _ProgressBar("encrypting") as bar:
        request = ExportRaw(
            args.input, args.output, args.key_out, spec.id, spec.library, spec.key_bits, args.force
        )
        raw_key = export_raw_file(request, on_progress=bar.callback)
    size = file_size(raw_key.ciphertext_bytes)
    print(
        f"wrote {args.output} (raw {raw_key.cipher_id}, {size}) and its key {args.key_out}: "
        "keep that file private"
    )
    return 0


@_guarding_secrets
def run_decrypt(args: argparse.Namespace) -> int:
    if args.raw:
        if not args.key_in:
            raise UserError("--raw needs --key-in K.json, the key file written with the export")
        if args.password_file or args.password_env or args.key_file:
            raise UserError("--raw takes its key from --key-in, not a password or key file")
        with _ProgressBar("decrypting") as bar:
            raw_key = decrypt_raw(
                args.input,
                args.output,
                args.key_in,
                library=args.library,
                force=args.force,
                on_progress=bar.callback,
            )
        print(f"decrypted {args.input} -> {args.output} (raw {raw_key.cipher_id})")
        return 0
    if args.key_in:
        raise UserError("--key-in goes with --raw; a CipherBench file takes a password or a key")
    request = request_from(
        DecryptContainer,
        args,
        ("output", "library", "force", "allow_expensive_kdf"),
        source=args.input,
        key_path=args.key_file,
    )
    with _ProgressBar("decrypting") as bar:
        done = decrypt_container(
            request,
            ask_password=lambda: _password(args, confirm=False),
            on_expensive_kdf=_warn_expensive_kdf,
            on_ready=bar.restart,
            on_progress=bar.callback,
        )
    info = done.info
    print(f"decrypted {args.input} -> {args.output}: {_describe(info)}, authenticated")
    return 0


# --- helpers ---------------------------------------------------------------------------------


def weakness_warning(spec: CipherSpec) -> str | None:
    """One line for a cipher the registry marks weak (ECB, 64-bit blocks, DES, RC4), else None."""
    reasons = weakness_labels(spec)
    if not reasons:
        return None
    return (
        f"warning: {spec.id} is weak ({', '.join(reasons)}); fine for benchmarks, "
        f"use {DEFAULT_CIPHER} to protect data"
    )


def _password(args: argparse.Namespace, *, confirm: bool) -> str:
    """The password from the option given, else asked on the terminal."""
    if args.password_file:
        return _password_from_file(args.password_file)
    if args.password_env:
        value = os.environ.get(args.password_env)
        hide_from_children(args.password_env)  # the Argon2id child must not inherit it
        if value is None:
            raise UserError(f"the environment variable {args.password_env} is not set")
        if not value:
            raise UserError(f"the environment variable {args.password_env} is empty")
        return value
    if not sys.stdin.isatty():
        raise UserError(
            "no password given and no terminal to ask on; use --password-file, --password-env "
            "or --key-file"
        )
    first = getpass.getpass("Password: ")
    if not first:
        raise UserError("the password is empty")
    if confirm and getpass.getpass("Password again: ") != first:
        raise UserError("the two passwords differ")
    return first


def _password_from_file(path: str) -> str:
    try:
        with open(path, "rb") as f:
            data = f.read(_PASSWORD_FILE_MAX_BYTES + 1)
    except OSError as exc:
        raise UserError(f"cannot read the password file {path}: {exc.strerror}") from None
    if len(data) > _PASSWORD_FILE_MAX_BYTES:
        raise UserError(f"the password file {path} is too large to hold a password")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise UserError(f"the password file {path} is not UTF-8 text") from None
    lines = text.splitlines()
    if not lines or not lines[0]:
        raise UserError(f"the password file {path} has an empty first line")
    return lines[0]


def _warn_expensive_kdf(cost: KdfCost) -> None:
    _stderr(f"deriving the key will take {cost.describe()}; Ctrl-C stops it")


def _describe(info: ContainerInfo) -> str:
    return (
        f"{info.cipher_id} [{info.library}], {file_size(info.plaintext_bytes)} "
        f"in {info.seconds:.2f} s ({describe_secret(info)})"
    )


def _stderr(line: str) -> None:
    print(f"cipherbench: {line}", file=sys.stderr)


class _ProgressBar:
    """A one-line bar on stderr when it is a terminal (the core already throttles the calls).
    ``callback`` is None otherwise; leaving the ``with`` block ends a bar cut short by an error
    so the error message starts on a line of its own."""

    def __init__(self, label: str) -> None:
        self._label = label
        self._started = time.monotonic()
        self._open = False
        self.callback: ProgressCallback | None = self._show if sys.stderr.isatty() else None

    def restart(self) -> None:
        """Measure the rate from now (after any password prompt)."""
        self._started = time.monotonic()

    def __enter__(self) -> _ProgressBar:
        return self

    def __exit__(self, *exc: object) -> None:
        if self._open:
            sys.stderr.write("\n")
            self._open = False

    def _show(self, done: int, total: int) -> None:
        fraction = done / total if total else 1.0
        width = 30
        filled = int(fraction * width)
        elapsed = time.monotonic() - self._started
        rate = f"{done / elapsed / MB:7.1f} MB/s" if elapsed > 0.2 else ""
        line = (
            f"{self._label} [{'#' * filled}{'.' * (width - filled)}] {fraction:4.0%} "
            f"{file_size(done)} / {file_size(total)} {rate}"
        )
        redraw(line, 79)
        self._open = True
        if done >= total:
            sys.stderr.write("\n")
            self._open = False
        sys.stderr.flush()
