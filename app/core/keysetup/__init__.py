"""Key setup: how long making a cipher context takes (the key schedule, and the IV or nonce
taken in), per cipher entry and library, each entry timed in calibrated batches in fresh
worker processes over rounds. Its row in the kinds' table is :data:`ROW`; its definition
(options, run) :mod:`.definition`; its result and document :mod:`.result`."""

# The row of app.core.kinds.table (app.core.kinds.table.declared gives what it leaves out):
# plain data, so that the table names this package without importing it (and this package
# imports nothing above it). Its document takes every renderer.
ROW = {
    "name": "keysetup",
    "noun": "a key setup run",
    "result": "app.core.keysetup.result:KeySetupResult",
    "document": "app.core.keysetup.result:key_setup_document",
}
