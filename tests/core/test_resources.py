"""The shipped files are found in a checkout, an installed wheel and a PyInstaller bundle."""

from __future__ import annotations

import importlib.util
import shutil
import sys
from pathlib import Path
from types import ModuleType

import pytest

from app.core import resources
from app.core.study import presets

ROOT = Path(__file__).resolve().parents[2]


def _load_copy(package_dir: Path) -> ModuleType:
    """app/core/resources.py copied into ``package_dir`` (an installed ``app``) and loaded
    from there, as Python would import it from that install."""
    target = package_dir / "core" / "resources.py"
    target.parent.mkdir(parents=True)
    shutil.copy2(resources.__file__, target)
    spec = importlib.util.spec_from_file_location("installed_resources", target)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _fake_resources(folder: Path) -> Path:
    (folder / "studies").mkdir(parents=True)
    (folder / "icon.png").write_bytes(b"png")
    (folder / "studies" / "mine.toml").write_text("")
    return folder


def test_in_the_checkout_the_top_level_resources_folder() -> None:
    assert resources.resource_path() == ROOT / "resources"
    assert resources.resource_path("icon.png") == ROOT / "resources" / "icon.png"
    assert resources.resource_path("icon.svg").is_file()
    assert presets.studies_dir() == ROOT / "resources" / "studies"
    assert len(presets.preset_files()) >= 5


def test_installed_the_package_data_beside_the_package(tmp_path: Path) -> None:
    site = tmp_path / "site-packages"
    installed = _fake_resources(site / "app" / "resources")
    _fake_resources(site / "resources")  # another distribution's top-level folder: not ours
    module = _load_copy(site / "app")
    assert module.resource_path("icon.png") == installed / "icon.png"
    assert module.resource_path("studies", "mine.toml").is_file()


def test_in_a_pyinstaller_bundle_the_bundle_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bundle = tmp_path / "_internal"
    _fake_resources(bundle / "resources")
    monkeypatch.setattr(sys, "_MEIPASS", str(bundle), raising=False)
    assert resources.resource_path("icon.png") == bundle / "resources" / "icon.png"
    assert presets.studies_dir() == bundle / "resources" / "studies"
    assert [p.name for p in presets.preset_files()] == ["mine.toml"]


def test_a_bundle_without_resources_falls_back_to_the_checkout(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "_MEIPASS", str(tmp_path), raising=False)
    assert resources.resource_path("icon.png") == ROOT / "resources" / "icon.png"


def test_with_no_folder_anywhere_the_most_specific_place_is_named(tmp_path: Path) -> None:
    package = tmp_path / "app"
    assert resources.candidate_dirs(package, None) == [
        package / "resources",
        tmp_path / "resources",
    ]
    module = _load_copy(package)
    assert module.resource_path("icon.png") == package / "resources" / "icon.png"
    assert not module.resource_path("icon.png").exists()
