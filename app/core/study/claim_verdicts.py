"""The paper's claims (:mod:`app.core.study.paper_claims`) checked against the study's own
comparisons: *confirmed*, *contradicted*, *undecided* or *not tested*.

Each claim covers the pairs of an entry of its ``a`` and one of its ``b``, on each input and in
each direction in its scope; each pair is the study's comparison of the two, rounds as the unit
of evidence (:mod:`app.core.study.claims`). For "a is faster than b", a pair agrees when its
verdict is that a is faster beyond the study's margin, and goes against the claim when a is
slower or the two are equal within the margin; for "equal" it is the other way round. The claim
is **confirmed** when every pair in scope agrees, **contradicted** when any goes against it, and
**undecided** otherwise (some interval still straddles the margin after the rounds run, or too
few rounds for an interval); **not tested** when the study ran none of its pairs (other inputs).

A claim of a trend (throughput constant, falling or rising with the input's size) is each
entry's own comparison, per byte, of its smallest input in scope against its largest: equal
within the margin reads as constant, the smaller input faster per byte as falling.

A claim with a size (:attr:`PaperClaim.size`) is also judged on its size, pair by pair: a pair's
interval inside the band of sizes the claim allows agrees, one wholly outside it goes against
it, one across an edge is undecided. The claim is confirmed when direction and size both are,
contradicted when either is ("direction confirmed, size contradicted: 11,927x against the
paper's 6.09x"), undecided otherwise.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from app.core.study.claim_pairs import (
    cpu_compared,
    crossed,
    in_scope,
    memory_compared,
    read_as_claimed,
    trend,
)
from app.core.study.claim_words import MEMORY, VERBS, amount, span
from app.core.study.claims import EQUAL, FASTER, SLOWER, Comparison
from app.core.study.paper_claims import CPU, SHARE, THROUGHPUT, PaperClaim
from app.core.study.share_claims import ShareFinding, share_findings, share_summary

if TYPE_CHECKING:
    from app.core.study.result import StudyResult
    from app.core.study.transfer_result import TransferStudyResult

CONFIRMED = "confirmed"
CONTRADICTED = "contradicted"
UNDECIDED = "undecided"
NOT_TESTED = "not tested"


@dataclass(frozen=True)
class TestedPair:
    """One comparison a claim rests on, and its verdict read as the claim reads (a against b)."""

    input_label: str
    comparison: Comparison  # the claim's a against its b
    verdict: str  # FASTER: the claim's a is faster than its b, ...
    agrees: bool | None  # None: not decided
    size_agrees: bool | None = None  # the claim's size (None: not decided, or no size)

    def to_dict(self) -> dict[str, Any]:
        return {
            "input": self.input_label,
            "a_against_b": self.verdict,
            "agrees": self.agrees,
            "size_agrees": self.size_agrees,
            "comparison": self.comparison.to_dict(),
        }


@dataclass(frozen=True)
class ClaimVerdict:
    """A claim of the paper and what the study says of it."""

    claim: PaperClaim
    verdict: str  # CONFIRMED, CONTRADICTED, UNDECIDED or NOT_TESTED: direction and size
    pairs: tuple[TestedPair, ...]
    shares: tuple[ShareFinding, ...] = ()  # a claim of where the time goes: its findings
    profile: Any = None  # ... and the profile they come from (why none, when none)

    def counts(self) -> tuple[int, int, int, int]:
        """(tested, agree, against, undecided): the pairs, or a share claim's findings."""
        held = [self.holds(p) for p in self.pairs] + [f.agrees for f in self.shares]
        agree = sum(1 for h in held if h)
        against = sum(1 for h in held if h is False)
        return len(held), agree, against, len(held) - agree - against

    def holds(self, pair: TestedPair) -> bool | None:
        """Whether ``pair`` agrees with the claim: its direction, and its size if it has one."""
        if not self.claim.size:
            return pair.agrees
        if pair.agrees is False or pair.size_agrees is False:
            return False
        return True if pair.agrees and pair.size_agrees else None

    @property
    def direction_verdict(self) -> str:
        return _overall([p.agrees for p in self.pairs])

    @property
    def size_verdict(self) -> str:
        """The size's own verdict ("" for a claim without one)."""
        return _overall([p.size_agrees for p in self.pairs]) if self.claim.size else ""

    def sentence(self) -> str:
        """``'"AES is faster than Blowfish" (Abstract): confirmed by all 24 comparisons; the
        closest on 1 MB: ...'``: the claim, the verdict and the comparison that decides it."""
        c = self.claim
        head = f'"{c.says}"' + (f" ({c.where})" if c.where else "")
        deciding = self.deciding()
        return f"{head}: {self.summary()}" + (f"; {deciding}" if deciding else "")

    def summary(self) -> str:
        """``"confirmed by all 24 comparisons"``, ``"contradicted by 2 of 24 comparisons"``,
        ``"undecided, 20 of 24 comparisons agree, 4 not decided"``, ``"not tested ..."``."""
        n = len(self.pairs)
        against = sum(1 for p in self.pairs if p.agrees is False)
        undecided = sum(1 for p in self.pairs if p.agrees is None)
        if self.claim.quantity == SHARE:
            return share_summary(self.verdict, self.shares, self.profile)
        if self.verdict == NOT_TESTED:
            return "not tested (the study ran none of the inputs it is about)"
        if self.claim.size:
            return self._size_summary()
        if self.verdict == CONFIRMED:
            return "confirmed by " + ("the comparison" if n == 1 else f"all {n} comparisons")
        if self.verdict == CONTRADICTED:
            return f"contradicted by {against} of {n} comparisons"
        agree = n - against - undecided
        return f"undecided, {agree} of {n} comparisons agree, {undecided} not decided"

    def _size_summary(self) -> str:
        """ "direction confirmed, size contradicted (ours: encrypts 11,572x faster, runs as a
        whole program 2.58x faster; the paper's 6.09x faster, 3.54x-11.2x allowed)": both
        verdicts, and per direction the pair furthest from the paper's size."""
        band = self.claim.size_band()
        target = self.claim.size_ratio
        assert band is not None and target is not None
        head = f"direction {self.direction_verdict}, size {self.size_verdict}"
        furthest: dict[str, TestedPair] = {}
        for p in self.pairs:
            if p.comparison.has_interval:
                d = p.comparison.direction
                if d not in furthest or _off(p, target) > _off(furthest[d], target):
                    furthest[d] = p
        if not furthest:
            return head
        ours = ", ".join(_ours(d, p.comparison.ratio) for d, p in furthest.items())
        return (
            f"{head} (ours: {ours}; the paper's {amount(target)}, "
            f"{span(band[0], band[1], target)} allowed)"
        )

    def deciding(self) -> str:
        """The comparison that decides the verdict, in words: the closest agreeing one for a
        confirmed claim, else the first that goes against it or is not decided ("" for none)."""
        if self.verdict == NOT_TESTED:
            return ""
        if self.shares:
            wanted = {CONFIRMED: True, CONTRADICTED: False}.get(self.verdict)
            finding = next(f for f in self.shares if f.agrees is wanted)
            return finding.sentence(self.claim)
        if self.verdict == CONFIRMED:
            pair, label = self._closest(), "the closest"
        else:
            wanted = False if self.verdict == CONTRADICTED else None
            pair, label = next(p for p in self.pairs if self.holds(p) is wanted), "e.g."
        where = f" on {pair.input_label}" if pair.input_label else ""
        return f"{label}{where}: {pair.comparison.sentence()}"

    def _closest(self) -> TestedPair:
        """The agreeing pair nearest to going the other way (its interval's near end)."""
        return min(self.pairs, key=lambda p: _margin_left(p))

    def to_dict(self) -> dict[str, Any]:
        return {
            **self.claim.to_dict(),
            "verdict": self.verdict,
            "sentence": self.sentence(),
            "pairs": [p.to_dict() for p in self.pairs],
            **({"shares": [f.to_dict() for f in self.shares]} if self.shares else {}),
        }


