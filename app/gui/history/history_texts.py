"""What the History window says about runs: the list's "What was run", why runs cannot be
merged or run here again, and the Export dialog's filters. Plain text, no widgets."""

from __future__ import annotations

from app.core.history.records import RunSummary
from app.core.kinds import table
from app.core.kinds.formats import IMPORTABLE_JSON

MERGEABLE_KINDS = table.mergeable_names()  # others have no rows of entry and input
MEASURES = {
    "transfer": "a file sent through a connection",
    "sweep": "message lengths, hardware",
    "keysetup": "making a cipher context",
}


def export_filters(kind: str) -> dict[str, str]:
    """The Export dialog's filters for a run of ``kind``: the importable JSON first, then the
    other formats of its kind (app.core.kinds.formats)."""
    filters = {f"{IMPORTABLE_JSON} (*.json)": ".json"}
    try:
        files = table.named(kind).files
    except KeyError:  # a kind this CipherBench does not know: its JSON only
        return filters
    filters.update({k: v for k, v in files.file_filters().items() if v != ".json"})
    return filters


def what_was_run(s: RunSummary) -> str:
    """The title, then the ciphers and inputs (a few of each)."""

    def few(items: tuple[str, ...]) -> str:
        return ", ".join(items[:4]) + (f" +{len(items) - 4}" if len(items) > 4 else "")

    parts = [s.title] if s.title else []
    if s.ciphers and not all(c in s.title for c in s.ciphers):  # a title names a few only
        parts.append(few(s.ciphers))
    if s.inputs and not all(i in s.title for i in s.inputs):
        parts.append("on " + few(s.inputs))
    return "; ".join(parts)


def merge_refusal(refused: list[tuple[int, str]]) -> str:
    """Why the runs ``refused`` (id, kind) cannot be merged, in one message."""
    named = [f"run {run_id} is a {kind}" for run_id, kind in refused]
    which = named[0] if len(named) == 1 else ", ".join(named[:-1]) + " and " + named[-1]
    them = "it" if len(refused) == 1 else "them"
    kinds = list(dict.fromkeys(kind for _, kind in refused))
    what = " and ".join(f"a {k} ({MEASURES.get(k, 'something else')})" for k in kinds)
    measure = (
        "measures something else and has" if len(kinds) == 1 else "measure other things and have"
    )
    return (
        f"{which[0].upper()}{which[1:]}: merging cannot include {them}. Merge puts bench runs "
        "and cipher studies side by side, one row per cipher entry and input with each run's "
        f"throughput; {what} {measure} no such rows.\n\n"
        f"Deselect {them} and click Merge again."
    )


def not_a_cipher_study(what: str, kind: str) -> str:
    """Why ``what`` (a run, a file) cannot be run here again."""
    found = "a transfer study" if kind == "study" else f"a {kind} run"
    return (
        f"{what} is {found}: Run this on my machine runs a cipher study again with its "
        "definition (study --out x.json, or a history export of one)."
    )
