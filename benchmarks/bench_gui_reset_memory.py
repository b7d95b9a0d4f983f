"""What the window keeps of a run after Reset: the GUI process's memory over many runs, each
followed by Reset, on the real engine.

    python benchmarks/bench_gui_reset_memory.py [--runs N] [--trace]

Prints the resident memory (RSS, MiB = 2^20 bytes) and Python's traced allocations after a
warm-up of runs and after the rest, and the growth per run; with ``--trace``, the ten places
whose allocations grew most. After Reset nothing of a run should stay, so the growth per run
should be about zero.
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=60)
    parser.add_argument("--warmup", type=int, default=10)
    parser.add_argument("--trace", action="store_true")
    args = parser.parse_args()
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

    import psutil
    from PySide6.QtCore import QEventLoop, QSettings
    from PySide6.QtWidgets import QApplication, QMessageBox

    from app.core.bench.inputs import generated_input
    from app.core.bench.jobs import BenchOptions
    from app.core.ciphers.registry import lookup
    from app.gui.app import configure_application
    from app.gui.main.window import MainWindow
    from app.gui.settings import AppSettings

    app = QApplication([])
    configure_application(app)
    QMessageBox.warning = staticmethod(lambda *a, **k: print("  dialog:", *a[1:]))  # type: ignore[method-assign]
    me = psutil.Process()
    spec = lookup("aes-128-ctr", "cryptography")
    options = BenchOptions(repeat=2, warmup=0)
    source = generated_input(64 * 1024)

    with tempfile.TemporaryDirectory() as tmp:
        settings = AppSettings(QSettings(os.path.join(tmp, "s.ini"), QSettings.Format.IniFormat))
        window = MainWindow(settings=settings)
        window.show()
        while not window.tabs.ready or window.controller.busy:
            app.processEvents()
            time.sleep(0.01)

        def one_run() -> None:
            window.controller.set_input_file(source.path)
            loop = QEventLoop()

            def ended(running: bool) -> None:
                if not running:
                    loop.quit()

            window.controller.running_changed.connect(ended)
            if not window.controller.start([spec], options, keep_ciphertext=True):
                raise SystemExit("the run did not start")
            if window.controller.running:
                loop.exec()
            window.controller.running_changed.disconnect(ended)
            while window.controller.busy:
                app.processEvents()
                time.sleep(0.005)
            window.reset_action.trigger()
            for _ in range(5):
                app.processEvents()

        def settled() -> tuple[float, int]:
            deadline = time.monotonic() + 2.0  # finished workers are let go after a second
            while time.monotonic() < deadline:
                app.processEvents()
                time.sleep(0.01)
            gc.collect()
            traced = tracemalloc.get_traced_memory()[0] if tracemalloc.is_tracing() else 0
            return me.memory_info().rss / 2**20, traced

        for _ in range(args.warmup):
            one_run()
        if args.trace:
            tracemalloc.start(12)
        rss0, traced0 = settled()
        snap0 = tracemalloc.take_snapshot() if args.trace else None
        started = time.perf_counter()
        for _ in range(args.runs):
            one_run()
        seconds = time.perf_counter() - started
        rss1, traced1 = settled()
        n = args.runs
        print(f"{n} runs after {args.warmup} warm-up runs, {seconds / n:.2f} s a run")
        print(f"RSS {rss0:.1f} -> {rss1:.1f} MiB: {(rss1 - rss0) * 1024 / n:+.1f} KiB a run")
        if args.trace and snap0 is not None:
            print(
                f"Python allocations {traced0 / 2**20:.2f} -> {traced1 / 2**20:.2f} MiB: "
                f"{(traced1 - traced0) / 1024 / n:+.1f} KiB a run"
            )
            grown = tracemalloc.take_snapshot().compare_to(snap0, "traceback")
            for stat in grown[:10]:
                print(f"  {stat.size_diff / 1024:+9.1f} KiB {stat.count_diff:+6d} blocks")
                for line in stat.traceback.format()[-6:]:
                    print("     ", line)
        window.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
