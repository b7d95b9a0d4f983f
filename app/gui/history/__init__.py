"""The run history in the window: storing finished runs, listing, opening and comparing them."""
