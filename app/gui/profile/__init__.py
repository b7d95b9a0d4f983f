"""The profile kind's own view: its flame graph."""
