"""Engine overhead and memory, against a bare loop of the same library call.

    python benchmarks/bench_engine.py [--size 256MiB] [--stream-size 2GiB] [--repeat 5]

Prints, for aes-256-gcm, aes-256-ctr, aes-256-cbc and chacha20-poly1305 (cryptography and
pycryptodome), both directions:
- the engine's median throughput in memory mode (a real run: worker process, warm-up, verify);
- a bare loop of the same library call into a preallocated, pre-touched buffer, in this process;
- their ratio (target >= 90 %), and `openssl speed -evp` at 1 MiB blocks when openssl exists;
- the engine's peak resident memory above the worker's baseline, as a multiple of the input
  (target <= 2x + 32 MiB; about 1x where the library works in place);
and a stream-mode run on a large file (target: peak <= 64 MiB above baseline).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from app.core.bench.events import JobFailed
from app.core.bench.inputs import cleanup_generated, generated_input
from app.core.bench.jobs import BenchOptions
from app.core.bench.plan import make_jobs
from app.core.bench.runner import BenchmarkRun
from app.core.bench.workloads import touch_pages
from app.core.ciphers.registry import lookup
from app.core.runtime.events import Finished, Outcome
from app.core.units import MB, MIB, parse_size

CASES = [
    ("aes-256-gcm", "cryptography"),
    ("aes-256-ctr", "cryptography"),
    ("aes-256-cbc", "cryptography"),
    ("chacha20-poly1305", "cryptography"),
    ("aes-256-gcm", "pycryptodome"),
    ("aes-256-ctr", "pycryptodome"),
    ("aes-256-cbc", "pycryptodome"),
    ("chacha20-poly1305", "pycryptodome"),
]


def bare_loop(cipher_id: str, library: str, data: bytearray, repeat: int) -> tuple[float, float]:
    """Median MB/s (encrypt, decrypt) of the bare library call into preallocated buffers."""
    n = len(data)
    key = os.urandom(32)
    nonce = os.urandom(12)
    iv = os.urandom(16)
    src = memoryview(data)
    ct = bytearray(n + 64)
    pt = bytearray(n + 64)
    touch_pages(ct)
    touch_pages(pt)
    ctv, ptv = memoryview(ct), memoryview(pt)
    if library == "cryptography":
        from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
        from cryptography.hazmat.primitives.ciphers.aead import AESGCM, ChaCha20Poly1305

        if cipher_id in ("aes-256-gcm", "chacha20-poly1305"):
            aead = AESGCM(key) if cipher_id == "aes-256-gcm" else ChaCha20Poly1305(key)

            def enc() -> None:
                aead.encrypt_into(nonce, src, None, ctv[: n + 16])

            def dec() -> None:
                aead.decrypt_into(nonce, ctv[: n + 16], None, ptv[:n])
        else:
            mode = modes.CTR(iv) if cipher_id == "aes-256-ctr" else modes.CBC(iv)
            cipher = Cipher(algorithms.AES(key), mode)
            ctxs: dict[str, object] = {}

            def enc() -> None:
                ctxs["e"].update_into(src, ctv)  # type: ignore[attr-defined]

            def dec() -> None:
                ctxs["d"].update_into(ctv[:n], ptv)  # type: ignore[attr-defined]

            def fresh() -> None:
                ctxs["e"], ctxs["d"] = cipher.encryptor(), cipher.decryptor()
    else:
        from Crypto.Cipher import AES, ChaCha20_Poly1305

        def new():  # type: ignore[no-untyped-def]
            if cipher_id == "aes-256-gcm":
                return AES.new(key, AES.MODE_GCM, nonce=nonce)
            if cipher_id == "chacha20-poly1305":
                return ChaCha20_Poly1305.new(key=key, nonce=nonce)
            if cipher_id == "aes-256-ctr":
                return AES.new(key, AES.MODE_CTR, nonce=b"", initial_value=iv)
            return AES.new(key, AES.MODE_CBC, iv=iv)

        ctxs = {}

        def fresh() -> None:
            ctxs["e"], ctxs["d"] = new(), new()

        def enc() -> None:
            ctxs["e"].encrypt(src, output=ctv[:n])  # type: ignore[attr-defined]

        def dec() -> None:
            ctxs["d"].decrypt(ctv[:n], output=ptv[:n])  # type: ignore[attr-defined]

    if library == "cryptography" and cipher_id in ("aes-256-gcm", "chacha20-poly1305"):

        def fresh() -> None:
            pass

    times: dict[str, list[float]] = {"e": [], "d": []}
    for i in range(repeat + 1):  # first round is the warm-up
        fresh()
        t0 = time.perf_counter_ns()
        enc()
        t1 = time.perf_counter_ns()
        dec()
        t2 = time.perf_counter_ns()
        if i:
            times["e"].append((t1 - t0) / 1e9)
            times["d"].append((t2 - t1) / 1e9)
    if bytes(ptv[:4096]) != bytes(src[:4096]):
        raise SystemExit(f"bare loop {cipher_id} {library} did not round-trip")
    return n / statistics.median(times["e"]) / MB, n / statistics.median(times["d"]) / MB


def openssl_speed(cipher_id: str, decrypt: bool) -> float | None:
    """`openssl speed -evp` MB/s at 1 MiB blocks, or None."""
    exe = shutil.which("openssl")
    if not exe:
        return None
    cmd = [exe, "speed", "-evp", cipher_id, "-bytes", str(MIB), "-seconds", "2"]
    if decrypt:
        cmd.insert(2, "-decrypt")
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=60).stdout
    except (OSError, subprocess.TimeoutExpired):
        return None
    last = [ln for ln in out.splitlines() if ln.strip()][-1:] or [""]
    m = re.search(r"([\d.]+)k\s*$", last[0])
    return float(m.group(1)) * 1000 / MB if m else None  # openssl prints 1000s of bytes/s


def engine_runs(
    cases: list[tuple[str, str]],
    path_spec,
    opts: BenchOptions,  # type: ignore[no-untyped-def]
):  # type: ignore[no-untyped-def]
    specs = [lookup(c, lib) for c, lib in cases]
    results = {}
    for ev in BenchmarkRun(make_jobs(specs, path_spec, opts), environment=False).events():
        if isinstance(ev, Outcome) and isinstance(ev.value, JobFailed):
            print("FAILED", ev.value.message)
        if isinstance(ev, Finished):
            for r in ev.result.results:
                results[(r.cipher, r.library)] = r
    return results


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--size", default="256MiB")
    ap.add_argument("--stream-size", default="2GiB", help="0 to skip the stream-mode run")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--rounds", type=int, default=3, help="alternating engine/bare rounds")
    args = ap.parse_args()
    size = parse_size(args.size)
    print(
        f"input {size:,} bytes ({size / MIB:.0f} MiB), {args.repeat} repetitions x "
        f"{args.rounds} alternating rounds, medians; MB/s = 10^6 bytes/s; memory: worst round"
    )
    inp = generated_input(size)
    try:
        with open(inp.path, "rb") as fh:
            data = bytearray(fh.read())
        rows = []
        for cipher_id, lib in CASES:
            # Engine job and bare loop alternate, several rounds, so both meet the same machine
            # states; a shared VM drifts by 10-20 % within a minute.
            ee, ed, be, bd, above = [], [], [], [], []
            for _ in range(args.rounds):
                engine = engine_runs([(cipher_id, lib)], inp, BenchOptions(repeat=args.repeat))
                r = engine[(cipher_id, lib)]
                ee.append(r.encrypt.throughput_mb_s)
                ed.append(r.decrypt.throughput_mb_s)
                above.append((r.peak_rss_bytes - r.baseline_rss_bytes) / size)
                e, d = bare_loop(cipher_id, lib, data, args.repeat)
                be.append(e)
                bd.append(d)
            med = statistics.median
            rows.append((cipher_id, lib, med(ee), med(be), med(ed), med(bd), max(above)))
        del data
        print(
            f"\n{'cipher':<18} {'library':<13} {'dir':<4} {'engine':>9} {'bare':>9} "
            f"{'ratio':>6} {'openssl':>9}   mem above baseline"
        )
        for cipher_id, lib, ee, be, ed, bd, above in rows:
            for d, eng, bare in (("enc", ee, be), ("dec", ed, bd)):
                ossl = openssl_speed(cipher_id, d == "dec") if lib == "cryptography" else None
                o = f"{ossl:9.0f}" if ossl else f"{'-':>9}"
                mem = f"{above:.2f} x input" if d == "enc" else ""
                print(
                    f"{cipher_id:<18} {lib:<13} {d:<4} {eng:9.0f} {bare:9.0f} "
                    f"{100 * eng / bare:5.0f}% {o}   {mem}"
                )
    finally:
        cleanup_generated(inp)

    stream_size = parse_size(args.stream_size)
    if stream_size:
        print(
            f"\nstream mode, {stream_size / MIB:.0f} MiB, 1 MiB chunks, aes-256-gcm "
            "(cryptography), 1 repetition:"
        )
        big = generated_input(stream_size)
        try:
            res = engine_runs(
                [("aes-256-gcm", "cryptography")],
                big,
                BenchOptions(repeat=1, warmup=0, data_mode="stream"),
            )
            r = res[("aes-256-gcm", "cryptography")]
            above = (r.peak_rss_bytes - r.baseline_rss_bytes) / MIB
            print(
                f"  encrypt {r.encrypt.throughput_mb_s:.0f} MB/s, decrypt "
                f"{r.decrypt.throughput_mb_s:.0f} MB/s (read + encrypt + write), peak "
                f"{above:.1f} MiB above a {r.baseline_rss_bytes / MIB:.0f} MiB baseline"
            )
        finally:
            cleanup_generated(big)


if __name__ == "__main__":
    main()
