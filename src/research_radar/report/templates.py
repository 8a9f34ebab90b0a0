"""The one Jinja environment every rendered text uses: the report (Markdown and HTML),
the inbox digest and the review comment. Templates live in `report/templates/`.

HTML templates (`*.html.j2`) are autoescaped; Markdown templates are not, because they
write Markdown, not HTML. Undefined values fail loudly (StrictUndefined).
"""

from __future__ import annotations

from functools import cache

import jinja2

__all__ = ["environment"]


def _is_html(name: str | None) -> bool:
    return bool(name and name.endswith(".html.j2"))


@cache
def environment() -> jinja2.Environment:
    """The shared environment (built once)."""
    return jinja2.Environment(
        loader=jinja2.PackageLoader("research_radar.report", "templates"),
        undefined=jinja2.StrictUndefined,
        autoescape=_is_html,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
