"""The digest a CipherBench JSON file carries, so that a result passed from one person to
another can be checked as the one CipherBench wrote (a portable result: definition,
environment, raw samples and this digest in one file).

``"digest": {"sha256": HEX}`` is SHA-256 over the document's canonical JSON (keys sorted, no
spaces, UTF-8) without its ``digest`` and ``history`` members (a history export adds the
latter around the run). It tells an edited or damaged file from an intact one; it is not a
signature: anyone can recompute it after an edit.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

DIGEST_KEY = "digest"
UNSIGNED_KEYS = (DIGEST_KEY, "history")

INTACT, CHANGED, ABSENT = "intact", "changed", "absent"


def content_digest(doc: Mapping[str, Any]) -> str:
    body = {k: v for k, v in doc.items() if k not in UNSIGNED_KEYS}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def with_digest(doc: Mapping[str, Any]) -> dict[str, Any]:
    """``doc`` with its digest (any digest it had is replaced)."""
    body = {k: v for k, v in doc.items() if k != DIGEST_KEY}
    return {**body, DIGEST_KEY: {"sha256": content_digest(body)}}


def digest_state(doc: Mapping[str, Any]) -> str:
    """:data:`INTACT` (the digest matches), :data:`CHANGED` (it does not: the file was edited
    or damaged after it was written) or :data:`ABSENT` (an older file, without one)."""
    value = doc.get(DIGEST_KEY)
    if not isinstance(value, Mapping) or not isinstance(value.get("sha256"), str):
        return ABSENT
    return INTACT if value["sha256"] == content_digest(doc) else CHANGED
