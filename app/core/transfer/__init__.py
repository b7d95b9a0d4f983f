"""An authenticated transfer over TCP loopback, measured (the loopback study's experiment, done
right).

A receiver process listens on 127.0.0.1 (an ephemeral port, never another address) and a sender
process sends it a file in length-prefixed frames; each chunk is sealed with the container's
STREAM construction (:mod:`app.core.files.container_chunks`: one AEAD key per transfer, nonce =
prefix || chunk index || last-chunk flag), so a truncated, modified, reordered or replayed stream
fails authentication; the receiver then confirms to the sender what it authenticated (the stream
digest: counts and the chunks' tags; see :mod:`~app.core.transfer.framing` for what "verified"
means, and why the plaintext baseline has no content check). The key reaches both processes
through their multiprocessing pipes, never the socket. The layout of the frames is in
:mod:`app.core.transfer.framing`, the two ends in :mod:`app.core.transfer.endpoints`, the
supervising caller in :mod:`app.core.transfer.runner` and the frozen results in
:mod:`app.core.transfer.results`.

    transfer(path, cipher_id, TransferOptions(chunk_bytes, repeat, warmup, timeout_s),
             cancel=threading.Event())   # yields (done, total) per run, returns TransferResult;
                                         # raises TransferFailed, Cancelled
"""
