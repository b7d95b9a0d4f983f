"""Errors a user can act on. Their message is shown as it is, in the window and on stderr."""


class UserError(Exception):
    """Bad input or an impossible request: one clear sentence, no traceback."""


class AuthenticationError(UserError):
    """An AEAD tag, a MAC or a padding check failed: the data or the key is wrong."""


class VerificationError(Exception):
    """The decrypted output differs from the input: the cipher or the engine is broken."""


class Cancelled(Exception):
    """The user stopped the run."""
