"""The Transfer window: a loopback transfer benchmark (``python main.py transfer``) in the app."""
