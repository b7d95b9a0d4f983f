"""What differs between two runs besides the code measured: the machine, the software, how it
was measured. A ratio of times cannot tell these apart from a faster cipher, so a comparison
states them (:func:`differences`) instead of hiding them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.core.bench.results import JobResult
from app.core.bench.run_info import Environment
from app.core.history.records import StoredRun
from app.core.units import format_bytes


def differences(a: StoredRun, b: StoredRun) -> list[str]:
    """Plain sentences, run A's value first; empty when nothing noticeable differs."""
    ra, rb = f"run {a.id}", f"run {b.id}"
    notes: list[str] = []
    if a.id == b.id:
        notes.append(f"{ra} is compared with itself")
    if a.summary.kind != b.summary.kind:
        notes.append(
            f"{ra} is a {a.summary.kind} and {rb} a {b.summary.kind}: they measured in "
            "different ways"
        )
    notes.extend(_machines(a, b, ra, rb))
    env_a, env_b = _environment(a), _environment(b)
    software = _software(env_a, env_b)
    if software:
        notes.append("software differs (" + f"{ra} -> {rb}): " + "; ".join(software))
    options = _options(a, b)
    if options:
        notes.append("measured differently (" + f"{ra} -> {rb}): " + "; ".join(options))
    for run, name in ((a, ra), (b, rb)):
        if run.summary.cancelled:
            notes.append(f"{name} was cancelled: it holds only the jobs that finished")
        if run.summary.source == "imported":
            notes.append(f"{name} was imported from a file")
    return notes


def _environment(run: StoredRun) -> Environment:
    env = getattr(run.result, "environment", None)
    return env if isinstance(env, Environment) else Environment.from_dict(env or {})


def _machines(a: StoredRun, b: StoredRun, ra: str, rb: str) -> list[str]:
    notes: list[str] = []
    ha, hb = a.summary.hostname, b.summary.hostname
    if ha and hb and ha != hb:
        notes.append(f"different machines: {ha} ({ra}) and {hb} ({rb})")
    elif bool(ha) != bool(hb):
        unknown = ra if not ha else rb
        notes.append(f"{unknown} does not say which machine it ran on (a file without one)")
    env_a, env_b = _environment(a), _environment(b)
    ca, cb = env_a.cpu_model, env_b.cpu_model
    if ca and cb and ca != cb:
        notes.append(f"different CPUs: {ca} ({ra}) and {cb} ({rb})")
    elif env_a.logical_cores != env_b.logical_cores and env_a.logical_cores and env_b.logical_cores:
        notes.append(
            f"different core counts: {env_a.logical_cores} ({ra}) and {env_b.logical_cores} ({rb})"
        )
    features = _changed(env_a.cpu_features, env_b.cpu_features, _yes_no)
    if features:
        notes.append("CPU crypto features differ: " + ", ".join(features))
    platform_a, platform_b = env_a.os_platform, env_b.os_platform
    if platform_a and platform_b and platform_a != platform_b:
        notes.append(f"different operating systems: {platform_a} ({ra}) and {platform_b} ({rb})")
    return notes


def _software(env_a: Environment, env_b: Environment) -> list[str]:
    out = _changed(env_a.packages, env_b.packages, str)
    for key, name in (
        ("openssl_version", "OpenSSL"),
        ("cipherbench_version", "CipherBench"),
    ):
        va, vb = env_a.get(key), env_b.get(key)
        if va and vb and va != vb:
            out.append(f"{name} {va} -> {vb}")
    pa, pb = env_a.python_version, env_b.python_version
    if pa and pb and pa != pb:
        out.append(f"Python {pa} -> {pb}")
    return out


def _changed(a: Mapping[str, Any], b: Mapping[str, Any], show: Any) -> list[str]:
    """``name old -> new`` for every key whose known values differ."""
    out = []
    for name in dict.fromkeys([*a, *b]):
        va, vb = a.get(name), b.get(name)
        if va is not None and vb is not None and va != vb:
            out.append(f"{name} {show(va)} -> {show(vb)}")
    return out


def _yes_no(value: Any) -> str:
    return "yes" if value is True else "no" if value is False else str(value)


def _options(a: StoredRun, b: StoredRun) -> list[str]:
    """Data mode, stream chunk, warm-up, memory pass and copies at once, as the jobs record
    them."""
    out: list[str] = []
    for name, get in (
        ("data mode", lambda r: r.data_mode),
        ("stream chunk", lambda r: format_bytes(r.chunk_bytes) if r.chunk_bytes else None),
        ("warm-up runs", lambda r: len(r.encrypt.warmup_s)),
        ("memory pass", lambda r: "yes" if r.peak_rss_bytes is not None else "no"),
        # --processes: the times compared are the single process's in both runs; the copies'
        # aggregate came after them, on a machine then warmer.
        ("copies at once (--processes)", lambda r: r.aggregate.processes if r.aggregate else 1),
    ):
        va, vb = _values(a, get), _values(b, get)
        if va and vb and va != vb:
            out.append(f"{name} {va} -> {vb}")
    if a.summary.kind == b.summary.kind == "transfer":
        ca = a.result.options.get("chunk_bytes")  # type: ignore[union-attr]
        cb = b.result.options.get("chunk_bytes")  # type: ignore[union-attr]
        if ca != cb and ca and cb:
            out.append(f"chunk {format_bytes(ca)} -> {format_bytes(cb)}")
    return out


def _values(run: StoredRun, get: Any) -> str:
    jobs = [r for r in run.result.results if isinstance(r, JobResult)]
    values = dict.fromkeys(str(get(r)) for r in jobs)
    return ", ".join(v for v in values if v != "None")
