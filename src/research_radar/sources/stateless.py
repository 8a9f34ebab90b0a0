"""An httpx client that keeps no cookies, for stateless APIs (GitHub's, arXiv's).

httpx looks for cookies in every answer, copying its request into a urllib request and its
headers into an email message on the way: about a tenth of a request's CPU, for a client
that needs none (#19). Its GETs go over `sources.wire` (answers parsed by httptools),
unless the environment names a proxy: then httpx's own transport, which honours it.
`build_get` builds a GET whose URL is complete at about two thirds of the CPU of
`build_request`, which merged the client's headers anew for every request (#19).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import httpx

from research_radar.sources.wire import wire_transport

__all__ = ["StatelessClient"]


class _NoCookies(httpx.Cookies):
    """Cookies that stay empty: an answer's are not looked for."""

    def extract_cookies(self, response: httpx.Response) -> None:
        """Keep nothing."""


_Own = tuple[tuple[tuple[bytes, bytes], ...], tuple[tuple[str, str], ...]]
"""The client's raw headers and a request's own."""


class StatelessClient(httpx.Client):
    """httpx.Client without a cookie jar, its GETs over `WireTransport` (see the module).
    Takes httpx.Client's arguments (`cookies` aside); with a `transport` or `mounts` of
    the caller's, those carry every request."""

    def __init__(self, **options: Any) -> None:
        if "transport" not in options and "mounts" not in options:
            # as the client's transport, not mounted beside httpx's own: that one would
            # carry no request and cost a TLS context of its own to make (#19)
            options["transport"] = wire_transport()
        super().__init__(**options)
        self._none = _NoCookies()
        self._merged: dict[_Own, list[tuple[bytes, bytes]]] = {}
        """The client's and a request's own headers -> both merged (`build_get`)."""

    @property
    def cookies(self) -> httpx.Cookies:
        return self._none

    @cookies.setter
    def cookies(self, cookies: Any) -> None:
        self._none = _NoCookies()

    def build_get(self, url: str, headers: Mapping[str, str], timeout: float) -> httpx.Request:
        """`build_request("GET", url, headers=headers, timeout=timeout)` for a URL with its
        query in it: the same request. The client's headers merged with a request's are
        kept, raw, for the next request with the same headers (an API client sends the
        same few), so each request's are not merged and encoded again (#19)."""
        if str(self.base_url) or self.params or not url.startswith(("http://", "https://")):
            # a base URL or query of the client's is merged into the URL there
            return self.build_request("GET", url, headers=headers, timeout=timeout)
        own = (tuple(self.headers.raw), tuple(headers.items()))
        raw = self._merged.get(own)
        if raw is None:
            merged = httpx.Headers(self.headers)
            merged.update(headers)
            raw = merged.raw
            if len(self._merged) < _MERGED_KEPT:  # not every request's: an ETag is its own
                self._merged[own] = raw
        return httpx.Request(
            "GET", url, headers=raw, extensions={"timeout": httpx.Timeout(timeout).as_dict()}
        )


_MERGED_KEPT = 64
"""Merged headers a client keeps: those of requests without an ETag, which repeat."""
