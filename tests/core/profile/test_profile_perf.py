"""perf as the profile's sampler: its script output read into timed stacks (the sampled
process's samples inside its timed spans, inlined functions named with their object, the
process's trunk cut), and a real job profiled under perf where perf can run."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.cli.main import main
from app.core.profile import perf
from app.core.profile.perf import parse_script, trim_trunk
from app.core.profile.rules import classify, short_frame
from app.core.profile.sampler import find_profiler

PY = "/usr/lib/libpython3.11.so.1.0"
SCRIPT = f"""\
  4242 100.000000100: 
\t  fd1ec _PyEval_EvalFrameDefault ({PY})
\t   1080 _start (/usr/bin/python3.11)

  4242 100.000000500: 
\t 18966d long_bitwise ({PY})
\t 13a600 binary_op1 (inlined)
\t 13a600 PyNumber_Xor ({PY})
\t  ffbcf _PyEval_EvalFrameDefault ({PY})
\t 2508e3 PyEval_EvalCode ({PY})
\t   1080 _start (/usr/bin/python3.11)

  4242 100.000000600: 
\tffffffff8226059d exc_page_fault ([kernel.kallsyms])
\tffffffff8226059d exc_page_fault ([kernel.kallsyms])
\t     0 [unknown] ([unknown])
\t  ffbcf _PyEval_EvalFrameDefault ({PY})
\t 2508e3 PyEval_EvalCode ({PY})
\t   1080 _start (/usr/bin/python3.11)

  4242 100.000000900: 
\t  ffbcf _PyEval_EvalFrameDefault ({PY})
\t 2508e3 PyEval_EvalCode ({PY})
\t   1080 _start (/usr/bin/python3.11)

  4343 100.000000550: 
\t  ffbcf _PyEval_EvalFrameDefault ({PY})
"""  # noqa: W291  (perf ends each sample's first line with a space)
S = 100_000_000_000  # 100 s in ns
SPANS = [("decrypt", S + 800, S + 1000), ("encrypt", S + 400, S + 700)]


def test_perf_samples_inside_the_timed_spans_count_under_their_direction() -> None:
    sampled = parse_script(SCRIPT.splitlines(keepends=True), 4242, SPANS)
    # 100.000000100 is before any span (the process's start), 4343 is another process
    assert sampled.untimed == 1
    frames = "_PyEval_EvalFrameDefault (" + PY + ")"
    assert sampled.timed == {
        # the trunk every encrypt sample shares (_start, PyEval_EvalCode) is cut to its last frame
        f"encrypt;{frames};PyNumber_Xor ({PY});binary_op1 ({PY});long_bitwise ({PY})": 1,
        f"encrypt;{frames};exc_page_fault ([kernel.kallsyms])": 1,
        f"decrypt;{frames}": 1,
    }


def test_the_trunk_is_cut_only_from_whole_stacks() -> None:
    stacks = {("a", "b", "c", "x"): 2, ("a", "b", "c", "y"): 1, ("c", "z"): 1}
    assert trim_trunk(stacks) == {("c", "x"): 2, ("c", "y"): 1, ("c", "z"): 1}
    assert trim_trunk({("a", "b"): 3}) == {("b",): 3}
    assert trim_trunk({}) == {}
    # the most common outermost frame by samples, added over its stacks
    parts = {("m", "r", "a"): 1, ("m", "r", "b"): 1, ("m", "r", "c"): 1, ("x", "y"): 2}
    assert trim_trunk(parts) == {("r", "a"): 1, ("r", "b"): 1, ("r", "c"): 1, ("x", "y"): 2}
    # every sample inside one binding call: the layers below the timed loop's eval frame stay
    loop = "_PyEval_EvalFrameDefault (libpython)"
    bound = {("_start", loop, "update_into", "EVP_EncryptUpdate", "aesni"): 5,
             ("_start", loop, "update_into", "EVP_EncryptUpdate", "ctr128"): 2}  # fmt: skip
    assert trim_trunk(bound) == {
        (loop, "update_into", "EVP_EncryptUpdate", "aesni"): 5,
        (loop, "update_into", "EVP_EncryptUpdate", "ctr128"): 2,
    }


def test_perf_frames_land_in_their_classes() -> None:
    assert classify(f"long_bitwise ({PY})").name == "interpreter"
    assert classify("exc_page_fault ([kernel.kallsyms])").name == "kernel code"
    rust = "/x/cryptography/hazmat/bindings/_rust.abi3.so"
    name = "<cryptography_rust::backend::ciphers::PyCipherContext>::__pymethod_update_into__"
    method = f"{name} ({rust})"
    assert classify(method).name == "binding"
    assert classify(f"aesni_ctr32_encrypt_blocks ({rust})").name == "native cipher code"
    short = "ciphers::PyCipherContext::__pymethod_update_into__ (_rust.abi3.so)"
    assert short_frame(method) == short
    generic = "pyo3::impl_::trampoline::f::<<pyo3::X<Y> as pyo3::Z>::g> (a.so)"
    assert short_frame(generic) == "impl_::trampoline::f (a.so)"


@pytest.mark.long
def test_a_pyaes_job_under_perf_runs_in_the_interpreter_s_eval_loop(tmp_path: Path) -> None:
    if find_profiler("perf") is None:
        pytest.skip("perf is not installed here")
    out, svg = tmp_path / "p.json", tmp_path / "p.svg"
    code = main(
        ["profile", "aes-128-ctr", "--library", "pyaes", "--size", "8KB", "--rounds", "1",
         "--profiler", "perf", "--rate", "1000", "--quiet", "--no-history", "--out", str(out),
         "--out", str(svg)]
    )  # fmt: skip
    assert code == 0
    (entry,) = json.loads(out.read_text())["results"]
    (only,) = entry["rounds"]
    if only["note"].startswith("the profiler could not run"):
        pytest.skip(only["note"])  # perf_event_paranoid or a container forbids it
    stacks: dict[str, int] = only["stacks"]
    assert sum(stacks.values()) >= 20
    assert any("_PyEval_EvalFrameDefault" in s for s in stacks)
    assert "_PyEval_EvalFrameDefault" in svg.read_text()


def test_a_refused_perf_names_the_kernel_setting(tmp_path: Path) -> None:
    paranoid = tmp_path / "perf_event_paranoid"
    paranoid.write_text("3\n")
    said = (
        "Error:\nAccess to performance monitoring and observability operations is limited.\n"
        "Consider adjusting /proc/sys/kernel/perf_event_paranoid setting ...\n"
    )
    note = perf.refused(said, str(paranoid))
    assert "kernel.perf_event_paranoid is 3" in note
    assert "--profiler py-spy" in note and "troubleshooting" in note
    assert perf.refused("perf: command failed: no such file\n", str(paranoid)) == ""
