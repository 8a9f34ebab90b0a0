from __future__ import annotations

import gzip
from datetime import UTC, date, datetime
from pathlib import Path

import pytest
from sqlalchemy import func, inspect, select, text

from research_radar.errors import StorageError
from research_radar.models import Claim, ClaimKind, Finding, Metric, Snapshot, Source, SourceKind
from research_radar.store.history_reads import count_finding_keys, load_findings_of
from research_radar.store.schema import findings, raw_responses
from research_radar.store.store import Store, open_store


def _source(key: str = "gh:neroued/ninfer") -> Source:
    return Source(
        key=key, kind=SourceKind.REPO, url="https://github.com/Neroued/ninfer", title="ninfer"
    )


def test_open_creates_schema_with_alembic_version(db_url: str) -> None:
    store = open_store(db_url)
    tables = set(inspect(store.engine).get_table_names())
    assert {"runs", "stage_runs", "sources", "snapshots", "findings", "alembic_version"} <= tables
    with store.engine.connect() as conn:
        assert conn.execute(text("select version_num from alembic_version")).scalar() == "0003"
    store.close()


def test_reopening_keeps_rows(db_url: str) -> None:
    store = open_store(db_url)
    with store.transaction() as conn:
        store.save_source(conn, _source())
    again = open_store(db_url)
    assert [s.key for s in again.load_sources()] == ["gh:neroued/ninfer"]


def test_sqlalchemy_url_accepted(tmp_path: Path) -> None:
    store = open_store(f"sqlite:///{tmp_path / 'x.db'}")
    assert store.load_sources() == []


def test_not_a_store_gives_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "notes.db"
    bad.write_text("this is not a database", encoding="utf-8")
    with pytest.raises(StorageError, match="is not a radar store.*nothing was changed"):
        open_store(str(bad))


def test_failed_transaction_leaves_nothing(store: Store) -> None:
    with pytest.raises(RuntimeError), store.transaction() as conn:
        store.save_source(conn, _source())
        raise RuntimeError("crash mid-stage")
    assert store.load_sources() == []


def test_saving_twice_does_not_duplicate(store: Store) -> None:
    finding = Finding(project_key="gh:a/b", name="b", date=date(2026, 11, 30))
    claim = Claim(
        kind=ClaimKind.PERFORMANCE,
        text="3.2x",
        metrics=[Metric(name="speedup", value=3.2, unit="x")],
    )
    for _ in range(2):
        with store.transaction() as conn:
            store.save_source(conn, _source())
            store.save_snapshot(conn, Snapshot(source_key="gh:neroued/ninfer", version="5ea3242a"))
            store.save_finding(conn, finding)
            store.save_claims(conn, "gh:neroued/ninfer", "5ea3242a", [claim])
            store.save_raw(conn, "github", "/repos/a/b", b"{}")
    with store.engine.connect() as conn:
        assert conn.execute(select(func.count()).select_from(findings)).scalar() == 1
        assert conn.execute(select(func.count()).select_from(raw_responses)).scalar() == 1
    assert len(store.load_snapshots("gh:neroued/ninfer")) == 1
    assert len(store.load_claims("gh:neroued/ninfer")) == 1


def test_raw_responses_are_compressed_and_read_back(store: Store) -> None:
    body = b'{"full_name": "Neroued/ninfer"}' * 50
    with store.transaction() as conn:
        assert store.save_raw(conn, "github", "/repos/neroued/ninfer", body, etag='"abc"')
    kept = store.load_raw("github", "/repos/neroued/ninfer")
    assert kept is not None and kept["body"] == body and kept["etag"] == '"abc"'
    with store.engine.connect() as conn:
        stored = conn.execute(select(raw_responses.c.body)).scalar()
    assert stored is not None and len(stored) < len(body)


def test_runs_and_stages_are_recorded(store: Store) -> None:
    run = store.start_run("daily")
    stage = store.start_stage(run, "collect")
    store.end_stage(stage, "partial", {"repos": 3}, {"arxiv": "timeout"})
    store.end_run(run, "ok", {})
    [recorded] = store.load_runs()
    assert recorded["status"] == "ok"
    assert recorded["stages"][0]["counts"] == {"repos": 3}
    assert recorded["stages"][0]["errors"] == {"arxiv": "timeout"}


def test_cursor_and_health(store: Store) -> None:
    with store.transaction() as conn:
        store.save_cursor(conn, "github", "q1", "2026-11-29")
        store.save_cursor(conn, "github", "q1", "2026-11-30")
        store.save_health(conn, "arxiv", ok=False, error="timeout")
    assert store.load_cursor("github", "q1") == "2026-11-30"
    assert store.load_health()["arxiv"]["status"] == "failed"


