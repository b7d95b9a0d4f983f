"""What every kind of study run shares: :class:`GridRun` (which a cipher study's ``StudyRun``
and a transfer study's ``TransferStudyRun`` extend) checks the study, reads its files, makes
its sizes and gives ``events()`` (the one vocabulary, :mod:`app.core.study.steps`) and
``cancel()``.

Generated inputs are pseudo-random from ``random.Random(seed)``: the same study makes the same
bytes on any machine. They live in the process's scratch folder and are deleted at the end.
"""

from __future__ import annotations

import random
from collections.abc import Generator, Iterator, Sequence
from contextlib import contextmanager
from typing import Generic, TypeVar

from app.core.bench.inputs import generated_input, inspect_file
from app.core.bench.jobs import InputSpec
from app.core.bench.rounds import RunDriver
from app.core.errors import UserError
from app.core.runtime import scratch
from app.core.runtime.envelope import timestamp
from app.core.runtime.events import Event, Finished
from app.core.study.definition import SizeInput, Study
from app.core.study.steps import StudySteps
from app.core.units import MIB


def seeded_bytes(seed: int, size_bytes: int, chunk: int = MIB // 2) -> Generator[bytes, None, None]:
    """``size_bytes`` pseudo-random bytes in chunks, the same for the same ``seed`` and size.
    Small chunks: ``randbytes`` holds the GIL (about 20 ms for 4 MiB), and the window that
    runs a study shares it."""
    rng = random.Random(f"cipherbench-study:{seed}:{size_bytes}")
    left = size_bytes
    while left:
        n = min(left, chunk)
        yield rng.randbytes(n)
        left -= n


def seeded_input(size: SizeInput, seed: int, directory: str) -> InputSpec:
    """A generated input of ``size`` in ``directory``, labelled as the size was written; the
    same bytes for the same seed and size."""
    blocks = seeded_bytes(seed, size.size_bytes)
    return generated_input(size.size_bytes, directory, size.label, blocks=blocks)


R = TypeVar("R")


class GridRun(RunDriver, Generic[R]):
    """What both kinds of study run share (``runner.StudyRun``; a transfer study's
    ``TransferStudyRun``): the study, its input files (read now) and generated sizes, and
    ``events()``, which makes the sizes and runs the subclass's ``_run``, and ``cancel()`` from
    any thread (``events()`` still ends with its ``Finished``). ``files`` and ``sizes`` replace
    the study's own when given. Raises ``UserError`` at once for a study that cannot run, a
    file that cannot be read or a study with no input."""

    SCRATCH_PREFIX = "study-"  # the name of the scratch folder of the generated inputs

    def __init__(
        self,
        study: Study,
        *,
        files: Sequence[str] | None = None,
        sizes: Sequence[SizeInput] | None = None,
        environment: bool = True,
    ) -> None:
        study.checked_specs()
        self.study = study
        self.sizes = tuple(study.sizes if sizes is None else sizes)
        paths = tuple(study.files if files is None else files)
        if not self.sizes and not paths:
            slots = f" ({', '.join(study.file_slots)})" if study.file_slots else ""
            raise UserError(f"the study {study.name} needs input files{slots} or sizes")
        self.files = [inspect_file(p) for p in paths]
        self._want_environment = environment
        self.steps = StudySteps()  # the running study's, made anew by each events()
        super().__init__()
        self._prepare()

    def _prepare(self) -> None:
        """Check and set up what the subclass runs, before any input is generated."""

    def events(self) -> Generator[Event, None, None]:
        """The study's run: progress and outcomes, then its result (module doc of
        :mod:`app.core.study.steps`); the generated inputs are gone before the result."""
        self.steps = StudySteps()
        with self._inputs() as (inputs, started, env):
            result = yield from self._run(inputs, started, env)
        yield Finished(result)

    def _run(
        self, inputs: list[InputSpec], started: str, env: dict[str, object]
    ) -> Generator[Event, None, R]:
        """The study's progress and outcomes, from its ``inputs``, the start time and the
        machine; (``yield from``'s value) its result."""
        raise NotImplementedError

    @contextmanager
    def _inputs(self) -> Iterator[tuple[list[InputSpec], str, dict[str, object]]]:
        """What a run starts with: its files and its generated sizes (seeded, in a scratch
        folder removed at the end, none generated once cancelled), the start time and the
        machine (unless made with ``environment=False``)."""
        started = timestamp()
        env: dict[str, object] = {}
        if self._want_environment:
            from app.core.bench.environment import capture_environment

            env = capture_environment()
        folder = scratch.make_dir(self.SCRATCH_PREFIX)
        try:
            inputs = list(self.files)
            for size in self.sizes:
                if self.cancelled:
                    break
                inputs.append(seeded_input(size, self.study.data_seed, folder))
            yield inputs, started, env
        finally:
            scratch.remove(folder)
