"""The collect stage's ETag memory: earlier raw responses, read from the store.

A request whose response is kept is sent with its ETag (If-None-Match); a 304 answer
returns the kept body. `expect` tells, before a batch of requests, which keys have a kept
response, so that most lookups need no query of their own (#19).
"""

from __future__ import annotations

from collections.abc import Iterable

from research_radar.sources.http import RawResponse
from research_radar.store.store import Store

__all__ = ["StoreCache"]


class StoreCache:
    """ETag memory backed by the store's raw responses."""

    def __init__(self, store: Store, source: str):
        self.store = store
        self.source = source
        self._absent: set[str] = set()
        """Request keys known to have no kept response (`expect`)."""
        self._kept: set[str] | None = None
        """Every request key of the source with a kept response, when `expect` found few."""

    def expect(self, request_keys: Iterable[str]) -> None:
        """Look up which of some keys about to be requested have a kept response, in one
        query per 500 keys, so that `lookup` of the others needs no query (#19). When the
        source has no more kept keys than twice those, all of them are read instead, so
        that keys not known in advance (a repository's commits, named after its default
        branch) need no query either. Valid while this source's responses are not written
        (the collect stage writes them once every request is answered)."""
        wanted = set(request_keys)
        if self._kept is None:
            self._kept = self.store.load_raw_key_set(self.source, at_most=2 * len(wanted))
        if self._kept is None:
            self._absent |= wanted - self.store.load_raw_keys(self.source, wanted)

    def lookup(self, request_key: str) -> RawResponse | None:
        """The stored response for `request_key`, marked as from the cache."""
        if request_key in self._absent or (
            self._kept is not None and request_key not in self._kept
        ):
            return None
        row = self.store.load_raw(self.source, request_key)
        if row is None:
            return None
        return RawResponse(
            request_key,
            int(row["status"]),
            row["body"],
            row["etag"],
            dict(row["headers"] or {}),
            from_cache=True,
        )
