"""JSON, CSV and Excel exports of a hand-built RunResult, and the atomic dispatcher."""

from __future__ import annotations

import csv
import dataclasses
import json
import os
import re
import shutil
import statistics
import subprocess
from pathlib import Path

import factories
import pytest
from json_contract import RESULT_KEYS
from openpyxl import load_workbook

from app.core.bench.results import JobResult, MonitorSample, RunResult
from app.core.errors import UserError
from app.core.export import writers as exporters
from app.core.export.csv_export import CSV_COLUMNS
from app.core.export.json_export import FORMAT, VERSION, read_json, write_json
from app.core.export.xlsx_export import RESULT_COLUMNS, column_index, job_labels
from app.core.kinds import formats
from app.core.kinds.formats import save as export
from app.core.runtime import scratch
from app.core.runtime.envelope import EntryFailure

MB_10 = 10_000_000


def make_job(
    cipher: str,
    library: str,
    key_bits: int,
    mode: str,
    enc: list[float],
    dec: list[float],
    *,
    input_label: str = "random-10MB.bin",
    input_bytes: int = MB_10,
    output_bytes: int | None = None,
    warnings: tuple[str, ...] = (),
    monitor: tuple[MonitorSample, ...] = (),
    peak: int | None = 80_000_000,
) -> JobResult:
    return factories.job_result(
        cipher=cipher,
        library=library,
        key_bits=key_bits,
        mode=mode,
        enc_s=enc,
        dec_s=dec,
        enc_warmup_s=[enc[0] * 3],
        dec_warmup_s=[dec[0] * 3],
        input_label=input_label,
        input_bytes=input_bytes,
        output_bytes=output_bytes,
        peak_rss=peak,
        baseline_rss=50_000_000,
        python_peak=20_000_000,
        key_setup_s=(2e-6, 1e-6, 3e-6),
        warnings=warnings,
        monitor=monitor,
    )


ENVIRONMENT = {
    "cpu": {"model": "Test CPU", "features": {"aes": True, "avx2": False}, "logical_cores": 8},
    "os": {"platform": "Linux-test"},
    "packages": {"cryptography": "50.0.2", "pyaes": None},
    "cipherbench_version": "0.1.0",
}


@pytest.fixture
def run() -> RunResult:
    jobs = (
        make_job(
            "aes-128-cbc",
            "cryptography",
            128,
            "CBC",
            [0.010, 0.011, 0.012],
            [0.009, 0.010, 0.013],
            monitor=(MonitorSample(0.05, 100.0, 60_000_000), MonitorSample(0.1, 98.0, 61_000_000)),
        ),
        make_job(
            "aes-256-gcm",
            "pycryptodome",
            256,
            "GCM",
            [0.020, 0.021, 0.025],
            [0.022, 0.024, 0.023],
            warnings=("encrypt: unstable samples", "decrypt: the first run was slow"),
        ),
        make_job(
            "aes-128-ctr",
            "pyaes",
            128,
            "CTR",
            [1.5, 1.6, 1.4],
            [1.45, 1.55, 1.5],
            input_label='=HYPERLINK("x")\x01.txt',  # must stay text, control char shown
            output_bytes=MB_10,
            peak=None,
        ),
    )
    return RunResult(
        results=jobs,
        failures=(EntryFailure("blowfish-ecb", "pyaes", "pyaes does not implement Blowfish"),),
        environment=ENVIRONMENT,
        options={"repetitions": 3, "warmup": 1, "sizes": [MB_10]},
        started_at="2026-01-01T10:00:00+00:00",
        finished_at="2026-01-01T10:01:00+00:00",
        tool={"name": "CipherBench", "version": "0.1.0"},
    )


# ---- JSON ---------------------------------------------------------------------------------


