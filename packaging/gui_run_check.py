"""Check the frozen window end to end: run a benchmark in the real MainWindow and exit 0 if every
job finished and was verified. Not part of the app; packaging/build.sh can freeze it with the
same spec (so it gets exactly the app's bundle), which tests what a click on Run Benchmark does in
the packaged app: worker processes spawned from a QThreadPool thread of a Qt process, results
arriving in the table, pyqtgraph drawing the charts.

    CIPHERBENCH_SCRIPT=packaging/gui_run_check.py CIPHERBENCH_NAME=cipherbench-guicheck \\
      DIST_DIR=/tmp/cb-guicheck/dist WORK_DIR=/tmp/cb-guicheck/build packaging/build.sh
    cd /tmp/cb-guicheck/dist/cipherbench-guicheck
    xvfb-run -a -s "-screen 0 1600x1000x24" ./cipherbench-guicheck [shot.png]

It also runs unfrozen: python packaging/gui_run_check.py [shot.png] (from the checkout).
"""

from __future__ import annotations

import multiprocessing
import os
import sys
import tempfile
import time

if not getattr(sys, "frozen", False):  # from a checkout: make `app` importable
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

TIMEOUT_S = 180


def main() -> int:
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication, QMessageBox

    from app.gui.app import configure_application
    from app.gui.main.window import MainWindow
    from app.gui.results.results_table import COLUMN_INDEX
    from app.gui.settings import AppSettings

    dialogs: list[tuple[str, str]] = []  # message boxes would block: record them instead

    def record(_parent: object, title: str, text: str, *_args: object) -> int:
        dialogs.append((title, text))
        return 0

    for name in ("warning", "information"):
        setattr(QMessageBox, name, staticmethod(record))

    tmp = tempfile.mkdtemp(prefix="cipherbench-guicheck-")
    qapp = QApplication(sys.argv[:1])
    configure_application(qapp)
    settings = AppSettings(QSettings(os.path.join(tmp, "settings.ini"), QSettings.Format.IniFormat))
    window = MainWindow(settings=settings)
    window.resize(1500, 950)
    window.show()

    data = os.path.join(tmp, "input.bin")
    with open(data, "wb") as f:
        f.write(os.urandom(1_000_000))
    if not window.controller.set_input_file(data):
        print("FAIL: the input file was refused", dialogs)
        return 1
    window.selection_panel.apply_preset(0)  # AES vs Blowfish, ECB and CTR (seed 002)
    window.options_panel.repeat_spin.setValue(2)
    window.options_panel.warmup_spin.setValue(0)
    jobs = len(window.selection_panel.specs())

    start = time.monotonic()
    window.run_action.trigger()  # what Run Benchmark / Ctrl+R does
    if not window.controller.running:
        print("FAIL: the run did not start", dialogs)
        return 1
    while window.controller.running and time.monotonic() - start < TIMEOUT_S:
        qapp.processEvents()
        time.sleep(0.01)
    for _ in range(50):  # let the last signals and chart updates land
        qapp.processEvents()
        time.sleep(0.02)

    model = window.controller.model
    rows = model.rowCount()
    verified = [model.data(model.index(r, COLUMN_INDEX["Verified"])) for r in range(rows)]
    window.throughput_chart.flush()
    if len(sys.argv) > 1:
        window.grab().save(sys.argv[1])
    ok = (
        not window.controller.running
        and rows == jobs > 0
        and all(v == "yes" for v in verified)
        and not window.controller.failures
        and window.throughput_chart.showing_data
        and not dialogs
    )
    elapsed = time.monotonic() - start
    print(
        f"{'PASS' if ok else 'FAIL'}: {jobs} jobs, {rows} rows, verified {verified}, "
        f"failures {window.controller.failures}, "
        f"chart drawn {window.throughput_chart.showing_data}, dialogs {dialogs}, "
        f"{elapsed:.1f} s; status {window.status_label.text()!r}"
    )
    window.close()
    return 0 if ok else 1


if __name__ == "__main__":
    multiprocessing.freeze_support()  # as main.py: the workers are this executable again
    sys.exit(main())
