"""*Run this on my machine*: a cipher study from the history or from an exported file, run here
with exactly its definition (ciphers, sizes or files, rounds, repetitions, data seed), as
``python main.py rerun FILE.json`` does.

The study runs through the Study window's own machinery
(:class:`~app.gui.study.study_controller.StudyController` and its worker): progress and the time
left as that window shows them, Cancel killing the running worker process, and the finished run
analysed and stored in the history by the application's recorder. This panel is the progress
row the History window shows while it runs; when the run is over it hands back the original and
the new run, labelled for the merged view (:func:`rerun_sources`).
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QCoreApplication, Signal, Slot
from PySide6.QtWidgets import QHBoxLayout, QMainWindow, QPushButton, QSizePolicy, QWidget

from app.core.export.digest import CHANGED
from app.core.history import merging
from app.core.publish.merge import MergeSource
from app.core.study.result import StudyResult
from app.gui.label import Label
from app.gui.panels.progress_panel import LazyProgressBar
from app.gui.study.study_controller import StudyController, StudyRunFactory, default_study_run
from app.gui.wiring import connect_handlers

WAIT_ON_QUIT_MS = 10_000


@dataclass(frozen=True)
class Rerun:
    """A cipher study to run here again: the ``original`` result, where it came from
    (``origin``: "run 12", "lab.json"), the host it ran on (None: not known) and, for a file,
    its digest state ("intact", "changed", "absent"; "" for a run from the history)."""

    original: StudyResult
    origin: str
    host: str | None = None
    integrity: str = ""

    @property
    def name(self) -> str:
        study = self.original.study
        return study.title or study.name

    def warnings(self) -> list[str]:
        """What the merged view says above the tables about the original."""
        if self.integrity == CHANGED:
            return [
                f"Warning: {self.origin} was changed after CipherBench wrote it (its digest "
                "does not match): the definition it holds now was run here, and its figures "
                "may not be the ones measured."
            ]
        return []


def rerun_sources(rerun: Rerun, new: StudyResult) -> list[MergeSource]:
    """The original and the new run as two labelled sources (as ``rerun`` labels them)."""
    return merging.rerun_sources(rerun.original, rerun.origin, rerun.host, rerun.integrity, new)


def failure_lines(new: StudyResult) -> list[str]:
    """The cells that failed here, for the merged view's warnings."""
    shown = [f"{f.cipher_label} on {f.input_label}: {f.message}" for f in new.failures[:5]]
    more = f" (and {len(new.failures) - 5} more)" if len(new.failures) > 5 else ""
    return [f"Failed here: {'; '.join(shown)}{more}."] if shown else []


class RerunPanel(QWidget):
    """The progress of a study running here: what runs now, a bar, the time left, Cancel.

    ``owner`` is the window whose settings decide whether the run is stored and whose status
    bar says so. ``finished(rerun, new)`` when the study has ended (``new.cancelled`` when it
    was cancelled), ``failed(text)`` when it could not run."""

    finished = Signal(object, object)  # Rerun, StudyResult
    failed = Signal(str)
    running_changed = Signal(bool)

    def __init__(
        self,
        owner: QMainWindow,
        run_factory: StudyRunFactory = default_study_run,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.controller = StudyController(run_factory, parent=owner)
        self.rerun: Rerun | None = None
        self.step_label = Label()
        # Text that changes ten times a second must not change a size hint (the window would
        # be laid out again each time): one line, whatever it says.
        self.step_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self.progress = LazyProgressBar()
        self.progress.setRange(0, 1000)
        self.progress.setTextVisible(False)
        self.progress.setFixedWidth(220)
        self.eta_label = Label()
        self.eta_label.setFixedWidth(self.eta_label.fontMetrics().horizontalAdvance("x" * 30))
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setToolTip("Stop the study running here (its worker process ends)")
        self.cancel_button.clicked.connect(self.cancel)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.step_label, 1)
        row.addWidget(self.progress)
        row.addWidget(self.eta_label)
        row.addWidget(self.cancel_button)
        connect_handlers(self.controller, self, "controller")
        app = QCoreApplication.instance()
        if app is not None:
            app.aboutToQuit.connect(self._on_app_about_to_quit)
        self.hide()

    @property
    def running(self) -> bool:
        return self.controller.running

    def start(self, rerun: Rerun) -> None:
        """Run ``rerun``'s study here; ``UserError`` at once when it cannot (an input file of
        the study that is not on this machine, say)."""
        if self.running:
            return
        self.controller.clear()  # each rerun is a run of its own, not added to the last
        self.controller.start(rerun.original.study)
        self.rerun = rerun
        self.progress.setValue(0)
        self.step_label.setText(f"Running {rerun.name} here: starting…")
        self.eta_label.setText("")
        self.cancel_button.setEnabled(True)
        self.show()

    @Slot()
    def cancel(self) -> None:
        if self.running:
            self.cancel_button.setEnabled(False)
            self.step_label.setText("Cancelling…")
            self.controller.cancel()

    def cancel_and_wait(self, timeout_ms: int = WAIT_ON_QUIT_MS) -> bool:
        """Cancel and block until the worker has stopped (quitting)."""
        return self.controller.cancel_and_wait(timeout_ms)

    # --- the controller's news ----------------------------------------------------------------

    @Slot(str)
    def _on_controller_step_changed(self, text: str) -> None:
        if self.rerun is not None and self.cancel_button.isEnabled():
            self.step_label.setText(f"Running {self.rerun.name} here: {text}")

    @Slot(float, str)
    def _on_controller_progress_changed(self, fraction: float, eta: str) -> None:
        self.progress.setValue(round(fraction * 1000))
        self.eta_label.setText(eta)

    @Slot(object)
    def _on_controller_study_finished(self, result: StudyResult) -> None:
        if self.rerun is not None:
            self.finished.emit(self.rerun, result)

    @Slot(str)
    def _on_controller_failed(self, text: str) -> None:
        self.failed.emit(text)

    @Slot(bool)
    def _on_controller_running_changed(self, running: bool) -> None:
        if not running:
            self.hide()
        self.running_changed.emit(running)

    @Slot()
    def _on_app_about_to_quit(self) -> None:
        if self.running:
            self.cancel_and_wait()
