"""A paper's claims in a form a study can test: ``[[claim]]`` tables of a study file.

    [[claim]]
    says = "AES is faster than Blowfish on every file"   # the paper's words
    where = "Abstract"                  # where the paper says it
    a = ["aes-256-ecb", "aes-256-ctr"]  # our entries (ids or "id [library]")
    relation = "faster"                 # a is faster than b; "equal": as fast within the margin
    b = ["bf-ecb", "bf-ctr"]
    direction = "encrypt"               # encrypt, decrypt, transfer or program (whole
                                        # programs), or a list of them; default: every one
    inputs = [".pdf", ".zip"]           # the inputs it is about, named as figures name them
    from = "50 MiB"                     # or: the inputs of at least this size
    against = "encrypt"                 # optional: each entry in a and b against itself, in
                                        # direction against this one ("decryption is faster
                                        # than encryption")
    size = "6.09x"                      # optional: how much faster, as the paper says it
                                        # ("6.09x" or "4 %"); tested for its size too
    size_tolerance = 2                  # optional: the paper's difference (6.09x: 5.09; 4 %:
                                        # 4 points) may be off by this factor either way
    quantity = "memory"                 # optional: a claim of memory (relation "less" or
                                        # "equal"; direction "encrypt" or "decrypt" or none)
    basis = "load-all"                  # its memory: "python" (tracemalloc's peak of the
                                        # memory pass, the default) or "load-all" (the papers'
                                        # program): exact counts, one measurement a side

A claim of how throughput changes with the input's size names its entries in ``a`` and no ``b``:
each entry's throughput on the smallest input in scope against the largest, per byte, by the
study's comparison of rounds (constant: equal within the study's margin):

    [[claim]]
    says = "DES and TDES never change their throughput even change of file size"
    a = ["des-cbc", "des-ede3-cbc"]
    quantity = "throughput"
    relation = "constant"               # or "falls" / "rises" as the input grows
    direction = "decrypt"               # optional, as above

A claim of CPU use, in a study of transfers: each round's CPU % (100 = one core) of the end it
names, compared over rounds as times are (less: A's CPU below B's beyond the margin):

    [[claim]]
    says = "AES-256-GCM delivers higher throughput with lower CPU utilization"
    a = "aes-256-gcm"
    relation = "less"                   # or "equal"
    b = "chacha20-poly1305"
    quantity = "cpu"
    end = "sender"                      # or "receiver"; "": both ends together

A claim of where the time goes needs the study's profile (``profile = true``) and no ``b``:

    [[claim]]
    says = "the interpreter dominates pyaes"
    a = "aes-128-ctr [pyaes]"
    quantity = "share"
    share = "interpreted"               # a group (interpreted, compiled) or a class of the
                                        # profile (native cipher code, harness, ...)
    relation = "more"                   # its share of the timed calls' samples is more than
    size = "50 %"                       # this, its 95 % interval over rounds all above it

A claim holds for every pair of an entry of ``a`` and one of ``b``, on every input and in every
direction in its scope; :mod:`app.core.study.claim_verdicts` checks it against the study's own
comparisons (rounds as the unit of evidence) and says *confirmed*, *contradicted* or
*undecided*. A claim with a ``size`` is also judged on its size: the study's interval against
the band of sizes the tolerance allows around the paper's (4 % with the default factor of 2:
2-8 % faster; 6.09x: 3.55x-11.2x). A direction right and a size wrong is a contradiction.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from app.core.units import parse_size

RELATIONS = ("faster", "equal", "less")  # "less": memory
DIRECTIONS = ("encrypt", "decrypt", "transfer", "program")  # program: whole programs
CROSSED = ("encrypt", "decrypt")  # the directions a claim may set against each other
KEYS: tuple[str, ...] = ("says", "where", "a", "relation", "b", "direction", "against")
KEYS = (*KEYS, "inputs", "from", "size", "size_tolerance", "quantity", "basis", "share", "end")
MEMORY = "memory"  # a quantity a claim names besides time ...
SHARE = "share"  # ... and where the time goes (the study's profile)
THROUGHPUT = "throughput"  # ... and how throughput changes with the input's size
CPU = "cpu"  # ... and a transfer's CPU use
ENDS = ("", "sender", "receiver")
TREND_RELATIONS = ("constant", "falls", "rises")
SHARE_RELATIONS = ("more", "less")
MEMORY_CLAIM_BASES = ("python", "load-all")  # exact counts (tracemalloc)
DEFAULT_SIZE_TOLERANCE = 2.0


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
    against: str = ""  # b's direction, when a claim sets one direction against another
    size: str = ""  # "6.09x" or "4 %": how much faster, as the paper says it
    size_tolerance: float = DEFAULT_SIZE_TOLERANCE
    quantity: str = ""  # "": times; "memory": the memory figures on ``basis``
    basis: str = ""  # a memory claim's: "python" (default) or "load-all"
    share: str = ""  # a share claim's: a group or class of the profile ("interpreted")
    end: str = ""  # a CPU claim's: "sender", "receiver", or "" both ends together

    @property
    def size_ratio(self) -> float | None:
        """The paper's size as a ratio of times (B's over A's: "6.09x" 6.09, "4 %" 1.04);
        None without a size."""
        return parse_magnitude(self.size) if self.size else None

    def size_band(self) -> tuple[float, float] | None:
        """The ratios that count as the paper's size: its difference from 1 off by at most
        the tolerance factor either way."""
        ratio = self.size_ratio
        if ratio is None:
            return None
        excess, k = ratio - 1.0, self.size_tolerance
        return 1.0 + excess / k, 1.0 + excess * k

    @property
    def directions(self) -> tuple[str, ...]:
        """The directions the claim is about (``direction`` may list several, "a, b"); ()
        for every one."""
        return tuple(d.strip() for d in self.direction.split(",") if d.strip())

    @property
    def min_bytes(self) -> int:
        """The smallest input the claim is about (0: any)."""
        return parse_size(self.from_size) if self.from_size else 0

    @property
    def memory_basis(self) -> str:
        return self.basis or "python"

    def check(self) -> None:
        """``ValueError`` unless the claim can be tested (entries and inputs are checked
        against a study by :meth:`app.core.study.definition.Study.check_paper`)."""
        if not self.says.strip():
            raise ValueError("a [[claim]] needs says = the paper's words")
        if self.quantity == SHARE or self.share:
            self._check_share()
            return
        if self.quantity == THROUGHPUT or self.relation in TREND_RELATIONS:
            self._check_trend()
            return
        if self.quantity == CPU or self.end:
            self._check_cpu()
            return
        if not self.a or not self.b:
            raise ValueError(f"the claim {self.says!r} needs entries on both sides (a and b)")
        if self.quantity or self.basis or self.relation == "less":
            self._check_memory()
            return
        if self.relation not in RELATIONS:
            raise ValueError(
                f"the claim {self.says!r} has relation {self.relation!r}; use faster or equal"
            )
        if any(d not in DIRECTIONS for d in self.directions):
            raise ValueError(
                f"the claim {self.says!r} has direction {self.direction!r}; use encrypt, "
                "decrypt, transfer or program (or a list of them), or leave it out"
            )
        if self.from_size:
            parse_size(self.from_size)  # UserError for a size it cannot read
        crossed = [(mine, self.against) for mine in CROSSED if mine != self.against]
        if self.against and [(*self.directions, self.against)] != crossed:
            raise ValueError(
                f"the claim {self.says!r} sets {self.direction or 'every direction'!r} against "
                f'{self.against!r}; use direction = "decrypt" and against = "encrypt" (or '
                "the other way round)"
            )
        if self.size:
            if self.relation != "faster":
                raise ValueError(f"the claim {self.says!r} has a size: only a faster claim can")
            parse_magnitude(self.size)
            if not (math.isfinite(self.size_tolerance) and 1.0 < self.size_tolerance <= 100):
                raise ValueError(
                    f"the claim {self.says!r} has size_tolerance {self.size_tolerance}; use a "
                    "factor above 1 (2: the paper's difference halved to doubled)"
                )

    def _given(self, *keys: str) -> list[str]:
        """Which of the ``[[claim]]`` keys ``keys`` the claim sets (``from`` is ``from_size``)."""
        return [k for k in keys if getattr(self, "from_size" if k == "from" else k)]

    def _check_cpu(self) -> None:
        says = self.says
        if self.quantity != CPU:
            raise ValueError(f'the claim {says!r} names an end: set quantity = "cpu"')
        if not self.a or not self.b:
            raise ValueError(f"the CPU claim {says!r} needs entries on both sides (a and b)")
        if self.relation not in ("less", "equal"):
            raise ValueError(f"the CPU claim {says!r} takes relation less or equal")
        if self.end not in ENDS:
            raise ValueError(f"the CPU claim {says!r} has end {self.end!r}; use sender or receiver")
        ignored = self._given("against", "size", "basis", "share")
        if ignored or self.directions not in ((), ("transfer",)):
            key = ignored[0] if ignored else "direction"
            raise ValueError(f"the CPU claim {says!r} has {key}; leave it out")

    def _check_trend(self) -> None:
        says = self.says
        if self.quantity != THROUGHPUT:
            raise ValueError(f'the claim {says!r} is of a trend: set quantity = "throughput"')
        if not self.a or self.b:
            raise ValueError(f"the throughput claim {says!r} names its entries in a, and no b")
        if self.relation not in TREND_RELATIONS:
            raise ValueError(
                f"the throughput claim {says!r} takes relation constant, falls or rises"
            )
        if any(d not in CROSSED for d in self.directions):
            raise ValueError(
                f"the throughput claim {says!r} has direction {self.direction!r}; use encrypt "
                "or decrypt (or both), or leave it out"
            )
        ignored = self._given("against", "size", "basis", "share")
        if ignored:
            raise ValueError(f"the throughput claim {says!r} has {ignored[0]}; leave it out")
        if self.from_size:
            parse_size(self.from_size)

    def _check_memory(self) -> None:
        says = self.says
        if self.quantity != MEMORY:
            raise ValueError(
                f"the claim {says!r} has quantity {self.quantity!r}; use memory, or leave it out "
                "for times (relation less and basis are a memory claim's)"
            )
        if self.relation not in ("less", "equal"):
            raise ValueError(f"the memory claim {says!r} takes relation less or equal")
        if self.memory_basis not in MEMORY_CLAIM_BASES:
            raise ValueError(
                f"the memory claim {says!r} has basis {self.basis!r}; use python or load-all "
                "(exact counts, so one measurement a side decides it)"
            )
        if self.direction not in ("", *CROSSED) or self.against or self.size:
            raise ValueError(
                f"the memory claim {says!r} takes direction encrypt or decrypt (or none), and "
                "no against or size"
            )

    @property
    def share_percent(self) -> float:
        """A share claim's threshold, in per cent ("50 %": 50.0)."""
        text = self.size.strip().removesuffix("%").strip()
        try:
            value = float(text)
        except ValueError:
            raise ValueError(
                f"the claim {self.says!r} has size {self.size!r}; write it like 50 %"
            ) from None
        if not (math.isfinite(value) and 0 < value < 100 and self.size.strip().endswith("%")):
            raise ValueError(
                f"the claim {self.says!r} has size {self.size!r}; write a share between 0 "
                "and 100 %, like 50 %"
            )
        return value

    def _check_share(self) -> None:
        from app.core.profile.rules import SHARE_NAMES

        says = self.says
        if self.quantity != SHARE:
            raise ValueError(f'the claim {says!r} names a share: set quantity = "share"')
        if not self.a or self.b:
            raise ValueError(f"the share claim {says!r} names its entries in a, and no b")
        if self.share not in SHARE_NAMES:
            raise ValueError(
                f"the share claim {says!r} has share {self.share!r}; use one of "
                + ", ".join(SHARE_NAMES)
            )
        if self.relation not in SHARE_RELATIONS:
            raise ValueError(f"the share claim {says!r} takes relation more or less")
        ignored = self._given("direction", "from", "against", "basis")
        if ignored or self.size_tolerance != DEFAULT_SIZE_TOLERANCE:
            key = ignored[0] if ignored else "size_tolerance"
            raise ValueError(
                f"the share claim {says!r} has {key}: a share is of both directions and "
                "every input it names (inputs = [...]); leave it out"
            )
        self.share_percent  # noqa: B018  (ValueError for a size it cannot read)

    def to_dict(self) -> dict[str, Any]:
        """The ``[[claim]]`` table (defaults left out)."""
        out: dict[str, Any] = {"says": self.says, "where": self.where, "a": list(self.a)}
        directions = self.directions
        out.update(relation=self.relation, b=list(self.b))
        out["direction"] = list(directions) if len(directions) > 1 else self.direction
        out.update({"inputs": list(self.inputs), "from": self.from_size, "size": self.size})
        out.update(against=self.against, quantity=self.quantity, basis=self.basis)
        out.update(share=self.share, end=self.end)
        if self.size and self.size_tolerance != DEFAULT_SIZE_TOLERANCE:
            out["size_tolerance"] = self.size_tolerance
        return {k: v for k, v in out.items() if v or k in ("a", "b", "says")}


