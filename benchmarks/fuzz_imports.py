"""Imports at the door: mutated real result documents of every kind through ``history
import``, then ``show``, ``trend``, ``compare`` and ``merge``; counts what ends in an internal
error (exit 3) instead of a one-line refusal.

    python benchmarks/fuzz_imports.py [--each N] [--seed S]

Each mutation replaces one value anywhere in a document (a leaf or a whole list or table)
with a hostile one: empty, null, the wrong type, 1e308, a huge integer, a negative number.
Prints, per kind, the documents tried, accepted and refused, and each internal error with the
mutation that caused it.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import random
import shutil
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "tests" / "core")]

HOSTILE: tuple[Any, ...] = ("", None, {}, [], 1e308, -1e308, -1, 0, "x", 10**18, True, [1e308])


def _documents(folder: Path) -> dict[str, dict[str, Any]]:
    """A real export of each stored kind, written by the formats' JSON writers."""
    from hostile import small_job, small_run
    from publish_factories import made_study
    from trend_factories import sweep

    from app.core.kinds import formats
    from tests.core.history.history_factories import transfer_run, transfer_study

    results = {
        "bench": small_run(small_job(), small_job("other.bin", input_bytes=9000)),
        "study": made_study(sizes=(("1 KB", 1000), ("1 MB", 10**6))),
        "transfer": transfer_run(),
        "transfer study": transfer_study(),
        "sweep": sweep(),
    }
    out = {}
    for name, result in results.items():
        path = folder / f"{name.replace(' ', '_')}.json"
        formats.save(result, path)
        out[name] = json.loads(path.read_text())
    return out


def _paths(node: Any, here: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [here] if here else []
    if isinstance(node, dict):
        for key, value in node.items():
            found += _paths(value, (*here, key))
    elif isinstance(node, list):
        for i, value in enumerate(node[:3]):
            found += _paths(value, (*here, i))
    return found


def _mutated(doc: dict[str, Any], rng: random.Random) -> tuple[dict[str, Any], str]:
    copy = json.loads(json.dumps(doc))
    path = rng.choice(_paths(copy))
    value = rng.choice(HOSTILE)
    node = copy
    for step in path[:-1]:
        node = node[step]
    node[path[-1]] = value
    return copy, f"{'.'.join(map(str, path))} = {value!r}"[:160]


def _cli(*argv: object) -> tuple[int, str]:
    from app.cli import main as cli

    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        code = cli.main([str(a) for a in argv])
    return code, err.getvalue()


def fuzz(
    kind: str,
    doc: dict[str, Any],
    folder: Path,
    setenv: Callable[[str, str], None],
    *,
    each: int,
    seed: int,
    counts: dict[str, int] | None = None,
) -> list[str]:
    """``each`` mutations of ``doc`` through import, show, trend, compare and merge, with the
    history in ``folder`` (``setenv`` points CIPHERBENCH_HISTORY at it); the internal errors,
    each with its mutation. ``counts`` receives how many were accepted and refused."""
    rng = random.Random(seed)
    good = folder / f"good_{kind.replace(' ', '_')}.json"
    good.write_text(json.dumps(doc))
    tally = counts if counts is not None else {}
    tally.update(accepted=0, refused=0)
    errors: list[str] = []
    # A fresh history holding only the good document, made once and copied: importing it into
    # each new history took a fifth of the time.
    fresh = folder / f"fresh_{kind.replace(' ', '_')}.sqlite3"
    setenv("CIPHERBENCH_HISTORY", str(fresh))
    code, said = _cli("history", "import", good)
    if code != 0:
        return [f"  import of the unmutated document: {said.strip()[:200]}"]
    for n in range(each):
        mutated, what = _mutated(doc, rng)
        path = folder / "m.json"
        path.write_text(json.dumps(mutated))
        history = folder / f"h{n % 50}.sqlite3"
        setenv("CIPHERBENCH_HISTORY", str(history))
        if history.exists():
            _cli("history", "import", good)  # already there (refused) unless another kind's
        else:
            shutil.copyfile(fresh, history)
        code, said = _cli("history", "import", path)
        if code == 3:
            errors.append(f"  import: {what}: {said.strip()[:200]}")
            continue
        if code != 0:
            tally["refused"] += 1
            continue
        tally["accepted"] += 1
        last = _cli_last_id()
        for name, argv in (
            ("list", ("history", "list")),
            ("show", ("history", "show", last)),
            ("trend", ("history", "trend", last)),
            ("compare", ("history", "compare", last - 1, last)),
            ("export", ("history", "export", last, "--out", folder / f"e{n}.json")),
            ("merge", ("merge", good, path)),
        ):
            code, said = _cli(*argv)
            if code == 3:
                errors.append(f"  {name}: {what}: {said.strip()[:200]}")
    return errors


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--each", type=int, default=400, help="documents per kind (default 400)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    os.environ.pop("CIPHERBENCH_NO_HISTORY", None)
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        total = 0
        for kind, doc in _documents(folder).items():
            counts: dict[str, int] = {}
            errors = fuzz(
                kind, doc, folder, os.environ.__setitem__, each=args.each, seed=args.seed,
                counts=counts,
            )  # fmt: skip
            total += len(errors)
            print(f"{kind}: {args.each} documents, {counts['accepted']} accepted, "
                  f"{counts['refused']} refused, {len(errors)} internal errors")  # fmt: skip
            print("\n".join(errors[:20])) if errors else None
        print(f"internal errors in all: {total}")
    return 0


def _cli_last_id() -> int:
    from app.core.history.store import History

    with contextlib.closing(History.open()) as history:
        return max(s.id for s in history.list_runs())


if __name__ == "__main__":
    sys.exit(main())
