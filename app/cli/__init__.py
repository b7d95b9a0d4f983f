"""The command line front-end: argv, prompts and terminal output over the engine in app.core.

``main`` parses the commands (list, selftest, sysinfo, bench), ``crypt`` the encrypt/decrypt
commands, ``report`` prints result tables. Nothing here measures or encrypts by itself."""
