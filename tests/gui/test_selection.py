"""The selection model (plain data) and its panel."""

from __future__ import annotations

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from app.core.bench import presets as core_presets
from app.core.ciphers.registry import REGISTRY
from app.gui.panels.selection_panel import SelectionPanel
from app.gui.selection import (
    CATALOG,
    PRESETS,
    Selection,
    default_selection,
    make_selection,
    selected_specs,
    weakness_notes,
)


def _keys(sel: Selection) -> list[tuple[str, str, int]]:
    return [(s.id, s.library, s.key_bits) for s in selected_specs(sel)]


def test_catalog_covers_every_registry_algorithm_and_mode() -> None:
    assert set(CATALOG) == {s.algorithm for s in REGISTRY}
    for spec in REGISTRY:
        assert spec.mode in CATALOG[spec.algorithm].modes
    assert CATALOG["AES"].key_bits == (128, 192, 256)
    assert 256 in CATALOG["Blowfish"].key_bits and 448 in CATALOG["Blowfish"].key_bits


def test_presets_reproduce_the_seed_studies() -> None:
    by_name = {p.name: _keys(p.selection) for p in PRESETS}
    assert by_name["AES vs Blowfish, ECB and CTR, 256-bit"] == [
        ("aes-256-ecb", "pycryptodome", 256),
        ("aes-256-ctr", "pycryptodome", 256),
        ("bf-ecb", "pycryptodome", 256),
        ("bf-ctr", "pycryptodome", 256),
    ]
    assert by_name["AES key sizes, CBC"] == [
        ("aes-128-cbc", "pycryptodome", 128),
        ("aes-192-cbc", "pycryptodome", 192),
        ("aes-256-cbc", "pycryptodome", 256),
    ]
    assert by_name["AES-GCM vs ChaCha20-Poly1305"] == [
        ("aes-256-gcm", "cryptography", 256),
        ("chacha20-poly1305", "cryptography", 256),
    ]
    assert {k[0] for k in by_name["DES, 3DES, AES, RC4"]} == {
        "des-cbc",
        "des-ede3-cbc",
        "aes-256-cbc",
        "rc4",
    }
    assert {k[1] for k in by_name["pure Python vs compiled, AES-CTR"]} == {
        "pyaes",
        "cryptography",
        "pycryptodome",
    }


def test_variable_key_sizes_become_separate_jobs() -> None:
    sel = make_selection({"Blowfish": ((128, 448), ("CBC",))}, ("cryptography",))
    assert _keys(sel) == [("bf-cbc", "cryptography", 128), ("bf-cbc", "cryptography", 448)]


def test_selection_round_trips_through_settings_form() -> None:
    sel = PRESETS[3].selection
    again = Selection.from_dict(sel.to_dict())
    assert _keys(again) == _keys(sel)
    assert _keys(Selection.from_dict({"garbage": 1})) == _keys(default_selection())


def test_weakness_notes_are_said_once() -> None:
    notes = weakness_notes(selected_specs(PRESETS[3].selection))
    assert len(notes) == len(set(notes))
    assert any("RC4" in n for n in notes)
    assert any("56-bit" in n for n in notes)
    assert any("birthday" in n for n in notes)
    assert weakness_notes(selected_specs(PRESETS[2].selection)) == []


def test_panel_checks_presets_and_shows_notes(qtbot: QtBot) -> None:
    panel = SelectionPanel()
    qtbot.addWidget(panel)
    assert panel.preset_combo.currentText() == PRESETS[0].name
    assert panel.summary_label.text() == "4 jobs selected"
    assert "ECB" in panel.notes_label.text()

    panel.apply_preset(2)  # AES-GCM vs ChaCha20-Poly1305: no weak choice, no note
    assert [s.id for s in panel.specs()] == ["aes-256-gcm", "chacha20-poly1305"]
    assert panel.notes_label.text() == ""

    # the user checks RC4: a job more, its note appears once, the preset name goes
    with qtbot.waitSignal(panel.selection_changed):
        panel._items[("alg", "RC4")].setCheckState(0, Qt.CheckState.Checked)
    assert "rc4" in [s.id for s in panel.specs()]
    assert panel.notes_label.text().count("RC4 is broken") == 1
    assert panel.preset_combo.currentIndex() == 0  # "Custom selection"

    # checking a mode of an unchecked algorithm checks the algorithm too
    panel._items[("mode", "DES", "CBC")].setCheckState(0, Qt.CheckState.Checked)
    assert panel._items[("alg", "DES")].checkState(0) == Qt.CheckState.Checked
    panel.library_checks["pycryptodome"].setChecked(True)
    assert "des-cbc" in [s.id for s in panel.specs()]

    panel.reset()
    assert panel.preset_combo.currentText() == PRESETS[0].name


def test_window_presets_are_the_core_presets() -> None:
    """One source: each window preset is a core preset (``--preset``) as a selection."""
    assert [(p.name, p.source) for p in PRESETS] == [
        (c.title, c.description) for c in core_presets.PRESETS
    ]
    for window, core in zip(PRESETS, core_presets.PRESETS, strict=True):
        picked = set(_keys(window.selection))
        assert {(s.id, s.library, s.key_bits) for s in core.specs()} <= picked
