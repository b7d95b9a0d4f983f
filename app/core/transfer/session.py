"""A transfer session: several ciphers, one after the other, on one input, into one
:class:`~app.core.transfer.results.TransferRun` (what ``transfer`` and the Transfer window run).

    for event in transfer_session(["aes-256-gcm", "none"], TransferOptions(), path=path,
                                  cancel=event):     # Progress, Outcome ..., Finished
        ...

A cipher whose transfer fails (authentication, a dead or silent peer, an unknown cipher, the
file gone) becomes a :class:`NamedFailure` and the session goes on with the next one.
Setting ``cancel`` stops the running transfer (both of its processes are killed) and ends the
session with a run marked ``cancelled`` holding the ciphers that finished. ``KeyboardInterrupt``
(Ctrl-C, SIGTERM) is not caught: it stops the transfer and propagates, so the command line can
write nothing and exit 130.
"""

from __future__ import annotations

import threading
from collections.abc import Generator, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass

from app import __version__
from app.core.bench.inputs import cleanup_generated, generated_input, inspect_file
from app.core.bench.jobs import InputSpec
from app.core.bench.run_info import Environment
from app.core.errors import Cancelled, UserError
from app.core.runtime.envelope import NamedFailure, timestamp
from app.core.runtime.events import Event, Finished, Outcome, Progress, relayed
from app.core.transfer import runner  # looked up per call: tests replace runner.transfer
from app.core.transfer.results import TransferResult, TransferRun
from app.core.transfer.runner import TransferFailed, TransferOptions

TRANSFER = "transfer"
GENERATING = "generating the input"
READING_MACHINE = "reading the machine"


@dataclass(frozen=True)
class TransferProgress:
    """Where the session stands: cipher ``index`` of ``count``; its ``done`` runs of ``total``
    (warm-ups included). ``phase`` is :data:`TRANSFER`, :data:`GENERATING` or
    :data:`READING_MACHINE`."""

    cipher: str
    index: int
    count: int
    done: int
    total: int
    phase: str = ""
    warmups: int = 0  # of the total, the first runs, not timed

    @property
    def fraction(self) -> float:
        part = self.done / self.total if self.total else 0.0
        return min(1.0, (self.index + part) / max(1, self.count))

    def event(self) -> Progress:
        """This place as the run's :class:`Progress` (itself its detail): the step
        ``"aes-256-gcm (1 of 3)"`` and the run going on in it (``"warm-up 1 of 1"``, ``"run 2
        of 5"``), or the phase as a sentence."""
        if self.phase == TRANSFER:
            what = f"{self.cipher} ({self.index + 1} of {self.count})"
            return Progress(self.fraction, what, self, self._run_now())
        return Progress(self.fraction, self.phase[:1].upper() + self.phase[1:] + "…", self)

    def _run_now(self) -> str:
        """The run going on (the last one once all are done)."""
        if self.done < self.warmups:
            return f"warm-up {self.done + 1} of {self.warmups}"
        timed = self.total - self.warmups
        return f"run {min(self.done - self.warmups + 1, timed)} of {timed}"


@contextmanager
def transfer_input(
    path: str | None,
    *,
    size_bytes: int = 0,
    label: str | None = None,
    cancel: threading.Event | None = None,
) -> Iterator[InputSpec]:
    """The file at ``path`` (``UserError`` if it is missing, a folder, unreadable or empty), or
    ``size_bytes`` of random data in a scratch file labelled ``label``, deleted on leaving
    (``Cancelled`` when ``cancel`` is set while it is written)."""
    if path is not None:
        source = inspect_file(path)
    else:
        source = generated_input(size_bytes, label=label, cancel=cancel)
    try:
        yield source
    finally:
        cleanup_generated(source)


