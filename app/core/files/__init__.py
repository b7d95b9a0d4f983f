"""Files a user keeps: safe (atomic, never aliasing) writes, the CipherBench container format
(header, keys, chunks) and the raw export for OpenSSL."""
