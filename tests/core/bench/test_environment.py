"""capture_environment: complete, JSON-able, cheap, never raises; format_environment reads it."""

from __future__ import annotations

import importlib.metadata
import json
import platform
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

import app
from app.core.bench import environment
from app.core.bench.environment import (
    capture_environment,
    cpu_features_from_flags,
    format_environment,
    parse_cpuinfo,
)

X86_CPUINFO = """\
processor\t: 0
vendor_id\t: GenuineIntel
model name\t: Intel(R) Core(TM) i5-1135G7 @ 2.40GHz
flags\t\t: fpu vme sse2 pclmulqdq aes avx2 sha_ni vaes vpclmulqdq hypervisor

processor\t: 1
model name\t: Intel(R) Core(TM) i5-1135G7 @ 2.40GHz
flags\t\t: fpu vme sse2 pclmulqdq aes avx2 sha_ni vaes vpclmulqdq hypervisor
"""

ARM_CPUINFO = """\
processor\t: 0
BogoMIPS\t: 48.00
Features\t: fp asimd evtstrm aes pmull sha1 sha2 crc32 cpuid
CPU implementer\t: 0x41
"""


def test_capture_is_complete_and_json_able() -> None:
    env = capture_environment()
    assert json.loads(json.dumps(env)) == env
    cpu = env["cpu"]
    assert set(cpu) >= {
        "model",
        "arch",
        "physical_cores",
        "logical_cores",
        "freq_current_mhz",
        "freq_max_mhz",
        "features",
        "features_source",
    }
    assert cpu["logical_cores"] >= 1
    assert cpu["physical_cores"] is None or 1 <= cpu["physical_cores"] <= cpu["logical_cores"]
    assert all(v is None or isinstance(v, bool) for v in cpu["features"].values())
    assert "aes" in cpu["features"]
    assert env["memory_total_bytes"] > 0
    assert env["os"]["system"] == platform.system()
    assert env["os"]["machine"] == platform.machine()
    assert env["python"]["version"] == platform.python_version()
    assert env["python"]["implementation"] == platform.python_implementation()
    assert set(env["packages"]) == {
        "cryptography",
        "pycryptodome",
        "pyaes",
        "openpyxl",
        "psutil",
        "PySide6",
        "pyqtgraph",
        "numpy",
    }
    assert env["packages"]["cryptography"]
    assert env["packages"]["openpyxl"] == importlib.metadata.version("openpyxl")
    assert env["openssl_version"].startswith(("OpenSSL", "LibreSSL", "BoringSSL"))
    assert env["pycryptodome_aes_hw"] in (True, False, None)
    assert env["cipherbench_version"] == app.__version__
    assert env["captured_at"].endswith("+00:00")


def test_capture_does_not_import_qt() -> None:
    """In a fresh interpreter: here the GUI tests may have imported Qt long ago."""
    code = (
        "import sys; from app.core.bench.environment import capture_environment; "
        "capture_environment(); print(sorted(m for m in ('PySide6', 'pyqtgraph') "
        "if m in sys.modules))"
    )
    root = Path(__file__).resolve().parents[3]
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "[]"


def test_capture_is_cheap() -> None:
    capture_environment()  # first call may import psutil and friends
    start = time.perf_counter()
    capture_environment()
    assert time.perf_counter() - start < 0.1


@pytest.mark.skipif(not Path("/proc/cpuinfo").exists(), reason="Linux only")
def test_features_match_proc_cpuinfo() -> None:
    info = parse_cpuinfo(Path("/proc/cpuinfo").read_text())
    flags = set((info.get("flags") or info.get("features") or "").split())
    features = capture_environment()["cpu"]["features"]
    if "flags" in info:
        assert features["aes"] == ("aes" in flags)
        assert features["avx2"] == ("avx2" in flags)


def test_pycryptodome_aes_hw_agrees_with_pycryptodome(monkeypatch: pytest.MonkeyPatch) -> None:
    """The import-free check gives what PyCryptodome itself decides once loaded."""
    from Crypto.Cipher import AES

    features = capture_environment()["cpu"]["features"]
    with monkeypatch.context() as m:
        m.delitem(sys.modules, "Crypto.Cipher.AES")
        cheap = environment._pycryptodome_aes_hw(features)

    truth = getattr(AES, "_raw_aes_hw", getattr(AES, "_raw_aesni_lib", None)) is not None
    assert cheap == truth
    assert environment._pycryptodome_aes_hw(features) == truth  # now through the module