def run_transfers(
    source: InputSpec,
    ciphers: Sequence[str],
    options: TransferOptions,
    *,
    cancel: threading.Event | None = None,
    environment: bool = True,
) -> Iterator[Event]:
    """Transfer ``source`` with each of ``ciphers`` in turn: :class:`Progress` when a cipher
    starts, after each of its runs and once (phase :data:`READING_MACHINE`) before the
    environment is read, its ``detail`` a :class:`TransferProgress`; an :class:`Outcome` with
    each cipher's :class:`TransferResult` or :class:`NamedFailure` as it comes; then
    :class:`Finished` with the whole :class:`TransferRun`. ``environment=False`` skips
    reading the machine (an empty environment). Raises ``UserError`` for bad options before
    any transfer starts."""
    options.check()
    started, count, total = timestamp(), len(ciphers), options.warmup + options.repeat
    results: list[TransferResult] = []
    failures: list[NamedFailure] = []
    cancelled = False
    for index, cipher in enumerate(ciphers):
        if cancel is not None and cancel.is_set():
            cancelled = True
            break
        yield TransferProgress(cipher, index, count, 0, total, TRANSFER, options.warmup).event()
        try:
            outcome = yield from _one_cipher(source, cipher, (index, count), options, cancel)
        except Cancelled:
            cancelled = True
            break
        if isinstance(outcome, NamedFailure):
            failures.append(outcome)
        else:
            results.append(outcome)
        yield Outcome(outcome)
    env = Environment()
    if environment:
        if not cancelled:  # reading takes a moment (a cancelled run says only that)
            yield TransferProgress("", 1, 1, 1, 1, READING_MACHINE).event()
        env = _machine()
    yield Finished(
        TransferRun(
            input_label=source.label,
            input_bytes=source.size_bytes,
            options=asdict(options),
            results=tuple(results),
            failures=tuple(failures),
            environment=env,
            started_at=started,
            finished_at=timestamp(),
            cipherbench_version=__version__,
            cancelled=cancelled,
        )
    )


def transfer_session(
    ciphers: Sequence[str],
    options: TransferOptions,
    *,
    path: str | None = None,
    size_bytes: int = 0,
    label: str | None = None,
    cancel: threading.Event | None = None,
) -> Iterator[Event]:
    """:func:`run_transfers` on the file at ``path`` or, when it is None, on ``size_bytes`` of
    random data labelled ``label`` (said first: generating takes a moment), deleted at the
    end. ``UserError`` for a missing, unreadable or empty file; a cancel while the data is
    written ends with ``Finished(None)``: nothing ran."""
    if path is None:
        first = ciphers[0] if ciphers else ""
        yield TransferProgress(first, 0, 1, 0, 1, GENERATING).event()
    try:
        source_of = transfer_input(path, size_bytes=size_bytes, label=label, cancel=cancel)
        with source_of as source:
            yield from run_transfers(source, ciphers, options, cancel=cancel)
    except Cancelled:  # only the generating raises it: run_transfers ends a cancel itself
        yield Finished(None)


def _one_cipher(
    source: InputSpec,
    cipher: str,
    place: tuple[int, int],
    options: TransferOptions,
    cancel: threading.Event | None,
) -> Generator[Progress, None, TransferResult | NamedFailure]:
    """Every run of ``cipher`` (the ``place[0]``-th of ``place[1]``), with the progress after
    each; its failure as a :class:`NamedFailure`. Raises :class:`Cancelled`."""
    index, count = place
    try:
        runs = runner.transfer(
            source.path, cipher, options, input_label=source.label, cancel=cancel
        )
        return (
            yield from relayed(
                runs,
                lambda p: TransferProgress(
                    cipher, index, count, *p, TRANSFER, options.warmup
                ).event(),
            )
        )
    except (TransferFailed, UserError, OSError) as exc:
        return NamedFailure(cipher, _reason(exc, source))


def _machine() -> Environment:
    from app.core.bench.environment import capture_environment

    return Environment(capture_environment())


def _reason(exc: BaseException, source: InputSpec) -> str:
    if isinstance(exc, OSError):  # the file went away between the start and this cipher
        return f"cannot read {source.label}: {exc.strerror or exc}"
    return str(exc)
