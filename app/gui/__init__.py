"""The CipherBench desktop window. All Qt code of the project lives in this package.

Data flows one way: the engine (``app.core``) yields events -> a worker (``app.gui.worker``;
the main window's ``main.bench_worker``) turns them into signals -> a controller keeps the
state -> the table model and the charts show it. Widgets never compute and the worker thread
never touches a widget.
"""
