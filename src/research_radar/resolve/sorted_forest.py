"""The LSH forest of `minhash.Forest` as sorted numpy arrays, queried a chunk at a time (#19).

`Forest.query` walks each prefix tree in Python, one query at a time. Its answer only
depends on which entries share how long a prefix with the query in which tree: it visits
the (entry, tree) pairs whose forest keys share at least one hash value with the query's,
longest shared prefix first, then tree by tree, then in key order (entries under one key
oldest first), and stops once it has `k` distinct entries. `SortedForest` finds the same
visits for a whole chunk of a date-ordered stream at once: each tree's keys sorted in an
array and searched with `np.searchsorted`, the chunk's own earlier entries (which the
one-at-a-time forest would already hold) compared with the chunk directly and merged in
their place. Entries are numbered in the order they are added; a re-added key is a new
entry, as a new version in `Forest`. Pure: no I/O, no clock.
"""

from __future__ import annotations

from typing import Any

__all__ = ["SortedForest"]


class SortedForest:
    """Entries' forest keys per tree, sorted, with the entry number appended (so entries
    under one key sort oldest first).

    Args:
        trees: prefix trees (as `Forest.trees`).
        num_perm: hash values in a signature (a multiple of `trees`).
    """

    def __init__(self, trees: int, num_perm: int) -> None:
        import numpy as np

        self.trees = trees
        self.width = num_perm // trees
        """Hash values in one tree's key."""
        self.size = 0
        """Entries added so far; the next entry's number."""
        self._void = np.dtype(f"V{4 * (self.width + 1)}")
        self._keys: list[Any] = [np.empty(0, self._void) for _ in range(trees)]
        self._ids: list[Any] = [np.empty(0, np.int64) for _ in range(trees)]

    def _split(self, values: Any) -> Any:
        """Signatures (n × num_perm uint32) as each tree's key values: n × trees × width."""
        return values.reshape(len(values), self.trees, self.width)

    def _keyed(self, bands: Any, first: int) -> Any:
        """Sortable keys (n × trees, void): each tree's values big-endian, then the entry
        number, so bytewise order is (forest key, entry) order."""
        import numpy as np

        n = len(bands)
        raw = np.empty((n, self.trees, self.width + 1), ">u4")
        raw[:, :, : self.width] = bands
        raw[:, :, self.width] = np.arange(first, first + n).reshape(n, 1)
        return raw.view(self._void).reshape(n, self.trees)

    def add(self, values: Any) -> None:
        """Add entries (their signatures, n × num_perm uint32), numbered from `size` on."""
        import numpy as np

        keys = self._keyed(self._split(values), self.size)
        numbers = np.arange(self.size, self.size + len(values), dtype=np.int64)
        for tree in range(self.trees):
            new = keys[:, tree]
            order = np.argsort(new, kind="stable")
            at = np.searchsorted(self._keys[tree], new[order])
            self._keys[tree] = np.insert(self._keys[tree], at, new[order])
            self._ids[tree] = np.insert(self._ids[tree], at, numbers[order])
        self.size += len(values)

    def query(self, values: Any, ask: Any, k: int) -> list[Any]:
        """What `Forest.query(signature, k)` returns for each signature of a chunk that is
        asked about, had the chunk's entries been added one by one and each asked about
        just before its own addition: the numbers of the entries found (an int array, in
        no particular order; empty for a chunk member not asked about).

        Does not add the chunk (`add` does). Args: `values`, the chunk's signatures
        (n × num_perm uint32); `ask`, a boolean per chunk member.

        The first `trees × (k - 1) + 1` visits hold `k` distinct entries (each entry is
        visited at most once per tree), but a query usually has them within `2 k`: the
        forest's visits are read that far first, and further only for the queries whose
        `k` distinct entries were not all among them."""
        import numpy as np

        bands = self._split(values)
        found, short = self._query(bands, ask, k, 2 * k)
        if short.any():
            again, _ = self._query(bands, short, k, self.trees * (k - 1) + 1)
            for member in np.flatnonzero(short):
                found[member] = again[member]
        return found

    def _query(self, bands: Any, ask: Any, k: int, cap: int) -> tuple[list[Any], Any]:
        """`query` reading at most `cap` visits of the forest's entries per query; also
        which queries that cut short (their answer may lack entries)."""
        import numpy as np

        asked = np.flatnonzero(ask)
        query, order, entry, last = self._main_visits(bands[asked], asked, len(bands), cap)
        query_c, order_c, entry_c = self._chunk_visits(bands, ask)
        query = np.concatenate([query, query_c])
        order = np.concatenate([order, order_c])
        found, cutoff = self._first_distinct(
            len(bands), query, order, np.concatenate([entry, entry_c]), k
        )
        ends = np.full(len(bands), np.iinfo(np.int64).max)
        ends[asked] = last
        return found, cutoff > ends

    def _main_visits(
        self, bands: Any, asked: Any, members: int, cap: int
    ) -> tuple[Any, Any, Any, Any]:
        """The first `cap` visits per query of the entries added before a chunk of
        `members`: (chunk member asking, sort order, entry number) each, and per query the
        order of its last visit read if it has more (else the largest int64). A query's
        visits come level by level (longest shared prefix first), tree by tree, each a key
        range below and one above the previous level's."""
        import numpy as np

        n, trees, width = len(bands), self.trees, self.width
        empty = np.empty(0, np.int64)
        none = np.full(n, np.iinfo(np.int64).max)
        if not n or not self.size:
            return empty, empty, empty, none
        raw = bands.astype(">u4").view(np.uint8).reshape(n, trees, 4 * width)
        # levels, longest first: needles of the prefix padded with 0x00 (low) or 0xff (high)
        low = np.zeros((n, trees, width, 4 * width + 4), np.uint8)
        high = np.full((n, trees, width, 4 * width + 4), 0xFF, np.uint8)
        for level in range(width):
            shared = 4 * (width - level)
            low[:, :, level, :shared] = raw[:, :, :shared]
            high[:, :, level, :shared] = raw[:, :, :shared]
        starts = np.empty((n, width, trees, 2), np.int64)
        ends = np.empty((n, width, trees, 2), np.int64)
        for tree in range(trees):
            keys = self._keys[tree]
            lo = np.searchsorted(keys, low[:, tree].reshape(-1).view(self._void), "left")
            hi = np.searchsorted(keys, high[:, tree].reshape(-1).view(self._void), "right")
            lo, hi = lo.reshape(n, width), hi.reshape(n, width)
            # the full key's range, then per shorter prefix the keys below and above
            starts[:, 0, tree] = lo[:, 0:1]
            ends[:, 0, tree, 0] = hi[:, 0]
            ends[:, 0, tree, 1] = lo[:, 0]
            starts[:, 1:, tree, 0] = lo[:, 1:]
            ends[:, 1:, tree, 0] = lo[:, :-1]
            starts[:, 1:, tree, 1] = hi[:, :-1]
            ends[:, 1:, tree, 1] = hi[:, 1:]
        lengths = (ends - starts).reshape(n, -1)
        before = np.cumsum(lengths, axis=1) - lengths
        more = before[:, -1] + lengths[:, -1] > cap
        lengths = np.clip(cap - before, 0, lengths)
        segment = np.flatnonzero(lengths)
        counts = lengths.reshape(-1)[segment]
        total = int(counts.sum())
        offsets = np.arange(total) - np.repeat(np.cumsum(counts) - counts, counts)
        segment = np.repeat(segment, counts)
        position = starts.reshape(-1)[segment] + offsets
        query, rest = np.divmod(segment, width * trees * 2)
        level_tree = rest // 2  # level × trees + tree
        entry = np.concatenate(self._ids)[level_tree % trees * self.size + position]
        order = self._order(level_tree, 2 * position + 1, 0, members)
        lasts = np.searchsorted(query, np.arange(n), "right") - 1
        none[more] = order[lasts[more]]
        return asked[query], order, entry, none

    def _order(self, level_tree: Any, slot: Any, rank: Any, members: int) -> Any:
        """A visit's place in its query's visits, as one integer: level and tree, then its
        key's place among the sorted keys (`2 p + 1` for the p-th sorted key, `2 p` for a
        chunk member's key that sorts just before the p-th), then its rank among the chunk's
        `members`."""
        import numpy as np

        slots = 2 * self.size + 2
        return (level_tree.astype(np.int64) * slots + slot) * members + rank

    def _chunk_visits(self, bands: Any, ask: Any) -> tuple[Any, Any, Any]:
        """The visits of the chunk's own entries: each asking member visits the members
        before it that share a prefix of one hash value or more with it in a tree."""
        import numpy as np

        n, trees, width = len(bands), self.trees, self.width
        near = bands[:, None, :, 0] == bands[None, :, :, 0]  # n × n × trees: a value shared
        near &= (np.tri(n, k=-1, dtype=bool) & ask[:, None])[:, :, None]  # asking, of earlier
        query, member, tree = np.nonzero(near)
        equal = bands[query, tree] == bands[member, tree]
        level = width - np.logical_and.accumulate(equal, axis=1).sum(axis=1)
        keys = self._keyed(bands, self.size)
        slot = np.empty((n, trees), np.int64)
        rank = np.empty((n, trees), np.int64)
        for t in range(trees):
            slot[:, t] = 2 * np.searchsorted(self._keys[t], keys[:, t])
            rank[np.argsort(keys[:, t], kind="stable"), t] = np.arange(n)
        order = self._order(level * trees + tree, slot[member, tree], rank[member, tree], n)
        return query, order, self.size + member

    @staticmethod
    def _first_distinct(
        n: int, query: Any, order: Any, entry: Any, k: int
    ) -> tuple[list[Any], Any]:
        """Per chunk member, the first `k` distinct entries of its visits in order, and the
        order of the visit that found the k-th (the largest int64 if none did)."""
        import numpy as np

        span = int(order.max(initial=0)) + 1
        visits = np.argsort(query * span + order, kind="stable")
        query, entry, order = query[visits], entry[visits], order[visits]
        # first visit of each (query, entry): a stable sort by the pair keeps visit order
        pair = query * (int(entry.max(initial=0)) + 1) + entry
        pairs = np.argsort(pair, kind="stable")
        pair = pair[pairs]
        fresh = np.ones(len(pairs), bool)
        fresh[1:] = pair[1:] != pair[:-1]
        first = np.sort(pairs[fresh])
        owner = query[first]
        bounds = np.searchsorted(owner, np.arange(n + 1))
        rank = np.arange(len(first)) - bounds[owner]
        cutoff = np.full(n, np.iinfo(np.int64).max)
        cutoff[owner[rank == k - 1]] = order[first[rank == k - 1]]
        first, owner = first[rank < k], owner[rank < k]
        bounds = np.searchsorted(owner, np.arange(n + 1))
        found = entry[first]
        return [found[bounds[i] : bounds[i + 1]] for i in range(n)], cutoff
