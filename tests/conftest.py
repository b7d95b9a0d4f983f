"""Test-wide settings: Qt renders offscreen, so the GUI tests need no display."""

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
