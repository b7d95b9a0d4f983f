"""Linux ``perf`` as the profile's sampler: the pyaes report's own method (``perf record -F 999
-g``). perf samples the process from the kernel and sees every native frame, the interpreter's
C functions among them (``_PyEval_EvalFrameDefault``, ``long_xor``), but not the Python functions
the interpreter runs (CPython 3.12's perf trampoline would add them).

perf cannot tell which samples fall inside the bench's timed calls from the stacks alone, so the
sampled process records each timed call's span on ``CLOCK_MONOTONIC`` (``perf_counter_ns`` on
Linux), perf stamps its samples with the same clock (``-k CLOCK_MONOTONIC``), and a sample
counts when it is the sampled process's and falls inside a span.
"""

from __future__ import annotations

import bisect
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

from app.core.profile.stacks import SEPARATOR, Sampled

Span = tuple[str, int, int]
EVAL_LOOP = "_PyEval_EvalFrameDefault"  # direction, start and end in ns on CLOCK_MONOTONIC

INSTALL = "sudo apt-get install linux-perf (Debian), linux-tools-generic (Ubuntu)"
PARANOID = "/proc/sys/kernel/perf_event_paranoid"
_REFUSED = ("perf_event_paranoid", "Access to performance monitoring", "Permission denied")


def record_command(perf: str, rate: int, output: str) -> list[str]:
    """``perf record`` of the command that follows, with call stacks and monotonic stamps. The
    stacks are unwound from a copy of the stack (DWARF): CPython is built without frame
    pointers, so ``-g`` alone loses every frame above the innermost."""
    return [
        *(perf, "record", "-F", str(rate), "--call-graph", "dwarf"),
        # -N: no copy of each sampled library in ~/.debug (it grows with every round)
        *("-k", "CLOCK_MONOTONIC", "-N", "-o", output, "--"),
    ]


def refused(said: str, paranoid_file: str = PARANOID) -> str:
    """The note for a ``perf record`` the kernel refused (its messages ``said``), naming the
    setting that decides it; ``""`` when it failed for another reason."""
    if not any(words in said for words in _REFUSED):
        return ""
    try:
        with open(paranoid_file, encoding="ascii") as fh:
            level = f" is {fh.read().strip()}"
    except OSError:
        level = ""
    return (
        f"perf may not sample here: kernel.perf_event_paranoid{level} (2 or less lets a user "
        "profile their own processes: sudo sysctl kernel.perf_event_paranoid=2), or use "
        "--profiler py-spy; see docs/reference/troubleshooting.md"
    )


def script_command(perf: str, data: str) -> list[str]:
    """``perf script`` printing each sample's pid, time and frames (address, symbol, object)."""
    return [perf, "script", "-i", data, "-F", "pid,time,ip,sym,dso", "--ns"]


def _header(line: str) -> tuple[int, int] | None:
    """``"  22859 38177.331445840: "`` -> (pid, ns); None when the line is not a header."""
    fields = line.split()
    if len(fields) != 2 or not fields[1].endswith(":") or not fields[0].isdigit():
        return None
    seconds, _, fraction = fields[1][:-1].partition(".")
    if not seconds.isdigit() or not fraction.isdigit():
        return None
    return int(fields[0]), int(seconds) * 1_000_000_000 + int(fraction.ljust(9, "0")[:9])


def _frames(lines: Sequence[str]) -> list[str]:
    """A sample's frame lines, innermost first (``"fd1ec _PyEval_EvalFrameDefault
    (/x/libpython3.11.so.1.0)"``), as py-spy writes frames (``name (file)``). A function
    inlined into another is named with the object of the frame at its address; a frame perf
    could not name at all is left out, and so is a line repeated at once (perf prints a kernel
    frame twice when the sample's address opens its call chain)."""
    parsed = []
    for i, line in enumerate(lines):
        if i and line == lines[i - 1] and line.endswith("([kernel.kallsyms])"):
            continue
        address, _, rest = line.partition(" ")
        name, _, dso = rest.rpartition(" (")
        parsed.append((address, name, dso.removesuffix(")")))
    objects: dict[str, str] = {}
    frames = []
    for address, name, dso in reversed(parsed):  # an inlined frame comes before its host's
        if dso == "inlined":
            dso = objects.get(address, "[unknown]")
        else:
            objects[address] = dso
        if dso != "[unknown]" or name not in ("", "[unknown]"):
            frames.append(f"{name or '[unknown]'} ({dso})")
    return frames  # outermost first


def trim_trunk(stacks: Mapping[tuple[str, ...], int]) -> dict[tuple[str, ...], int]:
    """``stacks`` (outermost frame first) without the trunk every one of them shares, from the
    process's start down to the timed call, but its last frame: what py-spy's stacks cut at
    the timed call's Python frame, which perf does not see. A stack unwound only in part (its
    outermost frames lost) is left whole."""
    if not stacks:
        return {}
    outermost: Counter[str] = Counter()
    for frames, n in stacks.items():
        if frames:
            outermost[frames[0]] += n
    if not outermost:
        return dict(stacks)
    start = outermost.most_common(1)[0][0]
    whole = [frames for frames in stacks if frames and frames[0] == start]
    shared = 0  # frames every whole stack begins with
    while all(len(f) > shared and f[shared] == whole[0][shared] for f in whole):
        shared += 1
    depth = max(shared - 1, 0)
    # No deeper than the interpreter's last frame they share (the timed loop's): below it, the
    # layers of the call (the binding, the library) stay, even where every sample has them.
    evals = [i for i, f in enumerate(whole[0][:shared]) if f.startswith(EVAL_LOOP)]
    depth = min(depth, evals[-1]) if evals else depth
    trimmed: Counter[tuple[str, ...]] = Counter()
    for frames, n in stacks.items():
        trimmed[frames[depth:] if frames and frames[0] == start else frames] += n
    return dict(trimmed)


def direction_at(spans: Sequence[Span], starts: Sequence[int], ns: int) -> str | None:
    """The direction of the timed call running at ``ns`` (``spans`` sorted by start)."""
    i = bisect.bisect_right(starts, ns) - 1
    if i >= 0 and spans[i][1] <= ns <= spans[i][2]:
        return spans[i][0]
    return None


def parse_script(lines: Iterable[str], pid: int, spans: Iterable[Span]) -> Sampled:
    """The samples of ``perf script``'s output ``lines`` taken of process ``pid`` inside the
    timed ``spans``, as collapsed stacks under their direction (outermost frame first)."""
    ordered = sorted(spans, key=lambda s: s[1])
    starts = [s[1] for s in ordered]
    timed: dict[str, Counter[tuple[str, ...]]] = {"encrypt": Counter(), "decrypt": Counter()}
    untimed = 0

    def close(header: tuple[int, int] | None, frames: list[str]) -> None:
        nonlocal untimed
        if header is None or header[0] != pid:
            return
        direction = direction_at(ordered, starts, header[1])
        if direction is None:
            untimed += 1
            return
        timed[direction][tuple(_frames(frames))] += 1

    header: tuple[int, int] | None = None
    frames: list[str] = []
    for line in lines:
        if not line.strip():
            continue
        head = _header(line) if not line.startswith("\t") else None
        if head is not None:
            close(header, frames)
            header, frames = head, []
        elif header is not None:
            frames.append(line.strip())
    close(header, frames)
    collapsed: Counter[str] = Counter()
    for direction, stacks in timed.items():
        for kept, n in trim_trunk(stacks).items():
            collapsed[SEPARATOR.join((direction, *kept))] += n
    return Sampled(dict(collapsed), untimed)
