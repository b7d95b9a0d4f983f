"""CipherBench: benchmark symmetric ciphers on real files."""

__version__ = "0.1.0"
