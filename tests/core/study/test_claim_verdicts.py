"""A paper's claims checked against the study's comparisons: confirmed, contradicted,
undecided, not tested; read in the claim's order whatever the study's order of the entries;
strict in a study file; carried by every report."""

from __future__ import annotations

import json

import pytest
from factories import job_result

from app.core.bench.results import RoundInfo
from app.core.bench.run_info import Environment
from app.core.errors import UserError
from app.core.study.claim_verdicts import (
    CONFIRMED,
    CONTRADICTED,
    NOT_TESTED,
    UNDECIDED,
    check_claims,
)
from app.core.study.definition import CipherChoice, SizeInput, Study
from app.core.study.export import study_document
from app.core.study.paper_claims import PaperClaim
from app.core.study.presets import save_study
from app.core.study.report_html import study_html
from app.core.study.report_text import claims as claim_lines
from app.core.study.result import StudyResult
from app.core.study.study_file import load_study

ROUNDS = 6
_SIZES = {"1 KB": 1000, "1 MB": 10**6}


def _job(cipher: str, input_label: str, seconds: list[float]):
    """A job of ``ROUNDS`` rounds of one sample each (encrypt; decrypt twice as long)."""
    return job_result(
        cipher=cipher,
        library="cryptography",
        input_label=input_label,
        input_bytes=_SIZES[input_label],
        enc_s=seconds,
        dec_s=[2 * s for s in seconds],
        rounds=tuple(RoundInfo(i, 0, 1, 1, 99.0) for i in range(len(seconds))),
    )


def _noisy(base: float) -> list[float]:
    return [base * (1 + 0.002 * k) for k in (0, 3, 1, 5, 2, 4)]


def _result(times: dict[tuple[str, str], list[float]], *claims: PaperClaim) -> StudyResult:
    results = tuple(_job(c, i, s) for (c, i), s in times.items())
    ciphers = tuple(dict.fromkeys(CipherChoice(r.cipher, r.library) for r in results))
    study = Study(
        "t",
        ciphers,
        sizes=tuple(SizeInput(label, n) for label, n in _SIZES.items()),
        repeat=ROUNDS,
        rounds=ROUNDS,
        claims=claims,
    )
    return StudyResult(
        study,
        results,
        (),
        Environment({}),
        "a",
        "b",
        rounds=ROUNDS,
        rounds_completed=ROUNDS,
        repeat_per_round=1,
    )


AES_FASTER = PaperClaim("AES is faster than RC4", a=("aes-128-ctr",), b=("rc4",), where="Abstract")


def test_a_claim_the_rounds_bear_out_everywhere_is_confirmed_in_either_order():
    times = {
        ("rc4", "1 KB"): _noisy(2e-5),  # the study lists rc4 first: the claim reads it reversed
        ("aes-128-ctr", "1 KB"): _noisy(1e-5),
        ("rc4", "1 MB"): _noisy(2e-3),
        ("aes-128-ctr", "1 MB"): _noisy(1e-3),
    }
    (v,) = check_claims(_result(times, AES_FASTER))
    assert v.verdict == CONFIRMED and len(v.pairs) == 4  # 2 inputs x encrypt, decrypt
    assert all(p.agrees for p in v.pairs)
    assert v.sentence().startswith('"AES is faster than RC4" (Abstract): confirmed by all 4')


def test_one_pair_going_the_other_way_contradicts_and_is_named():
    times = {
        ("aes-128-ctr", "1 KB"): _noisy(3e-5),  # slower on the small input
        ("rc4", "1 KB"): _noisy(2e-5),
        ("aes-128-ctr", "1 MB"): _noisy(1e-3),
        ("rc4", "1 MB"): _noisy(2e-3),
    }
    (v,) = check_claims(_result(times, AES_FASTER))
    assert v.verdict == CONTRADICTED
    assert "contradicted by 2 of 4 comparisons; e.g. on 1 KB: " in v.sentence()
    scoped = PaperClaim("from 1 MB", a=("aes-128-ctr",), b=("rc4",), from_size="1 MB")
    assert check_claims(_result(times, scoped))[0].verdict == CONFIRMED
    only_small = PaperClaim("small", a=("aes-128-ctr",), b=("rc4",), inputs=("1 KB",))
    assert check_claims(_result(times, only_small))[0].verdict == CONTRADICTED


