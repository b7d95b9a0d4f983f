"""Claims that one entry is faster than another, resting on rounds: every "A encrypts 4 %
faster than B" CipherBench makes (studies of ciphers and of transfers, the bench command's
speed-ups, the window, ``history compare``).

:func:`compare` gives a :class:`Comparison` of two sides' timed samples split by round: the
ratio of B's time to A's (the Hodges-Lehmann shift of the rounds' log medians), its 95 %
interval (the exact Mann-Whitney interval over rounds; none below 4 rounds a side), a verdict
(faster, slower, equal within the margin, undecided) and whether it is settled (precise
enough to stop adding rounds). The method, why it and its references: ``docs/method.md``,
*Claims*."""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from app.core.study.claim_words import (
    CPU,
    CPU_WORDS,
    GERUNDS,
    MEMORY,
    MEMORY_WORDS,
    PLURAL_VERBS,
    TIME_WORDS,
    VERBS,
    amount,
    span,
)
from app.core.study.shift_interval import Shift, shift_interval
from app.core.text import counted

FASTER = "faster"
SLOWER = "slower"
EQUAL = "equal"
UNDECIDED = "undecided"
TOO_FEW_ROUNDS = "too few rounds"
VERDICTS = (FASTER, SLOWER, EQUAL, UNDECIDED, TOO_FEW_ROUNDS)

# The rank-sum test cannot reach 95 % with 3 rounds a side (the most extreme arrangement has a
# chance of 1 in 20); 4 a side give an interval (the whole range of differences, 97.1 %).
MIN_ROUNDS_FOR_INTERVAL = 4
DEFAULT_CONFIDENCE = 0.95
DEFAULT_MARGIN = 0.01  # differences under 1 % are "equal within 1 %"
DEFAULT_TARGET = 0.02  # stop when every interval is within +/-2 % of its ratio
# Deciding early (before the precision target) needs this stricter level: studies look at
# their claims after every round, and each look at 95 % would be another chance of a false
# positive.
STOP_CONFIDENCE = 0.995
# Below this share of a core (averaged over the rounds of both sides) a claim says the
# machine was busy: the workers waited for the CPU during the timed repetitions. The engine's
# own threshold for a contended job (app.core.bench.measure.CONTENDED_CPU_PERCENT).
BUSY_CPU_PERCENT = 85.0


