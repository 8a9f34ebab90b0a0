"""The one Jinja environment every rendered text uses: the report (Markdown and HTML),
the inbox digest and the review comment. Templates live in `report/templates/`.

HTML templates (`*.html.j2`) are autoescaped; Markdown templates are not, because they
write Markdown, not HTML. Undefined values fail loudly (StrictUndefined).
"""

from __future__ import annotations

from functools import cache

import jinja2

from research_radar.regexcache import kept_table

__all__ = ["environment"]


def _is_html(name: str | None) -> bool:
    return bool(name and name.endswith(".html.j2"))


class _KeptTemplates(jinja2.BytecodeCache):
    """Compiled templates kept by the `radar` command between runs (`regexcache`), found
    by the template's name, its source's digest and jinja's version: compiling the
    report's templates (jinja writes Python, then compiles it) was about 40 ms of
    `radar daily --sample` (#19). Outside the command, nothing is kept."""

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        found = kept_table(__name__, "template")
        if found is not None:
            cache, table = found
            bucket.code = cache.kept(table, _bucket_key(bucket))

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        found = kept_table(__name__, "template")
        if found is not None and bucket.code is not None:
            cache, table = found
            cache.keep(table, _bucket_key(bucket), bucket.code)


def _bucket_key(bucket: jinja2.bccache.Bucket) -> tuple[str, str, str]:
    return bucket.key, bucket.checksum, jinja2.__version__


@cache
def environment() -> jinja2.Environment:
    """The shared environment (built once)."""
    return jinja2.Environment(
        bytecode_cache=_KeptTemplates(),
        loader=jinja2.PackageLoader("research_radar.report", "templates"),
        undefined=jinja2.StrictUndefined,
        autoescape=_is_html,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
