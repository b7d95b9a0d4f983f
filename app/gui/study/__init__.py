"""The window's Study mode: a grid of ciphers x sizes or files, run and shown as the papers do."""