def test_findings_filtered_by_day(store: Store) -> None:
    with store.transaction() as conn:
        for day in (date(2026, 10, 30), date(2026, 10, 31)):
            store.save_finding(
                conn, Finding(project_key="gh:a/b", name="b", date=day), origin="import:x"
            )
    assert [f.date for f in store.load_findings(before=date(2026, 10, 31))] == [date(2026, 10, 30)]
    assert len(store.load_findings(on=date(2026, 10, 31))) == 1
    assert store.load_finding_rows()[0]["origin"] == "import:x"


def test_report_data_round_trip(store: Store) -> None:
    cutoff = datetime(2026, 11, 30, 0, 30, tzinfo=UTC)
    with store.transaction() as conn:
        store.save_report(conn, cutoff.date(), "zh", "# r", {"cutoff": cutoff.isoformat()})
    assert store.load_report(cutoff.date()) == "# r"
    assert store.load_report_data(cutoff.date()) == {"cutoff": cutoff.isoformat()}


def test_sqlite_store_runs_in_wal_mode(db_path: Path) -> None:
    """Readers never wait for the writer (issue #19)."""
    store = open_store(str(db_path))
    with store.engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"


def test_a_reader_is_not_locked_out_by_a_long_write(store: Store) -> None:
    """A second connection reads while a large write transaction is open."""
    items = [
        Finding(project_key=f"gh:o/p{n}", name=f"p{n}", date=date(2026, 8, 1), mechanism="x" * 400)
        for n in range(3000)
    ]
    with store.transaction() as conn:
        store.save_findings(conn, items)
        assert store.load_findings(on=date(2026, 8, 1)) == []  # not committed yet
        assert count_finding_keys(store) == 0
    assert count_finding_keys(store) == 3000


def test_batched_saves_update_in_place_and_count_new_rows(store: Store) -> None:
    first = Finding(project_key="gh:o/p", name="p", date=date(2026, 8, 1), mechanism="a")
    with store.transaction() as conn:
        store.save_findings(conn, [first], ["radar"])
        store.save_findings(conn, [first.model_copy(update={"mechanism": "b"})], ["radar"])
        claim = Claim(kind=ClaimKind.LIMITATION, text="one GPU only")
        assert store.save_claims(conn, "gh:o/p", "v1", [claim, claim]) == 1
        assert store.save_claims(conn, "gh:o/p", "v1", [claim]) == 0
        assert store.save_raw(conn, "github", "/repos/o/p", b"body") is True
        assert store.save_raw(conn, "github", "/repos/o/p", b"body") is False
    assert [f.mechanism for f in store.load_findings()] == ["b"]
    assert [f.mechanism for f in load_findings_of(store, ["gh:o/p"])] == ["b"]


def test_cursors_and_claims_are_saved_in_one_batch_as_one_by_one(store: Store) -> None:
    one = Claim(kind=ClaimKind.LIMITATION, text="one GPU only")
    two = Claim(kind=ClaimKind.LIMITATION, text="no batching")
    with store.transaction() as conn:
        store.save_cursors(conn, "github", {"repo:gh:o/a": "2026-08-01", "repo:gh:o/b": "x"})
        store.save_cursors(conn, "github", {"repo:gh:o/b": "2026-08-02"})
        store.save_cursor(conn, "arxiv", "repo:gh:o/b", "other source")
        groups = [("gh:o/a", "v1", [one, two, one]), ("gh:o/b", "", [one]), ("gh:o/a", "v1", [two])]
        assert store.save_claims_of(conn, groups) == 3
        assert store.save_claims_of(conn, [("gh:o/a", "v2", [one]), ("gh:o/b", "", [one])]) == 1
    assert store.load_cursor("github", "repo:gh:o/a") == "2026-08-01"
    assert store.load_cursor("github", "repo:gh:o/b") == "2026-08-02"
    assert store.load_cursor("arxiv", "repo:gh:o/b") == "other source"
    assert [c.text for c in store.load_claims("gh:o/a", "v1")] == ["one GPU only", "no batching"]
    assert [c.text for c in store.load_claims("gh:o/a")] == [
        "one GPU only",
        "no batching",
        "one GPU only",
    ]
    assert [c.text for c in store.load_claims("gh:o/b")] == ["one GPU only"]


