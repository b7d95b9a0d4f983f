"""The memory pass measures encryption and decryption apart (the high-water mark and
tracemalloc's peak reset between them), and a paper's memory figure of one direction is set
beside ours of that direction."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from factories import job_result

from app.core.bench.inputs import generated_input
from app.core.bench.jobs import BenchOptions
from app.core.bench.measure import run_job
from app.core.bench.memory_probe import reset_peak
from app.core.bench.plan import make_jobs
from app.core.bench.results import DirectionMemory, JobResult
from app.core.ciphers.registry import lookup
from app.core.errors import UserError
from app.core.export.schema import field
from app.core.study.definition import CipherChoice, SizeInput, Study
from app.core.study.paper import _measured
from app.core.study.published import PublishedFigure
from app.core.units import MB, MIB


@pytest.mark.skipif(not reset_peak(), reason="the high-water mark cannot be reset here")
def test_a_job_reports_each_directions_peak_and_keeps_the_larger_as_its_own(
    tmp_path: Path,
) -> None:
    spec = lookup("aes-128-cbc", "cryptography")
    options = BenchOptions(repeat=1, min_time_s=0.005)  # the memory pass is tested, not timing
    (job,) = make_jobs([spec], generated_input(2_000_000, str(tmp_path)), options)
    result, _ = run_job(job)
    d = result.direction_memory
    assert d is not None and result.peak_rss_bytes is not None
    assert result.peak_rss_bytes == max(d.peak_rss("encrypt"), d.peak_rss("decrypt"))
    assert result.python_peak_bytes == max(d.python_peak("encrypt"), d.python_peak("decrypt"))
    for direction in ("encrypt", "decrypt"):
        # The pass's two buffers at least (tracemalloc's count is exact; in this process, not
        # a fresh worker, the RSS may reuse pages freed earlier, so only its field is checked)
        assert d.python_peak(direction) >= 2_000_000
        above = result.memory_above_baseline(direction)
        assert field(f"{direction}_memory_above_baseline_bytes").get(result) == above
    assert JobResult.from_dict(result.to_dict()) == result
    no_memory = replace(job, options=replace(job.options, measure_memory=False))
    assert run_job(no_memory)[0].direction_memory is None


def test_a_papers_figure_of_one_direction_meets_ours_of_that_direction() -> None:
    r = replace(
        job_result(peak_rss=80 * MIB, baseline_rss=40 * MIB),
        direction_memory=DirectionMemory(60 * MIB, 80 * MIB, MIB, 2 * MIB),
    )
    figure = PublishedFigure("AES", "1 MB", "memory", 1.0, "MiB", direction="encrypt")
    assert _measured(figure, r, {}) == 20.0
    assert _measured(replace(figure, direction="decrypt"), r, {}) == 40.0
    assert _measured(replace(figure, direction=""), r, {}) == 40.0  # the pass's own
    assert _measured(replace(figure, direction="decrypt", basis="python"), r, {}) == 2.0
    # An older result measured both at once: its one figure stands for each direction.
    assert _measured(figure, replace(r, direction_memory=None), {}) == 40.0


def test_only_a_memory_figure_takes_a_direction() -> None:
    study = Study(name="s", ciphers=(CipherChoice("aes-128-ctr"),), sizes=(SizeInput("1 MB", MB),))
    bad = PublishedFigure("AES", "1 MB", "encrypt_s", 1.0, "s", direction="encrypt")
    with pytest.raises(UserError, match="only a memory takes one"):
        replace(study, published=(bad,)).validate()
