"""Ciphers as data: the registry of every algorithm x key size x mode x library, one adapter per
library, the message layer that both the benchmark and the file format use, the published test
vectors and the self-test that checks every registry row against them."""
