"""How responsive the CipherBench window stays while a benchmark runs, and how fast it opens.

    python benchmarks/bench_gui_responsiveness.py                # 1 GiB input, default ciphers
    python benchmarks/bench_gui_responsiveness.py --size 256MiB --ciphers aes-256-gcm:cryptography
    python benchmarks/bench_gui_responsiveness.py --size 256MiB --repeat 1 --passes 3
    xvfb-run -a python benchmarks/bench_gui_responsiveness.py    # on a real (virtual) X server

Stall: a ``QTimer`` fires every 5 ms in the GUI thread and records the time between its calls;
the longest gap is the longest the event loop could not react (over one frame, 16.7 ms, the
window missed a frame). Measured with the real window, the real engine and the Memory & CPU
tab in view (the chart that redraws most), one job per case, in both data modes, from the
run's start until the history has stored it (300 ms after its end). ">frame" counts the gaps
over one frame.

Gaps are in milliseconds; "(busy)" is the GUI thread's own CPU time during the longest gap,
which tells a slow window (busy close to the gap) from a starved one (busy near zero), and
"(queued)" is how long in that gap the GUI thread was ready to run but had no core (Linux's
schedstat): what is neither busy nor queued, it slept (waiting for the GIL, the X server or
the disk). "(steal)" is the host's steal of this VM's cores in that gap (/proc/stat, all cores
together, in ticks of 10 ms): the host ran something else while a core here wanted to run.
"steal/s" and "wait/s" are the whole machine's over the case, in ms per second: that steal,
and some task here ready to run without a core (/proc/pressure/cpu).

Cold start: a fresh interpreter, from launch to the first paint of the main window (imports of
PySide6 and the app included), and on to the charts being built (pyqtgraph and numpy are
imported in the background after the first paint), a few times; the first is the coldest.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

DEFAULT_CIPHERS = (
    "aes-256-gcm:cryptography",
    "aes-256-ctr:pycryptodome",
    "chacha20-poly1305:cryptography",
    "aes-128-cbc:cryptography",
)
TICK_MS = 5
STALL_LIMIT_MS = 16.7  # one frame at 60 Hz
START_LIMIT_S = 0.5  # launch to painted window
WHERE_INTERVAL_S = 0.001
SCHEDSTAT = "/proc/thread-self/schedstat"
STAT = "/proc/stat"
PRESSURE = "/proc/pressure/cpu"


def open_proc(path: str) -> int | None:
    """A /proc file, opened once (None where Linux has none): reading the schedstat again
    through its path at every tick cost the GUI thread about 0.1 ms a tick, 2 % of a core; a
    kept descriptor, 0.7 us (3 us for /proc/stat)."""
    try:
        return os.open(path, os.O_RDONLY)
    except OSError:
        return None


def queued_s(fd: int | None) -> float:
    """Seconds the thread whose schedstat ``fd`` is has spent ready to run without a core (NaN
    where Linux's schedstat is not available)."""
    try:
        return int(os.pread(fd, 128, 0).split()[1]) / 1e9 if fd is not None else float("nan")
    except (OSError, IndexError, ValueError):
        return float("nan")


def steal_s(fd: int | None) -> float:
    """Seconds since boot the host ran something else while this VM's cores wanted to run
    (``/proc/stat``'s steal, all cores, in clock ticks of 10 ms); NaN where Linux has none."""
    try:
        line = os.pread(fd, 256, 0).split(b"\n", 1)[0] if fd is not None else b""
        return int(line.split()[8]) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return float("nan")


def cpu_wait_s(fd: int | None) -> float:
    """Seconds since boot some task here was ready to run without a core
    (``/proc/pressure/cpu``'s "some"); NaN where Linux has none."""
    try:
        line = os.pread(fd, 256, 0).split(b"\n", 1)[0] if fd is not None else b""
        return int(line.rsplit(b"total=", 1)[1]) / 1e6
    except (OSError, IndexError, ValueError):
        return float("nan")


class GapTimer:
    """The 5 ms timer in the GUI thread: each gap between its calls, with the GUI thread's CPU
    time and run-queue wait within it, and the host's steal of this VM's cores."""

    def __init__(self) -> None:
        from PySide6.QtCore import QTimer

        self.gaps: list[float] = []
        self.busy: list[float] = []  # GUI-thread CPU time within each gap
        self.queued: list[float] = []  # ready to run without a core, within each gap
        self.stolen: list[float] = []  # the host's steal of this VM's cores, within each gap
        self.ends: list[float] = []  # when each gap ended (perf_counter)
        # Made in the GUI thread: the schedstat is that thread's figures.
        self._fds = (open_proc(SCHEDSTAT), open_proc(STAT), open_proc(PRESSURE))
        self._last = self._now()
        self._timer = QTimer()
        self._timer.setInterval(TICK_MS)
        self._timer.timeout.connect(self._tick)

    def _now(self) -> list[float]:
        schedstat, stat, pressure = self._fds
        return [
            time.perf_counter(),
            time.thread_time(),
            queued_s(schedstat),
            steal_s(stat),
            cpu_wait_s(pressure),
        ]

    def _tick(self) -> None:
        now = self._now()
        self.gaps.append((now[0] - self._last[0]) * 1e3)
        self.busy.append((now[1] - self._last[1]) * 1e3)
        self.queued.append((now[2] - self._last[2]) * 1e3)
        self.stolen.append((now[3] - self._last[3]) * 1e3)
        self.ends.append(now[0])
        self._last = now

    def start(self) -> None:
        self._timer.start()
        self._last = self._first = self._now()

    def stop(self) -> None:
        self._timer.stop()
        now = self._now()
        wall = now[0] - self._first[0]
        # The whole machine over the case, in ms per second of it (module doc).
        self.steal_ms_s = 1e3 * (now[3] - self._first[3]) / wall
        self.cpu_wait_ms_s = 1e3 * (now[4] - self._first[4]) / wall
        for fd in self._fds:
            if fd is not None:
                os.close(fd)
        self._fds = (None, None, None)

    def stats(self) -> dict[str, float]:
        gaps = self.gaps
        ordered = sorted(gaps)
        worst = max(range(len(gaps)), key=gaps.__getitem__) if gaps else None
        nan = float("nan")
        return {
            "ticks": len(gaps),
            "max_gap_ms": ordered[-1] if gaps else nan,
            "p99_gap_ms": ordered[int(0.99 * (len(gaps) - 1))] if gaps else nan,
            "median_gap_ms": statistics.median(gaps) if gaps else nan,
            "over_limit": sum(1 for g in gaps if g > STALL_LIMIT_MS),
            # GUI-thread CPU time during the longest gap: near the gap, the window itself was
            # busy; near zero, it was waiting (for the GIL, the disk, or a core).
            "worst_busy_ms": self.busy[worst] if worst is not None else nan,
            "worst_queued_ms": self.queued[worst] if worst is not None else nan,
            "worst_stolen_ms": self.stolen[worst] if worst is not None else nan,
            "steal_ms_s": self.steal_ms_s,
            "cpu_wait_ms_s": self.cpu_wait_ms_s,
        }

    def longest(self, n: int = 3) -> list[int]:
        return sorted(range(len(self.gaps)), key=self.gaps.__getitem__)[-n:][::-1]


class GuiSampler:
    """``--where``: the GUI thread's Python stack every millisecond, read from a thread of its
    own (``sys._current_frames``), so that the longest gaps can be put down to what the GUI
    thread was doing in them. A sample needs the GIL: while another thread holds it the
    sampler waits too, and the sample it then takes shows where the GUI thread waits."""

    def __init__(self) -> None:
        import threading

        self.gui = threading.get_ident()
        self.samples: list[tuple[float, tuple[str, ...]]] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.wait(WHERE_INTERVAL_S):
            frame = sys._current_frames().get(self.gui)
            stack = []
            while frame is not None:
                code = frame.f_code
                where = code.co_filename.replace(str(ROOT) + os.sep, "")
                stack.append(f"{where}:{code.co_name}")
                frame = frame.f_back
            self.samples.append((time.perf_counter(), tuple(stack)))

    def __enter__(self) -> GuiSampler:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def during(self, start: float, end: float, top: int = 3) -> list[str]:
        """The commonest innermost frames of this program (app/) sampled in ``(start, end)``,
        each with the outermost frame of its stack: where a gap went."""
        counts: dict[str, int] = {}
        for t, stack in self.samples:
            if start < t < end:
                ours = [f for f in stack if f.startswith("app" + os.sep)]
                key = f"{ours[0]} (from {stack[-1]})" if ours else (stack[0] if stack else "idle")
                counts[key] = counts.get(key, 0) + 1
        ranked = sorted(counts.items(), key=lambda kv: -kv[1])[:top]
        return [f"{n} x {key}" for key, n in ranked]


_COLD_START_CHILD = r"""
import sys, time
t_launch = float(sys.argv[1])
sys.path.insert(0, sys.argv[2])
from PySide6.QtCore import QEvent, QObject, QSettings, QTimer
from PySide6.QtWidgets import QApplication
app = QApplication([])
from app.gui.app import configure_application
configure_application(app)
from app.gui.main.window import MainWindow
from app.gui.settings import AppSettings

class FirstPaint(QObject):
    def eventFilter(self, obj, event):
        if event.type() == QEvent.Type.Paint and not hasattr(self, "t"):
            self.t = time.time()
        return False

def check_ready():
    if window.tabs.ready:
        probe.ready = time.time()
        app.quit()

settings = AppSettings(QSettings(sys.argv[3], QSettings.Format.IniFormat))
window = MainWindow(settings=settings)
probe = FirstPaint()
window.installEventFilter(probe)
ready_timer = QTimer()
ready_timer.timeout.connect(check_ready)
ready_timer.start(5)
window.show()
app.exec()
print(f"{probe.t - t_launch:.4f} {probe.ready - t_launch:.4f}")
window.close()
"""


def cold_start(runs: int) -> list[tuple[float, float]]:
    """Seconds from launching a fresh interpreter to the window's first paint, and to the
    charts being built (pyqtgraph loads after the first paint)."""
    out: list[tuple[float, float]] = []
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(runs):
            ini = os.path.join(tmp, f"s{i}.ini")
            t0 = time.time()
            proc = subprocess.run(
                [sys.executable, "-c", _COLD_START_CHILD, repr(t0), str(ROOT), ini],
                capture_output=True,
                text=True,
                timeout=120,
                check=True,
            )
            painted, ready = proc.stdout.strip().splitlines()[-1].split()
            out.append((float(painted), float(ready)))
    return out


# The stream control's load: what a stream-mode job does to the machine (read the input in
# 1 MiB chunks, encrypt, write a file, over and over), in a process of its own that uses the
# cipher library directly, not CipherBench's engine.
STREAM_LOAD = """
import os, sys
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
src, dst = sys.argv[1], sys.argv[2]
while True:
    enc = Cipher(algorithms.AES(os.urandom(32)), modes.CTR(os.urandom(16))).encryptor()
    with open(src, "rb") as fin, open(dst, "wb") as fout:
        while chunk := fin.read(1 << 20):
            fout.write(enc.update(chunk))
"""

CONTROLS = {
    "busy": "control: busy loop, no CipherBench",
    "stream": "control: file loop, no CipherBench",
}


def measure_control(app, seconds: float, load: str = "busy", path: str = "") -> dict:  # type: ignore[no-untyped-def]
    """The machine's own floor: the same timer in the same (idle) window while a process that
    is not CipherBench loads the machine as a job does: ``busy`` keeps one core at 100 % (a
    memory-mode job), ``stream`` encrypts ``path`` file to file in 1 MiB chunks over and over
    (a stream-mode job: reads, writes and the kernel's writeback). Gaps here are the
    machine's, not the window's."""
    with contextlib.ExitStack() as stack:
        if load == "stream":
            out = stack.enter_context(tempfile.TemporaryDirectory())
            command = [sys.executable, "-c", STREAM_LOAD, path, os.path.join(out, "out.bin")]
        else:
            command = [sys.executable, "-c", "while True: pass"]
        return _timed_beside(app, seconds, subprocess.Popen(command))


def _timed_beside(app, seconds: float, hog: subprocess.Popen) -> dict:  # type: ignore[no-untyped-def, type-arg]
    from PySide6.QtCore import QEventLoop, QTimer

    timer = GapTimer()
    loop = QEventLoop()
    QTimer.singleShot(int(seconds * 1000), loop.quit)
    timer.start()
    try:
        loop.exec()
    finally:
        timer.stop()
        hog.kill()
        hog.wait()
    return {
        "seconds": seconds,
        "ok": True,
        "failures": [],
        **timer.stats(),
        "throughput_mb_s": float("nan"),
    }


def measure_run(window, app, spec, options, seconds_limit: float, where: bool = False) -> dict:  # type: ignore[no-untyped-def]
    """Run one job through the window and return the event-loop gap statistics."""
    from PySide6.QtCore import QEventLoop, QTimer

    loop = QEventLoop()

    from app.gui.recorder import STORE_DELAY_MS, wait_for_stores

    def on_running_changed(running: bool) -> None:
        if not running:  # measured on until the history has stored the run, as it does then
            QTimer.singleShot(STORE_DELAY_MS + 300, loop.quit)

    window.controller.running_changed.connect(on_running_changed)
    QTimer.singleShot(int(seconds_limit * 1000), window.controller.cancel)

    timer = GapTimer()
    if window.tabs.currentWidget() is not window.tabs.monitor_chart:
        window.tabs.setCurrentWidget(window.tabs.monitor_chart)  # the user's click, not measured
        settle = time.perf_counter() + 0.3
        while time.perf_counter() < settle:
            app.processEvents()
            time.sleep(0.01)
    t0 = time.perf_counter()
    timer.start()
    sampler = GuiSampler() if where else None
    with sampler if sampler is not None else contextlib.nullcontext():
        started = window.controller.start([spec], options, keep_ciphertext=False)
        if not started:
            raise SystemExit("the run did not start")
        if window.controller.running:
            loop.exec()  # the event loop, as app.exec() runs it, until the run is stored
        timer.stop()
    wait_for_stores()
    window.controller.running_changed.disconnect(on_running_changed)
    elapsed = time.perf_counter() - t0
    run = window.controller.last_run
    ok = bool(run and run.results)
    places = [
        (
            timer.gaps[i],
            timer.busy[i],
            timer.queued[i],
            timer.stolen[i],
            sampler.during(timer.ends[i] - timer.gaps[i] / 1e3, timer.ends[i]),
        )
        for i in timer.longest()
        if sampler is not None
    ]
    return {
        "where": places,
        "seconds": elapsed,
        "ok": ok,
        "failures": window.controller.failures,
        **timer.stats(),
        "redraws": window.tabs.monitor_chart.redraw_count,
        "throughput_mb_s": run.results[-1].encrypt.throughput_mb_s if ok else float("nan"),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", default="1GiB", help="input size (default 1GiB)")
    parser.add_argument("--input", help="use this file instead of generated random data")
    parser.add_argument(
        "--ciphers",
        nargs="+",
        default=list(DEFAULT_CIPHERS),
        help="id:library pairs (default: %(default)s)",
    )
    parser.add_argument("--modes", nargs="+", default=["memory", "stream"])
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--cold-runs", type=int, default=3)
    parser.add_argument(
        "--passes",
        type=int,
        default=1,
        help="go through the cases this many times in the same window (one run varies "
        "a lot on a shared machine; the first pass includes the window's first run)",
    )
    parser.add_argument("--limit", type=float, default=600.0, help="seconds per case at most")
    parser.add_argument(
        "--automatic-gc",
        action="store_true",
        help="leave Python's automatic garbage collection on (the app collects in the GUI "
        "thread only, app/gui/gui_gc.py): to compare the two",
    )
    parser.add_argument(
        "--where",
        action="store_true",
        help="sample the GUI thread's stack every millisecond and print, for each case's three "
        "longest gaps, what it was doing (a diagnostic: the sampling itself costs some time)",
    )
    parser.add_argument(
        "--control",
        type=float,
        default=15.0,
        help="seconds of each control case (0: skip): a busy loop, and with stream mode a "
        "file encrypted to a file over and over, each in a process that is not CipherBench, "
        "beside the idle window",
    )
    args = parser.parse_args()

    if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    starts = cold_start(args.cold_runs) if args.cold_runs else []

    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication, QMessageBox

    from app.core.bench.inputs import cleanup_generated, generated_input
    from app.core.bench.jobs import BenchOptions
    from app.core.ciphers.registry import lookup
    from app.core.units import format_bytes, parse_size
    from app.gui.app import configure_application
    from app.gui.main.window import MainWindow
    from app.gui.settings import AppSettings

    app = QApplication([])
    configure_application(app)
    if not args.automatic_gc:  # as run_app does
        from app.gui.gui_gc import collect_in_gui_thread

        collect_in_gui_thread(app)
    QMessageBox.warning = staticmethod(lambda *a, **k: print("  dialog:", *a[1:]))  # type: ignore[method-assign]

    generated = None
    if args.input:
        path = args.input
    else:
        size = parse_size(args.size)
        print(f"writing {format_bytes(size)} of random data…", flush=True)
        generated = generated_input(size)
        path = generated.path
    with tempfile.TemporaryDirectory() as tmp:
        # Runs are stored as the window stores them, in a history of the benchmark's own.
        os.environ.setdefault("CIPHERBENCH_HISTORY", os.path.join(tmp, "history.sqlite3"))
        settings = AppSettings(QSettings(os.path.join(tmp, "s.ini"), QSettings.Format.IniFormat))
        window = MainWindow(settings=settings)
        window.resize(1500, 950)
        window.show()
        while not window.tabs.ready or window.controller.busy:  # measure a settled window
            app.processEvents()
            time.sleep(0.01)
        if not window.controller.set_input_file(path):
            return 1
        settle = time.perf_counter() + 0.5  # the input shown in the list, as a user sees it
        while time.perf_counter() < settle:
            app.processEvents()
            time.sleep(0.01)
        platform = app.platformName()
        print(
            f"platform {platform}, input {format_bytes(os.path.getsize(path))}, "
            f"repeat {args.repeat}, warm-up 0, memory pass on\n"
        )
        header = (
            f"{'cipher':<34} {'mode':<7} {'run s':>7} {'MB/s':>8} {'ticks':>6} "
            f"{'median':>7} {'p99':>7} {'max gap':>8} {'(busy)':>7} {'(queued)':>8} {'(steal)':>7} "
            f"{'>frame':>6} {'steal/s':>7} {'wait/s':>6}"
        )
        print(header)
        print("-" * len(header))
        rows = []

        def show(label: str, mode: str, r: dict) -> None:  # type: ignore[type-arg]
            note = "" if r["ok"] else f"  FAILED {r['failures']}"
            print(
                f"{label:<34} {mode:<7} {r['seconds']:>7.1f} {r['throughput_mb_s']:>8.0f} "
                f"{r['ticks']:>6} {r['median_gap_ms']:>6.1f}  {r['p99_gap_ms']:>6.1f} "
                f"{r['max_gap_ms']:>7.1f}  {r['worst_busy_ms']:>6.1f}  "
                f"{r['worst_queued_ms']:>7.1f}  {r['worst_stolen_ms']:>6.0f} "
                f"{r['over_limit']:>6} {r['steal_ms_s']:>7.0f} {r['cpu_wait_ms_s']:>6.0f}{note}",
                flush=True,
            )

        try:
            if args.control:
                for load in ("busy", *(("stream",) if "stream" in args.modes else ())):
                    r = measure_control(app, args.control, load, path)
                    show(CONTROLS[load], "-", r)
            for number in range(1, args.passes + 1):
                if args.passes > 1:
                    print(f"pass {number} of {args.passes}")
                for item in args.ciphers:
                    cipher_id, library = item.split(":")
                    spec = lookup(cipher_id, library)
                    for mode in args.modes:
                        options = BenchOptions(repeat=args.repeat, warmup=0, data_mode=mode)
                        r = measure_run(window, app, spec, options, args.limit, args.where)
                        rows.append((item, mode, r))
                        show(item, mode, r)
                        for gap, cpu, wait, stolen, places in r["where"]:
                            print(
                                f"    gap {gap:.1f} ms (busy {cpu:.1f}, queued {wait:.1f}, "
                                f"steal {stolen:.0f}): " + "; ".join(places)
                            )
        finally:
            window.close()
            app.processEvents()
            if generated is not None:
                cleanup_generated(generated)
    worst = max((r["max_gap_ms"] for _, _, r in rows), default=float("nan"))
    within = sum(1 for _, _, r in rows if r["over_limit"] == 0)
    print(
        f"\nlongest event-loop gap over all cases: {worst:.1f} ms "
        f"(limit {STALL_LIMIT_MS} ms; the timer asks for one call every {TICK_MS} ms)\n"
        f"cases with no gap over the limit: {within} of {len(rows)}"
    )
    if starts:
        print(
            "cold start to painted window: "
            + ", ".join(f"{p:.2f} s" for p, _ in starts)
            + f" (first run coldest; limit {START_LIMIT_S} s)"
        )
        print("  ... to charts ready:          " + ", ".join(f"{r:.2f} s" for _, r in starts))
    return 0


if __name__ == "__main__":
    sys.exit(main())
