"""Where the time goes: each entry's timed calls sampled by py-spy in fresh worker processes
over rounds, classified by their innermost frame (interpreted or compiled, then the cipher's
Python code, the interpreter, the native cipher, the binding, the C library ...), with the
profiler's own cost measured in the same rounds. Its row in the kinds' table is :data:`ROW`;
its options :mod:`.definition`; a round :mod:`.sampler`; its result :mod:`.result`, its
document :mod:`.document` and its own files (flame graph, collapsed stacks, speedscope)
:mod:`.exports`."""

# The row of app.core.kinds.table (app.core.kinds.table.declared gives what it leaves out):
# plain data, so that the table names this package without importing it (and this package
# imports nothing above it). Its document takes every renderer; its own files beside them:
_EXPORTS = "app.core.profile.exports:"
ROW = {
    "name": "profile",
    "noun": "a profile",
    "result": "app.core.profile.result:ProfileResult",
    "own_formats": (
        (".svg", "Flame graph (SVG, zoom and search in a browser)", _EXPORTS + "write_svg"),
        (".txt", "Collapsed stacks (flamegraph.pl, inferno)", _EXPORTS + "write_collapsed"),
        (".speedscope.json", "speedscope profile", _EXPORTS + "write_speedscope"),
    ),
    "document": "app.core.profile.document:profile_document",
}
