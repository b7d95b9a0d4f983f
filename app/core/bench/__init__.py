"""Benchmarking: jobs and their plan, inputs, the memory and stream workloads, measuring one job,
the worker process that isolates it, the runner that yields events, statistics, frozen results,
the environment captured with them, and the presets of the published studies."""
