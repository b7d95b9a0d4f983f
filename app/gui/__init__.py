"""The CipherBench desktop window. All Qt code of the project lives in this package.

Data flows one way: the engine (``app.core``) yields events -> :class:`BenchmarkWorker` turns
them into signals -> :class:`BenchmarkController` keeps the state -> the table model and the
charts show it. Widgets never compute and the worker thread never touches a widget.
"""
