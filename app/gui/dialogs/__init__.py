"""Dialogs: encrypt a file or a kept ciphertext, decrypt a file, and their shared widgets."""
