"""The Message lengths and hardware window: the sweep (``python main.py sweep``) and the hardware
ladder (``python main.py ladder``) in the app."""
