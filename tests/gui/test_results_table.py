"""The results table: units in headers, formatting, numeric sorting, copy as TSV."""

from __future__ import annotations

import dataclasses
from typing import Any

from gui_factories import job_result
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from pytestqt.qtbot import QtBot

from app.gui.results.results_table import (
    COLUMN_INDEX,
    COLUMNS,
    SORT_ROLE,
    ResultsSortProxyModel,
    ResultsTableModel,
    ResultsTableView,
)

REQUIRED = [
    "Input",
    "Algorithm",
    "Key (bits)",
    "Mode",
    "Library",
    "Enc. time (ms)",
    "Dec. time (ms)",
    "Enc. throughput (MB/s)",
    "Dec. throughput (MB/s)",
    "Aggregate enc./dec. (MB/s)",
    "Memory above baseline (MiB)",
    "CPU (%)",
    "Original size (bytes)",
    "Encrypted size (bytes)",
    "Verified",
    "Ciphertext preview (hex)",
    "Warnings",
]


def _model(*results):  # type: ignore[no-untyped-def]
    model = ResultsTableModel()
    for r in results:
        model.add_result(r)
    return model


def _text(model: ResultsTableModel, row: int, header: str) -> str:
    return model.data(model.index(row, COLUMN_INDEX[header]))


def test_headers_name_every_column_with_its_unit() -> None:
    model = _model()
    headers = [model.headerData(i, Qt.Orientation.Horizontal) for i in range(model.columnCount())]
    assert [h.replace("\n", " ") for h in headers] == REQUIRED  # units on a second line
    for i, col in enumerate(COLUMNS):
        assert model.headerData(i, Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole)
        assert col.tooltip


def test_cells_show_median_with_spread_and_units() -> None:
    r = job_result(
        enc_s=(0.001, 0.0011, 0.0009),
        input_bytes=1_000_000,
        warnings=("encryption: unstable samples",),
    )
    model = _model(r)
    # interquartile range of 0.9, 1.0, 1.1 ms (inclusive quartiles 0.95 and 1.05)
    # Every figure to three significant digits, as in every other view (document.numbers).
    assert _text(model, 0, "Enc. time (ms)") == "1.00 ±0.100"
    assert _text(model, 0, "Enc. throughput (MB/s)") == "1,000"
    assert _text(model, 0, "Memory above baseline (MiB)") == "40.0"
    assert _text(model, 0, "Original size (bytes)") == "1,000,000"
    assert _text(model, 0, "Encrypted size (bytes)") == "1,000,016"
    assert _text(model, 0, "Verified") == "yes"
    assert _text(model, 0, "Ciphertext preview (hex)").startswith("00 11 22 33")
    assert _text(model, 0, "Warnings") == "encryption: unstable samples"
    tip = model.data(model.index(0, COLUMN_INDEX["Enc. time (ms)"]), Qt.ItemDataRole.ToolTipRole)
    assert "3 timed runs" in tip and "1 warm-up run " in tip
    assert _text(_model(job_result(peak_rss=None)), 0, "Memory above baseline (MiB)") == "-"


def test_proxy_sorts_on_numbers_not_text() -> None:
    model = _model(
        job_result("a", enc_s=(0.010,)),  # 100 MB/s
        job_result("b", enc_s=(0.001,)),  # 1000 MB/s
        job_result("c", enc_s=(0.0105,)),  # 95.2 MB/s: sorts below 100 although "95" > "100"
    )
    proxy = ResultsSortProxyModel()
    proxy.setSourceModel(model)
    col = COLUMN_INDEX["Enc. throughput (MB/s)"]
    proxy.sort(col, Qt.SortOrder.AscendingOrder)
    order = [proxy.data(proxy.index(i, col), SORT_ROLE) for i in range(3)]
    assert order == sorted(order)
    assert [model.result(proxy.mapToSource(proxy.index(i, 0)).row()).cipher for i in range(3)] == [
        "c",
        "a",
        "b",
    ]


def test_rows_as_tsv_has_raw_numbers() -> None:
    model = _model(job_result(), job_result("bf-cbc", "pycryptodome"))
    lines = model.rows_as_tsv([1]).splitlines()
    header, row = lines[0].split("\t"), lines[1].split("\t")
    assert len(lines) == 2 and len(header) == len(row)
    assert "Enc. time median (ms)" in header and "Enc. time IQR (ms)" in header
    cells = dict(zip(header, row, strict=True))
    assert cells["Library"] == "pycryptodome"
    assert cells["Original size (bytes)"] == "1000000"
    assert float(cells["Enc. time median (ms)"]) == 1.0


