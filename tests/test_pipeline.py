"""`radar daily` end to end on the bundled sample, through the CLI, against real SQLite."""

from __future__ import annotations

import gc
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select
from typer.testing import CliRunner

from research_radar.cli import app
from research_radar.models import Finding
from research_radar.sample.demo import SAMPLE_DATE
from research_radar.store.schema import findings
from research_radar.store.store import open_store

runner = CliRunner()


def _daily(db: str, *extra: str) -> tuple[int, str]:
    result = runner.invoke(
        app, ["daily", "--sample", "--db", db, "--json", *extra], catch_exceptions=True
    )
    return result.exit_code, result.stdout


@pytest.fixture(scope="module")
def first_db(
    backend: str, tmp_path_factory: pytest.TempPathFactory, database_factory: Any
) -> Iterator[tuple[Path, str]]:
    folder = tmp_path_factory.mktemp("daily")
    with database_factory(backend, folder) as db:
        yield folder, db


@pytest.fixture(scope="module")
def first_run(first_db: tuple[Path, str]) -> tuple[Path, dict[str, object], str]:
    folder, db = first_db
    out = folder / "report.md"
    code, output = _daily(db, "--out", str(out))
    assert code == 0, output
    return folder, json.loads(output), out.read_text(encoding="utf-8")


def test_sample_report_has_house_style(first_run: tuple[Path, dict[str, object], str]) -> None:
    _, summary, text = first_run
    assert summary["date"] == SAMPLE_DATE.isoformat()
    assert "证据截止：北京时间 2026-08-29 08:30:00" in text
    assert "example-org/inferhost" in text and "（发布前复核未变）" in text
    assert "| 分类 / 项目与目标模型 |" in text and "### 证据索引" in text
    assert summary["findings"], "the sample should give findings"
    assert summary["review_blocking"] == 0


def test_sample_report_matches_golden(
    first_run: tuple[Path, dict[str, object], str], golden
) -> None:  # type: ignore[no-untyped-def]
    golden("daily-sample.md", first_run[2])


@pytest.fixture(scope="module")
def english_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, object], str]:
    folder = tmp_path_factory.mktemp("daily-en")
    config = folder / "radar.toml"
    config.write_text('language = "en"\n', encoding="utf-8")
    out = folder / "report.md"
    code, output = _daily(str(folder / "radar.db"), "--out", str(out), "--config", str(config))
    assert code == 0, output
    return folder, json.loads(output), out.read_text(encoding="utf-8")


def test_english_sample_report_matches_golden(
    english_run: tuple[Path, dict[str, object], str], golden
) -> None:  # type: ignore[no-untyped-def]
    golden("daily-sample-en.md", english_run[2])


HAN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]+")
FULL_WIDTH = re.compile(r"[\u3000-\u303f\uff00-\uffef]")


def _quoted(findings: list[Finding]) -> str:
    """What the report quotes from sources: names, summaries, claims, prior art as named."""
    texts = [
        text
        for f in findings
        for text in (f.name, *f.former_names, f.mechanism, f.why, f.prior_art, f.differs)
    ]
    texts += [claim.text for f in findings for claim in f.claims]
    return " ".join(texts)


def test_english_sample_writes_chinese_only_in_quoted_text(
    english_run: tuple[Path, dict[str, object], str],
) -> None:
    from openpyxl import load_workbook

    folder, summary, text = english_run
    assert summary["review_blocking"] == 0
    findings = open_store(str(folder / "radar.db")).load_findings(on=SAMPLE_DATE)
    quoted = " ".join(HAN.findall(_quoted(findings)))
    files = [Path(str(name)) for name in summary["files"]]  # type: ignore[union-attr]
    book = load_workbook(next(path for path in files if path.suffix == ".xlsx"))
    cells = [str(cell.value or "") for row in book.active.iter_rows() for cell in row]  # type: ignore[union-attr]
    written = [path.read_text(encoding="utf-8-sig") for path in files if path.suffix != ".xlsx"]
    for content in [*written, "\n".join(cells)]:
        assert [run for run in HAN.findall(content) if run not in quoted] == []
        assert FULL_WIDTH.findall(content) == []
    # the facts the stages return are there, worded in English
    assert "kvtinker/ninfer (a plain fork of neroued/ninfer)" in text
    assert "NInfer (reported on 2026-08-22, no substantive change since)" in text
    assert "prior art: derived from neroued/ninfer: " in text
    assert "differs: targets extended to RTX 4090" in text
    assert "reproduces the author-reported prefill 963 tok/s" in text
    assert "worth validating" in cells and "maturity_en" in cells


def test_ordinary_fork_is_never_a_finding(first_run: tuple[Path, dict[str, object], str]) -> None:
    _, summary, _ = first_run
    keys = {f["key"] for f in summary["findings"]}  # type: ignore[index, union-attr]
    assert "gh:kvtinker/ninfer" not in keys


