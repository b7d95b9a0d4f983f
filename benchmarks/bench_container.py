"""How fast and how lean is the CipherBench file format? Figures for issue 4.

    python benchmarks/bench_container.py [--size 1GiB] [--dir DIR] [--repeat 5] [--chunk 1MiB]

Encrypts and decrypts one file of random bytes (default 1 GiB) with AES-256-GCM:

- "stream mode": the engine's stream loop, the reference (read a chunk into a preallocated
  buffer, ``MessageCipher.update`` = ``encrypt_into`` another preallocated buffer, write);
- "container": ``encrypt_file`` / ``decrypt_file`` with a key file (the KDF is timed apart).

Each operation runs in a child process that reports its wall time and its peak memory above
the baseline it had just before starting (the kernel's high-water mark, reset through
``/proc/self/clear_refs`` first, so import-time peaks do not hide). Throughput is plaintext
bytes per second, in MB/s (10^6) and MiB/s; the best of ``--repeat`` runs counts, the median is
shown too. The ratio container / stream mode has a target of >= 60 %, the peak < 64 MiB.
Then the KDF: Argon2id with the default parameters, and one password-protected encryption.

Files are written in ``--dir`` (default: the system temp folder) and deleted afterwards. The
page cache is warmed first and dirty pages are flushed (untimed) before every run, so no run pays
for the previous one's writeback; ``--dir /dev/shm`` takes the disk out entirely. Other processes
on the machine skew everything: the load average is printed before and after.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.core.units import MB, MIB, format_bytes, parse_size

PEAK_TARGET_BYTES = 64 * MIB
RATIO_TARGET = 0.60


# --- the child: one operation, measured ------------------------------------------------------


def _status_kib(field: str) -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise RuntimeError(f"no {field} in /proc/self/status")


def _reset_high_water_mark() -> bool:
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")  # "5": reset the peak RSS to the current RSS (Linux >= 4.0)
        return True
    except OSError:
        return False


def _reference(job: dict[str, Any], decrypt: bool) -> None:
    """The engine's stream mode: one MessageCipher, ``update`` per chunk, preallocated buffers."""
    from app.core.ciphers.adapters import SLACK, get_adapter
    from app.core.ciphers.message import MessageCipher
    from app.core.ciphers.registry import Kind, lookup

    spec = lookup(job["cipher"], "cryptography")
    if spec.kind is Kind.BLOCK:
        raise SystemExit("the stream-mode reference needs a cipher without padding")
    chunk = job["chunk"]
    read_size = chunk + (spec.tag_bytes if decrypt else 0)
    cipher = MessageCipher(
        spec,
        get_adapter("cryptography"),
        bytes.fromhex(job["key"]),
        bytes.fromhex(job["iv"]),
        decrypt=decrypt,
    )
    in_view = memoryview(bytearray(read_size))
    out_view = memoryview(bytearray(read_size + spec.tag_bytes + SLACK))
    with (
        open(job["input"], "rb", buffering=0) as fin,
        open(job["output"], "wb", buffering=0) as out,
    ):
        while n := fin.readinto(in_view):
            m = cipher.update(in_view[:n], out_view)
            out.write(out_view[:m])


def _container(job: dict[str, Any], decrypt: bool) -> None:
    from app.core.files.container import Argon2Params, decrypt_file, encrypt_file

    secret: dict[str, Any] = {"key": bytes.fromhex(job["key"])}
    if job.get("password"):
        secret = {"password": job["password"]}
    if decrypt:
        decrypt_file(job["input"], job["output"], **secret)
    else:
        kdf = Argon2Params(**job["argon2"]) if job.get("argon2") else None
        encrypt_file(
            job["input"],
            job["output"],
            cipher_id=job["cipher"],
            chunk_bytes=job["chunk"],
            kdf_params=kdf,
            **secret,
        )


def _kdf(job: dict[str, Any]) -> None:
    from app.core.files.container import DEFAULT_ARGON2
    from app.core.files.container_keys import argon2_master

    argon2_master(b"correct horse battery staple", os.urandom(16), DEFAULT_ARGON2)


