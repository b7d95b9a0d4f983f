"""Where the history lives, and whether runs are stored at all.

The database is ``history.sqlite3`` in the platform's per-user data folder (platformdirs:
``~/.local/share/CipherBench`` on Linux, ``~/Library/Application Support/CipherBench`` on
macOS, ``%LOCALAPPDATA%\\CipherBench`` on Windows). Two environment variables change that:

* ``CIPHERBENCH_HISTORY``: the path of the database file to use instead (the tests give each
  test its own);
* ``CIPHERBENCH_NO_HISTORY=1`` (or ``true``, ``yes``): store nothing. The command line's
  ``--no-history`` and the window's setting do the same for one run or for the window.
"""

from __future__ import annotations

import os
from pathlib import Path

PATH_VARIABLE = "CIPHERBENCH_HISTORY"
OFF_VARIABLE = "CIPHERBENCH_NO_HISTORY"
APP_NAME = "CipherBench"
FILE_NAME = "history.sqlite3"
_TRUE = ("1", "true", "yes", "on")


def history_path() -> Path:
    """The database file: ``$CIPHERBENCH_HISTORY`` when set, else the platform's place."""
    override = os.environ.get(PATH_VARIABLE, "").strip()
    if override:
        return Path(override).expanduser()
    from platformdirs import user_data_dir  # only when needed: the tests always override

    return Path(user_data_dir(APP_NAME, appauthor=False, roaming=False)) / FILE_NAME


def storing_disabled() -> bool:
    """True when ``CIPHERBENCH_NO_HISTORY`` asks that no run be stored."""
    return os.environ.get(OFF_VARIABLE, "").strip().lower() in _TRUE
