"""Does it leak? dudect's constant-time test of a cipher entry: calls in two classes (a fixed
input or a random one, a fixed key or random keys) drawn at random, each timed alone in a
fresh pinned worker; Welch's t on the raw, cropped and second-order times, and the effect's
size with a bootstrapped interval. Its row in the kinds' table is :data:`ROW`; its options
:mod:`.definition`; a worker's loop :mod:`.measure` (statistics :mod:`.ttests`, calls
:mod:`.probes`); its result :mod:`.result`, document :mod:`.document` and its figure of |t|
against the calls :mod:`.exports`."""

# The row of app.core.kinds.table: plain data, so that the table names this package without
# importing it (and this package imports nothing above it).
ROW = {
    "name": "leak",
    "noun": "a leak test",
    "result": "app.core.leak.result:LeakResult",
    "formats": "",  # every renderer of its document, and its own figure:
    "own_formats": (
        (".svg", "|t| against the calls (SVG figure)", "app.core.leak.exports:write_svg"),
    ),
    "document": "app.core.leak.document:leak_document",
    "json_format": "cipherbench-leak",
    "json_version": 1,
    "to_json": "app.core.leak.result:LeakResult.to_dict",
    "from_json": "app.core.leak.result:LeakResult.from_dict",
    "definition": "app.core.leak.definition:DEFINITION",
}