def test_equal_within_the_margin_contradicts_faster_and_confirms_equal():
    times = {("aes-128-ctr", "1 KB"): _noisy(1e-5), ("rc4", "1 KB"): _noisy(1e-5)}
    equal = PaperClaim("as fast", a=("rc4",), b=("aes-128-ctr",), relation="equal")
    faster, same = check_claims(_result(times, AES_FASTER, equal))
    assert (faster.verdict, same.verdict) == (CONTRADICTED, CONFIRMED)


def test_an_interval_straddling_the_margin_is_undecided_and_no_pair_is_not_tested():
    noisy = [1.0, 1.3, 0.8, 1.2, 0.9, 1.1]
    times = {
        ("aes-128-ctr", "1 KB"): [x * 1e-5 for x in noisy],
        ("rc4", "1 KB"): [x * 1.05e-5 for x in reversed(noisy)],
    }
    decrypt_only = PaperClaim("dec", a=("aes-128-ctr",), b=("rc4",), direction="decrypt")
    big = PaperClaim("big", a=("aes-128-ctr",), b=("rc4",), from_size="1 MB")
    undecided, untested = check_claims(_result(times, decrypt_only, big))
    assert undecided.verdict == UNDECIDED and len(undecided.pairs) == 1
    assert "undecided, 0 of 1 comparisons agree, 1 not decided" in undecided.sentence()
    assert untested.verdict == NOT_TESTED and "not tested" in untested.sentence()


def test_every_report_carries_the_verdicts():
    times = {("aes-128-ctr", "1 KB"): _noisy(1e-5), ("rc4", "1 KB"): _noisy(2e-5)}
    result = _result(times, AES_FASTER)
    text = "\n".join(claim_lines(result, 200))
    assert "The paper's claims" in text and '"AES is faster than RC4" (Abstract): confirmed' in text
    assert "confirmed" in study_html(result) and "AES is faster than RC4" in study_html(result)
    doc = json.loads(json.dumps(study_document(result)))
    (claim,) = doc["paper_claims"]
    assert claim["verdict"] == CONFIRMED and claim["a"] == ["aes-128-ctr"]


@pytest.mark.parametrize(
    ("claim", "message"),
    [
        (
            'says = "x"\na = "aes-128-ctr"\nb = "des-cbc"\n',
            "names 'des-cbc', no cipher of the study",
        ),
        ('says = "x"\na = "aes-128-ctr"\nb = "rc4"\ninputs = ".zip"\n', "the input '.zip', none"),
        (
            'says = "x"\na = "aes-128-ctr"\nb = "rc4"\ndirection = "transfer"\n',
            "use encrypt, decrypt or program",
        ),
        ('says = "x"\na = "aes-128-ctr"\nb = "rc4"\nrelation = "bigger"\n', "use faster or equal"),
        ('says = "x"\na = "aes-128-ctr"\n', "needs entries on both sides"),
        (
            'says = "x"\na = "aes-128-ctr"\nb = "rc4"\nby = 3\n',
            "unknown key 'by' in \\[\\[claim\\]\\]",
        ),
    ],
)
def test_a_claim_in_a_study_file_is_checked(tmp_path, claim, message):
    path = tmp_path / "c.toml"
    head = 'name = "c"\nsizes = ["1 KB"]\n[[cipher]]\nid = "aes-128-ctr"\n[[cipher]]\nid = "rc4"\n'
    path.write_text(head + "[[claim]]\n" + claim)
    with pytest.raises(UserError, match=message):
        load_study(path)


def test_claims_round_trip_through_a_saved_study(tmp_path):
    study = Study(
        "c",
        (CipherChoice("aes-128-ctr", "cryptography"), CipherChoice("rc4", "cryptography")),
        sizes=(SizeInput("1 KB", 1000),),
        claims=(AES_FASTER, PaperClaim("eq", ("rc4",), ("aes-128-ctr",), "equal", "decrypt")),
    )
    assert load_study(save_study(study, tmp_path / "c.toml")) == study


# --- claims of size ---------------------------------------------------------------------------


def _sized(size: str, tolerance: float = 2.0) -> PaperClaim:
    return PaperClaim(
        f"AES is {size} faster than RC4",
        a=("aes-128-ctr",),
        b=("rc4",),
        direction="encrypt",
        size=size,
        size_tolerance=tolerance,
    )


