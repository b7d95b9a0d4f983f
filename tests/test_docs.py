"""The documentation a user reads: a README that fits a screen, every relative link of the
README, CONTRIBUTING.md and docs/ leading to a file that exists, and every command the docs show
accepted by the command line as written (its parser: what a user who copies it meets first).
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from app.cli.main import build_parser

ROOT = Path(__file__).resolve().parents[1]
PAGES = sorted([ROOT / "README.md", ROOT / "CONTRIBUTING.md", *(ROOT / "docs").rglob("*.md")])
LINK = re.compile(r"\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```(?:sh|bash|console)?\n(.*?)^```", re.MULTILINE | re.DOTALL)


def test_the_readme_fits_a_screen_and_points_to_the_docs() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 150
    for page in ("docs/README.md", "LICENSE", "CITATION.cff", "CONTRIBUTING.md"):
        assert f"]({page})" in text, page


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_leads_to_a_file(page: Path) -> None:
    for target in LINK.findall(page.read_text(encoding="utf-8")):
        if re.match(r"^[a-z]+:", target) or target.startswith("#"):
            continue  # a web link, or an anchor of the page itself
        path = (page.parent / target.split("#")[0]).resolve()
        assert path.exists(), f"{page.name}: {target}"


def _commands() -> list[tuple[str, str]]:
    """Every ``python main.py ...`` command in a shell block of the pages, with its page."""
    found = []
    for page in PAGES:
        for block in FENCE.findall(page.read_text(encoding="utf-8")):
            logical = block.replace("\\\n", " ")
            for line in logical.splitlines():
                line = line.split("  #")[0].strip()
                if line.startswith("python main.py ") and "|" not in line and "[" not in line:
                    found.append((str(page.relative_to(ROOT)), line))
    return found


def _table_commands() -> list[tuple[str, str]]:
    """The commands of the README's table "which command answers which question": each code
    span in a row that starts with a command's name (``bench FILE ...``, without
    ``python main.py``)."""
    names = set(build_parser()._subparsers._group_actions[0].choices)  # type: ignore[union-attr]
    found = []
    for line in (ROOT / "README.md").read_text(encoding="utf-8").splitlines():
        if line.startswith("| "):
            for span in re.findall(r"`([^`]+)`", line):
                if span.split()[0] in names and "..." not in span and "|" not in span:
                    found.append(("README.md", f"python main.py {span}"))
    return found


COMMANDS = _commands() + _table_commands()


def test_the_docs_show_commands() -> None:
    assert len(COMMANDS) >= 30


@pytest.mark.parametrize(("page", "command"), COMMANDS, ids=[c for _, c in COMMANDS])
def test_every_command_in_the_docs_parses(page: str, command: str) -> None:
    argv = shlex.split(command)[2:]  # after "python main.py"
    argv = [a for a in argv if a not in (">", "2>&1")]
    args = build_parser().parse_args(argv)
    assert args.command, f"{page}: {command}"
