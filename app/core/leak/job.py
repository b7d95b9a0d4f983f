"""What one leak test measures: an entry (or a control), its two classes of calls, the message
length, the time budget and the seed of the classes' draw. Plain data: it crosses to the
worker, which imports no cipher library before it has switched the AES instructions off."""

from __future__ import annotations

from dataclasses import dataclass

# Two classes of calls, as dudect and tlsfuzzer define them.
CLASSES = {
    "fixed-random": "class 0 a fixed message (all zero), class 1 a fresh random message",
    "fixed-fixed": "class 0 an all-zero message, class 1 another fixed message",
    "key": "class 0 one fixed key, class 1 a fresh random key (the same random message)",
    "random-random": "both classes fresh random messages: the A/A control, which must not leak",
    "random-keys": "both classes fresh random keys (the same random message): the A/A control "
    "of key",
}
KEY_CLASSES = ("key", "random-keys")  # classes told apart by the key, not the message
# Known answers beside the ciphers: a 16-byte tag checked against a candidate that differs from
# it in the first byte (class 0) or in the last (class 1).
CONTROLS = {
    "tag-compare-eq": "a 16-byte tag checked with ==, which stops at the first byte that "
    "differs: a known leak",
    "tag-compare-digest": "a 16-byte tag checked with hmac.compare_digest, written to take the "
    "same time wherever the bytes differ",
}
CONTROL_LIBRARY = "python"  # what a control's library column says
CONTROL_CLASSES = ("fixed-random", "random-random")  # a control's: first byte or last; A/A
# A study's leak test (leak = true): fixed vs random messages of one AES block, whole blocks
# of every cipher here, for this long an entry.
STUDY_LENGTH = 16
STUDY_BUDGET_S = 10.0


@dataclass(frozen=True)
class LeakJob:
    cipher: str  # a cipher id, or one of CONTROLS
    library: str
    key_bits: int
    classes: str  # one of CLASSES
    length: int  # message bytes
    budget_s: float  # measuring time, the first batch (thresholds) included
    seed: int  # of the classes' draw and the inputs
    aes_instructions: bool = True  # False: the worker switches them off first (the ladder's step)

    @property
    def control(self) -> bool:
        return self.cipher in CONTROLS

    @property
    def label(self) -> str:
        hw = "" if self.aes_instructions else ", AES instructions off"
        return f"{self.cipher} [{self.library}{hw}]"
