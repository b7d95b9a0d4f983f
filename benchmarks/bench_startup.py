"""How long from ``scripts/run.sh`` to the CipherBench window on screen? Figures for issue 11.

    python3 benchmarks/bench_startup.py [--repeat 5] [--command CMD ...]

Needs an X display and ``xdotool`` (Debian: ``apt-get install xvfb xauth xdotool``); without a
display it restarts itself under ``xvfb-run -s "-screen 0 1366x768x24 -noreset"`` (without
``-noreset`` Xvfb resets when the last window closes, and the next start cannot connect). Run it
on a set-up machine (``scripts/setup.sh`` done once).

For each way of starting, ``--repeat`` starts (one more first, a warm-up, not counted): the time
from starting the command to a viewable top-level window named "CipherBench" (polled with
``xdotool search --onlyvisible`` every 10 ms, so figures are within about 10 ms). The window is
then closed with SIGTERM, as a desktop's logout does. Ways measured:

1. ``scripts/run.sh`` as it is: the setup stamp matches, so setup returns in milliseconds;
2. ``scripts/run.sh`` with ``CIPHERBENCH_FORCE_SETUP=1``: the full setup check (Debian packages,
   pip) on every start, as every start did before the stamp;
3. each ``--command`` given, e.g. an installed ``cipherbench-gui`` or the PyInstaller bundle.

Also: ``scripts/setup.sh`` alone with a matching stamp (20 runs), the cost left on each start.
The window's settings go to a temporary folder (``XDG_CONFIG_HOME``), not the user's.
"""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RUN_SH = ROOT / "scripts" / "run.sh"
SETUP_SH = ROOT / "scripts" / "setup.sh"
WINDOW_NAME = "^CipherBench"
POLL_S = 0.01
TIMEOUT_S = 60.0
SCREEN = "-screen 0 1366x768x24 -noreset"  # a reset between two starts drops the next one


def _window_shown() -> bool:
    found = subprocess.run(
        ["xdotool", "search", "--onlyvisible", "--name", WINDOW_NAME],
        capture_output=True,
        text=True,
    )
    return found.returncode == 0 and bool(found.stdout.strip())


def time_to_window(command: list[str], env: dict[str, str]) -> float:
    """Seconds from starting ``command`` to its window being viewable; the process is then
    closed with SIGTERM and reaped."""
    if _window_shown():
        raise SystemExit("bench_startup: a CipherBench window is already open on this display")
    start = time.perf_counter()
    process = subprocess.Popen(
        command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )
    try:
        while not _window_shown():
            if process.poll() is not None:
                raise SystemExit(
                    f"bench_startup: {shlex.join(command)} exited ({process.returncode}) "
                    f"before showing a window:\n{process.stderr.read() if process.stderr else ''}"
                )
            if time.perf_counter() - start > TIMEOUT_S:
                raise SystemExit(f"bench_startup: no window after {TIMEOUT_S:.0f} s")
            time.sleep(POLL_S)
        return time.perf_counter() - start
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.communicate()


def summary(label: str, times: list[float]) -> str:
    return (
        f"{label:<48} median {statistics.median(times):6.3f} s   min {min(times):6.3f}   "
        f"max {max(times):6.3f}   (n = {len(times)})"
    )


def measure(label: str, command: list[str], env: dict[str, str], repeat: int) -> list[float]:
    time_to_window(command, env)  # warm-up: file caches, fontconfig
    times = [time_to_window(command, env) for _ in range(repeat)]
    print(summary(label, times), flush=True)
    return times


def setup_check_ms(env: dict[str, str], runs: int = 20) -> list[float]:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(["bash", str(SETUP_SH)], env=env, check=True)
        times.append((time.perf_counter() - start) * 1000)
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5, help="starts per way (default 5)")
    parser.add_argument(
        "--command",
        action="append",
        default=[],
        metavar="CMD",
        help="also time this command line (e.g. .../bin/cipherbench-gui); repeatable",
    )
    args = parser.parse_args()

    if not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        if not shutil.which("xvfb-run"):
            print("bench_startup: no display, and xvfb-run is not installed", file=sys.stderr)
            return 2
        return subprocess.call(["xvfb-run", "-a", "-s", SCREEN, sys.executable, *sys.argv])
    if not shutil.which("xdotool"):
        print("bench_startup: needs xdotool (apt-get install xdotool)", file=sys.stderr)
        return 2

    with tempfile.TemporaryDirectory(prefix="cipherbench-startup-") as config:
        env = {**os.environ, "XDG_CONFIG_HOME": config}
        env.pop("QT_QPA_PLATFORM", None)
        env.pop("CIPHERBENCH_FORCE_SETUP", None)
        subprocess.run(["bash", str(SETUP_SH)], env=env, check=True)  # writes the stamp
        checks = setup_check_ms(env)
        print(
            f"{'scripts/setup.sh with a matching stamp':<48} median "
            f"{statistics.median(checks):6.1f} ms  min {min(checks):6.1f}   "
            f"max {max(checks):6.1f}   (n = {len(checks)})",
            flush=True,
        )
        measure("scripts/run.sh (stamp matches)", ["bash", str(RUN_SH)], env, args.repeat)
        forced = {**env, "CIPHERBENCH_FORCE_SETUP": "1"}
        measure(
            "scripts/run.sh, full setup check (before)", ["bash", str(RUN_SH)], forced, args.repeat
        )
        for command in args.command:
            measure(command, shlex.split(command), env, args.repeat)
    return 0


if __name__ == "__main__":
    sys.exit(main())
