"""The CipherBench engine. Plain Python: no Qt import anywhere below this package."""
