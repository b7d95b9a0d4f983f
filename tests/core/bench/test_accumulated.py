"""Several runs as one (the main window's results until Reset)."""

from __future__ import annotations

from dataclasses import replace

from factories import job_result

from app.core.bench.accumulated import combine_bench_runs, relabel, unique_label
from app.core.bench.results import RunResult
from app.core.bench.run_info import RunOptions


def make_run() -> RunResult:
    results = (job_result(), job_result(cipher="aes-128-ctr"))
    options = RunOptions(repeat=5, warmup=1, data_mode="memory")
    return RunResult(results, (), {}, options, "2026-11-27T00:00:00Z", "2026-11-27T00:01:00Z")


def test_unique_label_qualifies_then_numbers() -> None:
    assert unique_label("a.txt", set()) == "a.txt"
    assert unique_label("a.txt", {"a.txt"}, "docs") == "a.txt (docs)"
    assert unique_label("a.txt", {"a.txt", "a.txt (docs)"}, "docs") == "a.txt #2"
    assert unique_label("r", {"r", "r #2"}) == "r #3"


def test_a_cell_measured_again_is_kept_apart_however_often() -> None:
    run = make_run()
    taken: set[tuple[str, str]] = set()
    first = relabel(run.results, 1, taken)
    second = relabel(run.results, 2, taken)
    again = relabel(run.results, 2, taken)  # the same run number twice (a replayed run)
    labels = {(r.label, r.input_label) for r in first + second + again}
    assert len(labels) == 3 * len(run.results)


def test_combined_runs_keep_only_the_options_they_shared() -> None:
    a = make_run()
    b = replace(a, options=replace(a.options, repeat=7), cancelled=True)
    c = replace(a, options=b.options)
    combined = combine_bench_runs([a, b, c], list(a.results))
    assert combined is not None
    assert combined.options.repeat is None  # differed: not recorded
    assert combined.options.warmup == a.options.warmup
    assert not combined.cancelled  # the last run finished
    assert combined.options.extra["runs"] == 3 and combined.options.extra["cancelled_runs"] == 1
    assert combine_bench_runs([], []) is None
