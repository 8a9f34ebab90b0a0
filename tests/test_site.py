"""`radar site`: the static site built from the sample store, checked as files and in a
real headless Chromium (Playwright with Debian's chromium)."""

from __future__ import annotations

import dataclasses
import functools
import json
import os
import re
import threading
from collections.abc import Iterator
from datetime import date
from html.parser import HTMLParser
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from research_radar.classify.profile import load_taxonomy
from research_radar.cli import app
from research_radar.models import (
    Claim,
    ClaimKind,
    Conditions,
    Finding,
    Metric,
    Project,
    Source,
    SourceKind,
    Tag,
)
from research_radar.publish.gate import check_public, load_private_repos
from research_radar.report.html import render_body, reuse_body, stored_body
from research_radar.site.build import MANIFEST, build_site
from research_radar.site.cards import dimension_path, numbered_path, project_path
from research_radar.site.data import load_site_data, may_be_unsafe
from research_radar.site.search import PAGEFIND_DIR, pagefind_executable, search_bundle
from research_radar.store.store import Store, open_store

runner = CliRunner()
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]
needs_chromium = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists(),
        reason="needs Chromium at /usr/bin/chromium (apt-get install chromium)",
    ),
]
WIDTHS = [(1280, 800), (390, 844)]


@pytest.fixture(scope="module")
def sample_site(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """`radar daily --sample`, then `radar site --out site/`: (store path, site folder)."""
    folder = tmp_path_factory.mktemp("site")
    db = folder / "radar-sample.db"
    result = runner.invoke(
        app, ["daily", "--sample", "--db", str(db), "--out", str(folder / "r.md"), "--json"]
    )
    assert result.exit_code == 0, result.output
    out = folder / "site"
    result = runner.invoke(app, ["site", "--db", str(db), "--out", str(out), "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)
    assert summary["pages"] > 20 and summary["indexed"] is True
    return db, out


def _pages(site: Path) -> list[Path]:
    return sorted(p for p in site.rglob("*.html") if "pagefind" not in p.parts)


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []
        self.text: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self._skip += 1
        for name, value in attrs:
            if name in ("href", "src") and value:
                self.links.append(value)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self.text.append(data)


def _parse(page: Path) -> _Links:
    parser = _Links()
    parser.feed(page.read_text(encoding="utf-8"))
    return parser


# -- files ------------------------------------------------------------------------------


def test_sample_site_has_every_kind_of_page(sample_site: tuple[Path, Path]) -> None:
    _, site = sample_site
    for name in ("index.html", "search.html", "charts.html", "reports/2026-08-29.html"):
        assert (site / name).is_file(), name
    for folder in ("projects", "families", "dimensions"):
        assert (site / folder / "index.html").is_file()
        assert len(list((site / folder).glob("*.html"))) > 2
    assert (site / "pagefind" / "pagefind.js").is_file()
    ninfer = (site / project_path("gh:neroued/ninfer")).read_text(encoding="utf-8")
    assert "NInfer" in ninfer and "Neroued/ninfer" in ninfer
    assert "reports/2026-08-29.html" in (site / "index.html").read_text(encoding="utf-8")
    machx = (site / project_path("gh:red-weasel/machx-inference-engine")).read_text("utf-8")
    assert "Red-Weasel/mach-x" in machx  # the rename
    assert "Arc Pro B70" in machx and "1ce94927b4f9" in machx  # conditions, pinned version
    fork = (site / project_path("gh:zhongpei/ninfer-4090")).read_text(encoding="utf-8")
    assert project_path("gh:neroued/ninfer") in fork  # the fork links to its parent


def test_project_page_indexes_each_condition_value_once(sample_site: tuple[Path, Path]) -> None:
    """The search index reads a project's condition values from one line, each once; the
    claims' own condition rows stay on the page for the reader, out of the index."""
    db, site = sample_site
    findings = [
        f for f in open_store(str(db)).load_findings() if f.project_key == "gh:amd-agi/infera"
    ]
    conditions = [c.conditions for f in findings for c in f.claims]
    expected = {
        v
        for c in conditions
        for v in [*c.hardware, *c.model, *c.precision, *c.baseline, *c.software]
    }
    expected |= {f"{k} {v}" for c in conditions for k, v in c.load.items()}
    assert expected >= {"MI355X", "MXFP4"}
    html = (site / project_path("gh:amd-agi/infera")).read_text(encoding="utf-8")
    line = re.search(r'<p class="conditions">条件 Conditions：(.*?)</p>', html)
    assert line is not None
    values = line[1].split(" · ")
    assert len(values) == len(set(values)) and set(values) == expected
    rows = re.findall(r'<dl class="fields"[^>]*>\n<div><dt>hardware</dt>', html)
    assert rows and all("data-pagefind-ignore" in row for row in rows)


def test_report_page_keeps_every_column_as_labelled_cells(sample_site: tuple[Path, Path]) -> None:
    _, site = sample_site
    page = (site / "reports" / "2026-08-29.html").read_text(encoding="utf-8")
    for label in (
        "新增机制及 prior art",
        "关键证据 / 缺口",
        "成熟度 / 推荐级别",
        "时效版本",
        "来源",
    ):
        assert f'data-label="{label}"' in page


def test_charts_are_static_svg_with_titles(sample_site: tuple[Path, Path]) -> None:
    _, site = sample_site
    charts = (site / "charts.html").read_text(encoding="utf-8")
    assert charts.count("<svg") >= 3
    assert "<title>" in charts.split("<svg", 1)[1]
    assert "<script" not in charts


def test_no_broken_internal_link(sample_site: tuple[Path, Path]) -> None:
    _, site = sample_site
    broken = []
    checked = 0
    for page in _pages(site):
        for link in _parse(page).links:
            parts = urlsplit(link)
            if parts.scheme or link.startswith(("#", "//")):
                continue
            target = (page.parent / unquote(parts.path)).resolve()
            checked += 1
            if not target.is_file():
                broken.append(f"{page.relative_to(site)} -> {link}")
    assert checked > 100
    assert broken == []


def test_every_page_passes_the_public_only_gate(sample_site: tuple[Path, Path]) -> None:
    _, site = sample_site
    for page in _pages(site):
        text = "\n".join(_parse(page).text)
        assert check_public(text) == [], page


def test_rebuild_touches_only_changed_pages(sample_site: tuple[Path, Path], tmp_path: Path) -> None:
    db, _ = sample_site
    store = open_store(str(db))
    taxonomy = load_taxonomy()
    out = tmp_path / "site"
    first = build_site(load_site_data(store), taxonomy, out, search=False)
    assert first.written == first.pages + 2  # pages and the two assets
    (out / "mine.txt").write_text("not the site's", encoding="utf-8")
    again = build_site(load_site_data(store), taxonomy, out, search=False)
    assert again.written == 0 and again.unchanged == first.written and not again.indexed
    assert again.rendered == 0  # nothing rendered: every page's inputs are as before
    finding = store.load_findings()[-1].model_copy(update={"date": date(2026, 8, 30)})
    with store.transaction() as conn:
        store.save_finding(conn, finding)
    changed = build_site(load_site_data(store), taxonomy, out, search=False)
    assert 0 < changed.written <= changed.rendered < first.pages // 2
    # a page whose file went missing is rendered again even though its inputs did not change
    (out / project_path(finding.project_key)).unlink()
    restored = build_site(load_site_data(store), taxonomy, out, search=False)
    assert restored.rendered == restored.written == 1
    assert (out / "mine.txt").is_file()
    manifest = json.loads((out / MANIFEST).read_text(encoding="utf-8"))
    assert "mine.txt" not in manifest["files"]


def test_site_data_hash_follows_what_the_site_shows(
    sample_site: tuple[Path, Path], tmp_path: Path
) -> None:
    """The hash that lets an unchanged rebuild skip rendering changes with any input."""
    db, _ = sample_site
    copy = tmp_path / "radar.db"
    copy.write_bytes(db.read_bytes())
    store = open_store(str(copy))
    first = load_site_data(store).digest
    assert first and load_site_data(store).digest == first
    with store.transaction() as conn:
        store.save_alias(conn, "someone/renamed", store.load_findings()[0].project_key, "rename")
    aliased = load_site_data(store).digest
    assert aliased != first
    with store.transaction() as conn:
        store.save_report(conn, date(2026, 8, 31), "zh", "## 2026-08-31\n", {})
    assert load_site_data(store).digest not in (first, aliased)
    assert load_site_data(store, language="en").digest != load_site_data(store).digest


@pytest.mark.parametrize(
    ("path", "bundle"),
    [
        pytest.param("projects/gh-a-b-123456.html", PAGEFIND_DIR, id="project"),
        pytest.param("reports/2026-08-29.html", "pagefind-reports/2026", id="report"),
        pytest.param("projects/index.html", None, id="project-list"),
        pytest.param("reports/index.html", None, id="report-list"),
        pytest.param("families/fam-x-123456.html", None, id="family"),
        pytest.param("index.html", None, id="home"),
    ],
)
def test_only_reports_and_projects_are_indexed_each_in_its_bundle(
    path: str, bundle: str | None
) -> None:
    assert search_bundle(path) == bundle


@pytest.mark.skipif(pagefind_executable() is None, reason="needs pagefind-bin-extended")
def test_rebuild_reindexes_only_the_changed_bundles(
    sample_site: tuple[Path, Path], tmp_path: Path
) -> None:
    db, _ = sample_site
    copy = tmp_path / "radar.db"
    copy.write_bytes(db.read_bytes())
    store = open_store(str(copy))
    taxonomy = load_taxonomy()
    out = tmp_path / "site"
    first = build_site(load_site_data(store), taxonomy, out)
    assert first.indexed and "pagefind-reports/2026" in first.search
    reports = out / "pagefind-reports" / "2026" / "pagefind-entry.json"
    projects = out / PAGEFIND_DIR / "pagefind-entry.json"
    stamps = reports.stat().st_mtime_ns, projects.stat().st_mtime_ns
    again = build_site(load_site_data(store), taxonomy, out)
    assert not again.indexed
    assert (reports.stat().st_mtime_ns, projects.stat().st_mtime_ns) == stamps
    # a finding on a new day without a report changes a project page, no report page
    # (a day no other test adds: they share the sample store)
    finding = store.load_findings()[-1].model_copy(update={"date": date(2026, 8, 31)})
    with store.transaction() as conn:
        store.save_finding(conn, finding)
    changed = build_site(load_site_data(store), taxonomy, out)
    assert changed.indexed and changed.search.startswith(PAGEFIND_DIR + ":")
    assert "pagefind-reports" not in changed.search
    assert reports.stat().st_mtime_ns == stamps[0]
    assert projects.stat().st_mtime_ns != stamps[1]


def test_worker_processes_build_the_same_site(
    sample_site: tuple[Path, Path], tmp_path: Path
) -> None:
    db, _ = sample_site
    data = load_site_data(open_store(str(db)))
    taxonomy = load_taxonomy()
    alone = build_site(data, taxonomy, tmp_path / "one", search=False, workers=1)
    pooled = build_site(data, taxonomy, tmp_path / "two", search=False, workers=2, batch=4)
    assert pooled.rendered == alone.rendered == alone.pages
    one = json.loads((tmp_path / "one" / MANIFEST).read_text(encoding="utf-8"))
    two = json.loads((tmp_path / "two" / MANIFEST).read_text(encoding="utf-8"))
    assert one == two


@pytest.mark.skipif(pagefind_executable() is None, reason="needs pagefind-bin-extended")
def test_bundles_indexed_while_pages_render_index_every_page(
    sample_site: tuple[Path, Path], tmp_path: Path
) -> None:
    db, _ = sample_site
    data = load_site_data(open_store(str(db)))
    taxonomy = load_taxonomy()
    alone = build_site(data, taxonomy, tmp_path / "one", workers=1)
    pooled = build_site(data, taxonomy, tmp_path / "two", workers=2, batch=2)
    assert pooled.search == alone.search and "pagefind-reports/2026" in pooled.search

    def index(site: Path) -> dict[str, bytes]:
        return {
            str(file.relative_to(site)): file.read_bytes()
            for folder in ("pagefind", "pagefind-reports")
            for file in sorted((site / folder).rglob("*"))
            if file.is_file()
        }

    # Pagefind names its files by their content: the same files, the same pages indexed
    assert index(tmp_path / "two") == index(tmp_path / "one")


def test_report_bodies_stored_by_the_daily_render_as_the_markdown(
    sample_site: tuple[Path, Path], tmp_path: Path
) -> None:
    db, _ = sample_site
    data = load_site_data(open_store(str(db)))
    assert data.bodies and data.bodies.keys() == data.reports.keys()
    taxonomy = load_taxonomy()
    stored = build_site(data, taxonomy, tmp_path / "stored", search=False, workers=1)
    older = dataclasses.replace(data, bodies={})  # a store saved before bodies were kept
    rendered = build_site(older, taxonomy, tmp_path / "rendered", search=False, workers=1)
    assert stored.pages == rendered.pages
    for page in sorted((tmp_path / "rendered").rglob("*.html")):
        relative = page.relative_to(tmp_path / "rendered")
        assert (tmp_path / "stored" / relative).read_bytes() == page.read_bytes(), relative


def test_a_stored_body_of_other_markdown_is_not_reused() -> None:
    markdown = "## 2026-08-01\n\n| a | b |\n|---|---|\n| <https://github.com/o/r> | x |\n"
    body = stored_body(markdown)
    assert reuse_body(markdown, body) == render_body(markdown)
    assert reuse_body(markdown + "| c | d |\n", body) is None
    assert reuse_body(markdown, {**body, "version": "older"}) is None
    assert reuse_body(markdown, None) is None


def test_long_lists_are_paginated_rows(sample_site: tuple[Path, Path], tmp_path: Path) -> None:
    db, _ = sample_site
    out = tmp_path / "site"
    taxonomy = load_taxonomy()
    build_site(load_site_data(open_store(str(db))), taxonomy, out, search=False, page_size=3)
    # the mechanisms the sample tags on more than three findings get a second page
    paged = [
        value
        for value in taxonomy.dimension("mechanism").value_ids
        if (out / numbered_path(dimension_path("mechanism", value), 2)).is_file()
    ]
    assert paged, "no mechanism of the sample has more than three findings"
    first = out / dimension_path("mechanism", paged[0])
    second = out / numbered_path(dimension_path("mechanism", paged[0]), 2)
    assert second.name.endswith("-p2.html")
    assert first.read_text(encoding="utf-8").count("data-card") == 3
    for page in (first, second):
        html = page.read_text(encoding="utf-8")
        assert 1 <= html.count("data-card") <= 3
        assert '<article class="card"' not in html  # compact rows, not full cards
        assert second.name in _parse(first).links and first.name in _parse(second).links


def _private_store(path: Path) -> Store:
    store = open_store(str(path))
    day = date(2026, 9, 1)
    secret = Source(
        key="gh:secret-org/engine",
        kind=SourceKind.REPO,
        url="https://github.com/secret-org/engine",
        meta={"private": True},
    )
    claim = Claim(
        kind=ClaimKind.PERFORMANCE,
        text="decode",
        metrics=[Metric(name="decode", value=120, unit="tok/s")],
        conditions=Conditions(hardware=["H20"], model=["Qwen3-8B"], precision=["FP8"]),
    )
    tags = {"mechanism": [Tag(dimension="mechanism", value="cache")]}
    findings = [
        Finding(
            project_key="gh:open-org/fast",
            name="open-org/fast",
            date=day,
            tags=tags,
            claims=[claim],
            mechanism="Public engine with KV 缓存卸载",
        ),
        Finding(
            project_key="gh:secret-org/engine",
            name="secret-org/engine",
            date=day,
            url="https://github.com/secret-org/engine",
            mechanism="private work",
        ),
        Finding(
            project_key="gh:open-org/leaky",
            name="open-org/leaky",
            date=day,
            mechanism="see /home/alice/notes.txt and ghp_" + "a" * 36,
        ),
    ]
    with store.transaction() as conn:
        store.save_source(conn, secret)
        for finding in findings:
            store.save_finding(conn, finding)
            store.save_project(conn, Project(key=finding.project_key, name=finding.name))
        store.save_report(
            conn, day, "zh", "## 2026-09-01\n\nsee https://github.com/secret-org/engine\n", {}
        )
    return store


def test_nothing_private_reaches_the_site(tmp_path: Path) -> None:
    store = _private_store(tmp_path / "radar.db")
    data = load_site_data(store, private_repos=load_private_repos(store))
    assert data.withheld_findings == 2 and data.withheld_reports == [date(2026, 9, 1)]
    result = build_site(data, load_taxonomy(), tmp_path / "site", search=False)
    assert result.withheld_findings == 2
    everything = "\n".join(p.read_text(encoding="utf-8") for p in _pages(tmp_path / "site"))
    assert "open-org/fast" in everything
    for leak in ("secret-org", "/home/alice", "ghp_", "leaky"):
        assert leak not in everything, leak
    assert not (tmp_path / "site" / "reports" / "2026-09-01.html").exists()


UNSAFE = [
    "see /tmp/x for details",
    "log at /srv/build/a.py",
    "x\n/srv/data/y",
    "under C:\\Users\\alice",
    "file:///etc/passwd",
    "notes in ~/notes.md",
    "/home/alice",
    "ghp_" + "a" * 36,
    "token sk-" + "a" * 24,
    "-----BEGIN RSA PRIVATE KEY-----",
    "https://evil.example.com/x",
    "www.example.org/page",
    "https://github.com@evil.com/",
    "https://github.com.evil.org/a",
    "http://127.0.0.1:8000/",
    "/a/视频.mp4",
]
FRAGMENTS = [
    "https://",
    "http://",
    "github.com",
    "arxiv.org",
    "evil.org",
    "www.",
    "/",
    "//",
    "tmp",
    "home",
    "srv",
    "a.txt",
    ".md",
    "视频",
    " ",
    "\n",
    "\t",
    "ghp_",
    "a" * 36,
    "sk-",
    "C:\\",
    "~/",
    "file://",
    "sec/x",
    "Sec/X",
    "@",
    "#12",
    "@0123abc",
    ":",
    "-",
    "_",
    ".",
    "图",
    "x",
]


@pytest.mark.parametrize("text", UNSAFE)
def test_prescreen_flags_what_the_gate_refuses(text: str) -> None:
    assert check_public(text) != []
    assert may_be_unsafe(text)


@settings(max_examples=400)
@given(
    parts=st.lists(st.sampled_from(FRAGMENTS), max_size=12)
    | st.lists(st.text(alphabet="ab/.:~@-_\\ \nhtpsw:gkxAC0#图", max_size=6), max_size=8)
)
def test_prescreen_passes_nothing_the_gate_refuses(parts: list[str]) -> None:
    text = "".join(parts)
    if check_public(text, private_repos={"sec/x"}):
        assert may_be_unsafe(text, {"sec/x"}), text


def test_site_help_has_an_example() -> None:
    result = runner.invoke(app, ["site", "--help"])
    assert result.exit_code == 0
    assert "radar site --out site/" in result.output


def test_site_without_a_store_says_how_to_make_one(tmp_path: Path) -> None:
    result = runner.invoke(
        app, ["site", "--db", str(tmp_path / "none.db"), "--out", str(tmp_path / "s")]
    )
    assert result.exit_code == 1
    assert "radar daily" in result.output


# -- in a real browser ------------------------------------------------------------------


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        pass


@pytest.fixture(scope="module")
def served(sample_site: tuple[Path, Path]) -> Iterator[str]:
    _, site = sample_site
    server = ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(_QuietHandler, directory=str(site))
    )
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def browser(sample_site: tuple[Path, Path]) -> Iterator[Any]:
    if not CHROMIUM.exists():
        pytest.skip("needs Chromium at /usr/bin/chromium")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture(scope="module")
def artifacts(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where screenshots go: $RADAR_TEST_ARTIFACTS, else a temporary folder."""
    configured = os.environ.get("RADAR_TEST_ARTIFACTS")
    folder = Path(configured) if configured else tmp_path_factory.mktemp("artifacts")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _tab(browser: Any, width: int = 1280, height: int = 800) -> tuple[Any, list[str]]:
    """One tab, reused page after page; `problems` collects console errors and failures."""
    problems: list[str] = []
    page = browser.new_page(viewport={"width": width, "height": height})
    page.on(
        "console", lambda m: problems.append(m.text) if m.type in ("error", "warning") else None
    )
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.on("requestfailed", lambda r: problems.append(f"failed: {r.url}"))
    return page, problems


def _open(browser: Any, url: str, width: int = 1280, height: int = 800) -> tuple[Any, list[str]]:
    page, problems = _tab(browser, width, height)
    page.goto(url, wait_until="load")
    return page, problems


@pytest.mark.browser
def test_every_page_loads_without_console_errors(
    browser: Any, served: str, sample_site: tuple[Path, Path]
) -> None:
    _, site = sample_site
    page, problems = _tab(browser)
    for path in _pages(site):
        url = f"{served}/{path.relative_to(site).as_posix()}"
        page.goto(url, wait_until="load")
        assert problems == [], url
    page.close()


_OVERFLOW = """() => {
  const width = document.documentElement.clientWidth;
  const out = [];
  for (const el of document.querySelectorAll('main *')) {
    if (el.closest('svg') && el.tagName.toLowerCase() !== 'svg') continue;
    const style = getComputedStyle(el);
    if (style.display === 'none' || style.visibility === 'hidden') continue;
    if (el.closest('thead, pre')) continue;
    const rect = el.getBoundingClientRect();
    if (rect.width === 0 && rect.height === 0) continue;
    if (rect.right > width + 1) out.push(el.tagName + ' ' + Math.round(rect.right));
    if (el.scrollWidth > el.clientWidth + 1 && style.overflowX !== 'visible' && el.tagName !== 'svg')
      out.push('clipped ' + el.tagName + ' ' + el.className);
  }
  return {page: document.documentElement.scrollWidth - width, out: out.slice(0, 5)};
}"""

_CELLS = """() => [...document.querySelectorAll('.report td')].map(td => {
  const r = td.getBoundingClientRect();
  return {label: td.dataset.label || '', shown: getComputedStyle(td).display !== 'none' && r.height > 0,
          inside: r.left >= 0 && r.right <= document.documentElement.clientWidth + 1};
})"""


@pytest.mark.browser
@pytest.mark.parametrize(("width", "height"), WIDTHS, ids=["desktop", "phone"])
def test_nothing_overflows_and_every_column_shows(
    browser: Any,
    served: str,
    sample_site: tuple[Path, Path],
    artifacts: Path,
    width: int,
    height: int,
) -> None:
    _, site = sample_site
    shots = {
        "home": "index.html",
        "report": "reports/2026-08-29.html",
        "project": project_path("gh:red-weasel/machx-inference-engine"),
    }
    kinds = ("projects", "families", "dimensions")
    others = ["charts.html", "search.html", *(f"{kind}/index.html" for kind in kinds)]
    others += [
        next(p for p in sorted((site / kind).glob("*.html")) if p.name != "index.html")
        .relative_to(site)
        .as_posix()
        for kind in kinds
    ]
    page, problems = _tab(browser, width, height)
    for path in [*shots.values(), *others]:
        page.goto(f"{served}/{path}", wait_until="load")
        result = page.evaluate(_OVERFLOW)
        assert result["page"] <= 0, f"{path} scrolls sideways at {width}px by {result['page']}px"
        assert result["out"] == [], f"{path} at {width}px: {result['out']}"
        if "report" in page.evaluate(
            "() => [...document.querySelectorAll('.report')].length ? 'report' : ''"
        ):
            cells = page.evaluate(_CELLS)
            assert cells and all(c["shown"] and c["inside"] for c in cells), path
            assert {c["label"] for c in cells} >= {"来源", "时效版本", "关键证据 / 缺口"}
        for name, shot_path in shots.items():
            if shot_path == path:
                shot = artifacts / f"site-{name}-{width}.png"
                page.screenshot(path=str(shot), full_page=True)
                assert shot.stat().st_size > 10_000
        assert problems == [], path
    page.close()


@pytest.mark.browser
def test_facets_filter_the_cards(browser: Any, served: str) -> None:
    page, problems = _open(browser, f"{served}/{dimension_path('mechanism', 'cache')}")
    page.wait_for_selector("form.facets:not([hidden])")
    cards = page.locator("[data-card]")
    total = cards.count()
    assert total >= 2
    assert page.locator("form.facets").is_visible()
    select = page.locator("form.facets select[name=workload]")
    options = [o for o in select.locator("option").all_inner_texts()]
    assert len(options) >= 2
    select.select_option(index=1)
    value = select.input_value()
    visible = page.locator("[data-card]:not([hidden])")
    assert 0 < visible.count() <= total
    for index in range(visible.count()):
        assert value in (visible.nth(index).get_attribute("data-facets") or "").split()
    page.locator("form.facets select[name=recommendation]").select_option(index=1)
    assert page.locator("[data-card]:not([hidden])").count() <= visible.count()
    page.locator("form.facets button[type=reset]").click()
    # a locator assertion polls from Python: the site's CSP forbids the eval that a string
    # predicate of wait_for_function needs
    from playwright.sync_api import expect

    expect(page.locator("[data-card]:not([hidden])")).to_have_count(total)
    page.close()
    assert problems == []


@pytest.mark.browser
@pytest.mark.skipif(pagefind_executable() is None, reason="needs pagefind-bin-extended")
@pytest.mark.parametrize(
    ("query", "project"),
    [
        ("模型专属", "gh:neroued/ninfer"),
        ("SYCL", "gh:red-weasel/machx-inference-engine"),
        # only a claim's conditions name it: indexed once, in the page's conditions line
        ("MXFP4", "gh:amd-agi/infera"),
    ],
    ids=["chinese", "english", "condition"],
)
def test_search_finds_the_right_project(
    browser: Any, served: str, query: str, project: str
) -> None:
    page, problems = _open(browser, f"{served}/search.html?q={query}")
    page.wait_for_selector(".pagefind-ui__result-link", timeout=15_000)
    links = page.locator(".pagefind-ui__result-link")
    hrefs = [links.nth(i).get_attribute("href") or "" for i in range(links.count())]
    assert any(href.endswith(project_path(project)) for href in hrefs), hrefs
    page.close()
    assert problems == []


@pytest.mark.browser
@pytest.mark.skipif(pagefind_executable() is None, reason="needs pagefind-bin-extended")
def test_search_finds_a_report_in_its_years_bundle(browser: Any, served: str) -> None:
    """Words only a report's prose has are found through the year's merged bundle."""
    page, problems = _open(browser, f"{served}/search.html?q=证据索引")
    page.wait_for_selector(".pagefind-ui__result-link", timeout=15_000)
    links = page.locator(".pagefind-ui__result-link")
    hrefs = [links.nth(i).get_attribute("href") or "" for i in range(links.count())]
    assert any(href.endswith("reports/2026-08-29.html") for href in hrefs), hrefs
    page.close()
    assert problems == []
