"""The machine a run happened on, as a plain JSON-able dict, and a readable summary of it.

Benchmark figures mean little without the CPU (and whether it has AES instructions), the libraries
and the OpenSSL behind them; the studies CipherBench reproduces print such a table (the key-length
study's Table 1, the Blowfish study's Tables I and II). ``capture_environment`` never raises:
anything it cannot find is ``None``. It takes a few milliseconds (no Qt import, one optional
``sysctl`` call on macOS)."""

from __future__ import annotations

import functools
import importlib.util
import os
import platform
import subprocess
import sys
import textwrap
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeVar

import app
from app.core.bench.machine_state import capture_machine_state, machine_warnings
from app.core.ciphers.libraries import ROWS as LIBRARY_ROWS
from app.core.runtime.envelope import timestamp
from app.core.units import format_bytes

CPUINFO_PATH = "/proc/cpuinfo"
GOVERNOR_PATH = "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor"

# Distribution names looked up with importlib.metadata; the first one installed wins.
PACKAGES: dict[str, tuple[str, ...]] = {
    **{row.name: (row.distribution,) for row in LIBRARY_ROWS},
    "openpyxl": ("openpyxl",),
    "psutil": ("psutil",),
    "PySide6": ("PySide6", "PySide6-Essentials"),
    "pyqtgraph": ("pyqtgraph",),
    "numpy": ("numpy",),  # the studies' bootstrap intervals
}

# Feature name in the result -> flag names that mean it, per architecture family.
X86_FEATURES: dict[str, tuple[str, ...]] = {
    "aes": ("aes",),  # AES-NI
    "vaes": ("vaes",),
    "pclmulqdq": ("pclmulqdq",),
    "vpclmulqdq": ("vpclmulqdq",),
    "avx2": ("avx2",),
    "avx512f": ("avx512f",),
    "sha_ni": ("sha_ni", "sha"),  # Linux says sha_ni, macOS's leaf7 features say SHA
}
ARM_FEATURES: dict[str, tuple[str, ...]] = {
    "aes": ("aes", "feat_aes"),
    "pmull": ("pmull", "feat_pmull"),
    "sha2": ("sha2", "feat_sha256"),
}

T = TypeVar("T")


def capture_environment() -> dict[str, Any]:
    """Describe this machine and software. JSON-able; never raises; missing values are None.

    Keys: ``cpu`` (model, arch, physical_cores, logical_cores, freq_current_mhz, freq_max_mhz,
    features {name: bool or None}, features_source, virtualized, governor), ``memory_total_bytes``,
    ``os`` (platform, system, release, machine), ``python`` (version, implementation,
    executable), ``packages`` {name: version or None}, ``openssl_version`` (the OpenSSL inside
    ``cryptography``), ``pycryptodome_aes_hw`` (PyCryptodome uses AES-NI / ARMv8 AES),
    ``cipherbench_version``, ``captured_at`` (ISO 8601, UTC), ``machine_state`` (governor,
    boost, address-space randomisation, power source, load: :mod:`.machine_state`).
    """
    no_text: dict[str, str] = {}
    no_state: dict[str, Any] = {}
    cpuinfo = _safe(_read_cpuinfo, no_text)
    machine = _safe(platform.machine, "") or ""
    sysctl = _safe(_read_sysctl, no_text) if sys.platform == "darwin" else no_text
    unknown: tuple[dict[str, bool | None], str | None] = ({}, None)
    features, source = _safe(lambda: _cpu_features(machine, cpuinfo, sysctl), unknown)
    no_freq: tuple[float | None, float | None] = (None, None)
    freq = _safe(_cpu_freq, no_freq)
    return {
        "cpu": {
            "model": _safe(lambda: _cpu_model(cpuinfo, sysctl), None),
            "arch": machine or None,
            "physical_cores": _safe(lambda: _psutil().cpu_count(logical=False), None),
            "logical_cores": _safe(
                lambda: _psutil().cpu_count(logical=True) or os.cpu_count(), None
            ),
            "freq_current_mhz": freq[0],
            "freq_max_mhz": freq[1],
            "features": features,
            "features_source": source,
            "virtualized": _safe(lambda: _virtualized(cpuinfo), None),
            "governor": _safe(_governor, None),
        },
        "memory_total_bytes": _safe(lambda: int(_psutil().virtual_memory().total), None),
        "os": {
            "platform": _safe(platform.platform, None),
            "system": _safe(platform.system, None),
            "release": _safe(platform.release, None),
            "machine": machine or None,
        },
        "python": {
            "version": platform.python_version(),
            "implementation": platform.python_implementation(),
            "executable": sys.executable or None,
        },
        "packages": {
            name: _safe(functools.partial(_dist_version, dists), None)
            for name, dists in PACKAGES.items()
        },
        "openssl_version": _safe(_openssl_version, None),
        "pycryptodome_aes_hw": _safe(lambda: _pycryptodome_aes_hw(features), None),
        "cipherbench_version": getattr(app, "__version__", None),
        "captured_at": timestamp(),
        "machine_state": _safe(capture_machine_state, no_state),
    }


