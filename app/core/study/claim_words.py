"""The words of a claim: the verbs of each direction and how a ratio or its interval reads
("4.1 % faster", "2.5x slower", "7.0-9.4 % faster", "33.3 % less memory"), for
:class:`app.core.study.claims.Comparison` and the verdicts on a paper's claims."""

from __future__ import annotations

# At or beyond this factor a ratio reads "2.4x faster", not "140 % faster".
FACTOR_FROM = 2.0

VERBS = {
    "encrypt": "encrypts",
    "decrypt": "decrypts",
    "transfer": "transfers",
    "program": "runs as a whole program",
    "decrypt/encrypt": "is",  # one direction against the other: "aes-128-cbc decrypting is"
    "encrypt/decrypt": "is",
}
PLURAL_VERBS = {
    "encrypt": "encrypt",
    "decrypt": "decrypt",
    "transfer": "transfer",
    "program": "run as whole programs",
    "decrypt/encrypt": "are",
    "encrypt/decrypt": "are",
}
GERUNDS = {
    "encrypt": "encrypting",
    "decrypt": "decrypting",
    "transfer": "transferring",
    "program": "run as whole programs",
    "decrypt/encrypt": "compared",
    "encrypt/decrypt": "compared",
}

MEMORY = "memory"
TIME_WORDS = ("faster", "slower")
MEMORY_WORDS = ("less memory", "more memory")  # the ratio is B's memory over A's
CPU = "cpu"
CPU_WORDS = ("less CPU", "more CPU")  # the ratio is B's CPU % over A's
USAGE_WORDS = (MEMORY_WORDS, CPU_WORDS)  # of what A uses: a share of B's (:func:`_usage`)


def amount(ratio: float, words: tuple[str, str] = TIME_WORDS) -> str:
    """ "4.1 % faster", "33.3 % slower", "151x faster", "2.5x slower": never a percentage above
    100 or one that saturates at 100 % slower. ``words``: the two directions' words."""
    better, worse = words
    if words in USAGE_WORDS:
        return _usage(ratio, words)
    if ratio >= FACTOR_FROM:
        return f"{_factor(ratio)} {better}"
    if ratio <= 1.0 / FACTOR_FROM:
        return f"{_factor(1.0 / ratio)} {worse}"
    if ratio >= 1.0:
        return f"{(ratio - 1.0) * 100:.1f} % {better}"
    return f"{(1.0 - ratio) * 100:.1f} % {worse}"


def _usage(ratio: float, words: tuple[str, str]) -> str:
    """A's use of something against B's (``ratio`` = B's over A's), as a share of B's: "33.3 %
    less memory" where B uses 1.5 times A's; "2.5x more CPU" where A uses 2.5 times B's."""
    less, more = words
    if ratio >= 1.0:
        return f"{(1.0 - 1.0 / ratio) * 100:.1f} % {less}"
    if 1.0 / ratio >= FACTOR_FROM:
        return f"{_factor(1.0 / ratio)} {more}"
    return f"{(1.0 / ratio - 1.0) * 100:.1f} % {more}"


def _factor(x: float) -> str:
    return f"{x:,.0f}x" if x >= 100 else f"{x:.3g}x"


def span(low: float, high: float, ratio: float, words: tuple[str, str] = TIME_WORDS) -> str:
    """The interval of a ratio on the scale of its estimate (:func:`amount`), with the
    direction named: "7.0-9.4 % faster", "1.2x-1.9x faster", "19.4 % to 4.93x faster", "2.0 %
    slower to 1.5 % faster"; a percentage is never above 100. ``words``: as :func:`amount`."""
    better, worse = words
    if words in USAGE_WORDS:  # each end as a share of B's use, the smaller first
        if low < 1.0 < high:
            return f"{_usage(low, words)} to {_usage(high, words)}"
        near, far = (low, high) if low >= 1.0 else (high, low)
        first, second = _usage(near, words), _usage(far, words)
        word = f" {better if low >= 1.0 else worse}"
        if first.endswith(" %" + word) and second.endswith(" %" + word):
            return f"{first.removesuffix(' %' + word)}-{second}"
        return f"{first.removesuffix(word)} to {second}"
    if ratio >= FACTOR_FROM and low >= 1.0:
        return f"{_factor(low)}-{_factor(high)} {better}"
    if ratio <= 1.0 / FACTOR_FROM and high <= 1.0:
        return f"{_factor(1.0 / high)}-{_factor(1.0 / low)} {worse}"
    if low >= 1.0 and high >= FACTOR_FROM:  # never "393.3 % faster": each end on its scale
        return f"{(low - 1) * 100:.1f} % to {_factor(high)} {better}"
    if low >= 1.0:
        return f"{(low - 1) * 100:.1f}-{(high - 1) * 100:.1f} % {better}"
    if high <= 1.0 and low <= 1.0 / FACTOR_FROM:
        return f"{(1 - high) * 100:.1f} % to {_factor(1.0 / low)} {worse}"
    if high <= 1.0:
        return f"{(1 - high) * 100:.1f}-{(1 - low) * 100:.1f} % {worse}"
    return f"{amount(low, words)} to {amount(high, words)}"
