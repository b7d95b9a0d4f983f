"""A profile's own files beside every renderer of its document: the flame graph (.svg), the
collapsed stacks (.txt, what flamegraph.pl, inferno and speedscope read) and a speedscope
profile (.speedscope.json), one profile per entry, every round's samples added up."""

from __future__ import annotations

import json
from pathlib import Path

from app import __version__
from app.core.profile.flame import flame_svg
from app.core.profile.result import ProfileResult
from app.core.profile.stacks import SEPARATOR


def collapsed_text(result: ProfileResult) -> str:
    """``entry;direction;frame;... count`` lines, outermost frame first. A ``;`` inside a name
    (none is expected) would split it; the entry's label has none."""
    lines = []
    for e in result.results:
        for stack, count in sorted(e.stacks().items()):
            lines.append(f"{e.label}{SEPARATOR}{stack} {count}")
    return "\n".join(lines) + ("\n" if lines else "")


def speedscope(result: ProfileResult) -> dict[str, object]:
    """The speedscope file format (https://www.speedscope.app/file-format-schema.json)."""
    frames: dict[str, int] = {}
    profiles = []
    for e in result.results:
        samples, weights = [], []
        for stack, count in sorted(e.stacks().items()):
            samples.append([frames.setdefault(f, len(frames)) for f in stack.split(SEPARATOR)])
            weights.append(count)
        profiles.append(
            {
                "type": "sampled",
                "name": f"{e.label}, {e.input_label}",
                "unit": "none",
                "startValue": 0,
                "endValue": sum(weights),
                "samples": samples,
                "weights": weights,
            }
        )
    return {
        "$schema": "https://www.speedscope.app/file-format-schema.json",
        "shared": {"frames": [{"name": name} for name in frames]},
        "profiles": profiles,
        "name": "CipherBench profile",
        "activeProfileIndex": 0,
        "exporter": f"CipherBench {__version__}",
    }


def write_svg(result: ProfileResult, path: Path) -> None:
    Path(path).write_text(flame_svg(result), encoding="utf-8")


def write_collapsed(result: ProfileResult, path: Path) -> None:
    Path(path).write_text(collapsed_text(result), encoding="utf-8")


def write_speedscope(result: ProfileResult, path: Path) -> None:
    text = json.dumps(speedscope(result), ensure_ascii=False)
    Path(path).write_text(text + "\n", encoding="utf-8")
