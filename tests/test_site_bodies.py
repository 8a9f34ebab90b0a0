"""Report bodies the site renders itself (not stored with the report by this renderer)
are kept in the site folder: after a change of the renderer only the first build
renders them, a changed report is rendered again, and the store is never written."""

from __future__ import annotations

import hashlib
from datetime import date
from pathlib import Path

from research_radar.classify.profile import load_taxonomy
from research_radar.report.html import render_body, stored_body
from research_radar.site.bodies import BODIES_DIR
from research_radar.site.build import MANIFEST, build_site
from research_radar.site.data import load_site_data
from research_radar.store.store import Store, open_store

DAYS = [date(2026, 8, 1), date(2026, 8, 2), date(2026, 8, 3)]


def _markdown(day: date, note: str = "") -> str:
    return (
        f"## {day.isoformat()}\n\n| 项目 | 机制 |\n|---|---|\n"
        f"| <https://github.com/o/r{day.day}> | KV 缓存卸载{note} |\n"
    )


def _older_body(markdown: str) -> dict[str, str]:
    """The body as an earlier version of the renderer stored it."""
    return {
        "version": "an-older-renderer",
        "markdown": hashlib.sha256(markdown.encode("utf-8")).hexdigest(),
        "html": "<p>rendered by an older renderer</p>",
    }


def _store(path: Path) -> Store:
    """Three reports: two stored by an older renderer, one with a current body."""
    store = open_store(str(path))
    with store.transaction() as conn:
        for day in DAYS[:2]:
            markdown = _markdown(day)
            store.save_report(conn, day, "zh", markdown, {"body": _older_body(markdown)})
        markdown = _markdown(DAYS[2])
        store.save_report(conn, DAYS[2], "zh", markdown, {"body": stored_body(markdown)})
    return store


def _files(site: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(site)): p.read_bytes()
        for p in sorted(site.rglob("*"))
        if p.is_file() and p.name != MANIFEST and BODIES_DIR not in p.parts
    }


def _build(store: Store, out: Path) -> int:
    result = build_site(load_site_data(store), load_taxonomy(), out, search=False, workers=1)
    return result.bodies


def test_bodies_rendered_after_a_renderer_change_are_kept_for_the_next_build(
    tmp_path: Path,
) -> None:
    store = _store(tmp_path / "radar.db")
    stored_before = store.load_reports("zh")
    out = tmp_path / "site"
    assert _build(store, out) == 2  # the two bodies of the older renderer
    first = _files(out)
    page = first["reports/2026-08-01.html"].decode("utf-8")
    assert "older renderer" not in page
    assert "KV 缓存卸载" in page and "o/r1" in page
    assert len(list((out / BODIES_DIR).iterdir())) == 2

    # a change of the site's code renders every page again: the bodies are kept
    (out / MANIFEST).unlink()
    result = build_site(load_site_data(store), load_taxonomy(), out, search=False, workers=1)
    assert result.rendered == result.pages and result.bodies == 0
    assert _files(out) == first
    assert store.load_reports("zh") == stored_before  # the store is only read


def test_a_changed_report_renders_its_body_again(tmp_path: Path) -> None:
    store = _store(tmp_path / "radar.db")
    out = tmp_path / "site"
    assert _build(store, out) == 2
    changed = _markdown(DAYS[0], "，修订 revised")
    with store.transaction() as conn:
        store.save_report(conn, DAYS[0], "zh", changed, {"body": _older_body(changed)})
    assert _build(store, out) == 1
    page = (out / "reports/2026-08-01.html").read_text(encoding="utf-8")
    assert "修订 revised" in page
    assert str(render_body(changed)).split("<table>")[1].split("</table>")[0] in page
    # the body of the old Markdown is gone; the unchanged report's is kept
    assert len(list((out / BODIES_DIR).iterdir())) == 2
    (out / MANIFEST).unlink()
    assert _build(store, out) == 0


def test_a_report_with_a_current_stored_body_keeps_nothing(tmp_path: Path) -> None:
    store = open_store(str(tmp_path / "radar.db"))
    markdown = _markdown(DAYS[0])
    with store.transaction() as conn:
        store.save_report(conn, DAYS[0], "zh", markdown, {"body": stored_body(markdown)})
    out = tmp_path / "site"
    assert _build(store, out) == 0
    assert not (out / BODIES_DIR).exists()


def test_bodies_rendered_by_worker_processes_are_kept(tmp_path: Path) -> None:
    store = _store(tmp_path / "radar.db")
    alone = tmp_path / "one"
    assert _build(store, alone) == 2
    pooled = build_site(
        load_site_data(store), load_taxonomy(), tmp_path / "two", search=False, workers=2, batch=1
    )
    assert pooled.bodies == 2
    assert _files(tmp_path / "two") == _files(alone)
    kept = sorted(p.name for p in (tmp_path / "two" / BODIES_DIR).iterdir())
    assert kept == sorted(p.name for p in (alone / BODIES_DIR).iterdir())
