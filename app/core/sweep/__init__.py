"""Measuring at the limit: the message-length sweep and the hardware ladder.

``sweep`` times each cipher entry on messages from 16 B to 16 MiB (SUPERCOP's and
``openssl speed``'s question: what does one packet, one TLS record, one file cost?), in cycles
per byte where the machine counts cycles; ``ladder`` times one cipher with the CPU's AES
instructions, with them switched off, and in pure Python. Both run each round in a fresh worker
process (:mod:`app.core.sweep.runner`), measured by :mod:`app.core.sweep.measure`.
"""
