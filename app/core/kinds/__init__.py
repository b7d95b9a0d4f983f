"""The kinds of result CipherBench makes, as rows of one table (:mod:`.table`), and the file
formats each can be saved in (:mod:`.formats`). The history, the formats, the command line and
the windows read the table; a new kind is a package of its own and a row here."""
