"""Reliability: no gap after a failure, clear failure signals, safe concurrent use, runs that
can be read and undone. Real stores (SQLite, and PostgreSQL when configured), the loopback
replay server with its fault injection, real subprocesses."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import func, select
from typer.testing import CliRunner

import research_radar
from research_radar.cli import app
from research_radar.collect.stage import WINDOW_CURSOR, CollectSummary, collect
from research_radar.config import Settings
from research_radar.models import BEIJING
from research_radar.replay.server import Fault, ReplayServer, serve_replay
from research_radar.sample.demo import SAMPLE_SINCE, sample_settings
from research_radar.sources.http import RetryPolicy
from research_radar.store.schema import findings
from research_radar.store.store import Store, open_store

runner = CliRunner()
SRC = str(Path(research_radar.__file__).parent.parent)

PRIMED = datetime(2026, 7, 1, tzinfo=UTC)
"""The end of the first, complete collection: the windows of every source end here."""
FAILED = datetime(2026, 8, 29, 8, 30, tzinfo=BEIJING)
"""The run where one source fails."""
AGAIN = datetime(2026, 8, 30, 8, 30, tzinfo=BEIJING)
"""The clean re-run, without --since."""


def _fast() -> RetryPolicy:
    return RetryPolicy(retries=1, backoff=0.0, timeout=0.5, sleep=lambda _: None)


def _collect(store: Store, server: ReplayServer, until: datetime, **kwargs: Any) -> CollectSummary:
    settings = sample_settings(
        Settings(),
        server.url,
        server.arxiv_url,
        [server.feed_url(name) for name in server.feed_names()],
    )
    with httpx.Client() as client:
        return collect(store, settings, until=until, client=client, policy=_fast(), **kwargs)


def _state(store: Store) -> dict[str, Any]:
    """What a run left: every source with its snapshot versions, and every window end."""
    return {
        "sources": {
            source.key: sorted(s.version for s in store.load_snapshots(source.key))
            for source in store.load_sources()
        },
        "windows": {
            name: store.load_cursor(WINDOW_CURSOR, name)
            for name in ("github", "host", "arxiv", "feeds")
        },
    }


@pytest.fixture(scope="module")
def primed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite store after one complete collection up to PRIMED."""
    path = tmp_path_factory.mktemp("primed") / "radar.db"
    store = open_store(str(path))
    with serve_replay() as server:
        first = _collect(store, server, PRIMED, since=SAMPLE_SINCE)
    assert first.ok and all(h.status == "ok" for h in first.sources.values())
    store.close()
    return path


