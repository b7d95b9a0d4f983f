"""The publication kit: a result as tables ready to print (Markdown, LaTeX with booktabs) and a
Methods paragraph ready to paste. Every figure is a median with its 95 % interval over rounds
(the unit of evidence: one job in one fresh worker at one moment), units in the headers."""
