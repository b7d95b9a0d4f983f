"""`pip install .`: the wheel holds only the checkout's `app/`, installed as `cipherbench` (with
resources/ as cipherbench/resources, every module's names of its own package rewritten by
setup.py), declares the `cipherbench` and `cipherbench-gui` commands and the dependencies of
requirements*.txt, and, installed somewhere else, finds its presets and icons there, even
beside another package named `app`.

The wheel is built (``pip wheel --no-deps --no-build-isolation``, with this environment's
setuptools) from a copy of its sources beside decoy top-level packages named like the
repository's other folders, so the checkout gets no build/ folder and the test shows those
folders are left out even if they became packages.
"""

from __future__ import annotations

import configparser
import email.parser
import os
import runpy
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from packaging.requirements import Requirement

import app
from app import __main__ as entry

ROOT = Path(__file__).resolve().parent.parent
SOURCES = (
    "pyproject.toml", "setup.py", "README.md", "LICENSE", "requirements.txt", "app", "resources",
    "docs",
)  # fmt: skip
DECOYS = ("packaging", "tests", "benchmarks", "scripts")
DIST_INFO = f"cipherbench-{app.__version__}.dist-info"


def _pip(*args: str | Path) -> None:
    subprocess.run(
        [sys.executable, "-m", "pip", "--disable-pip-version-check", *map(str, args)],
        check=True,
        capture_output=True,
        timeout=300,
    )


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    src = tmp_path_factory.mktemp("src")
    for name in SOURCES:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, src / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(source, src / name)
    for name in DECOYS:
        (src / name).mkdir()
        (src / name / "__init__.py").write_text("")
        (src / name / "decoy.py").write_text("")
    out = tmp_path_factory.mktemp("wheel")
    _pip("wheel", "--no-deps", "--no-build-isolation", "--no-index", "-w", out, src)
    (built,) = out.glob("cipherbench-*.whl")
    return built


@pytest.fixture(scope="module")
def names(wheel: Path) -> list[str]:
    with zipfile.ZipFile(wheel) as archive:
        return archive.namelist()


def _read(wheel: Path, name: str) -> str:
    with zipfile.ZipFile(wheel) as archive:
        return archive.read(name).decode()


def _requirements(path: Path) -> set[str]:
    """The requirements of a requirements file, normalised; ``-r`` lines skipped."""
    found = set()
    for line in path.read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line and not line.startswith("-"):
            found.add(str(Requirement(line)))
    return found


def test_the_wheel_holds_only_app_and_its_metadata(wheel: Path, names: list[str]) -> None:
    assert wheel.name == f"cipherbench-{app.__version__}-py3-none-any.whl"
    assert {name.split("/")[0] for name in names} == {"cipherbench", DIST_INFO}
    assert _read(wheel, f"{DIST_INFO}/top_level.txt").split() == ["cipherbench"]
    assert not [name for name in names if "decoy" in name or "__pycache__" in name]


def test_every_module_of_app_is_in_the_wheel(names: list[str]) -> None:
    modules = {
        "cipherbench/" + path.relative_to(ROOT / "app").as_posix()
        for path in (ROOT / "app").rglob("*.py")
        if "__pycache__" not in path.parts
    }
    assert modules <= set(names)
    assert "cipherbench/__main__.py" in modules and "cipherbench/core/resources.py" in modules


def test_every_resource_is_package_data(names: list[str]) -> None:
    """Every file of resources/ ships as cipherbench/resources/... (a new kind of file needs its
    pattern in pyproject.toml's package-data, which packaging/cipherbench.spec reads too)."""
    resources = {
        "cipherbench/" + path.relative_to(ROOT).as_posix()
        for path in (ROOT / "resources").rglob("*")
        if path.is_file() and not path.name.startswith(".")
    }
    shipped = {name for name in names if name.startswith("cipherbench/resources/")}
    assert shipped == resources
    assert {"cipherbench/resources/icon.png", "cipherbench/resources/icon.svg"} <= shipped
    studies = [name for name in shipped if name.startswith("cipherbench/resources/studies/")]
    assert len(studies) >= 5
    pages = {
        "cipherbench/" + path.relative_to(ROOT).as_posix()
        for path in (ROOT / "docs").rglob("*")
        if path.is_file() and path.suffix in (".md", ".png")
    }
    assert pages == {name for name in names if name.startswith("cipherbench/docs/")}
    assert "cipherbench/docs/guide/read-a-claim.md" in pages  # the Help window's pages


