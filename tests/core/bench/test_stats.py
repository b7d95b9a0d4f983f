"""Statistics and stability warnings, on hand-made samples."""

import statistics

import pytest

from app.core.bench.stats import TOO_SHORT_S, stability_warnings, summarize
from app.core.units import MB, MIB


def test_summary_of_known_samples():
    s = summarize([0.4, 0.1, 0.3, 0.2, 0.5], input_bytes=10 * MB, warmup_s=[0.9])
    assert s.samples_s == (0.4, 0.1, 0.3, 0.2, 0.5)  # raw order kept
    assert s.warmup_s == (0.9,)
    assert (s.min_s, s.median_s, s.max_s) == (0.1, 0.3, 0.5)
    assert s.mean_s == pytest.approx(0.3)
    assert s.stdev_s == pytest.approx(statistics.stdev([0.1, 0.2, 0.3, 0.4, 0.5]))
    assert s.iqr_s == pytest.approx(0.4 - 0.2)
    assert s.throughput_mb_s == pytest.approx(10 / 0.3)
    assert s.throughput_mib_s == pytest.approx(10 * MB / MIB / 0.3)


def test_throughput_comes_from_the_median_not_the_mean():
    s = summarize([1.0, 1.0, 1.0, 10.0], input_bytes=MB)
    assert s.median_s == 1.0
    assert s.throughput_mb_s == pytest.approx(1.0)


def test_single_sample_has_zero_spread():
    s = summarize([0.25], input_bytes=MB)
    assert s.stdev_s == 0.0 and s.iqr_s == 0.0 and s.median_s == 0.25


def test_no_samples_is_an_error():
    with pytest.raises(ValueError):
        summarize([], input_bytes=1)


def test_stable_samples_give_no_warning():
    s = summarize([1.00, 1.01, 0.99, 1.00, 1.02], input_bytes=MB, warmup_s=[1.05])
    assert stability_warnings(s, "encryption") == []


def test_large_stdev_is_unstable():
    s = summarize([1.0, 1.3, 0.8, 1.2, 0.9], input_bytes=MB)
    (w,) = [w for w in stability_warnings(s, "encryption") if "standard deviation" in w]
    assert w.startswith("encryption: unstable samples")


def test_outlier_at_50_percent_from_the_mean():
    s = summarize([1.0] * 9 + [8.0], input_bytes=MB)
    assert any("maximum" in w and "away from the mean" in w for w in stability_warnings(s, "d"))


def test_cold_first_run_without_warmup_is_flagged():
    s = summarize([5.0, 1.0, 1.0, 1.0, 1.0], input_bytes=MB)
    assert any("first run was 5.0x slower" in w for w in stability_warnings(s, "encryption"))


def test_cold_warmup_is_reported_as_discarded():
    s = summarize([1.0, 1.0, 1.0], input_bytes=MB, warmup_s=[16.0])
    assert any("discarded as warm-up" in w for w in stability_warnings(s, "encryption"))


def test_too_short_samples_are_flagged():
    s = summarize([TOO_SHORT_S / 2] * 5, input_bytes=1000)
    assert any("too short to time" in w for w in stability_warnings(s, "encryption"))


def test_quartiles_are_the_iqr_ends():
    s = summarize([0.004, 0.001, 0.002], 1000)
    assert s.quartiles_s == pytest.approx((0.0015, 0.003))
    assert s.quartiles_s[1] - s.quartiles_s[0] == pytest.approx(s.iqr_s)
    assert summarize([0.5], 10).quartiles_s == (0.5, 0.5)