def claim_from_dict(data: Mapping[str, Any]) -> PaperClaim:
    """The claim of a ``[[claim]]`` table (checked); ``ValueError``/``TypeError`` otherwise."""
    return _checked(
        PaperClaim(
            says=_text(data, "says"),
            a=_names(data.get("a", []), "a"),
            b=_names(data.get("b", []), "b"),
            relation=_text(data, "relation")
            or ("more" if data.get("quantity") == SHARE else "faster"),
            direction=", ".join(_names(data.get("direction", []), "direction")),
            inputs=_names(data.get("inputs", []), "inputs"),
            from_size=_text(data, "from"),
            where=_text(data, "where"),
            size=_text(data, "size"),
            against=_text(data, "against"),
            size_tolerance=_number(data, "size_tolerance", DEFAULT_SIZE_TOLERANCE),
            quantity=_text(data, "quantity"),
            basis=_text(data, "basis"),
            share=_text(data, "share"),
            end=_text(data, "end"),
        )
    )


def parse_magnitude(text: str) -> float:
    """ "6.09x" -> 6.09, "4 %" -> 1.04: how much faster, as a ratio of times above 1;
    ``ValueError`` for anything else."""
    t = text.strip().lower().replace(" ", "")
    try:
        if t.endswith("x"):
            ratio = float(t[:-1])
        elif t.endswith("%"):
            ratio = 1.0 + float(t[:-1]) / 100.0
        else:
            raise ValueError
    except ValueError:
        raise ValueError(
            f"a claim's size {text!r}: write a factor (6.09x) or a percentage (4 %)"
        ) from None
    if not (math.isfinite(ratio) and 1.0 < ratio <= 1e9):
        raise ValueError(f"a claim's size {text!r} must say faster: above 1x, or above 0 %")
    return ratio


def _number(data: Mapping[str, Any], key: str, default: float) -> float:
    value = data.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypeError(f"a claim's {key} must be a number")
    return float(value)


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
