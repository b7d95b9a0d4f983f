"""What to run: a plan of jobs. A job is one cipher entry on one input, with its options."""

from __future__ import annotations

from dataclasses import dataclass, field

from app.core.units import MIB

DATA_MODES = ("memory", "stream")
# The bounds of the options, checked by plan.check_options (and shown by the window's spin boxes):
# more repetitions only repeat a stable median; a chunk is a buffer the worker holds twice, and
# beyond a few MiB a larger one is no faster.
MAX_REPEAT = 1000
MAX_WARMUP = 100
MIN_CHUNK_BYTES = 64
MAX_CHUNK_BYTES = 64 * MIB
# The programs a memory pass can also run (app.core.bench.load_all): "" none beside CipherBench's
# own one buffer; "load-all" the papers' whole file read, padded copy and new ciphertext.
LOAD_ALL = "load-all"
MEMORY_WORKLOADS = ("", LOAD_ALL)


@dataclass(frozen=True)
class BenchOptions:
    """Measurement options shared by every job of a run."""

    repeat: int = 5  # timed repetitions per direction (more for tiny inputs, see min_time_s)
    warmup: int = 1  # discarded runs before timing
    data_mode: str = "memory"  # "memory": whole input in RAM; "stream": chunked from disk
    # Stream mode chunk size asked for; each job uses at most what its input needs (whole
    # cipher blocks), see plan.make_jobs, and its result records the size it used.
    chunk_bytes: int = MIB
    measure_memory: bool = True  # a separate, untimed pass for peak RSS and tracemalloc
    min_time_s: float = 0.1  # keep repeating tiny inputs until each direction timed this long
    max_repeat: int = MAX_REPEAT  # ... but never more repetitions than this
    # A second memory pass running a paper's program shape, direction by direction (load_all.py)
    memory_workload: str = ""


@dataclass(frozen=True)
class InputSpec:
    """The input file as it was when the run was planned (size and mtime detect changes)."""

    path: str
    label: str  # file name, or "random 10 MB" for generated data
    size_bytes: int
    mtime_ns: int
    generated: bool = False


@dataclass(frozen=True)
class Job:
    cipher_id: str
    library: str
    key_bits: int  # the size actually used (the entry's default unless the user chose one)
    input: InputSpec
    options: BenchOptions = field(default_factory=BenchOptions)
    # Where to leave the last ciphertext (the GUI's "save ciphertext"); None: deleted.
    keep_ciphertext_path: str | None = None

    @property
    def label(self) -> str:
        return f"{self.cipher_id} [{self.library}]"
