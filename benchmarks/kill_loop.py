"""SIGKILL at random moments of encrypt, decrypt, bench --out and a study export (issue 17).

    python benchmarks/kill_loop.py [--kills 20] [--seed 17] [--size 256MB] [--bench-size 16MB]
                                   [--dir DIR] [--keep] [--strict]

What it proves: a CipherBench command killed by SIGKILL (the OOM killer, ``kill -9``) leaves no
partial, hidden or stray file and no folder in its output folder, its source keeps its SHA-256
and mtime, and none of its processes outlives it (workers have PR_SET_PDEATHSIG). Every output
goes through ``app.core.runtime.safe_files.StagedFile``: an unnamed ``O_TMPFILE`` file, linked in
whole.

One uninterrupted run of each command measures its duration and its write phase (while
``/proc/<pid>/fd`` shows an unnamed ``<out>/#<inode> (deleted)``). Each killed run (a session of
its own, the output folder as working directory) then gets SIGKILL, alternately at a moment drawn
uniformly over that duration and over the write phase once begun; /proc, read just before the
signal, says whether it landed mid-write. A run that ended first is replaced by another draw. A
declared output found whole (a .json that parses, a valid .xlsx zip, an .html with its end, else
the uninterrupted run's size) was placed before the kill: counted apart, a failure only with
``--strict``. The killed run's scratch folder ``$TMPDIR/cipherbench-<pid>-*`` is counted
(the next start sweeps it: ``app.core.runtime.scratch.remove_stale``); anything else new in
TMPDIR is a file left behind. A last ``list`` run shows what its start's sweep leaves in TMPDIR.

Everything, TMPDIR and the history included, lives in a private folder (deleted unless
``--keep``). Exit status 1 when a file was left in the output folder or TMPDIR, a source changed
or a process survived.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.core.units import parse_size  # noqa: E402

MARKER = "CIPHERBENCH_KILL_LOOP_RUN"  # inherited by every process a run starts
POLL_SECONDS = 0.001
SURVIVOR_WAIT_SECONDS = 5.0


@dataclass(frozen=True)
class Command:
    name: str
    args: tuple[str, ...]
    source: Path
    outputs: tuple[str, ...]  # the names it writes in the output folder


@dataclass
class Tally:
    command: str
    kills: int = 0
    mid_write: int = 0
    finished_first: int = 0
    left: list[str] = field(default_factory=list)  # stray or partial: failures
    whole: list[str] = field(default_factory=list)  # outputs placed before the kill
    scratch_left: int = 0
    tmp_left: list[str] = field(default_factory=list)  # in TMPDIR, outside the scratch folder
    source_changed: int = 0
    survivors: list[str] = field(default_factory=list)

    def clean(self, strict: bool = False) -> bool:
        failed = self.left or self.tmp_left or self.source_changed or self.survivors
        return not (failed or (strict and self.whole))


@dataclass(frozen=True)
class Workspace:
    inputs: Path
    out: Path
    tmp: Path
    env: dict[str, str]


def make_workspace(
    root: Path, size: int, bench_size: int, repeat: int = 5, study: str = "aes-key-sizes"
) -> tuple[Workspace, list[Command]]:
    """Folders, random sources, a key file and a sealed file; the four commands to kill (the
    bench's repetitions ``repeat``, the study's at least 1 and about half as many; ``study``:
    a preset or a study file)."""
    env = {**os.environ, "TMPDIR": str(root / "tmp"), "CIPHERBENCH_HISTORY": str(root / "h.db")}
    env.pop("CIPHERBENCH_DEBUG", None)
    ws = Workspace(root / "in", root / "out", root / "tmp", env)
    for folder in (ws.inputs, ws.out, ws.tmp):
        folder.mkdir(parents=True)
    plain, small = ws.inputs / "plain.bin", ws.inputs / "small.bin"
    for path, nbytes in ((plain, size), (small, bench_size)):
        with open(path, "wb") as f:
            for start in range(0, nbytes, 1 << 24):
                f.write(os.urandom(min(1 << 24, nbytes - start)))
    key, sealed = ws.inputs / "key.json", ws.inputs / "sealed.cbf"
    # pycryptodome's AES-CBC (~450 MB/s): writing is most of an encrypt or a decrypt.
    cipher = ("--cipher", "aes-256-cbc", "--library", "pycryptodome")
    run_to_end(ws, ("encrypt", str(plain), "-o", str(sealed), "--new-key-file", str(key), *cipher))
    o, quiet = ws.out, ("--quiet", "--no-history")
    return ws, [
        Command("encrypt", ("encrypt", str(plain), "-o", str(o / "plain.cbf"),
                            "--key-file", str(key), *cipher), plain, ("plain.cbf",)),
        Command("decrypt", ("decrypt", str(sealed), "-o", str(o / "plain.bin"),
                            "--key-file", str(key), "--library", "pycryptodome"),
                sealed, ("plain.bin",)),
        Command("bench --out", ("bench", str(small), *cipher, "--repeat", str(repeat), *quiet,
                                "--out", str(o / "results.xlsx"), "--out", str(o / "results.json")),
                small, ("results.xlsx", "results.json")),
        Command("study --out", ("study", study, "--files", str(small), "--rounds", "1",
                                "--max-rounds", "1", "--repeat", str(max(1, repeat // 2)), *quiet,
                                "--out", str(o / "study.html"), "--out", str(o / "study.xlsx")),
                small, ("study.html", "study.xlsx")),
    ]  # fmt: skip


def fingerprint(path: Path) -> tuple[str, int]:
    """SHA-256 and mtime (ns) of ``path``."""
    with open(path, "rb") as f:
        digest = hashlib.file_digest(f, "sha256").hexdigest()
    return digest, path.stat().st_mtime_ns


def whole(path: Path, reference_bytes: int | None) -> bool:
    """Whether the output ``path`` is complete: its format ends properly, or (a container, a
    plaintext) it has the size of the same output from the uninterrupted run."""
    try:
        if path.suffix == ".json":
            json.loads(path.read_bytes())
            return True
        if path.suffix == ".xlsx":
            with zipfile.ZipFile(path) as z:
                return z.testzip() is None
        if path.suffix == ".html":
            return path.read_text(encoding="utf-8").rstrip().endswith("</html>")
        return path.stat().st_size == reference_bytes
    except (OSError, ValueError, zipfile.BadZipFile):
        return False


@contextlib.contextmanager
def started(ws: Workspace, args: tuple[str, ...], token: str) -> Iterator[subprocess.Popen[bytes]]:
    """The real command line in a session (and process group) of its own; whatever of it still
    runs when the block ends (this script stopped) is killed."""
    proc = subprocess.Popen(
        [sys.executable, str(ROOT / "main.py"), *args],
        cwd=ws.out,
        env={**ws.env, MARKER: token},
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        yield proc
    finally:
        if proc.poll() is None:
            with contextlib.suppress(OSError):
                os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        if proc.stderr:
            proc.stderr.close()


def run_to_end(ws: Workspace, args: tuple[str, ...]) -> None:
    with started(ws, args, "setup") as proc:
        _, err = proc.communicate(timeout=600)
    if proc.returncode != 0:
        raise RuntimeError(f"{args[0]} failed ({proc.returncode}): {err.decode()}")


def staging(pid: int, folder: Path) -> bool:
    """Whether ``pid`` is writing a staged output in ``folder``: an unnamed file (its descriptor
    reads ``<folder>/#<inode> (deleted)``) or a named ``.part`` one."""
    if any(folder.glob(".cb-*.part")):
        return True
    prefix = f"{folder.resolve()}/#"
    with contextlib.suppress(OSError):
        for fd in os.listdir(f"/proc/{pid}/fd"):
            with contextlib.suppress(OSError):
                if os.readlink(f"/proc/{pid}/fd/{fd}").startswith(prefix):
                    return True
    return False


def processes_of_run(token: str, group: int) -> list[str]:
    """``pid: command line`` of every living process of a run: carrying its marker variable or
    in its process group (a child given a clean environment would still be found)."""
    needle = f"{MARKER}={token}\0".encode()
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit() and int(entry) != os.getpid():
            with contextlib.suppress(OSError, IndexError, ValueError):
                state, _, pgrp = (
                    Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[:3]
                )
                ours = int(pgrp) == group or needle in Path(f"/proc/{entry}/environ").read_bytes()
                if ours and state != "Z":  # a zombie is dead, only not yet reaped
                    cmdline = Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ")
                    found.append(f"{entry}: {cmdline.decode(errors='replace').strip()}")
    return found


def measure(ws: Workspace, command: Command) -> tuple[float, float, dict[str, int]]:
    """Seconds of an uninterrupted run, of its write phase (0 when never seen), and the sizes
    of its outputs."""
    first = last = None
    with started(ws, command.args, "measure") as proc:
        begun = time.monotonic()
        while proc.poll() is None:
            if staging(proc.pid, ws.out):
                last = time.monotonic()
                first = first or last
            time.sleep(POLL_SECONDS)
        seconds = time.monotonic() - begun
        err = proc.stderr.read().decode() if proc.stderr else ""
    if proc.returncode != 0:
        raise RuntimeError(f"{command.name} failed ({proc.returncode}): {err}")
    sizes = {p.name: p.stat().st_size for p in ws.out.iterdir()}
    clear(ws.out)
    return seconds, (last - first) if first and last else 0.0, sizes


def clear(folder: Path) -> None:
    shutil.rmtree(folder)
    folder.mkdir()


def kill_once(
    ws: Workspace, command: Command, moment: float, in_write: bool, token: str
) -> tuple[int, bool] | None:
    """Start ``command`` and SIGKILL it ``moment`` seconds after its start (``in_write``: after
    its write phase began). Its pid and whether it was writing; None when it ended first."""
    writing = False
    with started(ws, command.args, token) as proc:
        begun = time.monotonic()
        if in_write:
            while proc.poll() is None and not staging(proc.pid, ws.out):
                time.sleep(POLL_SECONDS)
            begun = time.monotonic()
        while proc.poll() is None and time.monotonic() - begun < moment:
            time.sleep(POLL_SECONDS)
        if proc.poll() is None:
            writing = staging(proc.pid, ws.out)
            os.kill(proc.pid, signal.SIGKILL)  # the supervisor alone: its workers must follow
        proc.wait(timeout=60)
    if proc.returncode != -signal.SIGKILL:  # it ended (a zombie ignores the signal)
        clear(ws.out)
        return None
    return proc.pid, writing


def in_folder(
    folder: Path, outputs: tuple[str, ...], sizes: dict[str, int]
) -> tuple[list[str], ...]:
    """What ``folder`` holds: the whole ``outputs``, and everything else (partial, stray)."""
    found: tuple[list[str], list[str]] = ([], [])
    for p in sorted(folder.iterdir()):
        size = "a folder" if p.is_dir() else f"{p.lstat().st_size:,} bytes"
        is_whole = p.name in outputs and whole(p, sizes.get(p.name))
        found[0 if is_whole else 1].append(f"{p.name} ({size})")
    return found


def kill_loop(
    ws: Workspace,
    command: Command,
    kills: int,
    rng: random.Random,
    log: bool = True,
    phases: tuple[bool, ...] = (False, True),
) -> Tally:
    """``kills`` SIGKILLs of ``command``, in turn at a moment of its whole run (False) and of
    its write phase (True) as ``phases`` says (default: every second one writing); what each
    left."""
    tally = Tally(command.name)
    seconds, write_seconds, sizes = measure(ws, command)
    if log:
        print(f"{command.name}: {seconds:.2f} s a run, writing for {write_seconds:.2f} s")
    expected = fingerprint(command.source)
    in_tmp = set(os.listdir(ws.tmp))
    for attempt in range(3 * kills):
        if tally.kills == kills:
            break
        in_write = phases[tally.kills % len(phases)]
        moment = rng.uniform(0, write_seconds if in_write else seconds)
        token = f"{os.getpid()}-{command.name}-{attempt}"
        killed = kill_once(ws, command, moment, in_write, token)
        if killed is None:
            tally.finished_first += 1
            continue
        pid, writing = killed
        tally.kills += 1
        tally.mid_write += writing
        deadline = time.monotonic() + SURVIVOR_WAIT_SECONDS
        while (alive := processes_of_run(token, pid)) and time.monotonic() < deadline:
            time.sleep(0.05)
        changed = fingerprint(command.source) != expected
        where = (
            f"{command.name} #{tally.kills} killed {moment:.3f} s after "
            f"{'its write phase began' if in_write else 'its start'}"
            f"{' (mid-write)' if writing else ''}"
        )
        whole_now, left_now = in_folder(ws.out, command.outputs, sizes)
        tally.left += [f"{where}: {x}" for x in left_now]
        tally.whole += [f"{where}: {x}" for x in whole_now]
        tally.survivors += [f"{where}: {x}" for x in alive]
        new_in_tmp = set(os.listdir(ws.tmp)) - in_tmp
        in_tmp |= new_in_tmp
        scratch = {name for name in new_in_tmp if name.startswith(f"cipherbench-{pid}-")}
        tally.scratch_left += len(scratch)
        tally.tmp_left += [f"{where}: $TMPDIR/{name}" for name in sorted(new_in_tmp - scratch)]
        tally.source_changed += changed
        if log:
            bad = [*left_now, *(f"$TMPDIR/{n}" for n in sorted(new_in_tmp - scratch)), *alive]
            bad += ["source changed"] if changed else []
            done = f"; whole: {', '.join(whole_now)}" if whole_now else ""
            print(f"  {where}: {'LEFT ' + '; '.join(bad) if bad else 'ok'}{done}")
        for entry in alive:  # started by this run: stopped so that the next run is alone
            with contextlib.suppress(OSError):
                os.kill(int(entry.split(":")[0]), signal.SIGKILL)
        clear(ws.out)
    return tally


def table(tallies: list[Tally]) -> str:
    head = ("command", "kills", "mid-write", "ended first", "files left", "whole outputs",
            "scratch left", "tmp files left", "source changed", "surviving children")  # fmt: skip
    rows = [head] + [
        (t.command, str(t.kills), str(t.mid_write), str(t.finished_first), str(len(t.left)),
         str(len(t.whole)), str(t.scratch_left), str(len(t.tmp_left)), str(t.source_changed),
         str(len(t.survivors)))
        for t in tallies
    ]  # fmt: skip
    widths = [max(len(row[i]) for row in rows) for i in range(len(head))]
    lines = ("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)) for r in rows)
    return "\n".join(line.rstrip() for line in lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="SIGKILL CipherBench commands; nothing left?")
    parser.add_argument("--kills", type=int, default=20, help="SIGKILLs per command")
    parser.add_argument("--seed", type=int, default=17)
    parser.add_argument("--size", type=parse_size, default="256MB", help="encrypt/decrypt")
    parser.add_argument("--bench-size", type=parse_size, default="16MB", help="bench, study")
    parser.add_argument("--dir", type=Path, help="where the private folder goes")
    parser.add_argument("--keep", action="store_true", help="keep the private folder")
    parser.add_argument("--strict", action="store_true", help="whole outputs left fail too")
    args = parser.parse_args(argv)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # so the running group is killed
    root = Path(tempfile.mkdtemp(prefix="kill-loop-", dir=args.dir))
    try:
        ws, commands = make_workspace(root, args.size, args.bench_size)
        rng = random.Random(args.seed)
        tallies = [kill_loop(ws, command, args.kills, rng) for command in commands]
        run_to_end(ws, ("list",))  # its start sweeps the scratch folders of the killed runs
        remaining = sorted(p.name for p in ws.tmp.iterdir())
    finally:
        if not args.keep:
            shutil.rmtree(root, ignore_errors=True)
    print(f"\n{table(tallies)}")
    print(f"left in TMPDIR after one more start: {len(remaining)} {remaining or ''}")
    for t in tallies:
        for line in t.whole:
            print(f"whole output left: {line}")
        for line in [*t.left, *t.tmp_left, *t.survivors]:
            print(f"LEFT: {line}")
    return 0 if all(t.clean(args.strict) for t in tallies) else 1


if __name__ == "__main__":
    sys.exit(main())
