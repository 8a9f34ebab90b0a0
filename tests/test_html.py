from __future__ import annotations

import functools
import re
import threading
from collections.abc import Callable, Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from research_radar.report.html import _PLAIN_LINK, render_html

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
LEAD_GOLDEN = Path(__file__).parent / "golden" / "report-zh.md"

REPORT = """<!-- research-radar:report 2026-11-30 zh -->
## 2026-11-30｜Research Radar 日报

证据截止：北京时间 2026-11-30 08:30:00；宿主 example-org/inferhost 默认分支 `0123456789abcdef0123456789abcdef01234567`（发布前复核未变）。
本轮 1 项值得验证；无强性能推荐；不跨条件排名。引用原文：<script>alert("x")</script> <img src=x onerror=alert(1)>

### 值得验证

| 分类 / 项目与目标模型 | 新增机制及 prior art | 关键证据 / 缺口 | 成熟度 / 推荐级别 | 时效版本 | 宿主接点 / 优先级 | 来源 |
|---|---|---|---|---|---|---|
| **NInfer**<br>负载：LLM 与 Agentic；层级：模型执行；RSI：独立验证（engine） | 机制：Cache 缓存。prior art：模型特化组合 | 作者报告：922.4 tok/s（RTX 5090 · Qwen3-27B · NVFP4 · C=8 · vs llama.cpp） | Code available / 值得验证 | 新进展 · `5ea3242a`（2026-10-29） | 可扩展缺口：`docs/kv-cache-offload.md`、#112；P1 · Next | [S1] |

### 证据索引
S1 **NInfer** — `Neroued/ninfer@5ea3242a206cdb0c4c1beaeb9d8a3048e6248423`（2026-10-29）
来源：https://github.com/Neroued/ninfer/tree/5ea3242a206cdb0c4c1beaeb9d8a3048e6248423。[link](javascript:alert(1))
"""


def test_html_golden(golden: Callable[[str, str], None]) -> None:
    golden("report-zh.html", render_html(REPORT, title="2026-11-30 Research Radar 日报"))


def test_raw_html_is_not_passed_through_but_br_in_cells_is() -> None:
    page = render_html(REPORT, title="t")
    body = page.split("<main>", 1)[1]
    assert "<script" not in body and "<img" not in body
    assert "&lt;script&gt;" in body
    assert "<strong>NInfer</strong><br>负载" in body
    assert "research-radar:report" not in page
    assert 'href="javascript' not in page
    assert (
        '<a href="https://github.com/Neroued/ninfer/tree/5ea3242a206cdb0c4c1beaeb9d8a3048e6248423"'
        in body
    )
    assert '<div class="table-wrap"><table>' in body
    assert '<td data-label="新增机制及 prior art">机制：Cache 缓存' in body


def test_page_has_no_external_assets_or_scripts() -> None:
    page = render_html(REPORT, title='a "quoted" <title>')
    assert "<title>a &#34;quoted&#34; &lt;title&gt;</title>" in page
    assert "<script" not in page
    assert not re.search(r"""(?:src|href)=["']?(?:https?:)?//""", page.split("<main>")[0])
    assert "default-src 'none'" in page


@given(text=st.text(max_size=200))
def test_any_text_renders_without_raw_html(text: str) -> None:
    body = render_html(text, title="x").split("<main>", 1)[1]
    tags = set(re.findall(r"<([a-z0-9]+)", body))
    allowed = {"p", "br", "h1", "h2", "h3", "h4", "h5", "h6", "a", "code", "pre", "em", "strong"}
    allowed |= {
        "ul",
        "ol",
        "li",
        "blockquote",
        "hr",
        "table",
        "thead",
        "tbody",
        "tr",
        "th",
        "td",
        "div",
    }
    allowed |= {"img"}  # Markdown images; the page's CSP allows data: images only
    assert tags <= allowed | {"main", "body", "html"}
    assert "<script" not in body.lower()