@dataclass(frozen=True)
class Comparison:
    """A against B in one direction: ``ratio`` = B's time over A's (above 1: A is faster), the
    Hodges-Lehmann estimate over pairs of rounds.

    ``low`` and ``high`` bound its ``confidence`` interval (``nan`` with fewer than
    ``MIN_ROUNDS_FOR_INTERVAL`` rounds on a side); ``rounds_a``/``rounds_b`` and
    ``n_a``/``n_b`` are the rounds and timed samples it rests on; ``cpu_percent`` the share of a
    core the workers got over those rounds (``nan``: not known).
    """

    label_a: str
    label_b: str
    direction: str  # "encrypt", "decrypt" or "transfer"
    ratio: float
    low: float
    high: float
    rounds_a: int
    rounds_b: int
    n_a: int
    n_b: int
    confidence: float
    margin: float
    target: float
    cpu_percent: float
    method: str
    stop_low: float = math.nan  # the interval at STOP_CONFIDENCE, for stopping early
    stop_high: float = math.nan
    # "": times (the ratio is B's time over A's); "memory": B's memory over A's, exact counts
    # measured once a side (:func:`memory_comparison`)
    quantity: str = ""

    # --- what it says ------------------------------------------------------------------------

    @property
    def has_interval(self) -> bool:
        return not (math.isnan(self.low) or math.isnan(self.high))

    @property
    def significant(self) -> bool:
        """The interval excludes 1: some difference, however small (see :attr:`verdict`)."""
        return self.has_interval and (self.low > 1.0 or self.high < 1.0)

    @property
    def rounds(self) -> int:
        """The rounds the claim rests on: the fewer of the two sides'."""
        return min(self.rounds_a, self.rounds_b)

    @property
    def half_width(self) -> float:
        """The interval's half-width relative to the ratio (0.02: +/-2 %); ``inf`` without one."""
        if not self.has_interval:
            return math.inf
        return math.expm1((math.log(self.high) - math.log(self.low)) / 2.0)

    @property
    def verdict(self) -> str:
        """FASTER or SLOWER (A against B), EQUAL, UNDECIDED or TOO_FEW_ROUNDS (module doc)."""
        if not self.has_interval:
            return TOO_FEW_ROUNDS
        up = 1.0 + self.margin
        if self.low > up:
            return FASTER
        if self.high < 1.0 / up:
            return SLOWER
        if self.low >= 1.0 / up and self.high <= up:
            return EQUAL
        return UNDECIDED

    @property
    def precise(self) -> bool:
        return self.half_width <= self.target

    @property
    def settled(self) -> bool:
        """Precise enough, or decided beyond the margin at ``STOP_CONFIDENCE``: no more rounds
        needed. Too few rounds for the stricter interval: not settled."""
        if self.precise:
            return True
        up = 1.0 + self.margin
        if math.isnan(self.stop_low):  # too few rounds for the stricter level: go on
            return False
        return self.stop_low > up or self.stop_high < 1.0 / up

    @property
    def busy(self) -> bool:
        return not math.isnan(self.cpu_percent) and self.cpu_percent < BUSY_CPU_PERCENT

    @property
    def percent_faster(self) -> float:
        """How much higher A's throughput is than B's, in percent (negative: A is slower)."""
        return (self.ratio - 1.0) * 100.0

    # --- in words ------------------------------------------------------------------------------

    def evidence(self) -> str:
        """What the claim rests on: "8 rounds, 24 and 24 samples" (and a busy machine)."""
        rounds = (
            counted(self.rounds_a, "round")
            if self.rounds_a == self.rounds_b
            else f"{self.rounds_a} and {self.rounds_b} rounds"
        )
        text = f"{rounds}, {self.n_a:,} and {self.n_b:,} samples"
        if self.busy:
            text += f"; the machine was busy: the workers got {self.cpu_percent:.0f} % of a core"
        return text

    def interval_text(self) -> str:
        """The interval in the sentence's terms ("95 % CI 7.0-9.4 %", "120-190x", ...)."""
        level = f"{self.confidence * 100:g} % CI"
        if not self.has_interval:
            return f"no {level}: at least {MIN_ROUNDS_FOR_INTERVAL} rounds a side needed"
        words = CPU_WORDS if self.quantity == CPU else TIME_WORDS
        return f"{level} {span(self.low, self.high, self.ratio, words)}"

    def sentence(self) -> str:
        """One plain-language line that names the direction, e.g. "aes-128-cbc encrypts
        31.2 % faster than aes-256-cbc (95 % CI 28.0-34.5 %; 8 rounds, 24 and 24 samples)"."""
        a, b, verdict = self.label_a, self.label_b, self.verdict
        if self.quantity == MEMORY:
            return self._memory_sentence()
        evidence = self.evidence()
        does = f"{VERBS[self.direction]} {amount(self.ratio)}"
        if self.quantity == CPU:  # "uses 23.1 % less CPU" (each round's CPU % of a core)
            does = f"uses {amount(self.ratio, CPU_WORDS)}"
        if verdict in (FASTER, SLOWER):
            return f"{a} {does} than {b} ({self.interval_text()}; {evidence})"
        if verdict == EQUAL:
            alike = "use the same CPU" if self.quantity == CPU else "equally fast"
            if self.quantity != CPU:
                alike = f"{PLURAL_VERBS[self.direction]} {alike}"
            return (
                f"{a} and {b} {alike}, within "
                f"{self.margin * 100:g} % (ratio {self.ratio:.3f}, {self.interval_text()}; "
                f"{evidence})"
            )
        doing = GERUNDS[self.direction]
        if verdict == TOO_FEW_ROUNDS:
            # The estimate and its direction, never "no difference" for a 5.8x gap: what is
            # missing is the evidence that it holds beyond what varies between workers.
            rounds = f"{counted(self.rounds, 'round')} a side"
            return (
                f"{a} {does} than {b} in {rounds}, too "
                f"few to show it holds beyond what varies between workers "
                f"({self.interval_text()}; {evidence})"
            )
        doing = "in CPU use" if self.quantity == CPU else f"when {doing}"
        return (
            f"no clear difference between {a} and {b} {doing}: ratio {self.ratio:.3f} "
            f"({self.interval_text()}; undecided after {self.rounds} rounds: "
            f"±{self.half_width * 100:.1f} %, target ±{self.target * 100:g} %; {evidence})"
        )

    def _memory_sentence(self) -> str:
        """ "aes-128-cbc and aes-256-cbc use the same memory to encrypt, within 1 % (ratio
        1.000; tracemalloc's exact count, measured once a side)"."""
        a, b = self.label_a, self.label_b
        where = f" to {self.direction}" if self.direction in VERBS else ""
        if self.verdict == EQUAL:
            return (
                f"{a} and {b} use the same memory{where}, within {self.margin * 100:g} % (ratio "
                f"{self.ratio:.3f}; {self.method})"
            )
        return f"{a} uses {amount(self.ratio, MEMORY_WORDS)} than {b}{where} ({self.method})"

    def to_dict(self) -> dict[str, object]:
        """Everything a report or a JSON export keeps, with the derived verdict."""
        return {
            "a": self.label_a,
            "b": self.label_b,
            "direction": self.direction,
            "ratio": self.ratio,
            "low": self.low,
            "high": self.high,
            "confidence": self.confidence,
            "rounds_a": self.rounds_a,
            "rounds_b": self.rounds_b,
            "n_a": self.n_a,
            "n_b": self.n_b,
            "margin": self.margin,
            "target": self.target,
            "half_width": self.half_width,
            "cpu_percent": self.cpu_percent,
            "verdict": self.verdict,
            "significant": self.significant,
            "settled": self.settled,
            "busy": self.busy,
            "method": self.method,
            "sentence": self.sentence(),
            **({"quantity": self.quantity} if self.quantity else {}),  # a claim of memory's
        }