def test_copies_round_floats_to_six_significant_digits() -> None:
    r = job_result()
    r = dataclasses.replace(
        r, cpu_percent=97.123456789, encrypt=dataclasses.replace(r.encrypt, median_s=0.00123456789)
    )
    cells = dict(
        zip(*(line.split("\t") for line in _model(r).rows_as_tsv([0]).splitlines()), strict=True)
    )
    assert cells["CPU (%)"] == "97.1235"
    assert cells["Enc. time median (ms)"] == "1.23457"


def test_input_column_names_the_input_with_its_type_and_size() -> None:
    pdf = dataclasses.replace(job_result(), input_label="paper.pdf", input_bytes=263_000)
    model = _model(pdf, dataclasses.replace(job_result(), input_label="random 10 MB"))
    assert _text(model, 0, "Input") == "paper.pdf (263.00 KB)"
    col = COLUMN_INDEX["Input"]
    tip = model.data(model.index(0, col), Qt.ItemDataRole.ToolTipRole)
    assert "application/pdf" in tip and "263,000 bytes" in tip
    assert "random bytes" in model.data(model.index(1, col), Qt.ItemDataRole.ToolTipRole)


def _shown_view(qtbot: QtBot, model: ResultsTableModel) -> tuple[ResultsTableView, Any]:
    """``model`` in the window's view, through the window's sorting proxy, on screen."""
    proxy = ResultsSortProxyModel()
    proxy.setSourceModel(model)
    view = ResultsTableView()
    qtbot.addWidget(view)
    view.setModel(proxy)
    view.show()
    return view, proxy


def test_view_copies_selected_rows_with_ctrl_c(qtbot: QtBot) -> None:
    model = _model(job_result("x1"), job_result("x2"), job_result("x3"))
    view, proxy = _shown_view(qtbot, model)
    # arrival order until a header is clicked
    assert [proxy.index(i, 1).data() for i in range(3)] == ["AES"] * 3
    assert view.selected_source_rows() == []
    view.selectRow(0)
    view.selectionModel().select(
        proxy.index(2, 0),
        view.selectionModel().SelectionFlag.Select | view.selectionModel().SelectionFlag.Rows,
    )
    QGuiApplication.clipboard().clear()
    qtbot.keyClick(view, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    text = QGuiApplication.clipboard().text()
    assert len(text.splitlines()) == 3
    assert "\tx" not in text  # cipher ids are in tooltips, the table shows algorithms
    assert view.selected_source_rows() == [0, 2]


def test_verified_shows_no_when_no_round_trip_was_checked() -> None:
    unchecked = dataclasses.replace(job_result(), verified_round_trips=0)
    model = _model(job_result(), unchecked)
    assert [_text(model, row, "Verified") for row in (0, 1)] == ["yes", "NO"]


def test_rows_added_one_by_one_widen_the_columns_as_a_full_fit_would(qtbot: QtBot) -> None:
    """At each job's end only the new row is measured (every row: 8-14 ms with a dozen rows);
    the widths come out as fitting every row does."""
    model = ResultsTableModel()
    view, proxy = _shown_view(qtbot, model)
    header = view.horizontalHeader()
    results = [
        job_result("aes-128-cbc"),
        job_result("chacha20-poly1305", warnings=("a warning long enough to widen its column",)),
        job_result("aes-256-gcm", library="pycryptodome"),
    ]
    for result in results:
        model.add_result(result)
        view.request_fit()
        qtbot.wait(10)
    shown = [c for c in range(proxy.columnCount()) if not view.isColumnHidden(c)]
    incremental = [header.sectionSize(c) for c in shown[:-1]]  # the last one stretches
    view.fit_columns()
    assert incremental == [header.sectionSize(c) for c in shown[:-1]]
    fits = []
    view.fit_columns = lambda: fits.append(1)  # type: ignore[method-assign]
    model.add_result(results[0])
    view.request_fit()
    qtbot.wait(10)
    assert fits == []  # a new row: measured alone
    model.clear()  # a reset: the next fit measures every row again
    model.add_result(results[0])
    view.request_fit()
    qtbot.wait(10)
    assert fits == [1]
