"""benchmarks/kill_loop.py in small (issue 17): SIGKILL at a random moment of the write phase of
bench --out and a study export leaves no partial or stray file in the output folder, the source
untouched, nothing in the temp folder and no process alive. The script itself runs 20 kills
of each of its four commands (encrypt and decrypt too), every second one at any moment."""

import random
import sys

import pytest

from benchmarks import kill_loop

pytestmark = [
    pytest.mark.slow,  # 5 real command-line runs, about 3 s in all
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc and O_TMPFILE"),
]


ONE_ENTRY_STUDY = """
name = "one-entry"
title = "One entry, its export killed"
sizes = ["1 MB"]
[[cipher]]
id = "aes-128-cbc"
library = "pycryptodome"
"""


@pytest.mark.long
def test_sigkill_at_random_moments_leaves_nothing(tmp_path):
    study = tmp_path / "one.toml"  # one entry: the export is what is killed, not the study
    study.write_text(ONE_ENTRY_STUDY, encoding="utf-8")
    ws, commands = kill_loop.make_workspace(
        tmp_path, size=1_000_000, bench_size=1_000_000, repeat=2, study=str(study)
    )
    rng = random.Random(17)
    # One kill each of the two exports, in the write phase, where a partial output could be
    # left. Encrypt and decrypt killed mid-write, and a bench killed while its workers run
    # (they and the scratch folder must go), are test_faults.py's; all four, 20 times, the
    # script's.
    exports = [c for c in commands if c.name in ("bench --out", "study --out")]
    assert len(exports) == 2
    tallies = [
        kill_loop.kill_loop(ws, command, 1, rng, log=False, phases=(True,)) for command in exports
    ]
    for tally in tallies:
        assert tally.kills == 1, tally
        assert tally.left == [], tally.left  # whole outputs placed before the kill may stay
        assert tally.tmp_left == [], tally.tmp_left  # openpyxl's sheet files, for one
        assert tally.scratch_left == 0, tally  # the janitor deleted the killed one's folder
        assert tally.source_changed == 0, tally
        assert tally.survivors == [], tally.survivors
    assert sum(t.mid_write for t in tallies) >= 1  # the write phase was reached and hit
