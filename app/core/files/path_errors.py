"""The base of the file errors that name one file: :class:`PathError`.

A front-end catches a subclass (``isinstance``) to add its own hint, and reads ``path`` to name
the file; the message itself names no option and no button.
"""

from __future__ import annotations

from typing import ClassVar

from app.core.errors import UserError


class PathError(UserError):
    """A :class:`UserError` about the file ``path``. A subclass words it with ``MESSAGE``, a
    template in which ``{path}`` stands for the file."""

    MESSAGE: ClassVar[str] = "{path}"

    def __init__(self, path: str) -> None:
        super().__init__(self.MESSAGE.format(path=path))
        self.path = path
