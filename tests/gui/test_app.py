"""Application start-up pieces that can be checked without running the event loop."""

from __future__ import annotations

import sys

from PySide6.QtWidgets import QApplication

from app.core.resources import resource_path
from app.gui.app import GIL_SWITCH_INTERVAL_S, configure_application
from app.gui.app_icon import app_icon


def test_resources_exist(qapp: QApplication) -> None:
    assert resource_path("icon.svg").is_file()
    assert resource_path("icon.png").is_file()
    assert not app_icon().isNull()


def test_configure_application_names_settings_and_gil_interval(qapp: QApplication) -> None:
    before_org, before_app = qapp.organizationName(), qapp.applicationName()
    before_interval = sys.getswitchinterval()
    try:
        configure_application(qapp)
        assert qapp.organizationName() == "CipherBench"
        assert qapp.applicationName() == "CipherBench"
        assert sys.getswitchinterval() == GIL_SWITCH_INTERVAL_S
        assert not qapp.windowIcon().isNull()
        assert qapp.desktopFileName() == "cipherbench"  # packaging/linux/cipherbench.desktop
    finally:
        qapp.setOrganizationName(before_org)
        qapp.setApplicationName(before_app)
        sys.setswitchinterval(before_interval)