@pytest.fixture(scope="module")
def never_failed(primed: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    path = tmp_path_factory.mktemp("never-failed") / "radar.db"
    shutil.copy(primed, path)
    store = open_store(str(path))
    with serve_replay() as server:
        assert _collect(store, server, FAILED).ok
        assert _collect(store, server, AGAIN).ok
    state = _state(store)
    store.close()
    return state


FAULTS = [
    *[
        pytest.param("github", "/search/*", kind, id=f"github-search-{kind}")
        for kind in ("timeout", "5xx", "rate-limit", "429", "truncated", "malformed", "401")
    ],
    pytest.param("github", "/repos/Neroued/*", "5xx", id="github-one-repo-5xx"),
    pytest.param("github", "/repos/AMD-AGI/Infera", "malformed", id="github-one-repo-malformed"),
    *[
        pytest.param("arxiv", "/arxiv/*", kind, id=f"arxiv-{kind}")
        for kind in ("timeout", "5xx", "429", "truncated", "malformed")
    ],
    *[
        pytest.param("feeds", "/feeds/*", kind, id=f"feeds-{kind}")
        for kind in ("5xx", "truncated", "malformed")
    ],
    pytest.param("host", "/repos/example-org/inferhost/pulls", "5xx", id="host-pulls-5xx"),
    pytest.param("host", "/repos/example-org/inferhost/issues", "401", id="host-issues-401"),
]


@pytest.mark.parametrize(("source", "pattern", "kind"), FAULTS)
def test_a_clean_rerun_after_a_fault_equals_a_run_that_never_failed(
    source: str,
    pattern: str,
    kind: str,
    primed: Path,
    never_failed: dict[str, Any],
    tmp_path: Path,
) -> None:
    path = tmp_path / "radar.db"
    shutil.copy(primed, path)
    store = open_store(str(path))
    with serve_replay(faults=[Fault(pattern, kind, delay=1.0)]) as broken:
        hurt = _collect(store, broken, FAILED)
    assert hurt.sources[source].status != "ok", hurt.sources[source]
    assert not hurt.sources[source].window_advanced
    assert store.load_cursor(WINDOW_CURSOR, source) == PRIMED.isoformat(), "the window stayed"
    with serve_replay() as server:
        again = _collect(store, server, AGAIN)
    assert again.ok and again.sources[source].window_start == PRIMED
    assert _state(store) == never_failed
    store.close()


def test_an_earlier_failed_window_is_not_skipped_by_an_explicit_later_since(store: Store) -> None:
    """A --since after the source's window end leaves the gap uncovered: no advance."""
    with serve_replay() as server:
        _collect(store, server, PRIMED, since=SAMPLE_SINCE)
        later = _collect(store, server, AGAIN, since=FAILED)
    assert later.ok and not later.sources["github"].window_advanced
    assert store.load_cursor(WINDOW_CURSOR, "github") == PRIMED.isoformat()


# -- the daily pipeline ----------------------------------------------------------------


def _config(folder: Path, db: str) -> Path:
    config = folder / "radar.toml"
    config.write_text(
        f'[radar]\ndb = "{db}"\nreports_dir = "out"\n\n'
        '[github]\nqueries = ["inference", "runtime", "kernel"]\n\n'
        "[arxiv]\ndelay = 0\nqueries = ['abs:\"KV cache\"']\n",
        encoding="utf-8",
    )
    return config


@pytest.fixture
def live(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("GITHUB_TOKEN", "test-token-not-real")
    yield


def _daily(config: Path, day: str, server: ReplayServer, monkeypatch: Any, *extra: str) -> Any:
    monkeypatch.setenv("GITHUB_API_URL", server.url)
    monkeypatch.setenv("RADAR_ARXIV_API_URL", server.arxiv_url)
    return runner.invoke(app, ["daily", "--config", str(config), "--date", day, "--json", *extra])


def _reported(store: Store) -> set[str]:
    return {f.project_key for f in store.load_findings(origin="radar")}


def test_daily_after_failed_searches_reports_what_a_never_failed_run_did(
    tmp_path: Path, database_factory: Any, backend: str, live: None, monkeypatch: Any
) -> None:
    """The fault test through `radar daily`: GitHub's searches fail on the middle day."""
    results = {}
    for path_name, faults in (("clean", []), ("faulted", [Fault("/search/*", "401")])):
        folder = tmp_path / path_name
        folder.mkdir()
        with database_factory(backend, folder) as db:
            config = _config(folder, db)
            with serve_replay() as server:
                assert _daily(config, "2026-08-08", server, monkeypatch).exit_code == 0
            with serve_replay(faults=faults) as server:
                middle = _daily(config, "2026-08-20", server, monkeypatch)
            assert middle.exit_code == (1 if faults else 0), middle.output
            with serve_replay() as server:
                last = _daily(config, "2026-08-22", server, monkeypatch)
            assert last.exit_code == 0, last.output
            store = open_store(db)
            results[path_name] = (_reported(store), {s.key for s in store.load_sources()})
            if faults:
                text = Path(json.loads(middle.stdout)["report"]).read_text(encoding="utf-8")
                assert "github" in text.split("###")[0], "the header names the failed source"
            store.close()
    assert results["faulted"] == results["clean"]
    assert any(key.startswith("gh:") for key in results["clean"][0])


def test_what_a_standalone_collect_gathered_is_reported_by_the_next_daily(
    tmp_path: Path, db_url: str, live: None, monkeypatch: Any
) -> None:
    config = _config(tmp_path, db_url)
    with serve_replay() as server:
        monkeypatch.setenv("GITHUB_API_URL", server.url)
        monkeypatch.setenv("RADAR_ARXIV_API_URL", server.arxiv_url)
        args = ["collect", "--config", str(config), "--since", "2024-09-01"]
        collected = runner.invoke(app, [*args, "--until", "2026-08-29T08:30", "--json"])
        assert collected.exit_code == 0, collected.output
        kept = set(json.loads(collected.stdout)["keys"])
    with serve_replay(faults=[Fault("/*", "401")]) as offline:  # today nothing answers
        result = _daily(config, "2026-08-29", offline, monkeypatch)
    summary = json.loads(result.stdout)
    reported = {f["key"] for f in summary["findings"]}
    assert reported and reported <= kept
    assert len(reported) >= 5, "what `radar collect` gathered is weighed by the next daily"


def test_failed_source_exits_1_in_json_mode_too(tmp_path: Path) -> None:
    settings = tmp_path / "radar.toml"
    settings.write_text(f'[radar]\ninbox_root = "{tmp_path / "nowhere"}"\n', encoding="utf-8")
    args = ["collect", "-s", "inbox", "--config", str(settings), "--db", str(tmp_path / "x.db")]
    for extra in ([], ["--json"]):
        result = runner.invoke(app, [*args, *extra])
        assert result.exit_code == 1, result.output
    assert json.loads(result.stdout)["sources"]["inbox"]["status"] == "failed"


def test_request_count_includes_retries(store: Store) -> None:
    with serve_replay(faults=[Fault("/arxiv/*", "5xx", times=1)]) as server:
        summary = _collect(store, server, PRIMED, since=SAMPLE_SINCE, sources=["arxiv"])
        sent = len([r for r in server.requests if r.path.startswith("/arxiv")])
    assert summary.sources["arxiv"].status == "ok"
    assert summary.sources["arxiv"].requests == sent == 2


def test_host_parts_fail_alone_and_say_what_is_missing(store: Store, tmp_path: Path) -> None:
    faults = [Fault("/repos/example-org/inferhost/pulls", "rate-limit", retry_after=10_000)]
    with serve_replay(faults=faults) as server:
        summary = _collect(store, server, PRIMED, since=SAMPLE_SINCE, sources=["host"])
    host = summary.sources["host"]
    assert host.status == "partial"
    assert any("pull requests of example-org/inferhost incomplete" in e for e in host.errors)
    assert store.load_source("gh:example-org/inferhost") is not None
    assert store.load_sources("pull") == [] and len(store.load_sources("issue")) == 4


# -- runs: interrupted, listed, undone ------------------------------------------------


def _python(code: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": SRC}
    return subprocess.run(
        [sys.executable, "-c", code, *args], env=env, capture_output=True, text=True, timeout=120
    )


def test_a_killed_run_shows_as_interrupted(db_url: str) -> None:
    code = (
        "import os, signal, sys\n"
        "from research_radar.store.store import open_store\n"
        "store = open_store(sys.argv[1]); store.start_run('daily')\n"
        "os.kill(os.getpid(), signal.SIGKILL)\n"
    )
    assert _python(code, db_url).returncode == -9
    store = open_store(db_url)
    [run] = store.load_runs()
    assert run["status"] == "interrupted"
    listed = runner.invoke(app, ["runs", "--db", db_url], env={"COLUMNS": "200"})
    assert listed.exit_code == 0 and "interrupted" in listed.stdout
    assert "{" not in listed.stdout, "a table, not Python dicts"
    as_json = runner.invoke(app, ["runs", "--db", db_url, "--json"])
    assert json.loads(as_json.stdout)[0]["status"] == "interrupted"
    store.start_run("daily")  # the next run records it for good
    assert [r["status"] for r in store.load_runs()] == ["running", "interrupted"]
    store.close()


def test_fresh_store_opened_by_three_processes_at_once(db_url: str) -> None:
    code = (
        "import sys\nfrom research_radar.store.store import open_store\n"
        "open_store(sys.argv[1]).load_runs()\n"
    )
    env = {**os.environ, "PYTHONPATH": SRC}
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", code, db_url], env=env, stderr=subprocess.PIPE, text=True
        )
        for _ in range(3)
    ]
    outcomes = [
        (proc.wait(timeout=120), proc.stderr.read() if proc.stderr else "") for proc in procs
    ]
    for proc in procs:
        if proc.stderr:
            proc.stderr.close()
    assert [code for code, _ in outcomes] == [0, 0, 0], outcomes


def test_sqlite_store_under_a_missing_folder_is_refused_without_creating_it(
    tmp_path: Path,
) -> None:
    target = tmp_path / "missing" / "deeper" / "radar.db"
    result = runner.invoke(app, ["daily", "--sample", "--db", str(target)])
    assert result.exit_code == 1 and "does not exist" in result.output
    assert "Traceback" not in result.output and not (tmp_path / "missing").exists()


def _extent(store: Store) -> dict[str, Any]:
    return {
        "findings": store.load_finding_rows(),
        "sources": {s.key for s in store.load_sources()},
        "projects": {p.key for p in store.load_projects()},
        "windows": _state(store)["windows"],
    }


def test_date_ahead_or_before_the_first_report_is_refused_and_a_run_can_be_undone(
    tmp_path: Path, db_url: str, live: None, monkeypatch: Any
) -> None:
    config = _config(tmp_path, db_url)
    store = open_store(db_url)
    with serve_replay() as server:
        first = _daily(config, "2026-08-20", server, monkeypatch)
        assert first.exit_code == 0, first.output
        collected = runner.invoke(
            app,
            [
                "collect",
                "--config",
                str(config),
                "--since",
                "2024-09-01",
                "--until",
                "2026-08-29T08:30",
            ],
        )
        assert collected.exit_code == 0, collected.output
        before = _extent(store)
        today = datetime.now(BEIJING).date()
        far = today.replace(year=today.year + 1).isoformat()
        ahead = _daily(config, far, server, monkeypatch)
        assert ahead.exit_code == 2 and "more than a day after today" in ahead.output
        old = _daily(config, "1900-01-01", server, monkeypatch)
        assert old.exit_code == 2 and "before this store's first report" in old.output
        assert _extent(store) == before, "a refused date changes nothing"
        forced = _daily(config, "1900-01-01", server, monkeypatch, "--force")
        assert forced.exit_code == 0, forced.output
        run_id = json.loads(forced.stdout)["run_id"]
        poisoned = {f.project_key for f in store.load_findings(on=date(1900, 1, 1))}
        assert poisoned, "the mistaken run put findings into history"
        undone = runner.invoke(app, ["runs", "undo", str(run_id), "--db", db_url, "--json"])
        assert undone.exit_code == 0, undone.output
        assert json.loads(undone.stdout)["removed"]["findings"] == len(poisoned)
        assert _extent(store) == before, "exactly what the run added is gone"
        assert store.load_report(date(1900, 1, 1)) is None
        again = runner.invoke(app, ["runs", "undo", str(run_id), "--db", db_url])
        assert again.exit_code == 1 and "already undone" in again.output
        assert store.load_runs()[0]["status"] == "undone"
        later = _daily(config, "2026-08-29", server, monkeypatch)
    assert later.exit_code == 0, later.output
    earlier = {f.project_key for f in store.load_findings(on=date(2026, 8, 20))}
    assert poisoned - earlier, "the run had findings of its own"
    assert poisoned - earlier <= {f["key"] for f in json.loads(later.stdout)["findings"]}
    store.close()


def test_two_daily_processes_on_one_postgresql_store_leave_no_duplicate(
    tmp_path: Path, db_url: str, backend: str
) -> None:
    if backend != "postgresql":
        pytest.skip("SQLite is one file on one machine; the shared store is PostgreSQL")
    env = {**os.environ, "PYTHONPATH": SRC}
    code = "import sys\nfrom research_radar.cli import main\nsys.argv = ['radar', *sys.argv[1:]]\nmain()\n"
    procs = [
        subprocess.Popen(
            [
                sys.executable,
                "-c",
                code,
                "daily",
                "--sample",
                "--db",
                db_url,
                "--out",
                str(tmp_path / f"report-{n}.md"),
                "--json",
            ],
            env=env,
            cwd=tmp_path,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for n in range(2)
    ]
    outputs = [proc.communicate(timeout=300) for proc in procs]
    assert [proc.returncode for proc in procs] == [0, 0], outputs
    reports = [(tmp_path / f"report-{n}.md").read_text(encoding="utf-8") for n in range(2)]
    assert reports[0] == reports[1]
    store = open_store(db_url)
    with store.engine.connect() as conn:
        rows = conn.execute(select(func.count()).select_from(findings)).scalar()
        distinct = conn.execute(
            select(func.count()).select_from(
                select(findings.c.project_key, findings.c.date).distinct().subquery()
            )
        ).scalar()
    assert rows == distinct
    assert [run["status"] for run in store.load_runs()] == ["ok", "ok"]
    store.close()


def test_several_urls_in_one_report_line_are_separate_links() -> None:
    from markdown_it import MarkdownIt

    text = (Path(__file__).parent / "golden" / "daily-sample.md").read_text(encoding="utf-8")
    line = next(row for row in text.splitlines() if row.startswith("来源：") and "，" in row)
    html = MarkdownIt("commonmark").render(line)
    assert html.count("<a href") == line.count("https://") >= 2


def test_importing_the_radars_own_report_into_its_store_adds_nothing(
    tmp_path: Path, db_url: str
) -> None:
    out = tmp_path / "report.md"
    daily = runner.invoke(app, ["daily", "--sample", "--db", db_url, "--out", str(out), "--json"])
    assert daily.exit_code == 0, daily.output
    store = open_store(db_url)
    before = _extent(store)
    own = runner.invoke(app, ["history", "import", str(out), "--db", db_url, "--json"])
    assert own.exit_code == 0, own.output
    assert json.loads(own.stdout)["new_findings"] == 0 and "own" in own.stdout
    assert _extent(store) == before
    # a copy without the radar's marker (pasted into an issue and back): no duplicate
    # finding, and the paper stays one project under its arXiv id
    copy = tmp_path / "copy.md"
    copy.write_text(out.read_text(encoding="utf-8").split("\n", 1)[1], encoding="utf-8")
    pasted = runner.invoke(app, ["history", "import", str(copy), "--db", db_url, "--json"])
    assert pasted.exit_code == 0, pasted.output
    assert json.loads(pasted.stdout)["new_findings"] == 0
    after = _extent(store)
    assert after["findings"] == before["findings"] and after["projects"] == before["projects"]
    store.close()
