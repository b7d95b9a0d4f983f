"""Progress of a run: a bar, the current job, elapsed time, an estimate of what remains, and
the jobs that failed."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QGridLayout, QProgressBar, QWidget

from app.gui.label import Label

BAR_STEPS = 200  # half a percent: finer steps only cost repaints


@dataclass(frozen=True)
class ProgressInfo:
    """A snapshot of a run, prepared by the controller."""

    total_jobs: int
    done_jobs: int  # finished or failed
    current_label: str  # "" between jobs
    phase: str
    fraction: float  # of the whole run, 0..1
    elapsed_s: float
    remaining_s: float | None  # None: too early to tell
    running: bool = True
    cancelling: bool = False
    rounds: int = 1  # above 1, the jobs count each job once per round
    round_no: int = 0  # in rounds: the round going on (from 1), the jobs it runs and the
    round_jobs: int = 0  # running one's place among them
    round_position: int = 0

    def counted(self) -> str:
        """What the bar counts: "3 of 4 jobs done", or in rounds "6 of 12 job rounds done"
        (2 jobs in 6 rounds; the results then say 2 jobs)."""
        unit = "job rounds" if self.rounds > 1 else "jobs"
        return f"{self.done_jobs} of {self.total_jobs} {unit} done"

    def current(self) -> str:
        """The job running: "Job 2 of 4", or in rounds "Round 3 of 6, job 1 of 2"."""
        if self.rounds <= 1 or not self.round_no:
            return f"Job {min(self.done_jobs + 1, self.total_jobs)} of {self.total_jobs}"
        return (
            f"Round {self.round_no} of {self.rounds}, "
            f"job {self.round_position} of {self.round_jobs}"
        )


def format_duration(seconds: float) -> str:
    """``75.4`` -> ``'1:15'``, ``3725`` -> ``'1:02:05'``."""
    s = round(max(0.0, seconds))
    h, rest = divmod(s, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


class LazyProgressBar(QProgressBar):
    """A progress bar that repaints with the window's next frame, not at once.

    ``QProgressBar.setValue`` repaints synchronously, and a synchronous repaint flushes every
    pending repaint of the window (charts and tables just redrawn) inside the caller's event:
    15-30 ms of one event here, a stall the user feels. With updates off during ``setValue``
    there is nothing to paint at once; turning them on again schedules the usual update."""

    def setValue(self, value: int) -> None:
        if value == self.value():
            return
        self.setUpdatesEnabled(False)
        try:
            super().setValue(value)
        finally:
            self.setUpdatesEnabled(True)


class ProgressPanel(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.bar = LazyProgressBar()
        self.bar.setRange(0, BAR_STEPS)
        self.bar.setValue(0)
        self.bar.setTextVisible(True)
        self.bar.setFormat("Ready")
        self.job_label = Label("Choose an input and ciphers, then Run Benchmark (Ctrl+R).")
        self.job_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.time_label = Label("")
        self.time_label.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        self.failures_label = Label("")
        self.failures_label.setWordWrap(True)
        self.failures_label.setVisible(False)
        layout = QGridLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.bar, 0, 0, 1, 2)
        layout.addWidget(self.job_label, 1, 0)
        layout.addWidget(self.time_label, 1, 1)
        layout.addWidget(self.failures_label, 2, 0, 1, 2)
        layout.setColumnStretch(0, 1)

    def set_progress(self, info: ProgressInfo) -> None:
        value = round(info.fraction * BAR_STEPS)
        if value != self.bar.value():  # QProgressBar repaints synchronously on every change
            self.bar.setValue(value)
        percent = int(info.fraction * 100)
        if info.cancelling:
            self.bar.setFormat(f"Cancelling… {percent} %")
        elif info.running:
            self.bar.setFormat(f"{percent} %  ({info.counted()})")
        else:
            self.bar.setFormat(info.counted())
        if info.running and info.current_label:
            phase = f" — {info.phase}" if info.phase else ""
            self.job_label.setText(f"{info.current()}: {info.current_label}{phase}")
        elif info.running:
            self.job_label.setText("Starting…")
        text = f"Elapsed {format_duration(info.elapsed_s)}"
        if info.running:
            if info.remaining_s is None:
                text += ", estimating what remains…"
            else:
                text += f", about {format_duration(info.remaining_s)} left"
        self.time_label.setText(text)

    def set_finished_text(self, text: str) -> None:
        self.job_label.setText(text)

    def set_failures(self, messages: list[str]) -> None:
        if not messages:
            self.failures_label.clear()
            self.failures_label.setVisible(False)
            return
        n = len(messages)
        head = f"{n} job{'s' if n != 1 else ''} failed: "
        more = "  (all of them in the tooltip)" if n > 1 else ""
        self.failures_label.setText(head + messages[-1] + more)
        self.failures_label.setToolTip("\n".join(messages))
        self.failures_label.setVisible(True)

    def reset(self) -> None:
        self.bar.setValue(0)
        self.bar.setFormat("Ready")
        self.job_label.setText("Choose an input and ciphers, then Run Benchmark (Ctrl+R).")
        self.time_label.clear()
        self.set_failures([])
