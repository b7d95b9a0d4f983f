"""In the worker: one round of key setup for every entry of a payload."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from app.core.ciphers.adapters import get_adapter, key_setup
from app.core.ciphers.registry import lookup
from app.core.timing.batches import repeated, time_calls

BUDGET_S = 0.05  # per entry and round


def time_round(
    payload: Sequence[tuple[str, str, int]], progress: Callable[[float], None]
) -> list[tuple[float, ...]]:
    """For each ``(cipher id, library, key bits)``, the round's samples of one context's
    creation from a fresh key (and IV), in ns per call."""
    out = []
    for i, (cipher_id, library, key_bits) in enumerate(payload):
        spec = lookup(cipher_id, library, key_bits)
        make = key_setup(spec, get_adapter(library))
        out.append(time_calls(repeated(make), BUDGET_S).ns_per_call)
        progress((i + 1) / len(payload))
    return out
