"""A paper's claims in a form a study can test: ``[[claim]]`` tables of a study file.

    [[claim]]
    says = "AES is faster than Blowfish on every file"   # the paper's words
    where = "Abstract"                  # where the paper says it
    a = ["aes-256-ecb", "aes-256-ctr"]  # our entries (ids or "id [library]")
    relation = "faster"                 # a is faster than b; "equal": as fast within the margin
    b = ["bf-ecb", "bf-ctr"]
    direction = "encrypt"               # encrypt, decrypt or transfer; default: every one
    inputs = [".pdf", ".zip"]           # the inputs it is about, named as figures name them
    from = "50 MiB"                     # or: the inputs of at least this size

A claim holds for every pair of an entry of ``a`` and one of ``b``, on every input and in every
direction in its scope; :mod:`app.core.study.claim_verdicts` checks it against the study's own
comparisons (rounds as the unit of evidence) and says *confirmed*, *contradicted* or
*undecided*.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from app.core.units import parse_size

RELATIONS = ("faster", "equal")
DIRECTIONS = ("", "encrypt", "decrypt", "transfer")
KEYS = ("says", "where", "a", "relation", "b", "direction", "inputs", "from")


@dataclass(frozen=True)
class PaperClaim:
    """One claim of the paper (see the module); ``from_size`` is the TOML's ``from``."""

    says: str
    a: tuple[str, ...]
    b: tuple[str, ...]
    relation: str = "faster"
    direction: str = ""
    inputs: tuple[str, ...] = ()
    from_size: str = ""
    where: str = ""

    @property
    def min_bytes(self) -> int:
        """The smallest input the claim is about (0: any)."""
        return parse_size(self.from_size) if self.from_size else 0

    def check(self) -> None:
        """``ValueError`` unless the claim can be tested (entries and inputs are checked
        against a study by :meth:`app.core.study.definition.Study.check_paper`)."""
        if not self.says.strip():
            raise ValueError("a [[claim]] needs says = the paper's words")
        if not self.a or not self.b:
            raise ValueError(f"the claim {self.says!r} needs entries on both sides (a and b)")
        if self.relation not in RELATIONS:
            raise ValueError(
                f"the claim {self.says!r} has relation {self.relation!r}; use faster or equal"
            )
        if self.direction not in DIRECTIONS:
            raise ValueError(
                f"the claim {self.says!r} has direction {self.direction!r}; use encrypt, "
                "decrypt or transfer, or leave it out"
            )
        if self.from_size:
            parse_size(self.from_size)  # UserError for a size it cannot read

    def to_dict(self) -> dict[str, Any]:
        """The ``[[claim]]`` table (defaults left out)."""
        out: dict[str, Any] = {"says": self.says, "where": self.where, "a": list(self.a)}
        out.update(relation=self.relation, b=list(self.b), direction=self.direction)
        out.update({"inputs": list(self.inputs), "from": self.from_size})
        return {k: v for k, v in out.items() if v or k in ("a", "b", "says")}


def claim_from_dict(data: Mapping[str, Any]) -> PaperClaim:
    """The claim of a ``[[claim]]`` table (checked); ``ValueError``/``TypeError`` otherwise."""
    return _checked(
        PaperClaim(
            says=_text(data, "says"),
            a=_names(data.get("a", []), "a"),
            b=_names(data.get("b", []), "b"),
            relation=_text(data, "relation") or "faster",
            direction=_text(data, "direction"),
            inputs=_names(data.get("inputs", []), "inputs"),
            from_size=_text(data, "from"),
            where=_text(data, "where"),
        )
    )


def _checked(claim: PaperClaim) -> PaperClaim:
    claim.check()
    return claim


def _text(data: Mapping[str, Any], key: str) -> str:
    value = data.get(key, "")
    if not isinstance(value, str):
        raise TypeError(f"a claim's {key} must be a string")
    return value.strip()


def _names(value: Any, key: str) -> tuple[str, ...]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise TypeError(f"a claim's {key} must be a string or a list of strings")
    return tuple(v.strip() for v in value if v.strip())
