"""What to say when the Python running CipherBench lacks a package it needs.

``/usr/bin/python3 main.py`` (a Python without CipherBench's packages) used to end in a
traceback of a dozen lines. The entry points (``app/__main__.py``, the command line's ``main``)
turn that ``ImportError`` into one sentence naming the package to install (the distribution
pip knows, ``pycryptodome`` for ``Crypto``) and the way to start CipherBench that sets it up.

Imports nothing beyond the standard library: it must work where every dependency is missing.
"""

from __future__ import annotations

import sys
from importlib import metadata, util
from pathlib import Path

# The modules of requirements.txt's distributions (tests/test_packaging.py keeps them equal).
DISTRIBUTIONS: dict[str, str] = {
    "PySide6": "PySide6-Essentials",
    "shiboken6": "PySide6-Essentials",
    "pyqtgraph": "pyqtgraph",
    "numpy": "numpy",
    "Crypto": "pycryptodome",
    "cryptography": "cryptography",
    "openpyxl": "openpyxl",
    "psutil": "psutil",
    "pyaes": "pyaes",
    "platformdirs": "platformdirs",
    "matplotlib": "matplotlib",
}
# requirements.txt's distributions that install a program, not a module (the profile runs
# py-spy; without it the profile says what to install).
PROGRAMS: tuple[str, ...] = ("py-spy",)
_CHECKOUT = Path(__file__).resolve().parents[2]  # holds main.py and scripts/ in a checkout


def missing_dependency(exc: BaseException) -> str | None:
    """The sentence for ``exc`` when it says that a package CipherBench needs is missing (or
    too old to have a module CipherBench imports); None for any other error."""
    if not isinstance(exc, ImportError) or not exc.name:
        return None
    top = exc.name.partition(".")[0]
    own = __name__.partition(".")[0]  # app in a checkout, cipherbench installed
    if top == own or (not isinstance(exc, ModuleNotFoundError) and top not in DISTRIBUTIONS):
        return None
    if top in sys.stdlib_module_names:
        return (
            f"this Python ({sys.executable}) was built without the standard module {exc.name}, "
            "which CipherBench needs; use another Python 3.11 or newer (PYTHON=/path/to/python3 "
            "scripts/run.sh)"
        )
    dist = DISTRIBUTIONS.get(top, top)
    partial = exc.name != top or not isinstance(exc, ModuleNotFoundError)
    if partial and _importable(top):  # there, but without what CipherBench imports from it
        version = _installed_version(dist)
        what = (
            f"this Python's {dist}{' ' + version if version else ''} is too old for "
            f"CipherBench (it has no {exc.name})"
        )
    else:
        module = f" (module {top})" if dist != top else ""
        what = f"this Python ({sys.executable}) lacks the package {dist}{module}"
    return f"{what}; {_remedy(dist)}"


def _importable(module: str) -> bool:
    try:
        return util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def _installed_version(dist: str) -> str | None:
    try:
        return metadata.version(dist)
    except (metadata.PackageNotFoundError, ValueError):
        return None


def _remedy(dist: str) -> str:
    """How to get the package: in a checkout, the script that sets up .venv; else pip."""
    run_sh = _CHECKOUT / "scripts" / "run.sh"
    if not run_sh.is_file():  # installed (pip install .) or frozen
        return f"install it with: {sys.executable} -m pip install '{dist}'"
    venv = _CHECKOUT / ".venv"
    if Path(sys.prefix).resolve() == venv.resolve():  # the set-up environment itself is broken
        return f"set the environment up again with: CIPHERBENCH_FORCE_SETUP=1 {_shown(run_sh)}"
    return (
        f"start CipherBench with {_shown(run_sh)}, which sets up {_shown(venv)} with every "
        f"package it needs, or with {_shown(venv / 'bin' / 'python')} "
        f"{_shown(_CHECKOUT / 'main.py')} once it is set up"
    )


def _shown(path: Path) -> str:
    """``path`` relative to the current folder when it is inside it (``scripts/run.sh``)."""
    try:
        return str(path.relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)
