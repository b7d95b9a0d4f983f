"""What the History window says about runs: the list's "What was run", why runs cannot be
merged or run here again, and the Export dialog's filters. Plain text, no widgets."""

from __future__ import annotations

from app.core.history.records import RunSummary
from app.core.kinds import table
from app.core.kinds.formats import IMPORTABLE_JSON

MERGEABLE_KINDS = table.mergeable_names()  # others have no rows of entry and input


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


def merge_refusal(selected: list[tuple[int, str]]) -> str:
    """Why the ``selected`` runs (id, kind) cannot be merged, in one message; "" when they can
    (all bench runs and cipher studies, or all of one kind). The runs named are those not of
    the kind most of the selection is (the oldest run's, when as many are of another)."""
    selected = sorted(selected)
    groups = ["rows" if kind in MERGEABLE_KINDS else kind for _, kind in selected]
    if len(set(groups)) == 1:
        return ""
    most = max(dict.fromkeys(groups), key=groups.count)  # a tie: the oldest run's
    refused = sorted((i, k) for (i, k), g in zip(selected, groups, strict=True) if g != most)
    named = [f"run {run_id} is {_noun(kind)}" for run_id, kind in refused]
    which = named[0] if len(named) == 1 else ", ".join(named[:-1]) + " and " + named[-1]
    them = "it" if len(refused) == 1 else "them"
    return (
        f"{which[0].upper()}{which[1:]}: merging takes runs of one kind (bench runs and cipher "
        "studies count as one: they merge row by row, a cipher entry and input each; runs of "
        "any other kind merge table by table).\n\n"
        f"Deselect {them} and click Merge again."
    )


def _noun(kind: str) -> str:
    """``"a key setup run"`` for a kind's name as the list shows it."""
    return "a study" if kind == "study" else table.named(kind).noun


def not_a_cipher_study(what: str, kind: str) -> str:
    """Why ``what`` (a run, a file) cannot be run here again."""
    found = "a transfer study" if kind == "study" else _noun(kind)
    return (
        f"{what} is {found}: Run this on my machine runs a cipher study again with its "
        "definition (study --out x.json, or a history export of one)."
    )
