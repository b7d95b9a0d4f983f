"""benchmarks/kill_loop.py in small (issue 17): SIGKILL at random moments of encrypt, decrypt,
bench --out and a study export leaves no partial or stray file in the output folder, the source
untouched, nothing in the temp folder and no process alive. The script itself runs 20 kills
per command."""

import random
import sys

import pytest

from benchmarks import kill_loop

pytestmark = [
    pytest.mark.slow,  # 13 real command-line runs, about 6 s in all
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc and O_TMPFILE"),
]


@pytest.mark.long
def test_sigkill_at_random_moments_leaves_nothing(tmp_path):
    ws, commands = kill_loop.make_workspace(
        tmp_path, size=8_000_000, bench_size=1_000_000, repeat=2
    )
    rng = random.Random(17)
    tallies = [kill_loop.kill_loop(ws, command, 2, rng, log=False) for command in commands]
    for tally in tallies:
        assert tally.kills == 2, tally
        assert tally.left == [], tally.left  # whole outputs placed before the kill may stay
        assert tally.tmp_left == [], tally.tmp_left  # openpyxl's sheet files, for one
        assert tally.scratch_left == 0, tally  # the janitor deleted the killed one's folder
        assert tally.source_changed == 0, tally
        assert tally.survivors == [], tally.survivors
    assert sum(t.mid_write for t in tallies) >= 1  # the write phase was reached and hit
