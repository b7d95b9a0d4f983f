"""The window's controller: owns the input, the run, its results and the kept ciphertexts.

User actions arrive as method calls (``set_input_file``, ``start``, ``cancel``, ``reset``,
``export``, ``save_plaintext``, ...). The run side (the worker's events, the progress, the
environment, background tasks) is its base, :class:`~app.gui.main.run_controller.RunController`;
the inputs are an :class:`~app.gui.main.input_list.InputList` and the export and the kept
ciphertexts a :class:`~app.gui.main.run_outputs.RunOutputs`. The controller opens no dialogs:
it reports errors with ``error`` (dialog-worthy) and ``message`` (status bar).
"""

from __future__ import annotations

import os
from functools import partial
from pathlib import Path

from PySide6.QtCore import QObject, QThreadPool, Signal, Slot

from app.core.bench.jobs import BenchOptions, InputSpec
from app.core.ciphers.registry import CipherSpec
from app.core.errors import UserError
from app.core.units import format_bytes, parse_size, size_label
from app.gui.describe import sentence
from app.gui.main.bench_worker import RunFactory, default_run_factory
from app.gui.main.input_list import InputList
from app.gui.main.run_controller import RunController
from app.gui.main.run_outputs import RunOutputs
from app.gui.settings import AppSettings


