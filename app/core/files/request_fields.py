"""Build a file request of :mod:`app.core.files.protect` from what a front-end collected.

A front-end's own request (a dialog's) or its parsed arguments often name their values as the
core request names its fields: :func:`request_from` copies those, so that only the values named
otherwise, or computed, are written out.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

R = TypeVar("R", bound="DataclassInstance")


def request_from(cls: type[R], values: object, names: Iterable[str], **overrides: Any) -> R:
    """A ``cls`` (a dataclass) made of ``overrides`` and of the attributes ``names`` of
    ``values``, each copied to the field of the same name; the fields left keep their defaults.
    The names are explicit so that a field added to ``cls`` is never filled by chance, and an
    attribute renamed in ``values`` fails here (``AttributeError``), not silently."""
    copied = {name: getattr(values, name) for name in names}
    return cls(**copied, **overrides)
