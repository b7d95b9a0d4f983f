"""Build a file request of :mod:`app.core.files.protect` from what a front-end collected.

A front-end's own request (a dialog's) or its parsed arguments often name their values as the
core request names its fields: :func:`request_from` copies those, so that only the values named
otherwise, or computed, are written out.
"""

from __future__ import annotations

from dataclasses import fields
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

R = TypeVar("R", bound="DataclassInstance")


def request_from(cls: type[R], values: object, **overrides: Any) -> R:
    """A ``cls`` (a dataclass) made of ``overrides`` and, for each other field, the attribute of
    the same name of ``values`` when it has one; the fields left keep their defaults."""
    copied = {
        f.name: getattr(values, f.name)
        for f in fields(cls)
        if f.init and f.name not in overrides and hasattr(values, f.name)
    }
    return cls(**copied, **overrides)
