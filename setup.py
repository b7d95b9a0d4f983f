"""Package discovery for setuptools; everything else is in pyproject.toml.

Only `app` and its subpackages are installed, and the repository's top-level resources/ (icons,
studies/*.toml) as the package data of `app.resources`, i.e. app/resources/ in the wheel, where
app/core/resources.py finds it. pyproject.toml cannot say "discover app.*, and map resources/ to
app.resources" at once, hence this file.
"""

from setuptools import find_packages, setup

setup(
    packages=[*find_packages(include=["app", "app.*"]), "app.resources"],
    package_dir={"app.resources": "resources"},
)