def memory_comparison(
    label_a: str, bytes_a: int, label_b: str, bytes_b: int, *, direction: str, margin: float
) -> Comparison:
    """A's memory against B's, counted exactly once a side (tracemalloc): the ratio is B's
    over A's (above 1: A uses less), its interval the point itself."""
    ratio = bytes_b / bytes_a
    return Comparison(
        label_a, label_b, direction, ratio, ratio, ratio, 1, 1, 1, 1, 1.0, margin, 0.0,
        math.nan, "tracemalloc's exact count, measured once a side", ratio, ratio, MEMORY,
    )  # fmt: skip


# --- computing ---------------------------------------------------------------------------------


def round_medians(rounds: Sequence[Sequence[float]]) -> list[float]:
    """Each non-empty round's median."""
    return [statistics.median(r) for r in rounds if len(r)]


def compare(
    label_a: str,
    rounds_a: Sequence[Sequence[float]],
    label_b: str,
    rounds_b: Sequence[Sequence[float]],
    *,
    direction: str = "encrypt",
    cpu_percent: Sequence[float] = (),
    confidence: float = DEFAULT_CONFIDENCE,
    margin: float = DEFAULT_MARGIN,
    target: float = DEFAULT_TARGET,
) -> Comparison:
    """A against B from their rounds of timed samples (seconds; same input, same direction).

    ``cpu_percent``: each round's share of a core, both sides together (for the busy note).
    Raises ``ValueError`` for a side with no sample, a sample that is not positive and finite,
    ``confidence`` outside (0, 1), a negative margin or target, or an unknown direction.
    """
    _check_inputs(label_a, rounds_a, label_b, rounds_b, direction, confidence, margin, target)
    ya = [math.log(m) for m in round_medians(rounds_a)]
    yb = [math.log(m) for m in round_medians(rounds_b)]
    enough = min(len(ya), len(yb)) >= MIN_ROUNDS_FOR_INTERVAL
    shift = shift_interval(ya, yb, confidence)
    stop = shift_interval(ya, yb, STOP_CONFIDENCE)
    cpu = [c for c in cpu_percent if math.isfinite(c)]
    nan = math.nan
    low, high, method = _interval(shift, enough, confidence, len(ya), len(yb))
    d = shift.estimate
    stop_low = nan if math.isnan(stop.low) or not enough else math.exp(stop.low)
    stop_high = nan if math.isnan(stop.high) or not enough else math.exp(stop.high)
    return Comparison(
        label_a=label_a,
        label_b=label_b,
        direction=direction,
        ratio=math.exp(d),
        low=low,
        high=high,
        rounds_a=len(ya),
        rounds_b=len(yb),
        n_a=sum(len(r) for r in rounds_a),
        n_b=sum(len(r) for r in rounds_b),
        confidence=confidence,
        margin=margin,
        target=target,
        cpu_percent=statistics.fmean(cpu) if cpu else nan,
        method=method,
        stop_low=stop_low,
        stop_high=stop_high,
    )