class BenchmarkController(RunController):
    """State and actions of the window, without widgets."""

    inputs_changed = Signal(list)  # list[InputInfo], in order
    recent_files_changed = Signal(list)

    def __init__(
        self,
        settings: AppSettings,
        run_factory: RunFactory = default_run_factory,
        pool: QThreadPool | None = None,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(run_factory, pool, parent)
        self.settings = settings
        self._input_list = InputList(
            settings,
            changed=self.inputs_changed.emit,
            recent_files_changed=self.recent_files_changed.emit,
            message=self.message.emit,
            error=self.error.emit,
        )
        self._outputs = RunOutputs(settings, message=self.message.emit, error=self.error.emit)

    # --- inputs ---------------------------------------------------------------------------------

    @property
    def inputs(self) -> list[InputSpec]:
        return self._input_list.specs

    @property
    def input(self) -> InputSpec | None:
        """The input added last (the default source of Encrypt file…); None without any."""
        inputs = self._input_list.specs
        return inputs[-1] if inputs else None

    def set_input_file(self, path: str) -> bool:
        """Add the file at ``path`` to the inputs (again: refreshed, as it may have changed).
        False (and an error) when it cannot be used."""
        return self.add_input_files([path]) == 1

    def add_input_files(self, paths: list[str]) -> int:
        """Add the files among ``paths`` that can be used; one error names those that cannot.
        Returns how many were added."""
        if self.running:
            self.message.emit("The inputs cannot change while a benchmark runs.")
            return 0
        return self._input_list.add_files(paths)

    def remove_inputs(self, rows: list[int]) -> None:
        """Take the inputs at ``rows`` (of :attr:`inputs`) out of the list."""
        if self.running:
            return
        self._input_list.remove(rows)

    def clear_inputs(self) -> None:
        if not self.running:
            self._input_list.set_specs([])

    def generate_input(self, size_text: str) -> None:
        """Write random data of ``size_text`` (e.g. ``'10 MB'``) in the background and add it to
        the inputs."""
        if self.running or self.busy:
            return
        try:
            size = parse_size(size_text.replace(" ", ""))
            if size <= 0:
                raise UserError("the size must be at least 1 byte")
        except UserError as exc:
            self.error.emit("Cannot generate data", sentence(str(exc)))
            return
        from app.core.bench.inputs import generated_input

        self.settings.generated_size = size_text
        self.message.emit(f"Writing {format_bytes(size, binary=False)} of random data…")
        # Named as the size was written ("random 1 MB", not "random 1.00 MB"), as bench
        # --size names it: a run of the window and one of the command line compare by name.
        label = f"random {size_label(size_text.replace(' ', ''))}"
        make = partial(generated_input, label=label)
        self._start_task(make, (size,), self._on_generate_task_resulted)

    def clear_recent_files(self) -> None:
        self._input_list.clear_recent_files()

    @Slot(object)
    def _on_generate_task_resulted(self, spec: InputSpec) -> None:
        self._input_list.add_generated(spec)

    # --- running --------------------------------------------------------------------------------

    def start(self, specs: list[CipherSpec], options: BenchOptions, keep_ciphertext: bool) -> bool:
        """Plan and start a run. False (and an error) when it cannot start."""
        if self.running:
            return False
        if self.busy:
            self.message.emit("Wait until the file operation finishes.")
            return False
        if not self._input_list.specs:
            self.error.emit(
                "No input", "Choose files, drop them on the window, or generate random data first."
            )
            return False
        if not specs:
            self.error.emit("No cipher", "Check at least one cipher, mode and library.")
            return False
        from app.core.bench.plan import make_jobs

        try:
            inputs = self._input_list.refreshed()
            jobs = []
            for spec in inputs:
                keep_dir = self._outputs.keep_dir() if keep_ciphertext else None  # 0700
                jobs += make_jobs(specs, spec, options, keep_dir)
        except UserError as exc:
            self.error.emit("Cannot start the benchmark", sentence(str(exc)))
            return False
        self._session.failures.clear()
        self.failures_changed.emit([])
        self._launch(jobs)
        return True

    def slow_run_note(self, specs: list[CipherSpec], options: BenchOptions) -> str | None:
        """A sentence when the chosen ciphers would take long on the inputs (pure Python
        libraries on large files), to confirm before :meth:`start`; None otherwise."""
        inputs = self._input_list.specs
        if not inputs:
            return None
        from app.core.bench.plan import slow_run_note

        total = sum(s.size_bytes for s in inputs)
        return slow_run_note([s.library for s in specs], total, options)

    def reset(self) -> None:
        """Forget results, kept ciphertexts and the inputs (generated data is deleted)."""
        if self.running or self.busy:
            return
        self._clear_results()
        self._input_list.set_specs([])
        self._session.begin(0)
        self.message.emit("Reset: results cleared, choices back to their defaults.")

    def _clear_results(self) -> None:
        self.model.clear()
        self._session.clear_results()
        self._last_run = None
        self._runs.clear()
        self._taken.clear()
        self._run_no = 0
        self.claims.reset()
        self._outputs.remove_keep_dirs()
        self.results_changed.emit([])
        self.failures_changed.emit([])

    # --- outputs --------------------------------------------------------------------------------

    def export(self, path: str) -> Path | None:
        """Write the last run to ``path`` (.xlsx, .csv or .json). None (and an error) if not."""
        return self._outputs.export(self._last_run, path)

    def save_plaintext(self, row: int, path: str) -> None:
        """Decrypt job ``row``'s kept ciphertext into ``path`` (background)."""
        job = self._outputs.kept_job(self.finished_job(row))
        if job is None:
            return
        from app.core.files.kept import decrypt_kept

        self.settings.last_folder = os.path.dirname(os.path.abspath(path))
        self.message.emit(f"Decrypting the ciphertext of {job.result.label}…")
        self._start_task(decrypt_kept, (job, path), self._on_save_plaintext_task_resulted)

    @Slot(object)
    def _on_save_plaintext_task_resulted(self, path: Path) -> None:
        self.message.emit(f"Decrypted the ciphertext back to {path}")

    # --- shutdown -------------------------------------------------------------------------------

    def shutdown(self, timeout_ms: int = 5000) -> None:
        """Cancel what runs, wait for the pool's threads, delete temporary files."""
        if self._worker is not None:
            self._worker.cancel()
        self._runner.wait_for_done(timeout_ms)
        self._ticker.stop()
        self._outputs.remove_keep_dirs()
        self._input_list.delete_generated()
