"""An httpx client that keeps no cookies, for stateless APIs (GitHub's, arXiv's).

httpx looks for cookies in every answer, copying its request into a urllib request and its
headers into an email message on the way: about a tenth of a request's CPU, for a client
that needs none (#19). Its GETs go over `sources.wire` (answers parsed by httptools),
unless the environment names a proxy: then httpx's own transport, which honours it.
"""

from __future__ import annotations

from typing import Any

import httpx

from research_radar.sources.wire import wire_mounts

__all__ = ["StatelessClient"]


class _NoCookies(httpx.Cookies):
    """Cookies that stay empty: an answer's are not looked for."""

    def extract_cookies(self, response: httpx.Response) -> None:
        """Keep nothing."""


class StatelessClient(httpx.Client):
    """httpx.Client without a cookie jar, its GETs over `WireTransport` (see the module).
    Takes httpx.Client's arguments (`cookies` aside); with a `transport` or `mounts` of
    the caller's, those carry every request."""

    def __init__(self, **options: Any) -> None:
        if "transport" not in options and "mounts" not in options:
            options["mounts"] = wire_mounts()
        super().__init__(**options)
        self._none = _NoCookies()

    @property
    def cookies(self) -> httpx.Cookies:
        return self._none

    @cookies.setter
    def cookies(self, cookies: Any) -> None:
        self._none = _NoCookies()
