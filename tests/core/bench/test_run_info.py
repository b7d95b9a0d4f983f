"""Typed run options and environment that still write the JSON they always wrote."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from app.core.bench.jobs import BenchOptions, InputSpec
from app.core.bench.results import RunResult
from app.core.bench.run_info import Environment, InputSummary, RunOptions
from app.core.export.json_export import read_json, read_run, write_json

ENV = {
    "cpu": {"model": "Test CPU", "logical_cores": 8, "features": {"aes": True}},
    "os": {"platform": "Linux-test"},
    "python": {"version": "3.12.1"},
    "packages": {"cryptography": "50.0.2", "pyaes": None},
    "cipherbench_version": "0.1.0",
    "captured_at": "2026-01-01T00:00:00+00:00",
}


def _inputs() -> list[InputSpec]:
    a = InputSpec("/tmp/a.bin", "a.bin", 100, 1)
    b = InputSpec("/tmp/b.bin", "b.bin", 200, 2)
    return [a, b, a, b]


def test_run_options_mirror_bench_options() -> None:
    names = [f.name for f in dataclasses.fields(RunOptions)]
    assert names == [f.name for f in dataclasses.fields(BenchOptions)] + ["inputs", "extra"]


def test_run_options_write_the_json_they_always_wrote() -> None:
    bench = BenchOptions(repeat=7, data_mode="stream", chunk_bytes=4096)
    opts = RunOptions.of_run(bench, _inputs())
    old_form = {
        **{k: v for k, v in dataclasses.asdict(bench).items() if k != "memory_workload"},
        "inputs": [{"label": "a.bin", "bytes": 100}, {"label": "b.bin", "bytes": 200}],
    }
    assert opts.to_dict() == old_form
    assert list(opts.to_dict()) == list(old_form)  # same key order
    assert opts.inputs == (InputSummary("a.bin", 100), InputSummary("b.bin", 200))
    assert opts.bench_options() == bench
    assert RunOptions.from_dict(old_form) == opts
    assert RunOptions().to_dict() == {}  # a run without jobs records none
    load_all = RunOptions.of_run(dataclasses.replace(bench, memory_workload="load-all"), [])
    assert load_all.to_dict()["memory_workload"] == "load-all"
    assert load_all.bench_options().memory_workload == "load-all"


def test_unknown_option_keys_are_kept() -> None:
    opts = RunOptions.from_dict({"warmup": 2, "future_knob": [1, 2]})
    assert opts.warmup == 2 and opts.repeat is None
    assert opts.to_dict() == {"warmup": 2, "future_knob": [1, 2]}
    assert opts.bench_options() == BenchOptions(warmup=2)


def test_environment_is_typed_and_still_a_mapping() -> None:
    env = Environment.from_dict(ENV)
    assert env.cpu_model == "Test CPU" and env.logical_cores == 8
    assert env.cpu_features == {"aes": True}
    assert env.os_platform == "Linux-test" and env.python_version == "3.12.1"
    assert env.packages["pyaes"] is None and env.cipherbench_version == "0.1.0"
    assert env.captured_at == "2026-01-01T00:00:00+00:00"
    assert env == ENV and env.to_dict() == ENV and dict(env) == ENV
    empty = Environment()
    assert not empty and empty.cpu_model is None and empty.packages == {}


def test_run_result_takes_the_json_forms_and_writes_them_unchanged(tmp_path: Path) -> None:
    options = RunOptions.of_run(BenchOptions(), _inputs())
    typed = RunResult((), (), Environment(ENV), options, "a", "b")
    plain = RunResult((), (), dict(ENV), options.to_dict(), "a", "b")
    assert isinstance(plain.options, RunOptions) and isinstance(plain.environment, Environment)
    assert plain == typed
    write_json(typed, tmp_path / "r.json")
    doc = read_json(tmp_path / "r.json")
    assert doc["environment"] == ENV and doc["options"] == options.to_dict()
    assert read_run(tmp_path / "r.json") == typed
