"""One file of the site before it is rendered: its template, its context and a
fingerprint of both (pure).

A `Page` holds what it shows and a fingerprint of it (plus the version of the templates
and of the site's code), so a rebuild renders only pages whose inputs changed
(`research_radar.site.build`), and rendering can run in other processes (`render_batch`).
A card in a context stands in the fingerprint by its digest, computed once per finding.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup
from pydantic import BaseModel

from research_radar.errors import RenderError
from research_radar.report.html import render_body
from research_radar.report.templates import environment
from research_radar.site.cards import Card

__all__ = ["CODE_VERSION", "Body", "Page", "Rendered", "make_page", "render_batch"]

_CSS = "assets/site.css"
_TABLE = '<div class="table-wrap">'


@dataclass(frozen=True)
class Body:
    """A report's Markdown, rendered to HTML only when its page is rendered, unless its
    HTML was stored with it."""

    markdown: str
    html: str | None = None
    """The body as stored with the report (`reuse_body`); None: render the Markdown."""


@dataclass(frozen=True)
class Page:
    """One file of the site, not rendered yet.

    `fingerprint` changes whenever anything the page shows changes (its context, its
    template, the templates' and this code's version); `render()` makes the HTML.
    """

    path: str
    template: str
    context: dict[str, Any]
    indexed: bool
    fingerprint: str

    @property
    def render_here(self) -> bool:
        """A page that shows a report body stored with the report: the body is most of
        what the page would send to a worker process, and of the HTML it would send back,
        and costs nothing to render (issue #18)."""
        found = [value for value in self.context.values() if isinstance(value, Body)]
        return bool(found) and all(value.html is not None for value in found)

    def render(self, bodies: Mapping[str, str] | None = None) -> str:
        """The page's HTML; `bodies`: Markdown -> body, for bodies not stored with it."""
        context = {
            key: _body(
                value.markdown,
                value.html
                if value.html is not None or bodies is None
                else bodies.get(value.markdown),
            )
            if isinstance(value, Body)
            else value
            for key, value in self.context.items()
        }
        return _render(self.template, **context)


Rendered = tuple[list[str], list[tuple[str, str]]]
"""What `render_batch` makes: the pages' HTML, and (Markdown, body) of each report body
it rendered."""


def render_batch(pages: Sequence[Page]) -> Rendered:
    """The HTML of each page, and each report body rendered for them (a body not stored
    with its report, or stored by another version of the renderer), for the build to
    keep (`research_radar.site.bodies`). Runs in a worker process, too: pages pickle."""
    fresh: dict[str, str] = {}
    htmls = []
    for page in pages:
        for value in page.context.values():
            if isinstance(value, Body) and value.html is None and value.markdown not in fresh:
                fresh[value.markdown] = str(render_body(value.markdown))
        htmls.append(page.render(fresh))
    return htmls, list(fresh.items())


@functools.lru_cache(maxsize=4)
def _body(markdown: str, stored: str | None = None) -> Markup:
    """A report body (`stored`, or rendered from the Markdown), made once for the report
    page and the home page.

    Its tables stay out of the search index: each row is a finding that its project's
    page indexes, so every entity is indexed once, and a report's tables are most of what
    Pagefind would read (issue #18).
    """
    html = str(render_body(markdown)) if stored is None else stored
    return Markup(html.replace(_TABLE, _TABLE.removesuffix(">") + " data-pagefind-ignore>"))


def _render(name: str, **context: Any) -> str:
    try:
        return str(environment().get_template(f"site/{name}").render(**context))
    except jinja2.TemplateError as exc:
        raise RenderError(f"cannot render the site page {name}: {exc}") from exc


def _code_version() -> str:
    """A hash of the templates and of the code that shapes the pages."""
    here = Path(__file__).parent
    report = here.parent / "report"
    files = sorted(
        [
            *here.glob("*.py"),
            *(here / "assets").glob("*"),
            *(report / "templates").rglob("*.j2"),
            report / "html.py",
            report / "wording.py",
        ]
    )
    digest = hashlib.sha256()
    for file in files:
        digest.update(file.name.encode("utf-8"))
        try:
            digest.update(file.read_bytes())
        except OSError:
            continue
    return digest.hexdigest()


CODE_VERSION = _code_version()
"""A hash of the templates and of the code that shapes the pages."""


def _plain(value: Any) -> Any:
    """A JSON-able stand-in for a context value (for fingerprints).

    Cards come first: they are nearly every value this is called for, and a check against
    a pydantic model class is slow.
    """
    if type(value) is Card:
        return value.digest
    if isinstance(value, Body):
        return value.markdown
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    if dataclasses.is_dataclass(value):
        return repr(value)
    if isinstance(value, (set, frozenset)):
        return sorted(value)
    if isinstance(value, tuple):
        return list(value)
    raise TypeError(f"cannot fingerprint {type(value).__name__}")


# Keys are not sorted (a fifth of the fingerprints' cost, issue #18): the code builds a
# context's dicts in a fixed order from the same inputs, and a dict read from the store
# keeps its stored order; another order would only render a page once more.
_ENCODE = json.JSONEncoder(default=_plain, ensure_ascii=False, separators=(",", ":")).encode


def _fingerprint(template: str, context: dict[str, Any]) -> str:
    return hashlib.sha256(f"{CODE_VERSION}\n{template}\n{_ENCODE(context)}".encode()).hexdigest()


def make_page(path: str, template: str, title: str, **context: Any) -> Page:
    """A page of the site at `path` (relative to its root), with the context every page
    template reads (`title`, `root`, `path`, `css`, `indexed`, `scripts`)."""
    depth = path.count("/")
    context.setdefault("indexed", False)
    context.setdefault("scripts", False)
    context.update(title=title, root="../" * depth, path=path, css=_CSS)
    return Page(
        path,
        template,
        context,
        bool(context["indexed"]),
        _fingerprint(template, context),
    )
