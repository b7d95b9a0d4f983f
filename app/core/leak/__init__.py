"""Does it leak? dudect's constant-time test of a cipher entry: calls in two classes (a fixed
input or a random one, a fixed key or random keys) drawn at random, each timed alone in a
fresh pinned worker; Welch's t on the raw, cropped and second-order times, and the effect's
size with a bootstrapped interval. Its row in the kinds' table is :data:`ROW`; its options
:mod:`.definition`; a worker's loop :mod:`.measure` (statistics :mod:`.ttests`, calls
:mod:`.probes`); its result :mod:`.result` and document :mod:`.document`; its figure of |t|
against the calls inline in a study's HTML :mod:`.exports`, for print
:func:`app.core.publish.kind_figures.leak_figure`."""

# The row of app.core.kinds.table (app.core.kinds.table.declared gives what it leaves out):
# plain data, so that the table names this package without importing it (and this package
# imports nothing above it). Its document takes every renderer, its figure .svg and .pdf:
_FIGURES = "app.core.publish.kind_figures:"  # drawn as every kind's print figures
ROW = {
    "name": "leak",
    "noun": "a leak test",
    "result": "app.core.leak.result:LeakResult",
    "figure": _FIGURES + "leak_figure",
    "document": "app.core.leak.document:leak_document",
}