def test_the_installed_modules_name_their_package_cipherbench() -> None:
    """setup.py's rewrite: the package's own imports and dotted names, never a variable."""
    rewrite = runpy.run_path(str(ROOT / "setup.py"), run_name="not_main")["installed_text"]
    source = (
        "import app\nfrom app import __version__\nimport app.core.x\n"
        "    import app  # the version\nimport app, os\n"
        "from app.core.y import z\ntask = 'app.core.sweep.worker:run_one_round'\n"
        "command = ['-m', 'app.core.profile.sampled']\n"
        "app = QApplication([]); app.quit(); self.app.core = 1\n"
    )
    assert rewrite(source) == (
        "import cipherbench as app\nfrom cipherbench import __version__\n"
        "import cipherbench.core.x\n"
        "    import cipherbench as app  # the version\nimport cipherbench as app, os\n"
        "from cipherbench.core.y import z\n"
        "task = 'cipherbench.core.sweep.worker:run_one_round'\n"
        "command = ['-m', 'cipherbench.core.profile.sampled']\n"
        "app = QApplication([]); app.quit(); self.app.core = 1\n"
    )


def test_the_commands_are_declared(wheel: Path) -> None:
    points = configparser.ConfigParser()
    points.read_string(_read(wheel, f"{DIST_INFO}/entry_points.txt"))
    assert dict(points["console_scripts"]) == {"cipherbench": "cipherbench.__main__:main"}
    assert dict(points["gui_scripts"]) == {"cipherbench-gui": "cipherbench.__main__:gui_main"}
    assert callable(entry.main) and callable(entry.gui_main)


def test_the_wheel_states_its_licence_and_carries_the_file(wheel: Path, names: list[str]) -> None:
    metadata = email.parser.Parser().parsestr(_read(wheel, f"{DIST_INFO}/METADATA"))
    assert metadata["License-Expression"] == "MIT"
    assert f"{DIST_INFO}/licenses/LICENSE" in names


def test_the_dependencies_are_those_of_requirements_txt(wheel: Path) -> None:
    metadata = email.parser.Parser().parsestr(_read(wheel, f"{DIST_INFO}/METADATA"))
    assert metadata["Version"] == app.__version__
    assert metadata["Requires-Python"] == ">=3.11"
    runtime, dev = set(), set()
    for line in metadata.get_all("Requires-Dist") or []:
        requirement = Requirement(line)
        if requirement.marker is None:
            runtime.add(str(requirement))
        else:
            assert str(requirement.marker) == 'extra == "dev"'
            requirement.marker = None
            dev.add(str(requirement))
    assert runtime == _requirements(ROOT / "requirements.txt")
    assert "PySide6-Essentials<6.12,>=6.11" in runtime  # 6.12.0 kills the process (PLATFORM.md)
    assert dev == _requirements(ROOT / "requirements-dev.txt")


def test_installed_elsewhere_the_commands_find_their_resources(wheel: Path, tmp_path: Path) -> None:
    """The wheel installed into a folder of its own (its dependencies from this environment),
    run from a folder outside the checkout that holds a package of its own named `app` (on
    the path first): the console script starts, names itself, and the presets and icons come
    from the installed package."""
    site = tmp_path / "site"
    _pip("install", "--no-deps", "--no-index", "--target", site, wheel)
    elsewhere = tmp_path / "elsewhere"
    (elsewhere / "app").mkdir(parents=True)
    (elsewhere / "app" / "__init__.py").write_text("raise SystemExit('the wrong app')\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join((str(elsewhere), str(site)))}

    def run(*argv: str | Path) -> str:
        done = subprocess.run(
            list(map(str, argv)), cwd=elsewhere, env=env, capture_output=True, text=True,
            timeout=120,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        return done.stdout

    found = run(
        sys.executable,
        "-c",
        "import cipherbench.core.resources as r, cipherbench.core.study.presets as p; "
        "print(r.__file__); print(r.resource_path()); print(p.studies_dir())",
    ).split()
    assert found == [
        str(site / "cipherbench" / "core" / "resources.py"),
        str(site / "cipherbench" / "resources"),
        str(site / "cipherbench" / "resources" / "studies"),
    ]
    assert (site / "cipherbench" / "resources" / "icon.png").is_file()
    command = site / "bin" / "cipherbench"
    assert run(command, "--help").startswith("usage: cipherbench ")
    assert "(Yudiono et al. 2026)" in run(command, "study", "--list")
    assert (site / "bin" / "cipherbench-gui").is_file()


def test_main_runs_the_command_line_or_the_window(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import app.gui.launch

    opened: list[list[str]] = []
    monkeypatch.setattr(app.gui.launch, "launch", lambda argv: opened.append(argv) or 0)
    assert entry.main(["list"]) == 0
    assert "aes-256-gcm" in capsys.readouterr().out
    assert entry.main([]) == 0
    assert entry.main(["gui", "-style", "fusion"]) == 0
    for argv in (["cipherbench-gui"], ["cipherbench-gui", "gui"], ["cipherbench-gui", "-x"]):
        monkeypatch.setattr(sys, "argv", argv)
        assert entry.gui_main() == 0
    assert opened == [[], ["-style", "fusion"], [], [], ["-x"]]