def _aes_faster_by(factor: float, claim: PaperClaim):
    times = {
        ("aes-128-ctr", "1 MB"): _noisy(0.001),
        ("rc4", "1 MB"): _noisy(0.001 * factor),
    }
    (verdict,) = check_claims(_result(times, claim))
    return verdict


@pytest.mark.parametrize(
    ("size", "factor", "expected", "size_verdict"),
    [
        ("4 %", 1.04, CONFIRMED, CONFIRMED),  # the paper's size
        ("4 %", 1.35, CONTRADICTED, CONTRADICTED),  # right direction, 35 %: not a slight 4 %
        ("6.09x", 6.0, CONFIRMED, CONFIRMED),
        ("6.09x", 11_927.0, CONTRADICTED, CONTRADICTED),  # the pyaes report's per-call factor
        ("6.09x", 2.58, CONTRADICTED, CONTRADICTED),  # and its whole programs
        ("6.09x", 0.5, CONTRADICTED, CONTRADICTED),  # the wrong way: both wrong
    ],
)
def test_a_claim_of_size_is_judged_on_its_size_too(
    size: str, factor: float, expected: str, size_verdict: str
) -> None:
    v = _aes_faster_by(factor, _sized(size))
    assert (v.verdict, v.size_verdict) == (expected, size_verdict)
    assert v.summary().startswith(f"direction {v.direction_verdict}, size {size_verdict}")
    assert "the paper's" in v.summary() and "allowed" in v.summary()


def test_a_size_read_the_other_way_round_is_the_same_claim() -> None:
    claim = PaperClaim("RC4 is slower", a=("rc4",), b=("aes-128-ctr",), size="4 %")
    with pytest.raises(ValueError, match="above 1x"):
        PaperClaim("x", a=("a",), b=("b",), size="-4 %").check()
    assert claim.size_band() == pytest.approx((1.02, 1.08))
    assert _sized("6.09x").size_band() == pytest.approx((3.545, 11.18))
    assert _sized("6.09x", 1.5).size_band() == pytest.approx((1 + 5.09 / 1.5, 1 + 5.09 * 1.5))


@pytest.mark.parametrize(
    ("table", "error"),
    [
        ({"size": "fast"}, "write a factor"),
        ({"size": "0 %"}, "above 1x"),
        ({"size": "2x", "relation": "equal"}, "only a faster claim"),
        ({"size": "2x", "size_tolerance": 1}, "factor above 1"),
        ({"size": "2x", "size_tolerance": "2"}, "must be a number"),
    ],
)
def test_a_size_that_cannot_be_tested_is_refused(table: dict, error: str) -> None:
    from app.core.study.paper_claims import claim_from_dict

    with pytest.raises((ValueError, TypeError), match=error):
        claim_from_dict({"says": "s", "a": "x", "b": "y", **table})


def test_a_sized_claim_round_trips_through_its_table() -> None:
    from app.core.study.paper_claims import claim_from_dict

    claim = _sized("6.09x", 1.5)
    assert claim_from_dict(claim.to_dict()) == claim
    assert "size_tolerance" not in _sized("4 %").to_dict()


# --- one direction against the other -----------------------------------------------------------


def test_decryption_against_encryption_of_the_same_entry_is_a_claim() -> None:
    """The key-length study's "decryption is generally faster than encryption": each entry's
    decryption rounds against its own encryption rounds (here decryption takes twice as long:
    contradicted)."""
    times = {("aes-128-ctr", "1 MB"): _noisy(0.001), ("rc4", "1 MB"): _noisy(0.002)}
    claim = PaperClaim(
        "decryption is faster than encryption",
        a=("aes-128-ctr", "rc4"),
        b=("aes-128-ctr", "rc4"),
        direction="decrypt",
        against="encrypt",
    )
    (v,) = check_claims(_result(times, claim))
    pairs = [(p.comparison.label_a, p.comparison.label_b) for p in v.pairs]
    assert (
        "aes-128-ctr [cryptography] decrypting",
        "aes-128-ctr [cryptography] encrypting",
    ) in pairs
    assert v.verdict == CONTRADICTED
    assert "decrypting is 2x slower than aes-128-ctr [cryptography] encrypting" in v.sentence()
    the_other_way = PaperClaim(
        "encryption is faster", a=("aes-128-ctr",), b=("aes-128-ctr",), direction="encrypt",
        against="decrypt", size="2x",
    )  # fmt: skip
    (v,) = check_claims(_result(times, the_other_way))
    assert v.verdict == CONFIRMED and len(v.pairs) == 1


