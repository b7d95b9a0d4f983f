"""The publication kit: a result as tables ready to print (Markdown, LaTeX with booktabs) and a
Methods paragraph ready to paste. Every figure is a median with its 95 % interval over rounds
(the unit of evidence: one job in one fresh worker at one moment), units in the headers; a result
that kept no rounds (a one-round bench, a transfer) has its interval over what it kept, and its
notes and Methods say what that covers. One module per kind of result makes its table and its
Methods (``table``/``methods``: studies and what all share; ``bench_table``, ``transfer_table``,
``sweep_table``); ``writers`` sets any of them as Markdown or LaTeX."""
