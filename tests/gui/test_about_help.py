"""Help > What the numbers mean (F1) and Help > About CipherBench."""

from __future__ import annotations

import email.message
import platform
import re
import sys
from importlib import metadata
from pathlib import Path

import pytest
from PySide6.QtCore import Qt, QUrl, qVersion
from PySide6.QtWidgets import QApplication, QLabel
from pytestqt.qtbot import QtBot

import app
from app.core.bench import environment, isolation, measure, multicore, stats
from app.core.bench.jobs import BenchOptions
from app.core.bench.plan import SLOW_RUN_SECONDS
from app.core.resources import resource_path
from app.core.study import claims
from app.core.sweep import plan as sweep_plan
from app.core.sweep.jobs import SweepJob
from app.core.timing import batches as sweep_timing
from app.gui.dialogs import about_info, help_dialog
from app.gui.dialogs.about_dialog import AboutDialog
from app.gui.dialogs.help_dialog import HELP_PAGE, HelpDialog
from app.gui.main.window import MainWindow
from app.gui.settings import AppSettings

# ---- About ------------------------------------------------------------------------------


def _rows(dialog: AboutDialog) -> dict[str, tuple[str, str]]:
    t = dialog.table
    return {
        t.item(r, 0).text(): (t.item(r, 1).text(), t.item(r, 2).text()) for r in range(t.rowCount())
    }


@pytest.fixture
def about(qtbot: QtBot) -> AboutDialog:
    dialog = AboutDialog()
    qtbot.addWidget(dialog)
    return dialog


def test_about_lists_every_library_with_its_installed_version_and_licence(
    about: AboutDialog,
) -> None:
    rows = _rows(about)
    assert set(environment.PACKAGES) | {"Python", "OpenSSL"} == set(rows)
    for name, dists in environment.PACKAGES.items():
        dist = about_info.installed_distribution(dists)
        assert dist is not None, name
        version, licence = rows[name]
        assert version.split()[0] == metadata.version(dist)
        meta = metadata.metadata(dist)
        stated = meta.get("License-Expression") or meta.get("License") or ""
        assert licence and licence != "—"
        if stated and "\n" not in stated.strip():
            assert licence in stated or stated in licence
    assert "numpy" in rows and "pyqtgraph" in rows
    assert rows["Python"][0].startswith(platform.python_version())
    assert f"(Qt {qVersion()})" in rows["PySide6"][0]
    from cryptography.hazmat.backends.openssl.backend import backend

    assert rows["OpenSSL"][0] == backend.openssl_version_text()
    assert about.windowTitle() == "About CipherBench"


def test_about_shows_the_version_and_the_licence_state(about: AboutDialog) -> None:
    texts = [label.text() for label in about.findChildren(QLabel)]
    assert any(app.__version__ in t for t in texts)
    assert about.licence_label.text() == f"Licence: {about_info.cipherbench_licence()}."
    assert about_info.cipherbench_licence() == "MIT License (LICENSE)"  # a checkout's file


def test_copy_puts_the_version_information_on_the_clipboard_and_no_secrets(
    about: AboutDialog, monkeypatch: pytest.MonkeyPatch, qtbot: QtBot
) -> None:
    from app.gui.dialogs import about_dialog

    monkeypatch.setattr(about_dialog, "COPIED_FEEDBACK_MS", 50)  # "Copied" for 2 s: not waited
    secret = "s3cr3t-token-that-must-not-leak"
    monkeypatch.setenv("CIPHERBENCH_TEST_SECRET", secret)
    QApplication.clipboard().clear()
    about.copy_button.click()
    text = QApplication.clipboard().text()
    assert text == about.version_text()
    assert text.splitlines()[0].split() == ["CipherBench", app.__version__]
    assert metadata.version("cryptography") in text
    assert about.environment["openssl_version"] in text
    assert "Qt (runtime)" in text and "numpy" in text
    for leak in (secret, sys.executable, str(Path.home()) + "/", str(Path.cwd())):
        assert leak not in text
    assert not re.search(r"password|passphrase|secret", text, re.IGNORECASE)
    assert about.copy_button.text() == "Copied"
    qtbot.waitUntil(lambda: "Copy" in about.copy_button.text(), timeout=60_000)


def test_licence_from_metadata_prefers_the_expression_then_a_short_field_then_classifiers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def fake(**fields: object):
        msg = email.message.Message()
        for key, value in fields.items():
            for v in value if isinstance(value, list) else [value]:
                msg[key.replace("_", "-")] = v
        return lambda _name: msg

    mit = "License :: OSI Approved :: MIT License"
    monkeypatch.setattr(metadata, "metadata", fake(License_Expression="MIT", License="BSD"))
    assert about_info.licence_of("x") == "MIT"
    monkeypatch.setattr(metadata, "metadata", fake(License="BSD-3-Clause", Classifier=[mit]))
    assert about_info.licence_of("x") == "BSD-3-Clause"
    long_text = "Copyright (c) someone\n\nPermission is hereby granted..."
    monkeypatch.setattr(metadata, "metadata", fake(License=long_text, Classifier=[mit]))
    assert about_info.licence_of("x") == "MIT License"
    monkeypatch.setattr(metadata, "metadata", fake(License=mit))  # pyaes puts it there
    assert about_info.licence_of("x") == "MIT License"
    monkeypatch.setattr(metadata, "metadata", fake(License="UNKNOWN"))
    assert about_info.licence_of("x") == about_info.NOT_STATED


def test_cipherbench_licence_is_never_invented(tmp_path: Path) -> None:
    assert about_info.cipherbench_licence(tmp_path) == about_info.NO_LICENCE
    (tmp_path / "LICENSE").write_text("\n  MIT License\n\nCopyright ...\n", encoding="utf-8")
    assert about_info.cipherbench_licence(tmp_path) == "MIT License (LICENSE)"