def test_json_round_trip(run: RunResult, tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    write_json(run, path)
    doc = read_json(path)
    assert doc["format"] == FORMAT and doc["version"] == VERSION
    assert doc["environment"] == ENVIRONMENT
    assert doc["options"]["sizes"] == [MB_10]
    assert len(doc["results"]) == 3
    assert doc["failures"] == [
        {
            "cipher": "blowfish-ecb",
            "library": "pyaes",
            "message": "pyaes does not implement Blowfish",
        }
    ]
    for got, job in zip(doc["results"], run.results, strict=True):
        assert got.keys() >= RESULT_KEYS
        for direction in ("encrypt", "decrypt"):
            d = got[direction]
            stats = getattr(job, direction)
            assert d["samples_s"] == list(stats.samples_s)
            assert d["warmup_s"] == list(stats.warmup_s)
            assert d["median_s"] == stats.median_s
            assert d["throughput_mb_s"] == pytest.approx(job.input_bytes / stats.median_s / 1e6)
        assert got["warnings"] == list(job.warnings)
    first = doc["results"][0]
    assert first["encrypt"]["median_s"] == 0.011
    assert first["encrypt"]["throughput_mb_s"] == pytest.approx(10_000_000 / 0.011 / 1e6)
    assert first["monitor"] == [
        {"t_s": 0.05, "cpu_percent": 100.0, "rss_bytes": 60_000_000},
        {"t_s": 0.1, "cpu_percent": 98.0, "rss_bytes": 61_000_000},
    ]
    assert doc["results"][2]["peak_rss_bytes"] is None
    # Plain JSON a strict reader accepts (no NaN), indented by 2.
    text = path.read_text(encoding="utf-8")
    assert text.startswith('{\n  "format": "cipherbench-results"')
    json.loads(text, parse_constant=lambda c: pytest.fail(f"non-standard constant {c}"))


def test_json_nan_becomes_null(run: RunResult, tmp_path: Path) -> None:
    job = run.results[0]
    odd = dataclasses.replace(job, cpu_percent=float("nan"))
    path = tmp_path / "nan.json"
    write_json(RunResult((odd,), (), {}, {}, "a", "b"), path)
    assert read_json(path)["results"][0]["cpu_percent"] is None


def test_xlsx_nan_becomes_empty_cell(run: RunResult, tmp_path: Path) -> None:
    odd = dataclasses.replace(run.results[0], cpu_percent=float("nan"))
    path = export(dataclasses.replace(run, results=(odd,)), tmp_path / "nan.xlsx")
    ws = load_workbook(path)["Results"]
    headers = [c.value for c in ws[1]]
    assert ws.cell(2, headers.index("CPU (% of one core)") + 1).value is None


def test_json_has_no_key_material(run: RunResult, tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    write_json(run, path)
    text = path.read_text(encoding="utf-8").lower()
    assert '"key"' not in text and '"iv"' not in text and '"nonce"' not in text


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("not json", "is not a JSON file"),
        ('{"results": []}', "is not a CipherBench results file"),
        ("[1, 2]", "is not a CipherBench results file"),
        ('{"format": "cipherbench-results"}', "no valid results format version"),
        ('{"format": "cipherbench-results", "version": 99}', "newer CipherBench"),
    ],
)
def test_read_json_rejects(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(UserError, match=message):
        read_json(path)


def test_read_json_missing_file(tmp_path: Path) -> None:
    with pytest.raises(UserError, match="cannot read"):
        read_json(tmp_path / "nope.json")


# ---- CSV ----------------------------------------------------------------------------------


def test_csv_read_back(run: RunResult, tmp_path: Path) -> None:
    path = export(run, tmp_path / "r.csv")
    with open(path, newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f)
        assert tuple(reader.fieldnames or ()) == CSV_COLUMNS
        rows = list(reader)
    assert len(rows) == 4  # three jobs and one failure
    for row, job in zip(rows[:3], run.results, strict=True):
        assert row["cipher"] == job.cipher
        assert row["library"] == job.library
        assert int(row["key_bits"]) == job.key_bits
        assert int(row["input_bytes"]) == job.input_bytes
        assert int(row["output_bytes"]) == job.output_bytes
        assert row["verified"] == "true"
        assert float(row["enc_median_s"]) == job.encrypt.median_s
        assert float(row["dec_median_s"]) == job.decrypt.median_s
        assert float(row["enc_throughput_mb_s"]) == job.encrypt.throughput_mb_s
        assert float(row["dec_throughput_mib_s"]) == job.decrypt.throughput_mib_s
        assert float(row["enc_iqr_s"]) == job.encrypt.iqr_s
        assert float(row["key_setup_median_s"]) == statistics.median(job.key_setup_s)
        assert int(row["repetitions"]) == 3
        assert float(row["cpu_percent"]) == 99.5
        assert row["ciphertext_preview_hex"] == job.ciphertext_preview_hex
        assert row["warnings"] == " | ".join(job.warnings)
    first = rows[0]
    assert float(first["enc_median_s"]) == 0.011
    assert float(first["enc_throughput_mb_s"]) == pytest.approx(909.0909, rel=1e-6)
    assert int(first["memory_above_baseline_bytes"]) == 30_000_000
    assert rows[1]["warnings"] == "encrypt: unstable samples | decrypt: the first run was slow"
    assert rows[2]["peak_rss_bytes"] == "" and rows[2]["memory_above_baseline_bytes"] == ""
    failure = rows[3]
    assert failure["cipher"] == "blowfish-ecb"
    assert failure["warnings"] == "failed: pyaes does not implement Blowfish"
    assert failure["enc_median_s"] == "" and failure["verified"] == ""


# ---- XLSX ---------------------------------------------------------------------------------


def test_xlsx_sheets_values_and_layout(run: RunResult, tmp_path: Path) -> None:
    path = export(run, tmp_path / "r.xlsx")
    wb = load_workbook(path)
    assert wb.sheetnames == ["Results", "Charts", "Failures", "Samples", "Monitor", "Environment"]

    ws = wb["Results"]
    headers = [c.value for c in ws[1]]
    assert headers == [c.header for c in RESULT_COLUMNS]
    assert "Enc. throughput (MB/s)" in headers and "Enc. median (s)" in headers
    assert ws.freeze_panes == "B2"
    assert ws.auto_filter.ref == f"A1:{ws.cell(1, len(headers)).column_letter}4"
    by_header = {h: i + 1 for i, h in enumerate(headers)}
    for r, job in enumerate(run.results, start=2):
        assert ws.cell(r, by_header["Cipher"]).value == job.cipher
        assert ws.cell(r, by_header["Key (bits)"]).value == job.key_bits
        assert ws.cell(r, by_header["Original size (bytes)"]).value == job.input_bytes
        assert ws.cell(r, by_header["Verified"]).value is True
        assert ws.cell(r, by_header["Enc. median (s)"]).value == job.encrypt.median_s
        assert ws.cell(r, by_header["Dec. throughput (MB/s)"]).value == pytest.approx(
            job.decrypt.throughput_mb_s
        )
    assert ws.cell(2, by_header["Enc. median (s)"]).number_format == "0.000000"
    assert ws.cell(2, by_header["Peak RSS (bytes)"]).number_format == "#,##0"
    assert ws.cell(2, by_header["Enc. throughput (MB/s)"]).number_format == "#,##0.00"
    assert ws.cell(2, 1).value == "aes-128-cbc [cryptography]"
    # A user-chosen file name that looks like a formula is stored as text.
    label = ws.cell(4, by_header["Input"])
    assert label.value == r'=HYPERLINK("x")\x01.txt' and label.data_type == "s"
    assert ws.column_dimensions["A"].width >= len("aes-256-gcm [pycryptodome]")
    assert "failed" in str(ws.cell(6, 1).value)

    failures = wb["Failures"]
    assert [c.value for c in failures[2]] == [
        "blowfish-ecb",
        "pyaes",
        "pyaes does not implement Blowfish",
    ]

    samples = wb["Samples"]
    rows = list(samples.iter_rows(min_row=2, values_only=True))
    # per job: 1+3 encrypt, 1+3 decrypt, 3 key setup
    assert len(rows) == 3 * 11
    assert rows[0] == (
        "aes-128-cbc [cryptography]",
        "aes-128-cbc",
        "cryptography",
        "random-10MB.bin",
        "encrypt",
        "warm-up",
        1,
        pytest.approx(0.03),
    )
    timed = [
        r[7]
        for r in rows
        if r[0] == "aes-128-cbc [cryptography]" and r[4] == "decrypt" and r[5] == "timed"
    ]
    assert timed == [0.009, 0.010, 0.013]
    assert samples.cell(2, 8).number_format == "0.000000000"

    monitor = list(wb["Monitor"].iter_rows(min_row=2, values_only=True))
    assert monitor == [
        ("aes-128-cbc [cryptography]", 0.05, 100.0, 60_000_000),
        ("aes-128-cbc [cryptography]", 0.1, 98.0, 61_000_000),
    ]

    env = {k: v for k, v in wb["Environment"].iter_rows(min_row=2, values_only=True)}
    assert env["environment.cpu.model"] == "Test CPU"
    assert env["environment.cpu.features.aes"] is True
    assert env["environment.packages.pyaes"] is None
    assert env["options.sizes"] == str(MB_10)
    assert env["run.started_at"] == "2026-01-01T10:00:00+00:00"
    assert env["tool.version"] == "0.1.0"


def test_xlsx_charts_reference_the_data(run: RunResult, tmp_path: Path) -> None:
    path = export(run, tmp_path / "r.xlsx")
    for wb in (load_workbook(path),):
        charts = wb["Charts"]._charts
        assert len(charts) == 2
        expected = [
            ("enc_throughput_mb_s", "dec_throughput_mb_s", "Throughput (MB/s)"),
            ("enc_median_s", "dec_median_s", "Median time (s)"),
        ]
        for chart, (enc_key, dec_key, y_title) in zip(charts, expected, strict=True):
            assert chart.tagname == "barChart"
            assert len(chart.series) == 2
            for series, key in zip(chart.series, (enc_key, dec_key), strict=True):
                col = wb["Results"].cell(1, column_index(key)).column_letter
                assert series.val.numRef.f == f"'Results'!${col}$2:${col}$4"
                # the bars' labels: short (the one library said once), beside the charts
                assert series.cat.strRef.f == "'Charts'!$AN$2:$AN$4"
            titles = [s.tx.strRef.f if s.tx.strRef else s.tx.v for s in chart.series]
            assert titles == ["Encryption", "Decryption"]
            shown = _title_text(chart.y_axis.title)
            assert shown in (y_title, f"{y_title} (log scale)")  # the window's rule: 10x
            assert (chart.y_axis.scaling.logBase == 10) == shown.endswith("(log scale)")
            assert _title_text(chart.x_axis.title) == "Job"
            assert chart.x_axis.delete is False and chart.y_axis.delete is False
            assert chart.legend is not None
        shown = [wb["Charts"].cell(2 + n, 40).value for n in range(3)]
        libraries = {j.library for j in run.results}
        assert all(len(libraries) > 1 or "[" not in label for label in shown), shown


def test_xlsx_axes_not_deleted_in_xml(run: RunResult, tmp_path: Path) -> None:
    """What Excel and LibreOffice read: <c:delete val="0"/> on both axes of both charts."""
    import zipfile

    path = export(run, tmp_path / "r.xlsx")
    with zipfile.ZipFile(path) as z:
        charts = sorted(n for n in z.namelist() if n.startswith("xl/charts/chart"))
        assert len(charts) == 2
        for name in charts:
            xml = z.read(name).decode()
            assert len(re.findall(r'<(?:c:)?delete val="0"\s*/>', xml)) == 2, name
            assert not re.search(r'<(?:c:)?delete val="1"', xml)


def test_xlsx_without_results_or_failures(tmp_path: Path) -> None:
    empty = RunResult((), (), {}, {}, "a", "b", cancelled=True)
    path = export(empty, tmp_path / "empty.xlsx")
    wb = load_workbook(path)
    assert wb.sheetnames == ["Results", "Charts", "Samples", "Environment"]
    assert wb["Charts"]._charts == []
    assert wb["Charts"]["A1"].value == "No results to chart."
    assert wb["Results"].max_row >= 3


def test_job_labels_unique() -> None:
    a = make_job("aes-128-cbc", "cryptography", 128, "CBC", [1.0], [1.0], input_label="a.txt")
    b = make_job("aes-128-cbc", "cryptography", 128, "CBC", [1.0], [1.0], input_label="b.pdf")
    c = make_job("aes-128-ctr", "pyaes", 128, "CTR", [1.0], [1.0])
    assert job_labels([a, b, c]) == [
        "aes-128-cbc [cryptography], a.txt",
        "aes-128-cbc [cryptography], b.pdf",
        "aes-128-ctr [pyaes]",
    ]
    assert job_labels([a, a]) == ["aes-128-cbc [cryptography] #1", "aes-128-cbc [cryptography] #2"]


def _title_text(title: object) -> str:
    rich = title.tx.rich  # type: ignore[attr-defined]
    return "".join(run.t for p in rich.p for run in (p.r or []))


@pytest.mark.skipif(shutil.which("soffice") is None, reason="LibreOffice is not installed")
def test_xlsx_charts_render_in_libreoffice(run: RunResult, tmp_path: Path) -> None:
    path = export(run, tmp_path / "r.xlsx")
    subprocess.run(
        ["soffice", "--headless", "--convert-to", "pdf", "--outdir", str(tmp_path), str(path)],
        check=True,
        capture_output=True,
        timeout=120,
    )
    assert (tmp_path / "r.pdf").stat().st_size > 10_000


# ---- dispatcher ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["r.json", "r.csv", "r.xlsx", "R.XLSX"])
def test_export_by_extension(run: RunResult, tmp_path: Path, name: str) -> None:
    path = export(run, str(tmp_path / name))
    assert path == tmp_path / name and path.stat().st_size > 0
    assert os.listdir(tmp_path) == [name]  # no temporary file left


def test_export_replaces_existing_file(run: RunResult, tmp_path: Path) -> None:
    target = tmp_path / "r.json"
    target.write_text("old", encoding="utf-8")
    target.chmod(0o640)
    export(run, target)
    assert read_json(target)["format"] == FORMAT
    assert target.stat().st_mode & 0o777 == 0o640
    assert os.listdir(tmp_path) == ["r.json"]


def test_export_new_file_is_not_private(run: RunResult, tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        path = export(run, tmp_path / "r.csv")
    finally:
        os.umask(old)
    assert path.stat().st_mode & 0o777 == 0o644


@pytest.mark.parametrize("name", ["r.txt", "r.xls", "results", "r.json.bak"])
def test_export_unknown_extension(run: RunResult, tmp_path: Path, name: str) -> None:
    with pytest.raises(UserError, match=r"not supported; use \.xlsx, \.csv, \.json"):
        export(run, tmp_path / name)
    assert os.listdir(tmp_path) == []


def test_export_missing_folder(run: RunResult, tmp_path: Path) -> None:
    target = tmp_path / "missing" / "r.json"
    with pytest.raises(UserError, match=r"cannot write .*r\.json: the folder .* does not exist"):
        export(run, target)
    assert os.listdir(tmp_path) == []


def test_export_path_is_a_folder(run: RunResult, tmp_path: Path) -> None:
    folder = tmp_path / "out.xlsx"
    folder.mkdir()
    with pytest.raises(UserError, match=r"cannot write .*out\.xlsx: it is a folder"):
        export(run, folder)
    assert os.listdir(tmp_path) == ["out.xlsx"] and os.listdir(folder) == []


@pytest.mark.skipif(
    not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root ignores permissions"
)
def test_export_read_only_folder(run: RunResult, tmp_path: Path) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        with pytest.raises(UserError, match=r"cannot write .*: permission denied"):
            export(run, folder / "r.csv")
        assert os.listdir(folder) == []
    finally:
        folder.chmod(0o700)


def broken_writer(run: RunResult, path: Path) -> None:
    path.write_bytes(b"partial")
    raise OSError(28, "No space left on device")


@pytest.mark.parametrize("ext", [".json", ".csv", ".xlsx"])
def test_export_failure_mid_write_leaves_nothing(
    run: RunResult, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ext: str
) -> None:
    """A writer that dies halfway (disk full, a bug): no temp file, the old file untouched."""
    target = tmp_path / f"r{ext}"
    target.write_bytes(b"previous results")

    broken = formats.Format(ext, "broken", f"{__name__}:broken_writer")
    bench = dataclasses.replace(formats.BENCH, formats=(broken,))
    monkeypatch.setattr(formats, "BENCH", bench)  # the kinds' table reads it by name
    with pytest.raises(UserError, match=rf"cannot write .*r\{ext}: no space left on device"):
        export(run, target)
    assert os.listdir(tmp_path) == [target.name]
    assert target.read_bytes() == b"previous results"


def test_export_replace_failure_leaves_nothing(
    run: RunResult, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def deny(*args: object, **kwargs: object) -> None:
        raise PermissionError(13, "Permission denied")

    # The final step that names the output: a link (unnamed file) or a rename (named one).
    monkeypatch.setattr(exporters.os, "replace", deny)
    monkeypatch.setattr(exporters.os, "link", deny)
    with pytest.raises(UserError, match="permission denied"):
        export(run, tmp_path / "r.xlsx")
    assert os.listdir(tmp_path) == []


def test_openpyxl_s_sheet_files_live_in_the_scratch_folder(
    run: RunResult, tmp_path: Path, scratch_tmp: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """openpyxl writes each sheet to a temporary file while it saves; a SIGKILL then would
    leave it in the system's temp folder for good. In the scratch folder the janitor deletes
    it (app.core.runtime.scratch)."""
    from openpyxl.worksheet import _writer

    made: list[str] = []
    ours = _writer.create_temporary_file

    def spy(suffix: str = "") -> str:
        made.append(ours(suffix))
        return made[-1]

    monkeypatch.setattr(_writer, "create_temporary_file", spy)
    export(run, tmp_path / "r.xlsx")
    assert made and all(Path(name).parent == scratch.root() for name in made)
    assert not [p for p in scratch_tmp.iterdir() if p.name.startswith("openpyxl.")]
