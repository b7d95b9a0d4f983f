"""What the About dialog shows and copies: CipherBench's version and licence, and the version
and licence of each library it runs on.

Versions come from the engine's environment capture
(:func:`app.core.bench.environment.capture_environment`, what ``python main.py sysinfo``
prints). Licences come from each installed distribution's own metadata (``License-Expression``,
else a one-line ``License`` field, else its ``License ::`` classifiers), so an upgrade that
changes a library's licence shows here without an edit.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

import app
from app.core.bench.environment import PACKAGES, format_environment
from app.core.ciphers.libraries import LIBRARIES

DESCRIPTION = (
    "Benchmarks symmetric ciphers on your own files: time, throughput, memory and CPU, "
    "every run verified by decryption."
)
NO_LICENCE = "no licence file has been chosen yet"
LICENCE_FILES = ("LICENSE", "LICENSE.txt", "LICENSE.md", "COPYING")
NOT_STATED = "not stated in its metadata"
# The order of the dialog's rows; packages the environment adds later come after these.
ORDER = (
    "PySide6",
    "pyqtgraph",
    "numpy",
    *LIBRARIES,
    "openpyxl",
    "psutil",
)
_LONGEST_LICENCE_FIELD = 100  # longer ``License`` fields hold the whole licence text
_CLASSIFIER = "License ::"


@dataclass(frozen=True)
class Component:
    """One row of the About dialog. ``licence`` is empty where no package metadata states one
    (Python itself, the OpenSSL compiled into cryptography)."""

    name: str
    version: str | None
    licence: str
    note: str = ""  # a tooltip: where the row's facts come from


def installed_distribution(names: tuple[str, ...]) -> str | None:
    """The first of ``names`` (distribution names) that is installed."""
    for name in names:
        try:
            metadata.distribution(name)
        except metadata.PackageNotFoundError:
            continue
        return name
    return None


def _first(meta: metadata.PackageMetadata, name: str) -> str:
    """The first value of the metadata field ``name``, stripped ("" when absent)."""
    values = meta.get_all(name) or []
    return str(values[0]).strip() if values else ""


def licence_of(distribution: str) -> str:
    """The licence ``distribution``'s metadata states, as an SPDX expression where it gives
    one (``PackageNotFoundError`` when it is not installed)."""
    meta = metadata.metadata(distribution)
    expression = _first(meta, "License-Expression")
    if expression:
        return expression
    field = _first(meta, "License")
    if field and "\n" not in field and len(field) <= _LONGEST_LICENCE_FIELD and field != "UNKNOWN":
        return _classifier_name(field) if field.startswith(_CLASSIFIER) else field
    classifiers = [c for c in meta.get_all("Classifier") or [] if c.startswith(_CLASSIFIER)]
    names = [_classifier_name(c) for c in classifiers]
    return " / ".join(n for n in names if n) or NOT_STATED


def _classifier_name(classifier: str) -> str:
    """``License :: OSI Approved :: MIT License`` -> ``MIT License``."""
    name = classifier.rsplit("::", 1)[-1].strip()
    return "" if name == "OSI Approved" else name


def cipherbench_licence(root: Path | None = None) -> str:
    """CipherBench's own licence: what an installed distribution's metadata states, else the
    first line of a licence file beside the ``app`` package, else :data:`NO_LICENCE`."""
    try:
        stated = licence_of("cipherbench")
    except metadata.PackageNotFoundError:
        stated = NOT_STATED
    if stated != NOT_STATED:
        return stated
    folder = root if root is not None else Path(app.__file__).resolve().parents[1]
    for name in LICENCE_FILES:
        path = folder / name
        if path.is_file():
            lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
            first = next((line.strip() for line in lines if line.strip()), "")
            return f"{first} ({name})" if first else name
    return NO_LICENCE


def components(env: Mapping[str, Any], qt_version: str) -> list[Component]:
    """Python, then each library the environment lists (with Qt beside PySide6 and the
    OpenSSL inside cryptography after it), each with its licence."""
    python = env.get("python") or {}
    rows = [
        Component(
            "Python",
            _joined(python.get("version"), python.get("implementation")),
            "",
            "The interpreter running CipherBench",
        )
    ]
    packages: Mapping[str, str | None] = env.get("packages") or {}
    for name in sorted(packages, key=lambda n: ORDER.index(n) if n in ORDER else len(ORDER)):
        version = packages[name]
        dist = installed_distribution(PACKAGES.get(name, (name,)))
        licence = licence_of(dist) if dist else ""
        note = f"Read from the installed distribution {dist}" if dist else "Not installed"
        if name == "PySide6":
            version = _joined(version, f"Qt {qt_version}")
        rows.append(Component(name, version, licence, note))
        if name == "cryptography":
            rows.append(
                Component(
                    "OpenSSL",
                    env.get("openssl_version"),
                    "",
                    "The OpenSSL that cryptography is built with (in its wheel); its licence "
                    "is not in the package metadata",
                )
            )
    return rows


def _joined(version: Any, detail: Any) -> str | None:
    if not version:
        return None
    return f"{version} ({detail})" if detail else str(version)


def version_text(env: Mapping[str, Any], qt_version: str) -> str:
    """What "Copy" puts on the clipboard for a bug report: the ``sysinfo`` summary (version,
    machine, Python, OpenSSL, libraries) plus the Qt the window runs on. No paths, no
    settings, nothing typed by the user."""
    packages = dict(env.get("packages") or {})
    packages["Qt (runtime)"] = qt_version
    return format_environment({**env, "packages": packages}) + "\n"


def title() -> str:
    return f"CipherBench {app.__version__}"
