"""The main window: ``window`` (MainWindow), its declared ``parts``, the ``layout`` that builds
its widgets, its ``actions`` and menus, and the ``controller`` that runs benchmarks for it."""
