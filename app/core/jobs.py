"""What to run: a plan of jobs. A job is one cipher entry on one input, with its options."""

from __future__ import annotations

from dataclasses import dataclass, field

from app.core.units import MIB

DATA_MODES = ("memory", "stream")


@dataclass(frozen=True)
class BenchOptions:
    """Measurement options shared by every job of a run."""

    repeat: int = 5  # timed repetitions per direction (more for tiny inputs, see min_time_s)
    warmup: int = 1  # discarded runs before timing
    data_mode: str = "memory"  # "memory": whole input in RAM; "stream": chunked from disk
    chunk_bytes: int = MIB  # stream mode chunk size
    measure_memory: bool = True  # a separate, untimed pass for peak RSS and tracemalloc
    min_time_s: float = 0.1  # keep repeating tiny inputs until each direction timed this long
    max_repeat: int = 1000  # ... but never more repetitions than this


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
