"""The self-test's result objects and their text and JSON forms."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from app.core.ciphers.selftest_derived import DERIVED_NOTES
from app.core.ciphers.vectors import DOCUMENTS


@dataclass(frozen=True)
class EntryResult:
    """One registry entry's outcome. ``failures`` empty means it passed."""

    id: str
    library: str
    key_bits: int  # the entry's default key size
    key_sizes: tuple[int, ...]  # key sizes covered by published or derived vectors
    vectors_passed: int
    vectors_run: int
    derived_passed: int
    derived_run: int
    sources: tuple[str, ...]  # DOCUMENTS keys of the vectors run, then derived-check names
    agreement: str  # "agrees with ...", "single library" or "DISAGREES ..."
    failures: tuple[str, ...]

    @property
    def ok(self) -> bool:
        return not self.failures

    @property
    def label(self) -> str:
        return f"{self.id} [{self.library}]"


@dataclass(frozen=True)
class SelfTestReport:
    """All entries, in registry order, plus what produced them."""

    entries: tuple[EntryResult, ...]
    seconds: float
    seed: int
    versions: tuple[tuple[str, str], ...]  # (library, version or "unavailable: ...")

    @property
    def ok(self) -> bool:
        return all(e.ok for e in self.entries)

    @property
    def failures(self) -> tuple[str, ...]:
        """Every failure, prefixed with its entry's label."""
        return tuple(f"{e.label}: {f}" for e in self.entries for f in e.failures)


# --- output -------------------------------------------------------------------------------------


def _sizes_text(sizes: tuple[int, ...]) -> str:
    if len(sizes) <= 3:
        return ",".join(str(s) for s in sizes) or "-"
    return f"{sizes[0]}-{sizes[-1]} ({len(sizes)})"


HEADERS = (
    "",
    "cipher",
    "library",
    "key",
    "sizes checked",
    "vectors",
    "derived",
    "agreement",
    "sources",
)


def entry_row(e: EntryResult, sources: str | None = None) -> tuple[str, ...]:
    """``e``'s cells under :data:`HEADERS`; ``sources`` replaces the names of its sources
    (a terminal too narrow for them numbers them instead)."""
    return (
        "ok" if e.ok else "FAIL",
        e.id,
        e.library,
        str(e.key_bits),
        _sizes_text(e.key_sizes),
        f"{e.vectors_passed}/{e.vectors_run}",
        f"{e.derived_passed}/{e.derived_run}" if e.derived_run else "-",
        e.agreement.split(" (")[0] if e.ok else e.agreement,
        ", ".join(e.sources) if sources is None else sources,
    )


def summary_line(report: SelfTestReport) -> str:
    """``"110 of 110 entries passed in 0.51 s (seed ...; library versions)"``."""
    passed = sum(e.ok for e in report.entries)
    versions = ", ".join(f"{lib} {v}" for lib, v in report.versions)
    return (
        f"{passed} of {len(report.entries)} entries passed in {report.seconds:.2f} s "
        f"(seed {report.seed:#x}; {versions})"
    )


def sources_used(report: SelfTestReport) -> dict[str, str]:
    """Every source the entries cite, in first-cited order, with what it is."""
    used = dict.fromkeys(src for e in report.entries for src in e.sources)
    return {src: DOCUMENTS.get(src, DERIVED_NOTES.get(src, "")) for src in used}


def format_report(report: SelfTestReport) -> str:
    """A table for the terminal: one line per entry, then failures and the sources cited."""
    rows = [entry_row(e) for e in report.entries]
    widths = [max(len(r[i]) for r in [HEADERS, *rows]) for i in range(len(HEADERS) - 1)]

    def line(cells: tuple[str, ...]) -> str:
        return "  ".join(c.ljust(w) for c, w in zip(cells, widths, strict=False)) + "  " + cells[-1]

    out = [line(HEADERS), line((*("-" * w for w in widths), "-" * 7))]
    out += [line(r) for r in rows]
    out += ["", summary_line(report)]
    if not report.ok:
        out += ["", "Failures:"] + [f"  {f}" for f in report.failures]
    out += ["", "Sources:"]
    out += [f"  {src}: {text}" for src, text in sources_used(report).items()]
    return "\n".join(out)


def report_to_dict(report: SelfTestReport) -> dict[str, Any]:
    """JSON-ready form (``--json``): plain types only."""
    entries = []
    for e in report.entries:
        d = asdict(e)
        d["key_sizes"] = list(e.key_sizes)
        d["sources"] = list(e.sources)
        d["failures"] = list(e.failures)
        d["ok"] = e.ok
        entries.append(d)
    return {
        "ok": report.ok,
        "seconds": round(report.seconds, 3),
        "seed": report.seed,
        "versions": dict(report.versions),
        "entries": entries,
        "failures": list(report.failures),
        "sources": sources_used(report),
    }