def check_claims(result: StudyResult | TransferStudyResult) -> tuple[ClaimVerdict, ...]:
    """Every claim of ``result``'s study, checked against its comparisons."""
    return tuple(check_claim(c, result) for c in result.study.claims)


def check_claim(claim: PaperClaim, result: StudyResult | TransferStudyResult) -> ClaimVerdict:
    if claim.quantity == SHARE:
        profile = getattr(result, "profile", None)
        findings = share_findings(claim, profile)
        verdict = _overall([f.agrees for f in findings])
        return ClaimVerdict(claim, verdict, (), tuple(findings), profile)
    sizes = {r.input_label: r.input_bytes for r in result.results}
    if claim.quantity == THROUGHPUT:  # its scope is chosen with its two inputs
        found = tuple(
            TestedPair(i, c, c.verdict, _agrees(claim, c.verdict)) for i, c in trend(claim, result)
        )
        return ClaimVerdict(claim, _claim_verdict(claim, found), found)
    if claim.quantity == MEMORY:
        compared = memory_compared(claim, result)
    elif claim.quantity == CPU:
        compared = cpu_compared(claim, result)
    elif claim.against:
        compared = crossed(claim, result)
    else:
        compared = read_as_claimed(claim, result)
    pairs: list[TestedPair] = []
    for input_label, c in compared:
        if in_scope(claim, input_label, sizes.get(input_label, 0)):
            verdict = c.verdict
            size = _size_agrees(claim, c)
            pairs.append(TestedPair(input_label, c, verdict, _agrees(claim, verdict), size))
    return ClaimVerdict(claim, _claim_verdict(claim, pairs), tuple(pairs))


