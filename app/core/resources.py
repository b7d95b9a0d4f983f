"""Where the shipped files (icons, ``studies/*.toml`` presets, an optional ``style.qss``) and the
documentation's pages (docs/, found the same way: :func:`docs_path`) are.

The repository keeps them in a top-level ``resources/`` folder. They are found in each of the
three ways CipherBench runs:

- a PyInstaller bundle: ``sys._MEIPASS/resources`` (``packaging/cipherbench.spec`` puts them
  there);
- an installed wheel (``pip install .``): ``cipherbench/resources`` in the installed package
  (``setup.py`` maps the repository's ``resources/`` to the ``cipherbench.resources`` package
  data);
- a source checkout (or an editable install): ``<checkout>/resources``, beside ``app/``.

A zipped install (zipimport) is not supported: the files must be on disk.
"""

from __future__ import annotations

import sys
from pathlib import Path

# app/core/resources.py -> app/
_PACKAGE_DIR = Path(__file__).resolve().parents[1]


def candidate_dirs(
    package_dir: Path, bundle_dir: str | None, folder: str = "resources"
) -> list[Path]:
    """The places looked at for ``folder`` (resources/ or docs/), most specific first: the
    bundle's, the installed package's, the checkout's."""
    candidates = [package_dir / folder, package_dir.parent / folder]
    if bundle_dir:
        candidates.insert(0, Path(bundle_dir) / folder)
    return candidates


def resource_path(*parts: str) -> Path:
    """A shipped file or folder, e.g. ``resource_path("icon.png")`` or
    ``resource_path("studies")``: under the first candidate folder that exists (the bundle's,
    the installed package's, the checkout's). Whether the file itself exists is the caller's
    check."""
    candidates = candidate_dirs(_PACKAGE_DIR, getattr(sys, "_MEIPASS", None))
    root = next((folder for folder in candidates if folder.is_dir()), candidates[0])
    return root.joinpath(*parts)


def docs_path(*parts: str) -> Path:
    """A page of the documentation (the repository's docs/, shipped in the wheel and the
    bundle the same way as the resources), e.g. ``docs_path("README.md")``."""
    candidates = candidate_dirs(_PACKAGE_DIR, getattr(sys, "_MEIPASS", None), "docs")
    root = next((folder for folder in candidates if folder.is_dir()), candidates[0])
    return root.joinpath(*parts)
