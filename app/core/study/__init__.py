"""Studies: a grid of ciphers x inputs run as one action, with fits and comparisons."""
