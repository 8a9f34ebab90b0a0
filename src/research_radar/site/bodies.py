"""Report bodies the site rendered itself, kept in the site folder for the next build.

The daily stores each report's HTML body beside its Markdown (`stored_body`), so the
site need not render it. A body stored by another version of the renderer (or none at
all: a report imported or saved before bodies were kept) is rendered by the site, about
50 ms a report; the site never writes the store (it may be PostgreSQL, shared, read
only), so without a cache every build after a change of the renderer rendered every such
body again, a minute of CPU for a thousand reports (issue #18).

So the bodies a build renders are kept in `.radar-bodies/` inside the site folder, one
file per report, named by the renderer's version and the hash of the Markdown: the next
build reads them instead of rendering again. A changed report has another hash and is
rendered again; a new renderer has another version, and every body is rendered once
more. Files no build needs any more (other versions, reports gone or stored with a
current body) are removed. The files are not pages: the manifest does not list them and
Pagefind does not read them.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from pathlib import Path

from research_radar.errors import RenderError
from research_radar.report.html import BODY_VERSION

__all__ = ["BODIES_DIR", "BodyCache"]

BODIES_DIR = ".radar-bodies"
"""The folder of kept bodies inside the site folder."""

_SUFFIX = ".body"


def _name(markdown: str) -> str:
    digest = hashlib.sha256(markdown.encode("utf-8")).hexdigest()
    return f"{BODY_VERSION}-{digest}{_SUFFIX}"


class BodyCache:
    """The bodies kept in one site folder (read and written by the build only)."""

    def __init__(self, site: Path) -> None:
        self.folder = site / BODIES_DIR
        self.saved = 0
        """Bodies this build rendered and kept."""
        self._known: set[str] = set()

    def load(self, markdowns: Iterable[str]) -> dict[str, str]:
        """Markdown -> its kept body, for each of `markdowns` that has one."""
        found: dict[str, str] = {}
        for markdown in markdowns:
            name = _name(markdown)
            try:
                found[markdown] = (self.folder / name).read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                continue
            self._known.add(name)
        return found

    def save(self, markdown: str, html: str) -> None:
        """Keep the body of `markdown` (a body rendered twice in one build is kept once).

        Raises:
            RenderError: the file cannot be written.
        """
        name = _name(markdown)
        if name in self._known:
            return
        target = self.folder / name
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            partial = target.with_suffix(".part")
            partial.write_text(html, encoding="utf-8")
            partial.replace(target)  # a build stopped half way leaves no half a body
        except OSError as exc:
            raise RenderError(f"cannot keep a report body in {target}: {exc}") from exc
        self._known.add(name)
        self.saved += 1

    def prune(self, needed: Iterable[str]) -> None:
        """Remove every kept body but those of `needed` Markdown by this renderer."""
        keep = {_name(markdown) for markdown in needed}
        try:
            files = list(self.folder.iterdir())
        except OSError:
            return
        for file in files:
            if file.name not in keep:
                try:
                    file.unlink(missing_ok=True)
                except OSError as exc:
                    raise RenderError(f"cannot remove the stale body {file}: {exc}") from exc