def test_second_run_same_day_adds_nothing_and_writes_same_report(
    first_run: tuple[Path, dict[str, object], str], first_db: tuple[Path, str]
) -> None:
    folder, _, text = first_run
    store = open_store(first_db[1])
    with store.engine.connect() as conn:
        before = conn.execute(select(func.count()).select_from(findings)).scalar()
    code, output = _daily(first_db[1], "--out", str(folder / "again.md"))
    assert code == 0, output
    with store.engine.connect() as conn:
        assert conn.execute(select(func.count()).select_from(findings)).scalar() == before
    assert (folder / "again.md").read_text(encoding="utf-8") == text
    assert [run["status"] for run in store.load_runs()][:2] == ["ok", "ok"]


def test_crash_mid_run_leaves_store_consistent_and_rerun_completes(
    tmp_path: Path, db_url: str
) -> None:
    (tmp_path / "blocked.html").mkdir()  # writing the page fails after the findings were stored
    code, _ = _daily(db_url, "--out", str(tmp_path / "blocked.md"))
    assert code != 0
    store = open_store(db_url)
    assert store.load_runs()[0]["status"] == "failed"
    code, output = _daily(db_url, "--out", str(tmp_path / "ok.md"))
    assert code == 0, output
    keys = [f.project_key for f in store.load_findings(on=SAMPLE_DATE)]
    assert len(keys) == len(set(keys)) == len(json.loads(output)["findings"])


def test_a_run_hands_what_it_froze_back_to_the_garbage_collector(
    tmp_path: Path, db_url: str
) -> None:
    # a run freezes what each stage leaves out of later collections (#19); a process that
    # froze nothing itself gets every object back, and its collector's thresholds
    assert gc.get_freeze_count() == 0, "the test runner froze objects: nothing to check"
    thresholds = gc.get_threshold()
    code, output = _daily(db_url, "--out", str(tmp_path / "report.md"))
    assert code == 0, output
    assert gc.get_freeze_count() == 0
    assert gc.get_threshold() == thresholds


def test_stages_are_recorded(
    first_run: tuple[Path, dict[str, object], str], first_db: tuple[Path, str]
) -> None:
    run = open_store(first_db[1]).load_runs()[-1]
    names = [stage["stage"] for stage in run["stages"]]
    assert names[:3] == ["collect", "resolve", "extract"] and "review" in names
    review = next(stage for stage in run["stages"] if stage["stage"] == "review")
    assert review["counts"]["blocking"] == 0
    assert review["counts"]["verified"] > 0, "our own SHAs and numbers are checked in the store"


