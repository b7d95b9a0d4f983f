"""How long does `merge` take for 20 runs? Issue 22's target: under 2 s.

    PYTHONPATH=. python benchmarks/bench_merge.py [--runs 20] [--repeat 3] [--base STUDY.json]

Runs one real study (aes-key-sizes on 100 KB and 1 MB, 6 rounds, 12 repetitions: the size of
a typical study export) unless ``--base`` gives one, copies it ``--runs`` times as if from as
many machines (a CPU name of its own each, the digest resealed), then times the whole command
``python main.py merge <runs> --out m.html --out m.xlsx --out m.md`` in a fresh process
(interpreter start and imports included), ``--repeat`` times; prints each time, the median,
the files' total size, and whether the target is met. The load average is printed.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, ROOT)

from app.core.export.digest import with_digest  # noqa: E402

TARGET_S = 2.0


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--base", help="an exported study to copy (default: run one)")
    args = parser.parse_args()
    env = dict(os.environ, CIPHERBENCH_NO_HISTORY="1")
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    with tempfile.TemporaryDirectory() as folder:
        base = args.base or os.path.join(folder, "base.json")
        if not args.base:
            t0 = time.monotonic()
            subprocess.run(
                [sys.executable, os.path.join(ROOT, "main.py"), "study", "aes-key-sizes",
                 "--sizes", "100KB,1MB", "--rounds", "6", "--max-rounds", "6", "--quiet",
                 "--out", base],
                check=True, capture_output=True, env=env,
            )  # fmt: skip
            print(f"base study: {time.monotonic() - t0:.1f} s")
        with open(base, encoding="utf-8") as f:
            doc = json.load(f)
        paths = []
        for i in range(args.runs):
            doc["environment"]["cpu"]["model"] = f"Machine {i + 1:02d}"
            path = os.path.join(folder, f"run{i + 1:02d}.json")
            with open(path, "w", encoding="utf-8") as f:
                json.dump(with_digest(doc), f, indent=2)
            paths.append(path)
        size = sum(os.path.getsize(p) for p in paths)
        outs = [a for s in (".html", ".xlsx", ".md") for a in ("--out", f"{folder}/m{s}")]
        times = []
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            subprocess.run(
                [sys.executable, os.path.join(ROOT, "main.py"), "merge", *paths, *outs],
                check=True, capture_output=True, env=env,
            )  # fmt: skip
            times.append(time.perf_counter() - t0)
    median = statistics.median(times)
    print(
        f"merge of {args.runs} runs ({size / 1e6:.1f} MB of JSON, {len(doc['results'])} jobs "
        f"each) to .html, .xlsx and .md: " + ", ".join(f"{t:.2f}" for t in times) + " s"
    )
    print(
        f"median {median:.2f} s; target < {TARGET_S:g} s: {'PASS' if median < TARGET_S else 'FAIL'}"
    )
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    sys.exit(0 if median < TARGET_S else 1)


if __name__ == "__main__":
    main()
