"""Render a report's Markdown as one standalone, readable HTML page.

markdown-it-py (CommonMark + tables) with raw HTML switched off: nothing from a quoted
source becomes markup. Our own `<br>` in table cells is carried through a placeholder,
our hidden `<!-- research-radar:... -->` markers are dropped, bare http(s) URLs become
links, and every table cell carries its column's header as `data-label`, so the tables
read as cards at any width (each row a card, each cell labelled): no column is hidden
or cut, on a phone or a desktop. The page (`templates/report.html.j2`, CSS inline) loads
nothing from outside and runs no script; its Content-Security-Policy says so too.
The static site (`research_radar.site`) embeds the same body through `render_body`.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

import jinja2
import markdown_it
from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.token import Token
from markupsafe import Markup

from research_radar.errors import RenderError
from research_radar.report.templates import environment

__all__ = ["BODY_VERSION", "HtmlPage", "render_body", "render_html", "reuse_body", "stored_body"]

_BR_PLACEHOLDER = "\ue000"
_BR = re.compile(r"<br\s*/?>", re.I)
_MARKER_LINE = re.compile(r"^<!-- research-radar:[^\n]*-->[ \t]*$", re.M)
_URL = re.compile(r"https?://[^\s，。；、）()（\]\[<>\"'`|\ue000]+", re.I)
_TRAILING = ".,;:!?*_~"
_PLAIN_LINK = re.compile(
    r"https?://(?![a-z0-9.-]{254})(?!(?:[a-z0-9-]+\.)*xn--)[a-z0-9-]+(?:\.[a-z0-9-]+)+"
    r"(?:/[A-Za-z0-9/._~#+=-]*)?"
)
"""A link markdown-it's normalisation leaves as it is: ASCII, a lower-case host, no port,
user, query or escape; most of a report's links are such. The host is at most 253
characters (a longer one fails its IDNA step) and has no punycode label (`xn--`, which it
decodes)."""


@dataclass(frozen=True)
class HtmlPage:
    """The context of `report.html.j2`."""

    title: str
    lang: str
    body: Markup
    """The report body, already rendered and safe."""


def _linkify(state: StateCore) -> None:
    """Turn bare http(s) URLs in text into links (markdown-it core rule)."""
    for block in state.tokens:
        if block.type != "inline" or not block.children:
            continue
        children: list[Token] = []
        depth = 0
        for token in block.children:
            depth += {"link_open": 1, "link_close": -1}.get(token.type, 0)
            if token.type == "text" and depth == 0 and _URL.search(token.content):
                children.extend(_split_links(token.content))
            else:
                children.append(token)
        block.children = children


def _text(content: str) -> Token:
    token = Token("text", "", 0)
    token.content = content
    return token


def _split_links(content: str) -> list[Token]:
    tokens: list[Token] = []
    position = 0
    for match in _URL.finditer(content):
        url = match.group(0).rstrip(_TRAILING)
        if match.start() > position:
            tokens.append(_text(content[position : match.start()]))
        link = Token("link_open", "a", 1)
        link.attrs = {"href": url}
        tokens += [link, _text(url), Token("link_close", "a", -1)]
        position = match.start() + len(url)
    if position < len(content):
        tokens.append(_text(content[position:]))
    return tokens


def _mark_external(state: StateCore) -> None:
    for block in state.tokens:
        for token in block.children or []:
            if token.type == "link_open":
                token.attrs["rel"] = "noopener noreferrer"


def _label_cells(state: StateCore) -> None:
    """Give every body cell its column header as `data-label` (the card layout shows it)."""
    headers: list[str] = []
    column = 0
    in_head = False
    for index, token in enumerate(state.tokens):
        if token.type == "thead_open":
            headers, in_head = [], True
        elif token.type == "thead_close":
            in_head = False
        elif token.type == "th_open" and in_head:
            inline = state.tokens[index + 1]
            headers.append(inline.content.strip() if inline.type == "inline" else "")
        elif token.type == "tr_open":
            column = 0
        elif token.type == "td_open":
            if column < len(headers) and headers[column]:
                token.attrSet("data-label", headers[column])
            column += 1


def _plain_first(normalize: Callable[[str], str]) -> Callable[[str], str]:
    """`normalize`, skipped for a plain link: parsing and re-encoding every one of a
    report's hundreds of `<https://...>` links was a third of its rendering (issue #18)."""

    def normalized(url: str) -> str:
        return url if _PLAIN_LINK.fullmatch(url) else normalize(url)

    return normalized


