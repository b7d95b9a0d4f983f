"""Running a transfer study (``workload = "transfer"``, seed 004): every cipher on every input
sent over TCP loopback by :func:`app.core.transfer.runner.run_transfer`, with the cipher study's
events, so the command line and the window follow it the same way:

    run = TransferStudyRun(study)
    for event in run.events():   # StudyStarted, StepStarted, StepProgress, CellFinished
        ...                      # (result: TransferResult), CellFailed, StudyFinished
    run.cancel()                 # from any thread

Each cell runs ``warmup + repeat`` transfers in one receiver and one sender process (both killed
whatever happens). A failed transfer (a vanished file, a dead peer) fails its cell with the
message and the rest goes on; a cancel ends with the finished cells kept. Generated inputs are
the cipher study's seeded bytes, deleted at the end.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Generator, Sequence
from datetime import UTC, datetime

from app import __version__
from app.core.bench.inputs import check_unchanged, inspect_file
from app.core.bench.jobs import InputSpec
from app.core.bench.run_info import Environment
from app.core.errors import Cancelled, UserError
from app.core.study.definition import SizeInput, Study
from app.core.study.result import StudyFailure
from app.core.study.runner import (
    Cell,
    CellFailed,
    CellFinished,
    StepProgress,
    StepStarted,
    StudyFinished,
    StudyStarted,
    study_inputs,
)
from app.core.study.transfer_result import TransferStudyResult
from app.core.transfer.framing import PLAINTEXT, transfer_spec
from app.core.transfer.results import TransferResult
from app.core.transfer.runner import TransferFailed, TransferOptions, run_transfer

_POLL_S = 0.1


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def transfer_label(cipher_id: str) -> str:
    """The label a transfer result of ``cipher_id`` carries ("aes-256-gcm (cryptography)")."""
    spec = transfer_spec(cipher_id)
    return PLAINTEXT if spec is None else f"{spec.id} ({spec.library})"


class TransferStudyRun:
    """One run of a transfer study; ``files`` and ``sizes`` replace the study's own."""

    def __init__(
        self,
        study: Study,
        *,
        files: Sequence[str] | None = None,
        sizes: Sequence[SizeInput] | None = None,
        environment: bool = True,
    ) -> None:
        study.validate()
        self.study = study
        self.ciphers = [c.cipher_id for c in study.ciphers]
        self.sizes = tuple(study.sizes if sizes is None else sizes)
        paths = tuple(study.files if files is None else files)
        if not self.sizes and not paths:
            raise UserError(f"the study {study.name} needs input files or sizes")
        self.files = [inspect_file(p) for p in paths]
        self.options = TransferOptions(
            chunk_bytes=study.chunk_bytes, repeat=study.repeat, warmup=study.warmup
        )
        self.options.check()
        self._want_environment = environment
        self._cancel = threading.Event()

    def cancel(self) -> None:
        self._cancel.set()

    @property
    def cancelled(self) -> bool:
        return self._cancel.is_set()

    def events(self) -> Generator[object, None, None]:
        try:
            with study_inputs(self, "transfer-study-") as (inputs, started, env):
                yield from self._run(inputs, started, env)
        finally:
            self._cancel.set()  # a closed generator stops the running cell's processes

    def _run(
        self, inputs: list[InputSpec], started: str, env: dict[str, object]
    ) -> Generator[object, None, None]:
        pairs = [(source, c) for source in inputs for c in self.ciphers]
        cells = tuple(
            Cell(i, transfer_label(c), source.label, source.size_bytes)
            for i, (source, c) in enumerate(pairs)
        )
        yield StudyStarted(cells, 1, len(cells))
        results: list[TransferResult] = []
        failures: list[StudyFailure] = []
        for cell, (source, cipher_id) in zip(cells, pairs, strict=True):
            if self._cancel.is_set():
                break
            yield StepStarted(cell.index, 0, cell)
            outcome = yield from self._cell(cell, source, cipher_id)
            if isinstance(outcome, TransferResult):
                results.append(outcome)
                yield CellFinished(cell, outcome)  # type: ignore[arg-type]
            elif outcome is not None:
                failures.append(StudyFailure(cell.cipher_label, cell.input_label, outcome))
                yield CellFailed(cell, outcome)
        yield StudyFinished(
            TransferStudyResult(  # type: ignore[arg-type]
                study=self.study,
                results=tuple(results),
                failures=tuple(failures),
                environment=Environment(env),
                started_at=started,
                finished_at=_now(),
                cancelled=self._cancel.is_set() or len(results) + len(failures) < len(cells),
                tool={"name": "CipherBench", "version": __version__},
            )
        )

    def _cell(
        self, cell: Cell, source: InputSpec, cipher_id: str
    ) -> Generator[object, None, TransferResult | str | None]:
        """Run one cell in a thread, relaying its progress; its result, a failure message, or
        None when cancelled."""
        news: queue.Queue[tuple[str, object]] = queue.Queue()

        def work() -> None:
            try:
                check_unchanged(source)
                result = run_transfer(
                    source.path,
                    cipher_id,
                    self.options,
                    input_label=source.label,
                    cancel=self._cancel,
                    on_run=lambda done, total: news.put(("progress", done / total)),
                )
                news.put(("done", result))
            except Cancelled:
                news.put(("cancelled", None))
            except (TransferFailed, UserError, OSError) as exc:
                news.put(("failed", getattr(exc, "strerror", None) or str(exc)))
            except Exception as exc:  # a bug must fail its cell, never leave the study waiting
                news.put(("failed", f"internal error: {type(exc).__name__}: {exc}"))

        thread = threading.Thread(target=work, name="cipherbench-transfer-cell", daemon=True)
        thread.start()
        ended = False
        try:
            while True:
                try:
                    kind, value = news.get(timeout=_POLL_S)
                except queue.Empty:
                    if thread.is_alive() or not news.empty():
                        continue
                    ended = True  # it ended without a word: fail the cell, never wait forever
                    return "the transfer stopped without a result"
                if kind == "progress":
                    assert isinstance(value, float)
                    yield StepProgress(cell.index, "transfer", value)
                    continue
                ended = True
                if kind == "done":
                    assert isinstance(value, TransferResult)
                    return value
                return None if kind == "cancelled" else str(value)
        finally:
            if not ended:  # the generator was closed mid-cell: stop its processes
                self._cancel.set()
            thread.join()