def format_environment(env: Mapping[str, Any], width: int | None = None) -> str:
    """A multi-line, aligned summary of ``capture_environment()`` for ``main.py sysinfo``;
    a value too long for ``width`` columns continues on the next lines, aligned.

    Tolerates missing keys (e.g. an environment read back from an older results file).
    """
    cpu = env.get("cpu") or {}
    osd = env.get("os") or {}
    py = env.get("python") or {}
    packages = env.get("packages") or {}
    features = cpu.get("features") or {}

    cores = (
        f"{_show(cpu.get('physical_cores'))} physical, {_show(cpu.get('logical_cores'))} logical"
    )
    freq = "unknown"
    if cpu.get("freq_current_mhz") or cpu.get("freq_max_mhz"):
        freq = f"{_mhz(cpu.get('freq_current_mhz'))} now, {_mhz(cpu.get('freq_max_mhz'))} max"
    if features:
        feat = ", ".join(
            f"{name} {'yes' if on else 'no' if on is False else '?'}"
            for name, on in features.items()
        )
    else:
        feat = "unknown"
    mem = env.get("memory_total_bytes")
    aes_hw = env.get("pycryptodome_aes_hw")
    rows: list[tuple[str, str]] = [
        ("CipherBench", _show(env.get("cipherbench_version"))),
        ("Captured", _show(env.get("captured_at"))),
        ("CPU", _show(cpu.get("model"))),
        ("Architecture", _show(cpu.get("arch"))),
        ("Cores", cores),
        ("Frequency", freq),
        ("CPU crypto features", feat),
        ("Virtual machine", _yes_no(cpu.get("virtualized"))),
        ("Frequency governor", _show(cpu.get("governor"))),
        ("Memory", "unknown" if mem is None else f"{format_bytes(mem)} ({mem:,} bytes)"),
        ("OS", _show(osd.get("platform"))),
        ("Python", f"{_show(py.get('version'))} ({_show(py.get('implementation'))})"),
        ("OpenSSL (cryptography)", _show(env.get("openssl_version"))),
        ("PyCryptodome AES hardware", _yes_no(aes_hw)),
        ("Machine state", _state_text(env.get("machine_state"))),
    ]
    rows += [(name, _show(v, missing="not installed")) for name, v in packages.items()]
    key_width = max(len(k) for k, _ in rows)
    indent = " " * (key_width + 2)
    lines: list[str] = []
    for k, v in rows:
        first = f"{k.ljust(key_width)}  {v}"
        if width is None or len(first) <= width:
            lines.append(first)
        else:  # the value continues under itself ("aes yes, vaes yes, ...")
            lines += textwrap.wrap(
                first, width, subsequent_indent=indent, break_on_hyphens=False
            ) or [first]
    return "\n".join(lines)


# ---- helpers ------------------------------------------------------------------------------


def _safe(fn: Callable[[], T], default: T) -> T:
    try:
        return fn()
    except Exception:
        return default


def _psutil() -> Any:
    import psutil

    return psutil


def _show(value: Any, missing: str = "unknown") -> str:
    return missing if value is None or value == "" else str(value)


def _yes_no(value: Any) -> str:
    return "unknown" if value is None else ("yes" if value else "no")


def _mhz(value: Any) -> str:
    return "?" if not value else f"{value:.0f} MHz"


def _read_cpuinfo() -> dict[str, str]:
    """The first processor block of /proc/cpuinfo (plus any later keys), lowercase keys."""
    with open(CPUINFO_PATH, encoding="utf-8", errors="replace") as f:
        return parse_cpuinfo(f.read())


def parse_cpuinfo(text: str) -> dict[str, str]:
    """``key : value`` lines to a dict with lowercase keys; the first occurrence wins."""
    out: dict[str, str] = {}
    for line in text.splitlines():
        key, sep, value = line.partition(":")
        if sep:
            out.setdefault(key.strip().lower(), value.strip())
    return out


def _read_sysctl() -> dict[str, str]:
    """macOS: machdep.cpu.* and hw.optional.* in one ``sysctl`` call (about 5 ms)."""
    proc = subprocess.run(
        ["sysctl", "machdep.cpu", "hw.optional"],
        capture_output=True,
        text=True,
        timeout=1.0,
        check=False,
    )
    return parse_cpuinfo(proc.stdout)


def _cpu_model(cpuinfo: dict[str, str], sysctl: dict[str, str]) -> str | None:
    for value in (
        sysctl.get("machdep.cpu.brand_string"),
        cpuinfo.get("model name"),
        cpuinfo.get("hardware"),  # some ARM kernels
        cpuinfo.get("cpu model"),
        platform.processor(),
    ):
        if value and value.strip():
            return " ".join(value.split())
    return None


def _is_arm(machine: str) -> bool:
    m = machine.lower()
    return m.startswith(("arm", "aarch64"))


def cpu_features_from_flags(flags: Iterable[str], arm: bool) -> dict[str, bool]:
    """Map kernel/sysctl flag names (any case) to CipherBench's feature names."""
    have = {f.lower() for f in flags}
    table = ARM_FEATURES if arm else X86_FEATURES
    return {name: any(alias in have for alias in aliases) for name, aliases in table.items()}