def _agrees(claim: PaperClaim, verdict: str) -> bool | None:
    """Whether a pair's verdict agrees ("less" memory reads as "faster": both say A's figure
    is the smaller; a trend's A is its smallest input, per byte: faster there, falling)."""
    wanted = {"constant": EQUAL, "falls": FASTER, "rises": SLOWER}.get(claim.relation)
    if wanted is not None:
        decided = verdict in (EQUAL, FASTER, SLOWER)
        return (verdict == wanted) if decided else None
    if claim.relation == "equal":
        return True if verdict == EQUAL else (False if verdict in (FASTER, SLOWER) else None)
    return True if verdict == FASTER else (False if verdict in (SLOWER, EQUAL) else None)


def _size_agrees(claim: PaperClaim, c: Comparison) -> bool | None:
    """Whether the pair's interval lies inside the claim's band of sizes (None: across an
    edge, no interval, or a claim without a size)."""
    band = claim.size_band()
    if band is None or not c.has_interval:
        return None
    low, high = band
    if c.high < low or c.low > high:
        return False
    return True if low <= c.low and c.high <= high else None


def _overall(agrees: Sequence[bool | None]) -> str:
    if not agrees:
        return NOT_TESTED
    if any(a is False for a in agrees):
        return CONTRADICTED
    if all(agrees):
        return CONFIRMED
    return UNDECIDED


def _claim_verdict(claim: PaperClaim, pairs: Sequence[TestedPair]) -> str:
    """The direction's verdict; with a size, both must hold (either against: contradicted)."""
    direction = _overall([p.agrees for p in pairs])
    if not claim.size or direction == NOT_TESTED:
        return direction
    size = _overall([p.size_agrees for p in pairs])
    if CONTRADICTED in (direction, size):
        return CONTRADICTED
    return CONFIRMED if direction == size == CONFIRMED else UNDECIDED


def _ours(direction: str, ratio: float) -> str:
    """ "encrypts 27.8 % faster", or for one direction against the other "decrypts 6.8 %
    faster than it encrypts"."""
    mine, _, theirs = direction.partition("/")
    text = f"{VERBS[mine]} {amount(ratio)}"
    return f"{text} than it {VERBS[theirs]}" if theirs else text


def _off(p: TestedPair, target: float) -> float:
    """How far the pair's estimate is from the paper's size (a log ratio: 2x either way, 0.69)."""
    return abs(math.log(p.comparison.ratio / target))


def _margin_left(p: TestedPair) -> float:
    """How far the pair's interval stays from another verdict (smaller: closer)."""
    c = p.comparison
    if c.verdict == EQUAL:
        return min(1 + c.margin - c.high, c.low - 1 / (1 + c.margin))
    return c.low if c.verdict == FASTER else 1 / c.high
