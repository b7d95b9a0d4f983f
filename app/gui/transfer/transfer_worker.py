"""The transfer's worker: runs one cipher after the other through the engine's
:func:`~app.core.transfer.runner.run_transfer` in a pool thread (the app's one worker pattern,
:class:`~app.gui.worker.WorkerBase`) and relays what happens as signals.

Cancel sets the event the engine checks every 50 ms; it then kills both ends of the running
transfer and raises ``Cancelled``, and the worker still reports the run (``cancelled=True``)
with the ciphers that finished. Progress (one call per transfer run from the engine, which can
be thousands a second on a tiny input) goes out at most once per ``min_interval_s``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime

from PySide6.QtCore import QObject, Signal

from app import __version__
from app.core.bench.jobs import InputSpec
from app.core.bench.run_info import Environment
from app.core.errors import Cancelled
from app.core.transfer.results import TransferFailure, TransferResult, TransferRun
from app.core.transfer.runner import TransferOptions
from app.gui.worker import PROGRESS_INTERVAL_S, WorkerBase, emit_signal


@dataclass(frozen=True)
class TransferRequest:
    """What to send: the file at ``path``, or ``size_bytes`` of random data (``size_text`` as
    typed, for its label); each cipher in turn (``"none"``: the plaintext baseline)."""

    ciphers: tuple[str, ...]
    options: TransferOptions
    path: str | None = None
    size_bytes: int = 0
    size_text: str = ""


@dataclass(frozen=True)
class TransferProgress:
    """Where the run stands: cipher ``index`` of ``count``; its ``done`` runs of ``total``."""

    cipher: str
    index: int
    count: int
    done: int
    total: int
    phase: str = ""  # "generating the input", "transfer", "reading the machine"

    @property
    def fraction(self) -> float:
        part = self.done / self.total if self.total else 0.0
        return min(1.0, (self.index + part) / max(1, self.count))


class TransferWorkerSignals(QObject):
    started = Signal()
    progressed = Signal(object)  # TransferProgress (the latest one)
    cipher_finished = Signal(object)  # TransferResult
    cipher_failed = Signal(object)  # TransferFailure
    resulted = Signal(object)  # TransferRun: every cipher, also after a cancel
    failed = Signal(str)  # the run could not start (a vanished file) or the engine broke
    finished = Signal()  # always last


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class TransferWorker(WorkerBase):
    """Runs a :class:`TransferRequest`. ``cancel()`` from any thread."""

    signals: TransferWorkerSignals

    def __init__(
        self,
        request: TransferRequest,
        *,
        min_interval_s: float = PROGRESS_INTERVAL_S,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__(TransferWorkerSignals())
        self.request = request
        self._interval = min_interval_s
        self._clock = clock
        self._last_emit = float("-inf")

    def _progress(self, progress: TransferProgress, force: bool = False) -> None:
        now = self._clock()
        if force or now - self._last_emit >= self._interval:
            self._last_emit = now
            emit_signal(self.signals, "progressed", progress)

    def work(self) -> TransferRun:
        from app.core.bench.inputs import cleanup_generated, generated_input, inspect_file

        req = self.request
        started = _now()
        first = req.ciphers[0] if req.ciphers else ""
        if req.path is not None:
            source = inspect_file(req.path)  # UserError: vanished, a folder, unreadable
        else:
            self._progress(TransferProgress(first, 0, 1, 0, 1, "generating the input"), True)
            source = generated_input(req.size_bytes, label=f"random {req.size_text}")
        try:
            results, failures, cancelled = self._transfers(source)
        finally:
            cleanup_generated(source)
        from app.core.bench.environment import capture_environment

        self._progress(TransferProgress("", 1, 1, 1, 1, "reading the machine"), True)
        return TransferRun(
            input_label=source.label,
            input_bytes=source.size_bytes,
            options={
                "chunk_bytes": req.options.chunk_bytes,
                "repeat": req.options.repeat,
                "warmup": req.options.warmup,
                "timeout_s": req.options.timeout_s,
            },
            results=tuple(results),
            failures=tuple(failures),
            environment=Environment(capture_environment()),
            started_at=started,
            finished_at=_now(),
            cipherbench_version=__version__,
            cancelled=cancelled,
        )

    def _transfers(
        self, source: InputSpec
    ) -> tuple[list[TransferResult], list[TransferFailure], bool]:
        from app.core.transfer.runner import TransferFailed, run_transfer

        req = self.request
        count = len(req.ciphers)
        results: list[TransferResult] = []
        failures: list[TransferFailure] = []
        total = req.options.warmup + req.options.repeat
        for index, cipher in enumerate(req.ciphers):
            if self.cancel_requested:
                return results, failures, True
            self._progress(TransferProgress(cipher, index, count, 0, total, "transfer"), True)

            def on_run(done: int, runs: int, cipher: str = cipher, index: int = index) -> None:
                self._progress(TransferProgress(cipher, index, count, done, runs, "transfer"))

            try:
                result = run_transfer(
                    source.path,
                    cipher,
                    req.options,
                    input_label=source.label,
                    cancel=self._cancel,
                    on_run=on_run,
                )
            except Cancelled:
                return results, failures, True
            except (TransferFailed, OSError) as exc:
                failure = TransferFailure(cipher, _reason(exc, source))
                failures.append(failure)
                emit_signal(self.signals, "cipher_failed", failure)
                continue
            results.append(result)
            emit_signal(self.signals, "cipher_finished", result)
        return results, failures, False


def _reason(exc: BaseException, source: InputSpec) -> str:
    if isinstance(exc, OSError):  # the file went away between the start and this cipher
        return f"cannot read {source.label}: {exc.strerror or exc}"
    return str(exc)
