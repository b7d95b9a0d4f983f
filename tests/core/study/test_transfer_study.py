"""Transfer studies (``workload = "transfer"``, seed 004): every cipher on every input sent over
loopback by real processes, the cipher study's events, the tables, claims and files in seed
004's shape; a vanished file fails its cells, a cancel keeps what finished."""

from __future__ import annotations

import csv
import json
import zipfile
from dataclasses import replace
from pathlib import Path

import pytest
from leftovers import spawned_children
from vocabulary import records
from vocabulary import result as run_result

from app.core.errors import UserError
from app.core.kinds.formats import save
from app.core.runtime.events import Progress, result_of
from app.core.study.definition import CipherChoice, SizeInput, Study, parse_sizes, study_with
from app.core.study.presets import find_study
from app.core.study.steps import CellFailed, CellFinished, StepStarted
from app.core.study.transfer_result import TransferStudyResult
from app.core.study.transfer_runner import TransferStudyRun


def _study(**changes: object) -> Study:
    study = Study(
        "t",
        (CipherChoice("aes-256-gcm"), CipherChoice("none")),
        workload="transfer",
        sizes=(SizeInput("10 KB", 10_000), SizeInput("64 KiB", 65_536)),
        chunk_bytes=16_384,
        repeat=2,
        warmup=0,
        rounds=2,
        max_rounds=2,
    )
    return replace(study, **changes).validate()  # type: ignore[arg-type]


def _children() -> list[int]:
    return [p.pid for p in spawned_children()]


def _run(study: Study, **kwargs: object) -> tuple[list[object], TransferStudyResult]:
    vocabulary = list(TransferStudyRun(study, environment=False, **kwargs).events())  # type: ignore[arg-type]
    final = run_result(vocabulary)
    assert isinstance(final, TransferStudyResult)
    readings = [e for e in vocabulary if isinstance(e, Progress) and e.note == "transfer"]
    return [*records(vocabulary), *readings], final


@pytest.fixture(scope="module")
def ran() -> tuple[list[object], TransferStudyResult]:
    """One run of the small study, read by the tests that only read it (real transfers take
    about 2 s a run), its ends threads of this process (tests/transfers_here.py)."""
    from transfers_here import transfers_here

    with transfers_here():
        return _run(_study())


def test_every_cipher_on_every_input_with_the_study_events(ran):
    events, result = ran
    finished = [e for e in events if isinstance(e, CellFinished)]
    assert [(e.cell.cipher_label, e.cell.input_label) for e in finished] == [
        ("aes-256-gcm (cryptography)", "10 KB"),
        ("none", "10 KB"),
        ("aes-256-gcm (cryptography)", "64 KiB"),
        ("none", "64 KiB"),
    ]
    assert any(isinstance(e, Progress) and 0 < e.fraction < 1 for e in events)
    assert len(result.results) == 4 and not result.failures and not result.cancelled
    # Two rounds, each cell's a fresh sender and receiver with one timed run.
    assert all(r.verified and r.round_sizes == (1, 1) for r in result.results)
    assert result.rounds_completed == 2 and "2 interleaved rounds" in result.how_run()
    assert all(c.comparison.rounds == 2 for c in result.comparisons)
    assert {f.cipher_label for f in result.fits if f.fit is not None} == {
        "aes-256-gcm (cryptography)",
        "none",
    }
    assert len(result.comparisons) == 2  # one pair per input
    assert not _children()
    # It loads back as it was (statistics, fits and comparisons derived again from the times).
    back = TransferStudyResult.from_dict(json.loads(json.dumps(result.to_dict())))
    assert back.to_dict() == result.to_dict()


def test_the_files_have_seed_004s_table_and_charts(ran, tmp_path: Path):
    _events, result = ran
    for ext in (".json", ".csv", ".xlsx", ".html"):
        save(result, tmp_path / f"r{ext}")
    doc = json.loads((tmp_path / "r.json").read_text())
    assert doc["format"] == "cipherbench-study" and doc["workload"] == "transfer"
    assert doc["results"][0]["sender"]["cpu_percent"] >= 0
    rows = list(csv.reader((tmp_path / "r.csv").read_text().splitlines()))
    assert rows[0][:4] == ["Cipher", "Input", "Size (bytes)", "Total time (s)"]
    assert "Receiver memory above baseline (MiB)" in rows[0] and len(rows) == 5
    with zipfile.ZipFile(tmp_path / "r.xlsx") as z:
        charts = [n for n in z.namelist() if n.startswith("xl/charts/chart")]
    assert len(charts) == 4  # time, throughput, memory, CPU against size
    html = (tmp_path / "r.html").read_text()
    assert html.count("<svg") == 4 and "first byte sent to the last byte" in html
    assert "64 KiB" in html and "1 MiB = 2²⁰ bytes" in html  # the size as the study wrote it
    assert "the paper's own value" not in html  # nothing published


def test_the_html_charts_draw_the_papers_transfer_values(ran):
    from app.core.study.published import PublishedFigure
    from app.core.study.transfer_report import html

    _events, result = ran
    published = (
        PublishedFigure("AES-GCM", "10 KB", "transfer_s", 5.0, "ms", ("aes-256-gcm",)),
        PublishedFigure("AES-GCM", "64 KiB", "transfer_rate", 3.0, "MiB/s", ("aes-256-gcm",)),
    )
    page = html(replace(result, study=replace(result.study, published=published)))
    assert page.count("the paper's own value") == 2  # the time chart and the throughput chart


