"""An httpx client that keeps no cookies, for stateless APIs (GitHub's, arXiv's).

httpx looks for cookies in every answer, copying its request into a urllib request and its
headers into an email message on the way: about a tenth of a request's CPU, for a client
that needs none (#19). The wire stays httpx's own transport (httpcore), which honours the
proxy settings of the environment.
"""

from __future__ import annotations

from typing import Any

import httpx

__all__ = ["StatelessClient"]


class _NoCookies(httpx.Cookies):
    """Cookies that stay empty: an answer's are not looked for."""

    def extract_cookies(self, response: httpx.Response) -> None:
        """Keep nothing."""


class StatelessClient(httpx.Client):
    """httpx.Client without a cookie jar. Takes httpx.Client's arguments (`cookies`
    aside)."""

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self._none = _NoCookies()

    @property
    def cookies(self) -> httpx.Cookies:
        return self._none

    @cookies.setter
    def cookies(self, cookies: Any) -> None:
        self._none = _NoCookies()