# -- in a real browser ------------------------------------------------------------------


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Callable[[str, str], str]]:
    """Write pages into tmp_path and serve them from 127.0.0.1 on a free port."""
    handler = functools.partial(_QuietHandler, directory=str(tmp_path))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()

    def publish(name: str, html: str) -> str:
        (tmp_path / name).write_text(html, encoding="utf-8")
        return f"http://127.0.0.1:{server.server_port}/{name}"

    yield publish
    server.shutdown()
    server.server_close()


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        pass


def _wide_report() -> str:
    markdown = LEAD_GOLDEN.read_text(encoding="utf-8") if LEAD_GOLDEN.is_file() else REPORT
    row = (
        "| **Wide**<br>"
        + "很长的说明文字" * 40
        + " | "
        + "`"
        + "f" * 40
        + "` | x | y | z | w | v |"
    )
    return (
        markdown
        + "\n\n### 宽表\n\n"
        + REPORT.split("### 值得验证\n\n")[1].split("\n\n")[0]
        + "\n"
        + row
        + "\n"
    )


_CELLS = """() => {
  const width = document.documentElement.clientWidth;
  return [...document.querySelectorAll('td')].map(td => {
    const box = td.getBoundingClientRect();
    const style = getComputedStyle(td);
    return {
      label: td.dataset.label || '',
      shown: style.display !== 'none' && style.visibility !== 'hidden' && box.height > 0,
      inside: box.left >= 0 && box.right <= width + 1 && td.scrollWidth <= td.clientWidth + 1,
    };
  });
}"""
"""Each report cell as the reader sees it: labelled, shown, and inside the viewport."""


@pytest.mark.browser
@pytest.mark.skipif(
    not CHROMIUM.exists(), reason="needs Chromium at /usr/bin/chromium (apt-get install chromium)"
)
@pytest.mark.parametrize(("width", "height"), [(1280, 800), (390, 844)], ids=["desktop", "phone"])
def test_report_reads_well_in_headless_chromium(
    served: Callable[[str, str], str], tmp_path: Path, width: int, height: int
) -> None:
    sync_api = pytest.importorskip("playwright.sync_api")
    url = served("report.html", render_html(_wide_report(), title="2026-11-30 Research Radar 日报"))
    problems: list[str] = []
    foreign: list[str] = []
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": width, "height": height})
            page.on(
                "console",
                lambda m: problems.append(m.text) if m.type in ("error", "warning") else None,
            )
            page.on("pageerror", lambda e: problems.append(str(e)))
            page.on(
                "request",
                lambda r: (
                    None if r.url.startswith(url.rsplit("/", 1)[0]) else foreign.append(r.url)
                ),
            )
            page.goto(url, wait_until="load")
            tables = page.locator("table")
            assert tables.count() >= 2
            first = tables.first
            assert first.locator("tbody tr").count() >= 1
            assert page.locator("script").count() == 0
            overflow = page.evaluate(
                "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
            )
            assert overflow <= 0, f"the page scrolls sideways by {overflow}px"
            cells = page.evaluate(_CELLS)
            headers = first.locator("thead th").all_inner_texts()
            assert len(headers) == 7 and "分类" in headers[0]
            labels = {cell["label"] for cell in cells}
            assert set(headers[1:]) <= labels, "every column keeps its header beside its value"
            hidden = [cell for cell in cells if not cell["shown"]]
            assert hidden == [], f"{len(hidden)} cells hidden at {width}px"
            outside = [cell for cell in cells if not cell["inside"]]
            assert outside == [], f"{len(outside)} cells cut at {width}px: {outside[:2]}"
            shot = tmp_path / f"report-{width}.png"
            page.screenshot(path=str(shot), full_page=True)
            assert shot.stat().st_size > 10_000
        finally:
            browser.close()
    assert problems == []
    assert foreign == []


@given(st.from_regex(_PLAIN_LINK, fullmatch=True))
def test_plain_links_are_links_markdown_it_leaves_as_they_are(url: str) -> None:
    """The renderer skips normalising plain links; markdown-it's own would not change them."""
    parser = MarkdownIt("commonmark")
    assert parser.normalizeLink(url) == url
    assert parser.normalizeLinkText(url) == url
