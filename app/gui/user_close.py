"""A close the user asked for (the window's button, Close, Quit) told from one a program asked
for (SIGTERM, a session ending): only the user is asked before a run is stopped or results
are dropped, as nobody may be there to answer the program."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtGui import QCloseEvent


class UserClose:
    """For a window: :meth:`close_by_user` closes it as its close button does, and
    :meth:`closed_by_user` says in ``closeEvent`` whether the user asked."""

    _user_closing = False

    if TYPE_CHECKING:

        def close(self) -> bool: ...  # the window's own (QWidget.close)

    def close_by_user(self) -> None:
        self._user_closing = True
        try:
            self.close()
        finally:
            self._user_closing = False

    def closed_by_user(self, event: QCloseEvent) -> bool:
        return event.spontaneous() or self._user_closing