@pytest.mark.parametrize(
    "table",
    [
        {"direction": "decrypt", "against": "decrypt"},
        {"direction": ["decrypt", "encrypt"], "against": "encrypt"},
        {"against": "encrypt"},
        {"direction": "transfer", "against": "encrypt"},
    ],
)
def test_a_direction_set_against_itself_or_nothing_is_refused(table: dict) -> None:
    from app.core.study.paper_claims import claim_from_dict

    with pytest.raises(ValueError, match="against"):
        claim_from_dict({"says": "s", "a": "x", "b": "x", **table})


def test_a_sized_claim_of_directions_says_ours_in_words() -> None:
    times = {("aes-128-ctr", "1 MB"): _noisy(0.001)}
    claim = PaperClaim(
        "encryption 2x faster", a=("aes-128-ctr",), b=("aes-128-ctr",), direction="encrypt",
        against="decrypt", size="2x",
    )  # fmt: skip
    (v,) = check_claims(_result(times, claim))
    assert "(ours: encrypts 2x faster than it decrypts; the paper's 2x faster" in v.summary()


def _with_memory(result: StudyResult, python_peaks: dict[str, int]) -> StudyResult:
    """``result`` with each entry's tracemalloc peak (the memory pass's, both directions)."""
    from dataclasses import replace

    from app.core.bench.results import DirectionMemory

    jobs = tuple(
        replace(
            r,
            python_peak_bytes=python_peaks[r.cipher],
            direction_memory=DirectionMemory(0, 0, python_peaks[r.cipher], python_peaks[r.cipher]),
        )
        for r in result.results
    )
    return replace(result, results=jobs)


MEMORY_EQUAL = PaperClaim(
    "key length has no effect on memory", a=("aes-128-ctr",), b=("rc4",), relation="equal",
    quantity="memory",
)  # fmt: skip


def test_a_claim_of_memory_is_decided_on_exact_counts_once_a_side() -> None:
    times = {("aes-128-ctr", "1 MB"): _noisy(0.001), ("rc4", "1 MB"): _noisy(0.002)}
    same = _with_memory(_result(times, MEMORY_EQUAL), {"aes-128-ctr": 3_000_000, "rc4": 3_000_000})
    (v,) = check_claims(same)
    assert v.verdict == CONFIRMED
    assert "use the same memory, within 1 % (ratio 1.000; tracemalloc's exact count" in v.sentence()
    more = _with_memory(_result(times, MEMORY_EQUAL), {"aes-128-ctr": 2_000_000, "rc4": 3_000_000})
    (v,) = check_claims(more)
    assert (
        v.verdict == CONTRADICTED and "uses 33.3 % less memory than rc4" in v.sentence()
    )  # 2 of 3
    less = PaperClaim("AES needs less", ("aes-128-ctr",), ("rc4",), "less", quantity="memory")
    (v,) = check_claims(replace_claims(more, less))
    assert v.verdict == CONFIRMED
    (v,) = check_claims(replace_claims(more, PaperClaim("x", ("rc4",), ("aes-128-ctr",), "less",
                                                        quantity="memory")))  # fmt: skip
    assert v.verdict == CONTRADICTED
    assert json.loads(json.dumps(v.to_dict()))["pairs"][0]["comparison"]["quantity"] == "memory"


def replace_claims(result: StudyResult, *claims: PaperClaim) -> StudyResult:
    from dataclasses import replace

    return replace(result, study=replace(result.study, claims=claims))


@pytest.mark.parametrize(
    ("changes", "said"),
    [({"relation": "faster"}, "takes relation less or equal"),
     ({"basis": "process"}, "use python or load-all"),
     ({"size": "3x"}, "no against or size"),
     ({"quantity": "joules"}, "use memory, or leave it out")],
)  # fmt: skip
def test_a_memory_claim_that_cannot_be_decided_is_refused(changes: dict, said: str) -> None:
    from dataclasses import replace

    with pytest.raises(ValueError, match=said):
        replace(MEMORY_EQUAL, **changes).check()


