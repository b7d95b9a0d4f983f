"""Showing results: the results table model and the pyqtgraph charts (the only pyqtgraph user)."""
