"""A paper's claim of where the time goes ("the interpreter dominates pyaes") checked against
the study's profile (``profile = true``): for each entry of the claim and each input, the
share of the timed calls' samples in the claim's group or class, with its 95 % interval over
rounds, against the claim's threshold. A finding whose interval lies wholly on the claimed side
agrees, one wholly on the other side goes against it, one across it (or without an interval:
fewer than 6 rounds) is undecided."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from app.core.document.estimate import Estimate
from app.core.profile.document import profiled_rounds, share_estimate
from app.core.profile.result import ProfileResult
from app.core.profile.rules import share_names
from app.core.study.figures import names_entry, same_input
from app.core.study.paper_claims import PaperClaim


@dataclass(frozen=True)
class ShareFinding:
    """One entry's share on one input, read as the claim reads it."""

    entry: str  # "aes-128-ctr [pyaes]"
    input_label: str
    estimate: Estimate  # per cent of the timed calls' samples
    agrees: bool | None  # None: not decided

    def sentence(self, claim: PaperClaim) -> str:
        """``aes-128-ctr [pyaes] on 23.00 KB: interpreted 98.7 [98.0, 100] % of the timed
        calls' samples (more than 50 % claimed)``."""
        where = f" on {self.input_label}" if self.input_label else ""
        return (
            f"{self.entry}{where}: {claim.share} {self.estimate.text()} % of the timed calls' "
            f"samples ({claim.relation} than {claim.share_percent:g} % claimed)"
        )

    def to_dict(self) -> dict[str, Any]:
        low, high = self.estimate.interval or (None, None)
        return {
            "entry": self.entry,
            "input": self.input_label,
            "share_percent": self.estimate.median,
            "low": low,
            "high": high,
            "rounds": self.estimate.rounds,
            "agrees": self.agrees,
        }


def share_findings(claim: PaperClaim, profile: ProfileResult | None) -> list[ShareFinding]:
    """The claim's findings in ``profile`` (none without a profile, or for other entries)."""
    if profile is None:
        return []
    names = share_names(claim.share)
    findings = []
    for e in profile.results:
        if not any(names_entry((n,), "", e.cipher, e.library, e.label) for n in claim.a):
            continue
        if not profiled_rounds(e):  # no samples at all (no profiler): nothing to test
            continue
        if claim.inputs and not any(same_input(i, e.input_label) for i in claim.inputs):
            continue
        estimate = share_estimate(e, names)
        findings.append(ShareFinding(e.label, e.input_label, estimate, _agrees(claim, estimate)))
    return findings


def _agrees(claim: PaperClaim, estimate: Estimate) -> bool | None:
    if estimate.interval is None:
        return None
    low, high = estimate.interval
    threshold = claim.share_percent
    above = True if low > threshold else (False if high < threshold else None)
    if above is None or claim.relation == "more":
        return above
    return not above


def share_summary(
    verdict: str, findings: Sequence[ShareFinding], profile: ProfileResult | None = None
) -> str:
    """``"confirmed by the profile"``, ``"contradicted by 1 of 2 profiles"``, ... ."""
    n = len(findings)
    against = sum(1 for f in findings if f.agrees is False)
    if not n:
        notes = sorted({r.note for e in (profile.results if profile else ()) for r in e.rounds})
        why = notes[0] if notes and notes[0] else "the study ran no profile of its entries"
        return f"not tested ({why})"
    if verdict == "confirmed":
        return "confirmed by " + ("the profile" if n == 1 else f"all {n} profiles")
    if verdict == "contradicted":
        return f"contradicted by {against} of {n} profiles"
    undecided = sum(1 for f in findings if f.agrees is None)
    few = any(f.estimate.interval is None for f in findings)
    why = " (an interval needs 6 rounds with samples)" if few else ""
    return (
        f"undecided, {n - against - undecided} of {n} profiles agree, {undecided} not decided{why}"
    )