RC4_FALLS = PaperClaim(
    "RC4's throughput goes down as the file grows",
    a=("rc4",),
    b=(),
    relation="falls",
    quantity="throughput",
    direction="encrypt",
)


@pytest.mark.parametrize(
    ("large_s", "relation", "verdict"),
    [
        (2e-3, "falls", CONFIRMED),  # 1 MB takes twice its share: half the throughput
        (2e-3, "constant", CONTRADICTED),
        (1e-3, "constant", CONFIRMED),  # 1 KB in 1 us, 1 MB in 1 ms: the same per byte
        (1e-3, "falls", CONTRADICTED),
        (0.5e-3, "rises", CONFIRMED),
    ],
)
def test_a_claim_of_throughput_against_size_compares_each_entry_per_byte(
    large_s: float, relation: str, verdict: str
) -> None:
    """The survey's 3.6 ("DES and TDES never change their throughput, RC4's went down"):
    each entry's smallest input against its largest, per byte, over the rounds."""
    from dataclasses import replace

    times = {("rc4", "1 KB"): _noisy(1e-6), ("rc4", "1 MB"): _noisy(large_s)}
    (found,) = check_claims(_result(times, replace(RC4_FALLS, relation=relation)))
    assert found.verdict == verdict
    (pair,) = found.pairs
    assert pair.input_label == "1 KB to 1 MB"
    assert pair.comparison.label_a == "rc4 [cryptography] on 1 KB (per byte)"
    assert pair.comparison.ratio == pytest.approx(large_s / 1e-3, rel=0.01)  # per byte: 1 MB / 1 KB
    assert "(per byte)" in found.sentence()


def test_a_throughput_claim_with_one_input_or_a_b_is_not_tested_or_refused() -> None:
    from dataclasses import replace

    (found,) = check_claims(_result({("rc4", "1 KB"): _noisy(1e-6)}, RC4_FALLS))
    assert found.verdict == NOT_TESTED
    with pytest.raises(ValueError, match="names its entries in a, and no b"):
        replace(RC4_FALLS, b=("aes-128-ctr",)).check()
    with pytest.raises(ValueError, match="takes relation constant, falls or rises"):
        replace(RC4_FALLS, relation="faster").check()
    with pytest.raises(ValueError, match='set quantity = "throughput"'):
        replace(RC4_FALLS, quantity="").check()
    RC4_FALLS.check()


def test_a_claim_of_cpu_compares_each_rounds_cpu_of_the_end_it_names() -> None:
    """The loopback study's "AES-256-GCM ... with lower CPU utilization": each round's CPU %
    of the sender, over the rounds, in words of CPU."""
    from dataclasses import replace

    from tests.core.history.history_factories import transfer_result, transfer_study

    def busy(cipher: str, percent: float):
        r = transfer_result(cipher, [0.01] * ROUNDS)
        runs = tuple(
            replace(run, sender=replace(run.sender, cpu_seconds=0.01 * percent * (1 + i / 500)))
            for i, run in enumerate(r.runs)
        )  # each run 10 ms of wall time: percent / 100 of it on the CPU
        return replace(r, runs=runs, round_sizes=(1,) * ROUNDS)

    claim = PaperClaim(
        "AES-256-GCM ... lower CPU", a=("aes-256-gcm",), b=("chacha20-poly1305",),
        relation="less", quantity="cpu", end="sender",
    )  # fmt: skip
    claim.check()
    study = transfer_study()
    result = replace(
        study,
        results=(busy("aes-256-gcm", 0.40), busy("chacha20-poly1305", 0.60)),
        study=replace(study.study, claims=(claim,)),
    )
    (found,) = check_claims(result)
    assert found.verdict == CONFIRMED, found.sentence()
    assert "uses 33.3 % less CPU than chacha20-poly1305" in found.sentence()  # 40 of 60
    assert "% less CPU; 6 rounds" in found.sentence()
    with pytest.raises(ValueError, match="takes relation less or equal"):
        replace(claim, relation="faster").check()
    with pytest.raises(ValueError, match="use sender or receiver"):
        replace(claim, end="both").check()
    assert claim.to_dict()["end"] == "sender"