def test_a_vanished_file_fails_its_cells_and_the_rest_goes_on(tmp_path: Path):
    path = tmp_path / "data.bin"
    path.write_bytes(b"x" * 5000)
    run = TransferStudyRun(_study(sizes=(SizeInput("10 KB", 10_000),)), files=[str(path)])
    path.unlink()
    events = list(run.events())
    failed = [e for e in records(events) if isinstance(e, CellFailed)]
    assert len(failed) == 2 and "vanished" in failed[0].message
    result = run_result(events)
    assert len(result.results) == 2 and len(result.failures) == 2


def test_cancel_keeps_what_finished_and_leaves_no_process():
    run = TransferStudyRun(_study(), environment=False)
    seen: list[object] = []
    for event in run.events():
        seen.append(event)
        step = getattr(event, "detail", None)
        if isinstance(step, StepStarted) and step.round == 1:
            run.cancel()  # the second round has begun
    result = run_result(seen)
    assert result.cancelled and result.rounds_completed == 1
    assert len(result.results) == 4 and all(len(r.round_sizes) <= 2 for r in result.results)
    assert not _children()


def test_closing_the_events_mid_cell_stops_its_processes():
    study = _study(sizes=(SizeInput("8 MB", 8_000_000),), repeat=50)
    events = TransferStudyRun(study, environment=False).events()
    for event in events:
        if isinstance(event, Progress) and event.note == "transfer":
            break
    events.close()
    assert not _children()


def test_a_cipher_a_transfer_cannot_use_is_refused():
    with pytest.raises(UserError, match="not an authenticated cipher"):
        _study(ciphers=(CipherChoice("aes-256-cbc"),))
    with pytest.raises(UserError, match="unknown workload"):
        _study(workload="network")


def test_seed_004_is_a_transfer_study_with_a_baseline():
    study = find_study("gcm-vs-chacha")
    assert study.workload == "transfer"
    assert [c.cipher_id for c in study.ciphers] == ["aes-256-gcm", "chacha20-poly1305", "none"]


def test_an_unexpected_error_fails_the_cell_instead_of_hanging(monkeypatch):
    from app.core.study import transfer_runner

    def broken(*_args: object, **_kwargs: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(transfer_runner, "transfer", broken)
    events, result = _run(_study(sizes=(SizeInput("10 KB", 10_000),)))
    failed = [e for e in events if isinstance(e, CellFailed)]
    assert len(failed) == 2 and "internal error: RuntimeError: boom" in failed[0].message
    assert not result.results and len(result.failures) == 2


def test_the_papers_figures_are_set_beside_the_transfers(ran):
    from app.core.study.paper import match_published
    from app.core.study.published import PublishedFigure

    rate = PublishedFigure("AES-256-GCM", "64 KiB", "transfer_rate", 100.0, "MB/s")
    whole = PublishedFigure("AES-256-GCM", "64 KiB", "memory", 60.0, "MB", (), "process")
    above = PublishedFigure("AES-256-GCM", "64 KiB", "memory", 60.0, "MB")
    result = replace(ran[1], study=replace(ran[1].study, published=(rate, whole, above)))
    (r,) = [x for x in result.results if x.label.startswith("aes") and x.input_bytes == 65_536]
    m_rate, m_whole, m_above = match_published(result)
    assert m_rate.measured == pytest.approx(65_536 / r.timing.median_s / 1e6)
    biggest = max(r.sender.peak_rss_bytes, r.receiver.peak_rss_bytes)
    assert m_whole.measured == pytest.approx(biggest / 1e6)  # a whole process: tens of MB
    assert m_above.measured is not None and m_above.measured < m_whole.measured


def test_a_senders_time_stops_at_its_last_byte_and_meets_the_papers_total_time():
    from dataclasses import replace as with_

    from app.core.study.paper import match_published
    from app.core.study.published import PublishedFigure
    from app.core.study.transfer_result import TransferStudyResult
    from app.core.transfer.results import transfer_result_from_dict

    study = study_with(find_study("gcm-vs-chacha"), sizes=parse_sizes("64KB"), repeat=2, rounds=1)
    study = with_(
        study,
        published=(
            PublishedFigure(
                "AES", "64 KB", "transfer_s", 1.0, "ms", ("aes-256-gcm",), end="sender"
            ),
            PublishedFigure("AES", "64 KB", "transfer_s", 1.0, "ms", ("aes-256-gcm",)),
        ),
        claims=(),
    )
    result = result_of(TransferStudyRun(study).events())
    assert isinstance(result, TransferStudyResult)
    gcm = next(r for r in result.results if r.cipher_id == "aes-256-gcm")
    assert all(0 < run.sent_seconds <= run.total_seconds for run in gcm.runs)
    sender, verified = match_published(result)
    assert sender.measured == pytest.approx(gcm.sent_median_s * 1e3)
    assert verified.measured == pytest.approx(gcm.timing.median_s * 1e3)
    again = transfer_result_from_dict(gcm.to_dict())
    assert [r.sent_seconds for r in again.runs] == [r.sent_seconds for r in gcm.runs]