def _check_inputs(
    label_a: str,
    rounds_a: Sequence[Sequence[float]],
    label_b: str,
    rounds_b: Sequence[Sequence[float]],
    direction: str,
    confidence: float,
    margin: float,
    target: float,
) -> None:
    """``ValueError`` for what :func:`compare` refuses (its docstring)."""
    if direction not in VERBS:
        raise ValueError(f"unknown direction {direction!r}")
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be between 0 and 1, not {confidence!r}")
    if margin < 0 or target < 0:
        raise ValueError("margin and target must be 0 or more")
    for rounds in (rounds_a, rounds_b):
        samples = [x for r in rounds for x in r]
        if not samples:
            raise ValueError(f"nothing to compare: {label_a} or {label_b} has no samples")
        if not all(math.isfinite(x) and x > 0 for x in samples):
            raise ValueError("samples must be positive, finite numbers of seconds")


def _interval(
    shift: Shift, enough: bool, confidence: float, rounds_a: int, rounds_b: int
) -> tuple[float, float, str]:
    """The ratio's interval (``nan`` ends without one) and the method's words for it."""
    if math.isnan(shift.low) or not enough:
        return (
            math.nan,
            math.nan,
            f"Hodges-Lehmann ratio of the round medians; no {confidence:.0%} interval with "
            f"{rounds_a} and {rounds_b} rounds (at least {MIN_ROUNDS_FOR_INTERVAL} a side needed)",
        )
    return (
        math.exp(shift.low),
        math.exp(shift.high),
        f"Hodges-Lehmann ratio of the round medians, interval from the exact Mann-Whitney "
        f"test of the rounds ({rounds_a} and {rounds_b} rounds, {shift.achieved:.1%} exact "
        "coverage)",
    )


def method_text(margin: float = DEFAULT_MARGIN, target: float = DEFAULT_TARGET) -> str:
    """The method in plain words, for reports and the help."""
    return (
        "Two entries on the same input are compared by the ratio of their times, resting on "
        "rounds: a round is one job in a fresh worker at one moment, and each round counts "
        "once, by the median of its repetitions, so the interval covers what varies between "
        "workers and moments, not only the repetitions inside one. The ratio is the "
        "Hodges-Lehmann estimate over pairs of rounds, and its 95 % confidence interval "
        "inverts the exact Mann-Whitney test of the rounds (a permutation test; at least "
        f"{MIN_ROUNDS_FOR_INTERVAL} rounds a side). A claim says faster or slower only when "
        f"the whole interval lies beyond {margin * 100:g} %, and equal within "
        f"{margin * 100:g} % when the whole interval lies inside that margin; otherwise it is "
        "undecided. Rounds are added (in a random "
        f"order each) until every claim is within ±{target * 100:g} % or decided, or the "
        "study's budget ends."
    )