def _cpu_features(
    machine: str, cpuinfo: dict[str, str], sysctl: dict[str, str]
) -> tuple[dict[str, bool | None], str | None]:
    arm = _is_arm(machine)
    text = cpuinfo.get("flags") or cpuinfo.get("features")
    if text:
        return dict(cpu_features_from_flags(text.split(), arm)), CPUINFO_PATH
    if sysctl:
        if arm:
            flags = [
                key.rsplit(".", 1)[-1]
                for key, value in sysctl.items()
                if key.startswith("hw.optional.arm.") and value.strip() == "1"
            ]
        else:
            flags = " ".join(
                sysctl.get(k, "") for k in ("machdep.cpu.features", "machdep.cpu.leaf7_features")
            ).split()
        return dict(cpu_features_from_flags(flags, arm)), "sysctl"
    # Elsewhere (Windows): ask PyCryptodome's CPUID probe for what it knows; the rest is unknown.
    table = ARM_FEATURES if arm else X86_FEATURES
    features: dict[str, bool | None] = dict.fromkeys(table)
    try:
        from Crypto.Util import _cpu_features as probe
    except Exception:
        return features, None
    if arm:
        features["aes"] = _safe(lambda: bool(probe.have_aes_armv8()), None)
    else:
        features["aes"] = _safe(lambda: bool(probe.have_aes_ni()), None)
        features["pclmulqdq"] = _safe(lambda: bool(probe.have_clmul()), None)
    return features, "pycryptodome cpuid"


def _cpu_freq() -> tuple[float | None, float | None]:
    freq = _psutil().cpu_freq()
    if freq is None:
        return None, None
    return (float(freq.current) or None, float(freq.max) or None)


def _state_text(state: Any) -> str:
    """``boost on, ASLR 2, power ac, load 0.4; cannot read: governor``."""
    if not isinstance(state, Mapping) or not state:
        return "not recorded"
    boost = state.get("boost")
    parts = [
        f"boost {'on' if boost else 'off'}" if boost is not None else "",
        f"ASLR {state['aslr']}" if state.get("aslr") is not None else "",
        f"power {state['power_source']}" if state.get("power_source") else "",
        f"load {state['load_1min']:g}" if state.get("load_1min") is not None else "",
    ]
    text = ", ".join(p for p in parts if p) or "nothing readable"
    if state.get("unreadable"):
        text += "; cannot read: " + ", ".join(state["unreadable"])
    warnings = machine_warnings(state)
    return text + "".join(f"; WARNING: {w}" for w in warnings)


def _virtualized(cpuinfo: dict[str, str]) -> bool | None:
    flags = cpuinfo.get("flags")
    if flags is None:
        return None
    return "hypervisor" in flags.split()


def _governor() -> str | None:
    with open(GOVERNOR_PATH, encoding="ascii") as f:
        return f.read().strip() or None


# Read once per process: reading the metadata at every run's start cost 3-6 ms of Python in a
# thread beside the window. A library upgraded while the window stays open is recorded with the
# version it had when the window first asked, until the window is started again.
@functools.cache
def _dist_version(names: tuple[str, ...]) -> str | None:
    # Imported here: importlib.metadata (email, zipfile, ...) costs 20 ms, and the window
    # imports this module while it opens.
    from importlib import metadata

    for name in names:
        try:
            return metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
    return None


@functools.cache
def _openssl_version() -> str | None:
    try:
        # What backend.openssl_version_text() returns, without importing the backend (~30 ms).
        from cryptography.hazmat.bindings._rust import openssl as rust_openssl

        return str(rust_openssl.openssl_version_text())
    except Exception:
        from cryptography.hazmat.backends.openssl.backend import backend

        return str(backend.openssl_version_text())


def _pycryptodome_aes_hw(features: dict[str, bool | None]) -> bool | None:
    """True when PyCryptodome's AES uses the CPU's AES instructions (AES-NI or ARMv8).

    PyCryptodome does so when the CPU has them and its ``_raw_aesni`` (x86) or
    ``_raw_aes_armv8`` (ARM) library was built. Importing PyCryptodome costs ~50 ms (cffi), so
    unless it is already loaded, that is checked from the CPU flags and the package files.
    """
    aes = sys.modules.get("Crypto.Cipher.AES")
    if aes is None and features.get("aes") is not None:
        if not features["aes"]:
            return False
        spec = importlib.util.find_spec("Crypto")
        if spec is None or not spec.submodule_search_locations:
            return None
        cipher_dir = os.path.join(next(iter(spec.submodule_search_locations)), "Cipher")
        names = os.listdir(cipher_dir)
        return any(n.startswith(("_raw_aesni.", "_raw_aes_armv8.")) for n in names)
    if aes is None:
        from Crypto.Cipher import AES as aes
    for attr in ("_raw_aes_hw", "_raw_aesni_lib"):  # 3.2x+ / older releases
        if hasattr(aes, attr):
            return getattr(aes, attr) is not None
    return None
