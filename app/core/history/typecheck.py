"""A result rebuilt from someone else's JSON holds what its type says, field by field.

A result's ``from_dict`` reads fields without converting every one, so a document whose
``cpu_percent`` is ``"x"`` or whose ``input_label`` is ``0`` becomes a result that fails
later, in ``history show`` or ``merge``. :func:`check_types` walks the frozen dataclasses of a
result against their annotations (``float | None``, ``tuple[str, ...]``, nested results) and
names the first field that holds the wrong type, so the import refuses it at the door.
Sequences are accepted for one another (a list where a tuple is declared); an int is a float;
a type the checker cannot resolve is accepted.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any


class WrongType(ValueError):
    """A field of a result holds a value of another type: the message names it."""


@cache
def _hints(cls: type) -> dict[str, Any]:
    try:
        return typing.get_type_hints(cls)
    except Exception:  # an annotation only a type checker can resolve: accept the class
        return {}


def check_types(value: Any, path: str = "the result") -> None:
    """Raise :class:`WrongType` naming the first field of the dataclass ``value`` (or of one
    it holds) whose value does not match its annotation."""
    if not dataclasses.is_dataclass(value) or isinstance(value, type):
        return
    hints = _hints(type(value))
    for field in dataclasses.fields(value):
        if field.name in hints:
            _check(getattr(value, field.name), hints[field.name], f"{path}.{field.name}")


def _check(value: Any, hint: Any, path: str) -> None:
    if not _matches(value, hint, path):
        shown = repr(value)
        shown = shown if len(shown) <= 40 else shown[:37] + "..."
        raise WrongType(f"{path.removeprefix('the result.')} is {shown}, not {_name(hint)}")


def _matches(value: Any, hint: Any, path: str) -> bool:
    if hint is Any or hint is object:
        return True
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        return any(_matches(value, arm, path) for arm in args)
    if origin is typing.Literal:
        return value in args
    if hint is type(None):
        return value is None
    if hint is float:
        return isinstance(value, int | float)
    if origin in (tuple, list, Sequence) or hint in (tuple, list):
        if not isinstance(value, tuple | list):
            return False
        if origin is tuple and args and args[-1] is not Ellipsis:
            if len(args) != len(value):
                return False
            for i, (item, arm) in enumerate(zip(value, args, strict=True)):
                _check(item, arm, f"{path}[{i}]")
            return True
        for i, item in enumerate(value):
            _check(item, args[0] if args else Any, f"{path}[{i}]")
        return True
    if origin in (dict, Mapping) or hint in (dict, Mapping):
        if not isinstance(value, Mapping):
            return False
        key_hint, value_hint = args if len(args) == 2 else (Any, Any)
        for key, item in value.items():
            _check(key, key_hint, f"{path} key")
            _check(item, value_hint, f"{path}[{key!r}]")
        return True
    if isinstance(hint, type):
        if not isinstance(value, hint):
            return False
        check_types(value, path)
        return True
    if isinstance(hint, typing.TypeVar) and hint.__bound__ is not None:
        return _matches(value, hint.__bound__, path)
    # A type variable, a protocol, a forward reference: the value's own fields are checked.
    check_types(value, path)
    return True


def _name(hint: Any) -> str:
    if isinstance(hint, type):
        return {"NoneType": "null", "str": "text", "float": "a number", "int": "an integer"}.get(
            hint.__name__, hint.__name__
        )
    return str(hint).replace("typing.", "")