def test_a_large_batch_of_raw_responses_is_kept_as_one_by_one(store: Store) -> None:
    from research_radar.store.rows import RawRecord

    bodies = [f"body {n} ".encode() * (n % 50 + 1) for n in range(300)]
    with store.transaction() as conn:
        records = [RawRecord(f"/repos/o/p{n}", body) for n, body in enumerate(bodies)]
        assert store.save_raws(conn, "github", records) == 300
        assert store.save_raws(conn, "github", records[:10]) == 0
    with store.engine.connect() as conn:
        kept = conn.execute(
            select(raw_responses.c.request_key, raw_responses.c.body).order_by(raw_responses.c.id)
        ).all()
    assert [key for key, _ in kept] == [f"/repos/o/p{n}" for n in range(300)]
    assert [gzip.decompress(body) for _, body in kept] == bodies
    assert all(
        len(body) < len(raw) for (_, body), raw in zip(kept, bodies, strict=True) if len(raw) > 200
    )
    assert store.load_raw("github", "/repos/o/p299")["body"] == bodies[299]  # type: ignore[index]


def test_raw_responses_kept_at_any_compression_level_read_back(store: Store) -> None:
    """Stores made before kept bodies at gzip's default level 9; they read back as ever."""
    body = b"an older response " * 40
    with store.transaction() as conn:
        conn.execute(
            raw_responses.insert().values(
                source="github",
                request_key="/repos/o/old",
                status=200,
                headers={},
                body=gzip.compress(body, compresslevel=9, mtime=0),
                content_hash="0" * 64,
                fetched_at=datetime(2026, 1, 1, tzinfo=UTC),
            )
        )
    assert store.load_raw("github", "/repos/o/old")["body"] == body  # type: ignore[index]


def test_upserts_are_portable_to_postgresql() -> None:
    """The same batched INSERT … ON CONFLICT compiles for PostgreSQL."""
    from sqlalchemy.dialects import postgresql

    from research_radar.store.upserts import conflict_insert

    statement = conflict_insert(findings, "postgresql", ["project_key", "date", "origin"], ["data"])
    sql = str(statement.compile(dialect=postgresql.dialect()))
    assert "ON CONFLICT (project_key, date, origin) DO UPDATE SET data = excluded.data" in sql


def test_sources_are_loaded_by_key(store: Store) -> None:
    with store.transaction() as conn:
        store.save_source(conn, _source())
        store.save_source(conn, _source("gh:o/other"))
    found = store.load_sources_of(["gh:neroued/ninfer", "gh:o/missing"])
    assert list(found) == ["gh:neroued/ninfer"] and found["gh:neroued/ninfer"].title == "ninfer"


def test_finding_keys_are_counted_as_listed(store: Store) -> None:
    items = [
        Finding(project_key=f"gh:o/p{n % 4}", name=f"p{n}", date=date(2026, 8, 1 + n % 3))
        for n in range(12)
    ]
    with store.transaction() as conn:
        store.save_findings(conn, items)
    for before in (None, date(2026, 8, 1), date(2026, 8, 2), date(2026, 8, 9)):
        listed = {finding.project_key for finding in store.load_findings(before=before)}
        assert count_finding_keys(store, before=before) == len(listed)
    assert count_finding_keys(store, before=date(2026, 8, 2)) == 4


def test_links_written_before_in_the_transaction_are_not_written_again(store: Store) -> None:
    """`save_projects(linked=…)` leaves the links the transaction wrote as they are and
    writes the others; the table ends as it would with every link written twice."""
    from research_radar.models import Project
    from research_radar.store.schema import project_sources

    links = {
        ("gh:o/a", "gh:o/a"): ("primary", "report 1"),
        ("gh:o/a", "arxiv:2601.00001"): ("part-of", "report 1"),
        ("gh:o/a", "gh:o/odd"): ("primary", "an odd relation"),
    }
    project = Project(
        key="gh:o/a", name="a", sources=["gh:o/a", "arxiv:2601.00001", "gh:o/odd", "gh:o/b"]
    )

    def table() -> list[tuple[str, str, str, str]]:
        with store.engine.connect() as conn:
            rows = conn.execute(select(project_sources).order_by(project_sources.c.source_key))
            return [tuple(row) for row in rows]

    tables = []
    for linked in (None, links):
        with store.transaction() as conn:
            conn.execute(project_sources.delete())
            store.save_project_sources(conn, links)
            store.save_projects(conn, [project], linked=linked)
        tables.append(table())
    assert tables[0] == tables[1]
    assert ("gh:o/a", "gh:o/odd", "part-of", "an odd relation") in tables[1]
    assert ("gh:o/a", "gh:o/b", "part-of", "") in tables[1]
