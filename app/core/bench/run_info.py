"""What a run records besides its results: the options it ran with and the machine it ran on.

Both are frozen and typed, and both write themselves as the plain JSON they always were
(:meth:`RunOptions.to_dict`, :meth:`Environment.to_dict`), and read themselves back from it.
A file may lack a key (an older CipherBench) or hold one this version does not know (a newer
one): missing keys read as None and are not written back; unknown keys are kept as read.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field, fields
from typing import Any

from app.core.bench.jobs import BenchOptions, InputSpec


@dataclass(frozen=True)
class InputSummary:
    """One input of the run, as the results file names it."""

    label: str
    size_bytes: int  # written as "bytes"

    def to_dict(self) -> dict[str, Any]:
        return {"label": self.label, "bytes": self.size_bytes}


@dataclass(frozen=True)
class RunOptions:
    """The :class:`BenchOptions` every job of the run used, and the run's inputs.

    None means "not recorded" (a run without jobs records nothing).
    """

    repeat: int | None = None
    warmup: int | None = None
    data_mode: str | None = None
    chunk_bytes: int | None = None
    measure_memory: bool | None = None
    min_time_s: float | None = None
    max_repeat: int | None = None
    memory_workload: str | None = None
    inputs: tuple[InputSummary, ...] | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)  # keys this version does not know

    @classmethod
    def of_run(cls, options: BenchOptions, inputs: Sequence[InputSpec]) -> RunOptions:
        """The record of a run that used ``options`` on ``inputs`` (each once, in order)."""
        summaries = tuple(InputSummary(i.label, i.size_bytes) for i in dict.fromkeys(inputs))
        values = asdict(options)
        values["memory_workload"] = options.memory_workload or None  # recorded when asked for
        return cls(**values, inputs=summaries)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RunOptions:
        """Inverse of :meth:`to_dict`."""
        known = {f.name for f in fields(cls)} - {"inputs", "extra"}
        values: dict[str, Any] = {k: v for k, v in data.items() if k in known}
        if "inputs" in data:
            values["inputs"] = tuple(InputSummary(i["label"], i["bytes"]) for i in data["inputs"])
        extra = {k: v for k, v in data.items() if k not in known and k != "inputs"}
        return cls(**values, extra=extra)

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: the recorded options in :class:`BenchOptions` order, then ``inputs``."""
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name == "extra" or value is None:
                continue
            out[f.name] = [i.to_dict() for i in value] if f.name == "inputs" else value
        out.update(self.extra)
        return out

    def bench_options(self) -> BenchOptions:
        """The options as :class:`BenchOptions`, defaults for what was not recorded."""
        names = [f.name for f in fields(BenchOptions)]
        return BenchOptions(**{n: getattr(self, n) for n in names if getattr(self, n) is not None})


@dataclass(frozen=True, eq=False)  # Mapping's equality: equal to a dict with the same items
class Environment(Mapping[str, Any]):
    """What ``capture_environment()`` found, read-only. It is also the mapping it wraps, so
    code that reads the captured dict (``format_environment``) takes it as it is."""

    data: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Environment:
        return cls(dict(data))

    def to_dict(self) -> dict[str, Any]:
        return dict(self.data)

    def _section(self, name: str) -> Mapping[str, Any]:
        value = self.data.get(name)
        return value if isinstance(value, Mapping) else {}

    # Each accessor gives its type or None: an environment read from someone else's JSON may
    # hold anything (a version that is a table), and merge, compare and trend hash and print
    # these values.
    @property
    def cpu_model(self) -> str | None:
        return _text(self._section("cpu").get("model"))

    @property
    def logical_cores(self) -> int | None:
        cores = self._section("cpu").get("logical_cores")
        return cores if isinstance(cores, int) and not isinstance(cores, bool) else None

    @property
    def cpu_features(self) -> Mapping[str, bool | None]:
        features = self._section("cpu").get("features")
        if not isinstance(features, Mapping):
            return {}
        return {str(k): v for k, v in features.items() if v is None or isinstance(v, bool)}

    @property
    def os_platform(self) -> str | None:
        return _text(self._section("os").get("platform"))

    @property
    def python_version(self) -> str | None:
        return _text(self._section("python").get("version"))

    @property
    def packages(self) -> Mapping[str, str | None]:
        found = self._section("packages")
        return {str(k): v for k, v in found.items() if v is None or isinstance(v, str)}

    @property
    def cipherbench_version(self) -> str | None:
        return _text(self.data.get("cipherbench_version"))

    @property
    def captured_at(self) -> str | None:
        return _text(self.data.get("captured_at"))

    # Mapping
    def __getitem__(self, key: str) -> Any:
        return self.data[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self.data)

    def __len__(self) -> int:
        return len(self.data)


@dataclass(frozen=True)
class ToolInfo:
    """What made a result (pyperf keeps its own name and version the same way): the program,
    its version, and any key a newer version wrote (kept, so a file loads back whole)."""

    name: str = "CipherBench"
    version: str | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def current(cls) -> ToolInfo:
        from app import __version__

        return cls(version=__version__)

    @classmethod
    def of(cls, value: ToolInfo | Mapping[str, Any] | None) -> ToolInfo:
        """``value`` as a ``ToolInfo``: itself, or read from its JSON form (a dict)."""
        if isinstance(value, ToolInfo):
            return value
        data = dict(value or {})
        name = data.pop("name", "CipherBench")
        version = data.pop("version", None)
        return cls(str(name), None if version is None else str(version), data)

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "version": self.version, **self.extra}


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) else None
