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

MOST_ROUNDS = 1000  # beyond this, "more rounds will not do it here"


def budget_note(result: StudyResult) -> str | None:
    """One sentence on the comparisons left unsettled and the run that would likely settle
    them; None when every comparison is settled (or the run was cancelled)."""
    if result.cancelled:
        return None
    open_ = [pc.comparison for pc in result.comparisons if not pc.comparison.settled]
    if not open_:
        return None
    study, done = result.study, max(1, result.rounds_completed)
    n = len(result.comparisons)
    head = (
        f"{len(open_)} of {n} comparisons are not settled (within ±{study.precision_percent:g} "
        f"% or decided beyond the {study.margin_percent:g} % margin) after {done} rounds"
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
    needed = math.ceil(done * (max(widths) / target) ** 2)
    if needed > MOST_ROUNDS:
        return (
            f"{head}{why}. More rounds would hardly settle them on this machine (about "
            f"{needed:,} needed): a quieter machine, or a larger margin, would."
        )
    per_round = _seconds(result) / done
    budget = math.ceil(per_round * needed)
    if budget <= 0:  # the run's times not recorded
        settle = f"About {needed} rounds would likely settle them"
        return f"{head}{why}. {settle} (--max-rounds {needed})."
    return (
        f"{head}{why}. About {needed} rounds would likely settle them: a time budget of about "
        f"{duration_text(budget)} (--max-rounds {needed} --time-budget {budget})."
    )


def _seconds(result: StudyResult) -> float:
    try:
        span = datetime.fromisoformat(result.finished_at) - datetime.fromisoformat(
            result.started_at
        )
    except ValueError:
        return 0.0
    return max(0.0, span.total_seconds())
