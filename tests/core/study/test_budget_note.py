"""A study whose rounds left comparisons unsettled says which limit ended them and about how
many rounds, and how long a budget, would settle them; a settled study says nothing."""

from __future__ import annotations

from dataclasses import replace

from test_claim_verdicts import _noisy, _result

from app.core.publish.methods import study_methods
from app.core.study.budget_note import budget_note
from app.core.study.report_data import method_sentences


def _wild(base: float, spread: float = 0.05) -> list[float]:
    return [base * (1 + spread * f) for f in (0.0, 0.8, -0.6, 1.0, -0.8, 0.4)]


def test_a_settled_study_says_nothing() -> None:
    result = _result({("aes-128-ctr", "1 MB"): _noisy(0.001), ("rc4", "1 MB"): _noisy(0.002)})
    assert budget_note(result) is None


def test_unsettled_comparisons_say_which_limit_ended_the_rounds_and_what_would_settle_them():
    result = _result({("aes-128-ctr", "1 MB"): _wild(0.001), ("rc4", "1 MB"): _wild(0.00101)})
    timed = replace(result, started_at="2026-11-28T10:00:00+00:00",
                    finished_at="2026-11-28T10:01:00+00:00")  # fmt: skip
    note = budget_note(timed)
    assert note is not None
    assert note.startswith("2 of 2 comparisons are not settled (within ±2 %")
    assert "after 6 rounds: the time budget of 60 s ended" in note
    rounds = int(note.split("About ")[1].split(" rounds")[0])
    assert rounds > 6 and f"--max-rounds {rounds} --time-budget {rounds * 10}" in note
    assert note in method_sentences(timed) and note in study_methods(timed)
    at_most = replace(timed, study=replace(timed.study, max_rounds=6, rounds=6))
    assert "this study adds no rounds" in (budget_note(at_most) or "")
    untimed = budget_note(result)  # start and end not recorded: rounds only
    assert untimed is not None and "--time-budget" not in untimed
    hopeless = _result({("aes-128-ctr", "1 MB"): _wild(0.001, 0.3),
                        ("rc4", "1 MB"): _wild(0.00101, 0.3)})  # fmt: skip
    assert "More rounds would hardly settle them" in (budget_note(hopeless) or "")


def test_a_few_hopeless_comparisons_do_not_hide_the_budget_the_others_need() -> None:
    result = _result(
        {
            ("aes-128-ctr", "1 MB"): _wild(0.001),
            ("rc4", "1 MB"): _wild(0.00101),
            ("aes-128-ctr", "1 KB"): _wild(0.001, 0.3),
            ("rc4", "1 KB"): _wild(0.00101, 0.3),
        }
    )
    note = budget_note(result) or ""
    assert "would likely settle 2 of them" in note
    assert "the other 2 would need more than 100 rounds here" in note