def child(job: dict[str, Any]) -> dict[str, Any]:
    # Import everything the operation needs before the baseline is taken.
    import app.core.ciphers.adapters.cryptography_lib
    import app.core.files.container  # noqa: F401

    ops = {
        "reference-encrypt": lambda: _reference(job, decrypt=False),
        "reference-decrypt": lambda: _reference(job, decrypt=True),
        "container-encrypt": lambda: _container(job, decrypt=False),
        "container-decrypt": lambda: _container(job, decrypt=True),
        "kdf": lambda: _kdf(job),
    }
    run = ops[job["op"]]
    baseline_kib = _status_kib("VmRSS")
    exact = _reset_high_water_mark()
    started = time.perf_counter()
    run()
    seconds = time.perf_counter() - started
    peak_kib = _status_kib("VmHWM")
    return {
        "seconds": seconds,
        "peak_above_baseline_bytes": max(0, peak_kib - baseline_kib) * 1024,
        "baseline_bytes": baseline_kib * 1024,
        "peak_exact": exact,
    }


# --- the parent: plan, run, print ------------------------------------------------------------


def _run_child(job: dict[str, Any]) -> dict[str, Any]:
    # The key travels on stdin, never on a command line other users can read.
    done = subprocess.run(
        [sys.executable, __file__, "--child"],
        input=json.dumps(job),
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode:
        raise SystemExit(f"{job['op']} failed:\n{done.stderr}")
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def _make_input(path: Path, size: int) -> None:
    block = MIB
    with open(path, "wb") as f:
        left = size
        while left:
            n = min(block, left)
            f.write(os.urandom(n))
            left -= n


def _warm(path: Path) -> None:
    buf = bytearray(4 * MIB)
    with open(path, "rb", buffering=0) as f:
        while f.readinto(buf):
            pass


def _environment() -> str:
    from app.core.ciphers.adapters.cryptography_lib import openssl_version

    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(ln.split(":", 1)[1].strip() for ln in f if ln.startswith("model name"))
    except (OSError, StopIteration):
        pass
    import cryptography

    return (
        f"{cpu}, {os.cpu_count()} CPUs; Python {platform.python_version()}; "
        f"cryptography {cryptography.__version__} ({openssl_version()})"
    )


def _load() -> str:
    """Other processes share the CPUs; the load average says how much to trust the figures."""
    try:
        with open("/proc/loadavg") as f:
            return " ".join(f.read().split()[:3])
    except OSError:
        return "unknown"


def _row(label: str, size: int, results: list[dict[str, Any]]) -> tuple[float, int]:
    times = [r["seconds"] for r in results]
    best = min(times)
    peak = max(r["peak_above_baseline_bytes"] for r in results)
    median = statistics.median(times)
    print(
        f"  {label:<30} {best:8.3f} s {size / best / MB:9.1f} MB/s {size / best / MIB:9.1f} MiB/s"
        f"   (median {size / median / MB:7.1f} MB/s)   peak +{format_bytes(peak)}"
    )
    return best, peak


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", default="1GiB", help="file size (default 1GiB)")
    parser.add_argument("--dir", default=tempfile.gettempdir(), help="where the files go")
    parser.add_argument("--repeat", type=int, default=5, help="runs per operation (best counts)")
    parser.add_argument("--chunk", default="1MiB", help="chunk size, both loops (default 1MiB)")
    parser.add_argument("--cipher", default="aes-256-gcm")
    parser.add_argument("--kdf-runs", type=int, default=5)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(json.loads(sys.stdin.read()))))
        return 0

    size, chunk = parse_size(args.size), parse_size(args.chunk)
    folder = Path(tempfile.mkdtemp(prefix="cb-bench-", dir=args.dir))
    plain, ref_ct, cont_ct, out = (folder / n for n in ("plain", "ref.ct", "file.cbf", "out"))
    key, iv = os.urandom(32), os.urandom(12)
    base = {"cipher": args.cipher, "chunk": chunk, "key": key.hex(), "iv": iv.hex()}
    print(
        f"CipherBench container benchmark: {args.cipher}, {format_bytes(size)} "
        f"({size / MB:.0f} MB), chunk {format_bytes(chunk)}, best of {args.repeat}"
    )
    print(f"  {_environment()}")
    print(f"  files in {folder} (page cache warm; synced before each run, never inside one)")
    print(f"  load average before: {_load()}")
    try:
        _make_input(plain, size)
        _warm(plain)
        runs: dict[str, list[dict[str, Any]]] = {}
        ops = [
            ("reference-encrypt", plain, ref_ct),
            ("container-encrypt", plain, cont_ct),
            ("reference-decrypt", ref_ct, out),
            ("container-decrypt", cont_ct, out),
        ]
        for op, src, dst in ops[:2]:  # warm-up, discarded; makes the files the decrypts read
            _run_child({**base, "op": op, "input": str(src), "output": str(dst)})
        order = random.Random(4)
        for _ in range(args.repeat):
            # A fresh order every round: what ran before (a 1 GiB write, freed pages) skews the
            # next run, and a fixed order would always skew the same operation.
            for op, src, dst in order.sample(ops, len(ops)):
                dst.unlink(missing_ok=True)  # both loops create their output afresh
                os.sync()  # no dirty pages of the previous run slow this one down
                runs.setdefault(op, []).append(
                    _run_child({**base, "op": op, "input": str(src), "output": str(dst)})
                )
                out.unlink(missing_ok=True)
        runs = {op: runs[op] for op, _, _ in ops}
        exact = all(r["peak_exact"] for rs in runs.values() for r in rs)
        print(f"\n  {'operation':<30} {'best':>10} {'throughput':>14} {'':>15}")
        figures = {op: _row(op, size, rs) for op, rs in runs.items()}
        verdicts = []
        for direction in ("encrypt", "decrypt"):
            ratio = figures[f"reference-{direction}"][0] / figures[f"container-{direction}"][0]
            peak = figures[f"container-{direction}"][1]
            verdicts.append(
                f"  container {direction}: {ratio:6.1%} of stream mode (target >= 60 %: "
                f"{'met' if ratio >= RATIO_TARGET else 'MISSED'}); peak +{format_bytes(peak)} "
                f"(target < 64 MiB: {'met' if peak < PEAK_TARGET_BYTES else 'MISSED'})"
            )
        print("\n" + "\n".join(verdicts))
        if not exact:
            print(
                "  (peak memory: the high-water mark could not be reset; figures include imports)"
            )

        from app.core.files.container import DEFAULT_ARGON2

        kdf_runs = [_run_child({**base, "op": "kdf"}) for _ in range(args.kdf_runs)]
        kdf_times = sorted(r["seconds"] for r in kdf_runs)
        a = DEFAULT_ARGON2
        print(
            f"\n  KDF Argon2id default ({a.memory_kib // 1024} MiB, {a.iterations} passes, "
            f"{a.lanes} lanes): median {statistics.median(kdf_times):.3f} s, "
            f"min {kdf_times[0]:.3f} s, max {kdf_times[-1]:.3f} s over {args.kdf_runs} runs; "
            f"peak +{format_bytes(max(r['peak_above_baseline_bytes'] for r in kdf_runs))}"
        )
        cont_ct.unlink()
        pw = _run_child(
            {
                **base,
                "op": "container-encrypt",
                "input": str(plain),
                "output": str(cont_ct),
                "password": "correct horse battery staple",
            }
        )
        pw_peak = format_bytes(pw["peak_above_baseline_bytes"])
        print(f"  load average after: {_load()}")
        print(
            f"  container encrypt with a password (KDF included): {pw['seconds']:.3f} s, "
            f"{size / pw['seconds'] / MB:.1f} MB/s, peak +{pw_peak}"
        )
    finally:
        for path in folder.iterdir():
            path.unlink()
        folder.rmdir()
    return 0


if __name__ == "__main__":
    sys.exit(main())