def test_daily_writes_html_and_exports_beside_the_report(
    first_run: tuple[Path, dict[str, object], str],
) -> None:
    import csv

    from openpyxl import load_workbook

    folder, summary, _ = first_run
    files = {Path(str(name)).suffix: Path(str(name)) for name in summary["files"]}  # type: ignore[union-attr]
    assert set(files) == {".md", ".html", ".csv", ".xlsx"}
    with files[".csv"].open(encoding="utf-8-sig", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == len(summary["findings"])  # type: ignore[arg-type]
    sheet = load_workbook(files[".xlsx"]).active
    assert sheet is not None and sheet.max_row == len(rows) + 1
    assert "<table" in files[".html"].read_text(encoding="utf-8")


def test_live_daily_against_replay_survives_a_broken_source(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The live path (no --sample): real collectors against the replay server, arXiv broken."""
    from research_radar.replay.server import Fault, serve_replay

    config = tmp_path / "radar.toml"
    config.write_text(
        '[radar]\ndb = "live.db"\nreports_dir = "out"\n\n'
        '[github]\nqueries = ["inference"]\n\n[arxiv]\ndelay = 0\nqueries = [\'abs:"KV cache"\']\n',
        encoding="utf-8",
    )
    with serve_replay(faults=[Fault("/arxiv/*", "malformed")]) as server:
        monkeypatch.setenv("GITHUB_API_URL", server.url)
        monkeypatch.setenv("RADAR_ARXIV_API_URL", server.arxiv_url)
        monkeypatch.setenv("GITHUB_TOKEN", "test-token-not-real")
        result = runner.invoke(
            app, ["daily", "--config", str(config), "--date", "2026-08-29", "--json"]
        )
    assert result.exit_code == 1, "a failed source is exit 1, the report still written"
    summary = json.loads(result.stdout)
    assert summary["health"]["github"] == "ok"
    assert summary["health"]["arxiv"].startswith("failed")
    assert Path(summary["report"]).read_text(encoding="utf-8").count("arxiv failed") == 1
    assert "test-token-not-real" not in result.output


def test_publish_refusal_reasons() -> None:
    from research_radar.pipeline.run import publish_refusal

    assert publish_refusal(0, {"github": "ok", "arxiv": "failed: timeout"}) is None
    assert "blocking" in (publish_refusal(2, {"github": "ok"}) or "")
    assert "every source failed" in (
        publish_refusal(0, {"github": "failed: 401", "arxiv": "stale since 2026-11-29"}) or ""
    )


def test_live_window_catches_up_after_a_gap() -> None:
    from datetime import UTC, datetime, timedelta

    from research_radar.collect.window import live_window_start

    cutoff = datetime(2026, 11, 30, 0, 30, tzinfo=UTC)
    assert live_window_start(None, cutoff) == cutoff - timedelta(hours=48)
    three_days = (cutoff - timedelta(days=3)).isoformat()
    assert live_window_start(three_days, cutoff) == cutoff - timedelta(days=4)
    assert live_window_start("2026-01-01T00:00:00+00:00", cutoff) == cutoff - timedelta(days=14)


def test_a_day_when_every_source_fails_is_marked_incomplete_and_not_published(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from research_radar.replay.server import Fault, serve_replay

    config = tmp_path / "radar.toml"
    config.write_text(
        '[radar]\ndb = "live.db"\nreports_dir = "out"\nindex_issue = "example-org/inferhost#126"\n\n'
        '[github]\nqueries = ["inference"]\n\n[arxiv]\ndelay = 0\nqueries = [\'abs:"KV cache"\']\n',
        encoding="utf-8",
    )
    monkeypatch.setenv("GITHUB_TOKEN", "test-token-not-real")
    with serve_replay() as server:
        monkeypatch.setenv("GITHUB_API_URL", server.url)
        monkeypatch.setenv("RADAR_ARXIV_API_URL", server.arxiv_url)
        first = runner.invoke(app, ["daily", "--config", str(config), "--date", "2026-08-29"])
        assert first.exit_code == 0, first.output
    with serve_replay(faults=[Fault("/*", "401")]) as broken:
        monkeypatch.setenv("GITHUB_API_URL", broken.url)
        monkeypatch.setenv("RADAR_ARXIV_API_URL", broken.arxiv_url)
        args = ["daily", "--config", str(config), "--date", "2026-08-30", "--publish", "--yes"]
        second = runner.invoke(app, [*args, "--json"])
        posted = broken.comments("example-org/inferhost", 126)
    assert second.exit_code == 1, second.output
    summary = json.loads(second.stdout)
    assert summary["refused"] and "every source failed" in summary["refused"]
    assert posted == []
    assert summary["findings"] == []
    text = Path(summary["report"]).read_text(encoding="utf-8")
    assert "本轮结论不完整" in text and "本轮无可靠新增" not in text
    assert "已于" not in text, "projects not touched today are not listed as excluded"


def test_header_says_when_the_local_host_differs_from_github(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import subprocess

    from research_radar.replay.server import serve_replay
    from research_radar.sample.host import build_sample_host

    host = build_sample_host(tmp_path / "inferhost")
    (host / "docs" / "local-only.md").write_text("# not pushed\n", encoding="utf-8")
    git = ["git", "-C", str(host), "-c", "user.name=t", "-c", "user.email=t@example.org"]
    subprocess.run([*git, "add", "docs/local-only.md"], check=True, capture_output=True)
    subprocess.run([*git, "commit", "-qm", "local"], check=True, capture_output=True)
    config = tmp_path / "radar.toml"
    config.write_text(
        '[radar]\ndb = "live.db"\nreports_dir = "out"\nhost_path = "inferhost"\n'
        'host_repo = "example-org/inferhost"\n\n[github]\nqueries = ["inference"]\n\n'
        "[arxiv]\ndelay = 0\nqueries = ['abs:\"KV cache\"']\n",
        encoding="utf-8",
    )
    monkeypatch.setenv("GITHUB_TOKEN", "test-token-not-real")
    with serve_replay() as server:
        monkeypatch.setenv("GITHUB_API_URL", server.url)
        monkeypatch.setenv("RADAR_ARXIV_API_URL", server.arxiv_url)
        result = runner.invoke(
            app, ["daily", "--config", str(config), "--date", "2026-08-29", "--json"]
        )
    assert result.exit_code == 0, result.output
    text = Path(json.loads(result.output)["report"]).read_text(encoding="utf-8")
    assert "与 GitHub 默认分支 25dbb6ad1b2f 不一致" in text
    assert "发布前复核未变" not in text


def test_sample_never_writes_into_the_configured_store(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`radar init` then `radar daily --sample`: the sample keeps to radar-sample.db."""
    monkeypatch.chdir(tmp_path)
    for name in ("RADAR_DB", "RADAR_CONFIG"):
        monkeypatch.delenv(name, raising=False)
    assert runner.invoke(app, ["init"]).exit_code == 0
    monkeypatch.setenv("RADAR_DB", str(tmp_path / "team.db"))
    result = runner.invoke(app, ["daily", "--sample", "--json"])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "radar-sample.db").is_file()
    assert not (tmp_path / "radar.db").exists() and not (tmp_path / "team.db").exists()


def test_sample_prior_art_is_searched_and_differences_are_stated(
    first_db: tuple[Path, str], first_run: tuple[Path, dict[str, object], str]
) -> None:
    _, text = first_run[0], first_run[2]
    assert "未检索" not in text and "待补" not in text
    reported = open_store(first_db[1]).load_findings(on=SAMPLE_DATE)
    assert reported
    for finding in reported:
        gate = next(g for g in finding.gates if g.name.value == "prior_art")
        assert gate.verdict.value in {"pass", "partial", "fail"} and gate.reasons, finding.name
        assert finding.insight is not None
    assert "原文：“" in text and "面向" in text