# ---- the help page ----------------------------------------------------------------------

SECTIONS = ("Time", "Throughput", "Memory", "CPU %", "Warnings", "Confidence intervals")


def test_the_help_page_loads_with_its_sections(qtbot: QtBot) -> None:
    dialog = HelpDialog()
    qtbot.addWidget(dialog)
    text = dialog.browser.toPlainText()
    assert len(text) > 2000
    lines = {line.strip() for line in text.splitlines()}
    for section in SECTIONS:
        assert any(line.startswith(section) for line in lines), section
    assert {"Loopback transfer", "Message lengths (sweep)", "Hardware ladder"} <= lines
    assert not dialog.isModal()
    dialog.show()
    bar = dialog.browser.verticalScrollBar()
    assert bar.value() == 0
    dialog.browser.setSource(QUrl("#warnings"))  # what a click on the contents line does
    qtbot.waitUntil(lambda: bar.value() > 0)


def test_the_guide_tab_shows_the_docs_and_follows_their_links(qtbot: QtBot) -> None:
    dialog = HelpDialog()
    qtbot.addWidget(dialog)
    assert dialog.tabs.tabText(1) == "Guide and reference"
    assert dialog.guide.toPlainText().startswith("CipherBench documentation")
    dialog.guide.setSource(QUrl("guide/read-a-claim.md"))  # what a click on the link does
    assert dialog.guide.toPlainText().startswith("Read a claim")
    assert dialog.guide.isBackwardAvailable()
    dialog.guide.backward()  # the Back button's slot
    assert dialog.guide.toPlainText().startswith("CipherBench documentation")
    assert "How the interval of a cell is made" in dialog.method.toPlainText() or (
        len(dialog.method.toPlainText()) > 2000
    )


def test_every_link_of_the_help_page_has_its_anchor() -> None:
    html = resource_path(HELP_PAGE).read_text(encoding="utf-8")
    links = set(re.findall(r'href="#([\w-]+)"', html))
    anchors = set(re.findall(r'name="([\w-]+)"', html))
    assert links and links <= anchors


def test_the_help_page_states_the_engines_actual_thresholds() -> None:
    """The page quotes figures from the code; this fails when one of them changes."""
    text = re.sub(r"<[^>]+>", "", resource_path(HELP_PAGE).read_text(encoding="utf-8"))
    text = " ".join(text.split())
    opts = BenchOptions()
    expected = [
        f"at least {opts.repeat} times",
        f"{opts.min_time_s:g} s in total",
        f"≥ {stats.UNSTABLE_STDEV_RATIO:.0%}".replace("%", " %"),
        f"≥ {stats.UNSTABLE_RANGE_RATIO:.0%}".replace("%", " %"),
        f"under {stats.TOO_SHORT_S * 1e6:g} µs",
        f"≥ {stats.COLD_START_RATIO:g}×",
        f"less than {measure.CONTENDED_CPU_PERCENT:g} %",
        f"every {isolation.SAMPLE_INTERVAL_S * 1000:g} ms",
        f"less than {multicore.MIN_OVERLAP:.0%}".replace("%", " %"),
        f"at least {claims.MIN_ROUNDS_FOR_INTERVAL} rounds a side",
        f"margin ({claims.DEFAULT_MARGIN:.0%} by default)".replace("%", " %"),
        f"less than {claims.BUSY_CPU_PERCENT:g} % of a core",
        f"within ±{claims.DEFAULT_TARGET:.0%}".replace("%", " %"),
        f"more than {SLOW_RUN_SECONDS:g} s",
        f"{SweepJob.passes} slices spread over its round",
        f"({sweep_plan.DEFAULT_ROUNDS} rounds by default)",
        f"spans at least {sweep_timing.MIN_SAMPLE_NS // 10**6} ms",
        "95 %",
    ]
    for phrase in expected:
        assert phrase in text, phrase


def test_a_missing_help_page_says_so(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(help_dialog, "resource_path", lambda name: tmp_path / name)
    dialog = HelpDialog()
    qtbot.addWidget(dialog)
    assert "missing" in dialog.browser.toPlainText()


# ---- the Help menu ----------------------------------------------------------------------


@pytest.fixture
def window(qtbot: QtBot, settings: AppSettings) -> MainWindow:
    w = MainWindow(settings=settings)
    qtbot.addWidget(w)
    return w


def test_the_help_menu_has_both_entries(window: MainWindow) -> None:
    menus = {a.text(): a.menu() for a in window.menuBar().actions()}
    entries = [a for a in menus["&Help"].actions() if not a.isSeparator()]
    assert entries == [window.help_action, window.about_action]
    assert window.help_action.shortcut().toString() == "F1"


def test_the_about_action_opens_the_about_dialog(window: MainWindow, qtbot: QtBot) -> None:
    window.show()
    window.about_action.trigger()
    dialog = window.findChild(AboutDialog)
    assert dialog is not None
    qtbot.waitUntil(dialog.isVisible)
    assert dialog.isModal()  # window-modal, not blocking the event loop
    dialog.close_button.click()
    qtbot.waitUntil(lambda: window.findChild(AboutDialog) is None)  # deleted on close


def test_the_help_action_opens_one_non_modal_help_window(window: MainWindow) -> None:
    window.show()
    window.help_action.trigger()
    first = window.help_dialog
    assert first.isVisible() and not first.isModal()
    first.close()
    window.help_action.trigger()
    assert window.help_dialog is first and first.isVisible()


def test_f1_opens_the_help(window: MainWindow, qtbot: QtBot) -> None:
    window.show()
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)
    qtbot.keyClick(window, Qt.Key.Key_F1)
    assert window.help_dialog.isVisible()
