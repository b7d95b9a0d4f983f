"""Study statistics on synthetic data with known answers: line fits and speed-ups (the claims' own
tests are test_claims.py)."""

import math
import random

import pytest

from app.core.study.analysis import fit_time_vs_size, speedup

SIZES = [1_000_000, 5_000_000, 10_000_000, 20_000_000, 50_000_000]


def _line(size: float) -> float:
    # 2 ms fixed cost, 1 GB/s sustained.
    return size * 1e-9 + 0.002


def _timings(median_s: float, n: int, seed: int, spread: float = 0.01) -> list[float]:
    rng = random.Random(seed)
    return [median_s * (1.0 + rng.gauss(0.0, spread)) for _ in range(n)]


# --- fit_time_vs_size -------------------------------------------------------------------------


def test_exact_line_is_recovered():
    fit = fit_time_vs_size([(s, _line(s)) for s in SIZES])
    assert fit is not None
    assert fit.fixed_s == pytest.approx(0.002, rel=1e-9)
    assert fit.bytes_per_second == pytest.approx(1e9, rel=1e-9)
    assert fit.r_squared == pytest.approx(1.0, abs=1e-12)
    assert fit.n_points == len(SIZES)
    assert fit.note == ""
    assert fit.predict_s(30_000_000) == pytest.approx(0.032)


def test_noisy_raw_samples_recover_the_slope_within_one_percent():
    rng = random.Random(7)
    points = [(s, _line(s) * (1.0 + rng.gauss(0.0, 0.02))) for s in SIZES for _ in range(10)]
    fit = fit_time_vs_size(points)
    assert fit is not None
    assert fit.n_points == 50
    assert fit.bytes_per_second == pytest.approx(1e9, rel=0.01)
    assert 0.9 < fit.r_squared < 1.0


def test_fewer_than_two_sizes_gives_no_fit():
    assert fit_time_vs_size([]) is None
    assert fit_time_vs_size([(1000, 0.1)]) is None
    assert fit_time_vs_size([(1000, 0.1), (1000, 0.2), (1000, 0.15)]) is None


def test_two_sizes_fit_but_say_linearity_is_untested():
    fit = fit_time_vs_size([(1000, _line(1000)), (2000, _line(2000))])
    assert fit is not None
    assert fit.bytes_per_second == pytest.approx(1e9)
    assert "only 2 sizes" in fit.note


def test_negative_fixed_cost_is_kept_and_noted_not_clipped():
    # Time grows faster than linearly, so the best line crosses zero below size 0.
    fit = fit_time_vs_size([(1000, 0.001), (2000, 0.004), (3000, 0.009)])
    assert fit is not None
    # By hand: mean size 2000, mean time 0.014/3, slope 8 / 2e6 = 4e-6 s/B,
    # intercept 0.014/3 - 4e-6 * 2000 = -1/300 s.
    assert fit.fixed_s == pytest.approx(-1 / 300)
    assert fit.bytes_per_second == pytest.approx(250_000)
    assert "negative fixed cost" in fit.note


def test_flat_or_falling_time_has_infinite_throughput_and_says_so():
    fit = fit_time_vs_size([(1000, 0.003), (2000, 0.002), (3000, 0.001)])
    assert fit is not None
    assert math.isinf(fit.bytes_per_second)
    assert "does not grow with size" in fit.note
    flat = fit_time_vs_size([(1000, 0.002), (2000, 0.002), (3000, 0.002)])
    assert flat is not None
    assert math.isinf(flat.bytes_per_second)
    assert math.isnan(flat.r_squared)


def test_invalid_points_are_rejected():
    with pytest.raises(ValueError):
        fit_time_vs_size([(1000, math.nan), (2000, 0.1)])
    with pytest.raises(ValueError):
        fit_time_vs_size([(-1, 0.1), (2000, 0.1)])


# --- speedup ----------------------------------------------------------------------------------


def test_speedup_reproduces_seed_003():
    assert speedup(0.598, 0.0982) == pytest.approx(6.09, abs=0.005)
    with pytest.raises(ValueError):
        speedup(0.598, 0.0)


# --- fit_interval ------------------------------------------------------------------------------


def test_the_fit_interval_over_rounds_covers_the_true_line():
    from app.core.study.analysis import fit_interval

    rng = random.Random(3)
    rounds = [(s, [_line(s) * (1 + rng.gauss(0, 0.02)) for _ in range(8)]) for s in SIZES]
    interval = fit_interval(rounds)
    assert interval is not None and interval.min_rounds == 8
    assert interval.bytes_per_second_low < 1e9 < interval.bytes_per_second_high
    assert interval.fixed_low_s < 0.002 < interval.fixed_high_s
    again = fit_interval(rounds)
    assert again == interval  # seeded
    assert fit_interval([(s, times[:2]) for s, times in rounds]) is None  # 2 rounds: too few
    assert fit_interval(rounds[:1]) is None  # one size


def test_wider_variation_between_rounds_widens_the_fit_interval():
    from app.core.study.analysis import fit_interval

    def width(spread: float) -> float:
        rng = random.Random(4)
        pts = [(s, [_line(s) * (1 + rng.gauss(0, spread)) for _ in range(8)]) for s in SIZES]
        i = fit_interval(pts)
        assert i is not None
        return i.bytes_per_second_high / i.bytes_per_second_low

    assert width(0.10) > width(0.01)