def test_parse_x86_cpuinfo() -> None:
    info = parse_cpuinfo(X86_CPUINFO)
    assert info["model name"] == "Intel(R) Core(TM) i5-1135G7 @ 2.40GHz"
    features = cpu_features_from_flags(info["flags"].split(), arm=False)
    assert features == {
        "aes": True,
        "vaes": True,
        "pclmulqdq": True,
        "vpclmulqdq": True,
        "avx2": True,
        "avx512f": False,
        "sha_ni": True,
    }


def test_parse_arm_cpuinfo() -> None:
    info = parse_cpuinfo(ARM_CPUINFO)
    assert cpu_features_from_flags(info["features"].split(), arm=True) == {
        "aes": True,
        "pmull": True,
        "sha2": True,
    }


def test_macos_sysctl_features() -> None:
    apple = parse_cpuinfo(
        "machdep.cpu.brand_string: Apple M2\n"
        "hw.optional.arm.FEAT_AES: 1\nhw.optional.arm.FEAT_PMULL: 1\n"
        "hw.optional.arm.FEAT_SHA256: 0\n"
    )
    assert environment._cpu_model({}, apple) == "Apple M2"
    features, source = environment._cpu_features("arm64", {}, apple)
    assert features == {"aes": True, "pmull": True, "sha2": False} and source == "sysctl"
    intel = parse_cpuinfo(
        "machdep.cpu.features: FPU SSE2 PCLMULQDQ AES AVX1.0\n"
        "machdep.cpu.leaf7_features: AVX2 SHA AVX512F VAES VPCLMULQDQ\n"
    )
    features, _ = environment._cpu_features("x86_64", {}, intel)
    assert all(features.values())


def test_missing_sources_never_raise(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No /proc/cpuinfo, psutil broken, cryptography's OpenSSL query failing: Nones, no error."""
    monkeypatch.setattr(environment, "CPUINFO_PATH", str(tmp_path / "missing"))
    monkeypatch.setattr(environment, "GOVERNOR_PATH", str(tmp_path / "missing"))

    def boom(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("broken")

    monkeypatch.setattr(environment, "_psutil", boom)
    monkeypatch.setattr(environment, "_openssl_version", boom)
    monkeypatch.setattr(importlib.metadata, "version", boom)  # imported where it is used
    environment._dist_version.cache_clear()  # read once per process; this test reads anew
    env = capture_environment()
    assert env["cpu"]["physical_cores"] is None
    assert env["memory_total_bytes"] is None
    assert env["cpu"]["freq_current_mhz"] is None
    assert env["openssl_version"] is None
    assert set(env["packages"].values()) == {None}
    assert env["cpu"]["virtualized"] is None
    assert isinstance(env["cpu"]["features"], dict)
    json.dumps(env)
    assert "unknown" in format_environment(env)


def test_missing_package_is_none(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(environment.PACKAGES, "nothere", ("no-such-distribution-xyz",))
    assert capture_environment()["packages"]["nothere"] is None


def test_format_environment() -> None:
    env = capture_environment()
    text = format_environment(env)
    lines = text.splitlines()
    assert len(lines) >= 15
    assert any(line.startswith("CPU ") and str(env["cpu"]["model"]) in line for line in lines)
    assert f"{env['memory_total_bytes']:,} bytes" in text
    assert env["openssl_version"] in text
    assert "CPU crypto features" in text and "aes " in text
    assert "cryptography" in text and env["packages"]["cryptography"] in text


def test_format_environment_tolerates_partial_dicts() -> None:
    text = format_environment({"cpu": {"model": "X"}, "packages": {"pyaes": None}})
    assert "X" in text and "not installed" in text
    assert format_environment({})


def test_package_versions_are_read_once_per_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each run captures the environment in a thread beside the window: the installed packages'
    metadata (3-6 ms of Python each time) is read at the first capture only."""
    first = capture_environment()["packages"]
    calls: list[str] = []
    monkeypatch.setattr(importlib.metadata, "version", lambda name: calls.append(name) or "0")
    assert capture_environment()["packages"] == first
    assert calls == []
