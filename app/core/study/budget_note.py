"""What a study's rounds left undecided, and how long a run would likely decide it: a study
adds rounds for the comparisons not yet settled until ``max_rounds`` or its time budget, and
a busy machine can spend the budget inside the first rounds. The reader is told which limit
ended the rounds and about how many rounds, and how long a budget, the rest would need.

The estimate: a comparison's interval narrows about as 1/sqrt(rounds), so reaching the
precision target from a half-width ``w`` after ``n`` rounds takes about ``n * (w / target)^2``
rounds; the study's own seconds per round scale that to a budget. Rough, and said so.
"""

from __future__ import annotations

import math
from datetime import datetime
from typing import TYPE_CHECKING

from app.core.document.numbers import duration_text

if TYPE_CHECKING:
    from app.core.study.result import StudyResult

MOST_ROUNDS = 100  # beyond this, "more rounds will not do it here"


def budget_note(result: StudyResult) -> str | None:
    """One sentence on the comparisons left unsettled and the run that would likely settle
    them; None when every comparison is settled (or the run was cancelled)."""
    if result.cancelled:
        return None
    open_ = [pc.comparison for pc in result.comparisons if not pc.comparison.settled]
    if not open_:
        return None
    study, done = result.study, max(1, result.rounds_completed)
    head = (
        f"{len(open_)} of {len(result.comparisons)} comparisons are not settled (within "
        f"±{study.precision_percent:g} % or decided beyond the {study.margin_percent:g} % "
        f"margin) after {done} rounds"
    )
    if not study.adaptive:
        why = "; this study adds no rounds (max_rounds equals rounds)"
    elif done >= study.max_rounds:
        why = f": the maximum of {study.max_rounds} rounds was reached"
    else:
        why = f": the time budget of {duration_text(study.time_budget_s)} ended"
    widths = [c.half_width for c in open_ if c.has_interval and math.isfinite(c.half_width)]
    target = study.precision_percent / 100
    if not widths or target <= 0:
        return f"{head}{why}."
    needed = sorted(math.ceil(done * (w / target) ** 2) for w in widths)
    within = [k for k in needed if k <= MOST_ROUNDS]
    if not within:
        return (
            f"{head}{why}. More rounds would hardly settle them on this machine (at least "
            f"{needed[0]:,} needed): a quieter machine, or a larger margin, would."
        )
    rounds = within[-1]
    which = "them" if len(within) == len(needed) else f"{len(within)} of them"
    rest = (
        ""
        if len(within) == len(needed)
        else f"; the other {len(needed) - len(within)} would need more than {MOST_ROUNDS} "
        "rounds here (a quieter machine, or a larger margin, would settle them)"
    )
    budget = math.ceil(_seconds(result) / done * rounds)
    if budget <= 0:  # the run's times not recorded
        return f"{head}{why}. About {rounds} rounds would likely settle {which}{rest}."
    return (
        f"{head}{why}. About {rounds} rounds would likely settle {which}: a time budget of "
        f"about {duration_text(budget)} (--max-rounds {rounds} --time-budget {budget}){rest}."
    )


def _seconds(result: StudyResult) -> float:
    try:
        span = datetime.fromisoformat(result.finished_at) - datetime.fromisoformat(
            result.started_at
        )
    except ValueError:
        return 0.0
    return max(0.0, span.total_seconds())
