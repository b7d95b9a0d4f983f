"""The run history: every finished benchmark, study and transfer in an SQLite file, listed,
opened again, exported, imported and compared (:mod:`.store`: ``History``; :mod:`.compare`:
``compare_runs``). Where the file lives: :mod:`.location`; its schema and migrations:
:mod:`.schema`; opening it whatever state it is in: :mod:`.connection`; what is never stored:
:mod:`.redact`; the documents stored: :mod:`.documents`; files in and out: :mod:`.exchange`;
what an imported file may hold: :mod:`.limits`."""
