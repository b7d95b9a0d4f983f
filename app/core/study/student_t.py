"""Student's t distribution: its quantile, for intervals that rest on a few rounds.

Only what the claims need (:mod:`app.core.study.claims`): ``t_quantile(p, df)`` for any real
``df > 0`` (Welch's degrees of freedom are not whole numbers). The CDF comes from the
regularized incomplete beta function, ``P(|T| > t) = I_x(df/2, 1/2)`` with
``x = df / (df + t^2)``, evaluated by its continued fraction (modified Lentz, as in Numerical
Recipes 6.4); the quantile is found by bisection on that CDF, to 1e-12. Pure Python: SciPy
would add 250 ms of imports (and about 100 MB) for one function, and a window computes its
claims in a worker thread that shares the GIL with the event loop.
"""

from __future__ import annotations

import math

_EPS = 1e-15
_TINY = 1e-300
_MAX_TERMS = 500


def _beta_continued_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of the incomplete beta function (Numerical Recipes ``betacf``)."""
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > _TINY else _TINY)
    h = d
    for m in range(1, _MAX_TERMS + 1):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > _TINY else _TINY)
        c = 1.0 + aa / c
        c = c if abs(c) > _TINY else _TINY
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > _TINY else _TINY)
        c = 1.0 + aa / c
        c = c if abs(c) > _TINY else _TINY
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < _EPS:
            break
    return h


def regularized_beta(a: float, b: float, x: float) -> float:
    """``I_x(a, b)`` for ``a, b > 0`` and ``0 <= x <= 1``."""
    if not (a > 0 and b > 0 and 0.0 <= x <= 1.0):
        raise ValueError(f"regularized_beta needs a, b > 0 and 0 <= x <= 1, not {a}, {b}, {x}")
    if x in (0.0, 1.0):
        return x
    log_front = (
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    )
    front = math.exp(log_front)
    # The fraction converges fast for x < (a + 1) / (a + b + 2); otherwise use the symmetry.
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _beta_continued_fraction(a, b, x) / a
    return 1.0 - front * _beta_continued_fraction(b, a, 1.0 - x) / b


def t_cdf(t: float, df: float) -> float:
    """``P(T <= t)`` for Student's t with ``df > 0`` degrees of freedom."""
    if df <= 0 or math.isnan(df):
        raise ValueError(f"degrees of freedom must be positive, not {df!r}")
    if math.isinf(t):
        return 1.0 if t > 0 else 0.0
    tail = 0.5 * regularized_beta(df / 2.0, 0.5, df / (df + t * t))
    return 1.0 - tail if t > 0 else tail


def t_quantile(p: float, df: float) -> float:
    """The ``p`` quantile of Student's t with ``df > 0`` degrees of freedom (``t_quantile(0.975,
    5)`` is 2.5706). ``df = inf`` gives the normal quantile."""
    if not 0.0 < p < 1.0:
        raise ValueError(f"p must be between 0 and 1, not {p!r}")
    if math.isinf(df):
        from statistics import NormalDist

        return NormalDist().inv_cdf(p)
    if p == 0.5:
        return 0.0
    if p < 0.5:
        return -t_quantile(1.0 - p, df)
    lo, hi = 0.0, 1.0
    while t_cdf(hi, df) < p:  # df near 0 has enormous quantiles: widen until bracketed
        lo, hi = hi, hi * 2.0
        if hi > 1e300:
            return math.inf
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if t_cdf(mid, df) < p:
            lo = mid
        else:
            hi = mid
        if hi - lo <= 1e-12 * max(1.0, hi):
            break
    return 0.5 * (lo + hi)