@cache
def _parser() -> MarkdownIt:
    parser = MarkdownIt("commonmark", {"html": False, "typographer": False}).enable("table")
    parser.normalizeLink = _plain_first(parser.normalizeLink)  # type: ignore[method-assign,assignment]
    parser.normalizeLinkText = _plain_first(parser.normalizeLinkText)  # type: ignore[method-assign,assignment]
    parser.core.ruler.push("radar_linkify", _linkify)
    parser.core.ruler.push("radar_rel", _mark_external)
    parser.core.ruler.push("radar_cell_labels", _label_cells)
    return parser


@lru_cache(maxsize=4)
def _body_html(markdown: str) -> str:
    """The body's HTML. Remembered: a daily run renders the same report for the store
    (`stored_body`) and for its page (`render_html`), 25-50 ms each (issue #19)."""
    text = _MARKER_LINE.sub("", markdown.replace(_BR_PLACEHOLDER, ""))
    lines = [
        _BR.sub(_BR_PLACEHOLDER, line) if line.lstrip().startswith("|") else line
        for line in text.split("\n")
    ]
    html: str = _parser().render("\n".join(lines))
    html = html.replace("<table>", '<div class="table-wrap"><table>')
    html = html.replace("</table>", "</table></div>")
    return html.replace(_BR_PLACEHOLDER, "<br>")


def render_body(markdown: str) -> Markup:
    """The HTML body of a report in our Markdown (safe: no markup from quoted sources)."""
    return Markup(_body_html(markdown))


def _body_version() -> str:
    """A hash of this renderer: its code and markdown-it's version."""
    digest = hashlib.sha256(Path(__file__).read_bytes())
    digest.update(markdown_it.__version__.encode("utf-8"))
    return digest.hexdigest()[:16]


BODY_VERSION = _body_version()
"""Changes whenever `render_body` could render the same Markdown differently."""


def stored_body(markdown: str) -> dict[str, str]:
    """A report's HTML body as the store keeps it beside the Markdown (in the report's
    data, under "body"): rendered once when the report is saved, so a site of a thousand
    reports need not render them again (issue #18). `reuse_body` reads it back."""
    return {
        "version": BODY_VERSION,
        "markdown": hashlib.sha256(markdown.encode("utf-8")).hexdigest(),
        "html": str(render_body(markdown)),
    }


def reuse_body(markdown: str, stored: object) -> Markup | None:
    """The stored body of `markdown` (`stored_body`), None when it is missing, made by
    another version of the renderer or of other Markdown."""
    if not isinstance(stored, dict):
        return None
    html = stored.get("html")
    if (
        not isinstance(html, str)
        or stored.get("version") != BODY_VERSION
        or stored.get("markdown") != hashlib.sha256(markdown.encode("utf-8")).hexdigest()
    ):
        return None
    return Markup(html)


def render_html(
    markdown: str, *, title: str, lang: str = "zh-CN", body: Markup | None = None
) -> str:
    """A standalone HTML page for a report in our Markdown.

    `body`: the Markdown's `render_body` when already made (`reuse_body` of the stored
    one: a large report's body is rendered by another process, #19)."""
    page = HtmlPage(
        title=title, lang=lang, body=body if body is not None else render_body(markdown)
    )
    try:
        template = environment().get_template("report.html.j2")
        return str(template.render(page=page))
    except jinja2.TemplateError as exc:
        raise RenderError(f"cannot render the HTML page: {exc}") from exc
