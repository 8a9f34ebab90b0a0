"""Preview a built site on loopback (`radar site --serve`): a plain static file server."""

from __future__ import annotations

import functools
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

__all__ = ["make_server"]


class _Handler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        pass


def make_server(site: Path, port: int = 8000) -> ThreadingHTTPServer:
    """A server for `site` on 127.0.0.1 (port 0 picks a free one); call serve_forever()."""
    handler = functools.partial(_Handler, directory=str(site))
    return ThreadingHTTPServer(("127.0.0.1", port), handler)
