"""The shipped studies: one TOML file per published seed in ``resources/studies/``.

Found by ``app.core.resources.resource_path`` (a checkout, an installed wheel or a PyInstaller
bundle), as the window's icons are.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from app.core.bench.presets import ALIASES
from app.core.errors import UserError
from app.core.export.writers import check_target, write_atomically
from app.core.resources import resource_path
from app.core.study.definition import Study
from app.core.study.study_file import load_study, matched_paper, to_toml
from app.core.text import unknown_choice


def studies_dir() -> Path:
    """The folder of the shipped study files."""
    return resource_path("studies")


def preset_files() -> list[Path]:
    folder = studies_dir()
    return sorted(folder.glob("*.toml")) if folder.is_dir() else []


def presets() -> list[Study]:
    """Every shipped study, in seed order."""
    studies = [load_study(p) for p in preset_files()]
    return sorted(studies, key=lambda s: (s.seed or "~", s.name))


def preset_names() -> list[str]:
    return [s.name for s in presets()]


def find_study(name_or_path: str) -> Study:
    """A shipped study by name, or a study file (anything ending in ``.toml``, or an existing
    file). ``UserError`` naming the choices for an unknown name."""
    if name_or_path.lower().endswith(".toml") or Path(name_or_path).expanduser().is_file():
        return load_study(name_or_path)
    studies = presets()
    name = ALIASES.get(name_or_path, name_or_path)  # the bench preset's old name
    for study in studies:
        if study.name == name:
            return study
    names = [s.name for s in studies]
    raise UserError(unknown_choice("study", name_or_path, names, ", or give a .toml file"))


def save_study(study: Study, path: str | Path, *, inputs: Sequence[str | Path] = ()) -> Path:
    """Write ``study`` as TOML, atomically, never over one of ``inputs`` (the files it
    measures); ``UserError`` starting ``cannot write <path>:``. Its files are written relative
    to the TOML's folder (the pair moves together), and the published figures and claims that
    name nothing of it (it ran other sizes than its paper's) are left out: the file loads
    again."""
    render = check_target(path, {".toml": to_toml}, inputs, what="the study")
    target = Path(path)
    files = tuple(_relative(f, target.absolute().parent) for f in study.files)
    text = render(replace(matched_paper(study), files=files))

    def write(staged: Path) -> None:
        staged.write_text(text, encoding="utf-8")

    write_atomically(target, write)
    return target


def _relative(file: str, folder: Path) -> str:
    """``file`` relative to ``folder`` (``"data/a.txt"``, ``"../a.txt"``); as it is where no
    relative path exists (another drive)."""
    try:
        return os.path.relpath(Path(file).expanduser().absolute(), folder)
    except ValueError:
        return file
