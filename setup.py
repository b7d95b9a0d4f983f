"""Package discovery and the installed package's name; everything else is in pyproject.toml.

The checkout's package is `app/`; installed, it is `cipherbench`: a top-level package named
`app`, the most generic name there is, would be shadowed by any other `app` on the path (a
project folder of the user's, another distribution). So the wheel maps `app/` to `cipherbench/`
and the repository's top-level resources/ (icons, studies/*.toml) to `cipherbench/resources/`,
where app/core/resources.py finds them, and every module is copied with the names of its own
package rewritten (:func:`installed_text`): its imports, and the dotted names it resolves or
runs by string (``"app.core.sweep.worker:run_one_round"``, ``-m app.core.profile.sampled``).
Code that names its package's folder in a path reads the name from ``__name__`` instead.
pyproject.toml cannot declare such a mapping with package discovery, hence this file.
"""

import re

from setuptools import find_packages, setup
from setuptools.command.build_py import build_py

SOURCE = "app"  # the package's folder in the checkout
INSTALLED = "cipherbench"  # its name once installed

# `app` as the package: followed by one of its subpackages or modules, not after a dot or a
# letter (`self.app.core` or `QApplication` stay), so a variable named app is left alone.
_DOTTED = re.compile(rf"(?<![\w.]){SOURCE}(?=\.(?:core|cli|gui|resources|__main__)\b)")
# `import app`, `import app  # note`, `import app, os` (not `import app.core`: _DOTTED's)
_BARE_IMPORT = re.compile(rf"^([ \t]*)import {SOURCE}(?![\w.])", re.MULTILINE)
_FROM_PACKAGE = re.compile(rf"^([ \t]*)from {SOURCE} import ", re.MULTILINE)


def installed_text(text: str) -> str:
    """A module's source as installed: its own package named `cipherbench` (``import app``
    becomes ``import cipherbench as app``, so the module's own uses of the name still hold)."""
    text = _BARE_IMPORT.sub(rf"\1import {INSTALLED} as {SOURCE}", text)
    text = _FROM_PACKAGE.sub(rf"\1from {INSTALLED} import ", text)
    return _DOTTED.sub(INSTALLED, text)


class BuildPy(build_py):
    """build_py that writes every Python module through :func:`installed_text`."""

    def copy_file(self, infile, outfile, *args, **kwargs):  # type: ignore[no-untyped-def]
        if not str(infile).endswith(".py"):
            return super().copy_file(infile, outfile, *args, **kwargs)
        with open(infile, encoding="utf-8") as fh:
            text = installed_text(fh.read())
        if not self.dry_run:
            with open(outfile, "w", encoding="utf-8", newline="") as fh:
                fh.write(text)
        return outfile, 1


if __name__ == "__main__":
    subpackages = find_packages(include=[f"{SOURCE}.*"])
    setup(
        packages=[
            INSTALLED,
            *(INSTALLED + name[len(SOURCE) :] for name in subpackages),
            f"{INSTALLED}.resources",
            f"{INSTALLED}.docs",
        ],
        package_dir={
            INSTALLED: SOURCE,
            f"{INSTALLED}.resources": "resources",
            f"{INSTALLED}.docs": "docs",  # the Help window shows the same pages
        },
        cmdclass={"build_py": BuildPy},
    )
