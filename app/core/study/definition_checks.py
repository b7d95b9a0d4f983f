"""The checks of a study's settings, which :meth:`app.core.study.definition.Study.checked_specs`
runs in this order: its name and ciphers for its workload (:func:`check_choices`), its rounds
and other numbers (:func:`check_numbers`), and what it runs besides its grid
(:func:`check_extras`). Each raises ``UserError`` in one sentence."""

from __future__ import annotations

import math
from collections.abc import Sequence

from app.core.ciphers.registry import CipherSpec, UnknownCipher, cipher_ids
from app.core.errors import UserError
from app.core.study.figures import UNITS
from app.core.study.paper_claims import SHARE, PaperClaim
from app.core.study.whole_program import check_entries
from app.core.transfer.framing import transfer_spec

WORKLOADS = ("cipher", "transfer")  # what a cell runs: the engine's job, or a loopback transfer
MAX_ROUNDS = 100


def check_choices(name: str, chosen: Sequence[str], workload: str) -> None:
    """``UserError`` unless the study has a name, chooses a cipher (``chosen``: the ids), has
    a known workload, and each id is one the workload runs: a registry id, or for a transfer
    an AEAD or "none"."""
    if not name.strip():
        raise UserError("the study has no name")
    if not chosen:
        raise UserError(f"the study {name} chooses no cipher; add a [[cipher]] entry")
    if workload not in WORKLOADS:
        raise UserError(f"unknown workload {workload!r}; use {', '.join(WORKLOADS)}")
    if workload == "transfer":
        for cipher_id in chosen:
            transfer_spec(cipher_id)  # an AEAD, or "none": else UserError
        return
    known = set(cipher_ids())
    for cipher_id in chosen:
        if cipher_id not in known:
            raise UnknownCipher(cipher_id)


def check_numbers(
    *,
    units: str,
    rounds: int,
    max_rounds: int,
    time_budget_s: float,
    precision_percent: float,
    margin_percent: float,
    min_time_s: float,
) -> None:
    """``UserError`` unless the unit is known and each number is in its range."""
    if units not in UNITS:
        raise UserError(f"unknown unit {units!r}; use {', '.join(UNITS)}")
    if not 1 <= rounds <= MAX_ROUNDS:
        raise UserError(f"rounds must be at least 1 and at most {MAX_ROUNDS}")
    if not rounds <= max_rounds <= MAX_ROUNDS:
        raise UserError(f"max_rounds must be at least rounds ({rounds}) and at most {MAX_ROUNDS}")
    if not (math.isfinite(time_budget_s) and time_budget_s >= 0):
        raise UserError("time_budget_s must be a number of seconds, 0 or more")
    if not (math.isfinite(precision_percent) and 0 < precision_percent <= 100):
        raise UserError("precision_percent must be above 0 and at most 100")
    if not (math.isfinite(margin_percent) and 0 <= margin_percent <= 100):
        raise UserError("margin_percent must be between 0 and 100")
    if not (math.isfinite(min_time_s) and min_time_s >= 0):
        raise UserError("min_time_s must be a number of seconds, 0 or more")


def check_extras(
    *,
    workload: str,
    whole_program: bool,
    profile: bool,
    leak: bool,
    specs: Sequence[CipherSpec],
    claims: Sequence[PaperClaim],
) -> None:
    """``UserError`` unless whole programs, the profile and the leak test are of cipher
    entries (each of ``specs`` one that runs as a whole program), and a claim about where the
    time goes has the profile it rests on."""
    if whole_program:
        if workload != "cipher":
            raise UserError("whole_program times cipher entries, not transfers")
        check_entries(specs)
    if profile and workload != "cipher":
        raise UserError("profile samples cipher entries, not transfers")
    if leak and workload != "cipher":
        raise UserError("leak tests cipher entries, not transfers")
    shares = [c for c in claims if c.quantity == SHARE]
    if shares and not profile:
        raise UserError(
            f"the claim {shares[0].says!r} is about where the time goes: set profile = true"
        )
