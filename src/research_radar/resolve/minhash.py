"""MinHash signatures of weighted token sets and the LSH forest that searches them (#19).

`MinHasher` computes datasketch's MinHash (`MinHash(num_perm, scheme="affine32")`) of a
token set in which each token counts as several copies, in bulk with numpy: each token's
permuted hash values once, a set's signature their minimum. `Forest` answers as
datasketch's `MinHashLSHForest.query`, key for key, and grows incrementally. The family
index (`families.FamilyIndex`) is built on both. Pure: no I/O, no clock.
"""

from __future__ import annotations

import bisect
import hashlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = [
    "BAND_WIDTH",
    "Forest",
    "MinHasher",
    "Segment",
    "Signature",
    "forest_neighbourhood",
    "forest_reads",
    "key_after",
    "shared_width",
]

BAND_WIDTH = 4
"""Bytes per hash value in a forest key (`Forest.bands`)."""
_FMIX32 = (16, 0x85EBCA6B, 13, 0xC2B2AE35, 16)
"""MurmurHash3's 32-bit finalizer, which datasketch's affine32 scheme applies to each hash."""


@dataclass(frozen=True)
class Signature:
    """What the index keeps of a finding: its tokens and its MinHash (as uint32 bytes)."""

    tokens: frozenset[str]
    hashvalues: bytes


class MinHasher:
    """datasketch's affine32 MinHash of token sets in which a token counts `copies(token)`
    times (the usual way to weight MinHash: copy `c` of a token is hashed as `token#c`).

    Args:
        num_perm: MinHash permutations.
        copies: how many copies of a token a set holds (its weight).
    """

    def __init__(self, num_perm: int, copies: Callable[[str], int]) -> None:
        self.num_perm = num_perm
        self._copies = copies
        self._rows: dict[str, int] = {}
        """token → its row in `_matrix`: the token's permuted hash values (all its copies')."""
        self._matrix: Any = None
        self._perms: Any = None

    def permutations(self) -> Any:
        """datasketch's affine32 permutations for its default seed 1 (odd a, any b, drawn
        from `numpy.random.RandomState(1)`), made here: importing datasketch imports
        scipy (0.8 s). Tested equal to `MinHash(num_perm, scheme="affine32").permutations`."""
        import numpy as np

        if self._perms is None:
            draw = np.random.RandomState(1)
            a = draw.randint(0, 1 << 31, self.num_perm, dtype=np.uint32) * np.uint32(2) + 1
            b = draw.randint(0, 1 << 32, self.num_perm, dtype=np.uint32)
            self._perms = (a, b)
        return self._perms

    def _permuted(self, data: list[bytes]) -> Any:
        """Each item's permuted hash values, one row per item: datasketch's affine32
        update (sha1 → fmix32 → a·h + b mod 2³²) without the minimum."""
        import numpy as np

        hashes = np.array(
            [int.from_bytes(hashlib.sha1(item).digest()[:4], "little") for item in data],
            dtype=np.uint32,
        ).reshape(-1, 1)
        s1, m1, s2, m2, s3 = _FMIX32
        hashes = hashes ^ (hashes >> np.uint32(s1))
        hashes = hashes * np.uint32(m1)
        hashes = hashes ^ (hashes >> np.uint32(s2))
        hashes = hashes * np.uint32(m2)
        hashes = hashes ^ (hashes >> np.uint32(s3))
        a, b = self.permutations()
        return hashes * a + b

    def _learn(self, tokens: Iterable[str]) -> None:
        """Give each new token its row: the minimum over its weighted copies."""
        import numpy as np

        if self._matrix is None:
            self._matrix = self._permuted([b"\0"])  # row 0: the empty set's stand-in
        new = sorted(token for token in tokens if token not in self._rows)
        if not new:
            return
        copies = [self._copies(token) for token in new]
        data = [f"{t}#{c}".encode() for t, n in zip(new, copies, strict=True) for c in range(n)]
        starts = np.cumsum([0, *copies[:-1]])
        rows = np.minimum.reduceat(self._permuted(data), starts, axis=0)
        used = len(self._rows) + 1
        if used + len(new) > len(self._matrix):  # grow by doubling: amortised O(1) a token
            grown = np.empty((2 * (used + len(new)), self.num_perm), dtype=np.uint32)
            grown[:used] = self._matrix[:used]
            self._matrix = grown
        self._matrix[used : used + len(new)] = rows
        self._rows.update((token, used + i) for i, token in enumerate(new))

    def sign(self, token_sets: Sequence[frozenset[str]]) -> list[Signature]:
        """The MinHash of each token set, in bulk."""
        import numpy as np

        if not token_sets:
            return []
        self._learn(set().union(*token_sets))
        rows = self._rows
        picked: list[int] = []
        starts: list[int] = []
        for tokens in token_sets:
            starts.append(len(picked))
            picked.extend([rows[token] for token in tokens] or [0])  # datasketch: `or [b"\0"]`
        values = np.minimum.reduceat(self._matrix[picked], starts, axis=0).astype("<u4")
        return [
            Signature(tokens, row.tobytes()) for tokens, row in zip(token_sets, values, strict=True)
        ]


Entry = tuple[str, int]
"""A forest entry: (key, version); a re-added key gets the next version."""


class Forest:
    """An incremental MinHash LSH forest of keyed signatures (datasketch's, key for key).

    The forest cannot delete: a re-added key gets a new version (`versions`), and its
    stale versions stay in the trees (they count towards a query's `k`, as in datasketch).
    Each tree's keys are re-sorted lazily, at the first query after adds.
    """

    def __init__(self, trees: int) -> None:
        self.trees = trees
        self.versions: dict[str, int] = {}
        """key → its newest version."""
        self._tables: list[dict[bytes, list[Entry]]] = [{} for _ in range(trees)]
        """Per tree: forest key → the entries under it, oldest first."""
        self._sorted: list[list[bytes]] = [[] for _ in range(trees)]
        """Per tree: its forest keys, sorted (as of the last `_sort`)."""
        self._pending: list[list[bytes]] = [[] for _ in range(trees)]
        """Forest keys added since the last sort, per tree."""
        self._dirty = False

    def bands(self, signature: Signature) -> list[bytes]:
        """The forest's key of a signature in each prefix tree: its hash values big-endian,
        so the prefix of r hash values is the first r × 4 bytes (`BAND_WIDTH`)."""
        import numpy as np

        values = np.frombuffer(signature.hashvalues, dtype="<u4").astype(">u4").tobytes()
        size = len(values) // self.trees
        return [values[tree * size : (tree + 1) * size] for tree in range(self.trees)]

    def add(self, key: str, signature: Signature) -> None:
        """Index a signature under a key (a new version of the key if it was there)."""
        version = self.versions.get(key, -1) + 1
        self.versions[key] = version
        for band, table, pending in zip(
            self.bands(signature), self._tables, self._pending, strict=True
        ):
            if band not in table:
                table[band] = []
                pending.append(band)
            table[band].append((key, version))
        self._dirty = True

    def _sort(self) -> None:
        """Bring the forest's sorted keys up to date before a query: a few new keys are
        inserted in place, many are sorted in with the rest. (datasketch re-sorts every
        key on `index()`: once per query in an add-query-add stream, quadratic; #19.)"""
        if not self._dirty:
            return
        for tree, pending in enumerate(self._pending):
            ordered = self._sorted[tree]
            if len(pending) * 16 < len(ordered):
                for band in pending:
                    bisect.insort(ordered, band)
            else:
                self._sorted[tree] = sorted(self._tables[tree])
            pending.clear()
        self._dirty = False

    def query(self, signature: Signature, k: int) -> set[Entry]:
        """datasketch's `MinHashLSHForest.query` (`query_bands` of the signature's keys)."""
        return self.query_bands(self.bands(signature), k)

    def query_bands(self, bands: Sequence[bytes], k: int) -> set[Entry]:
        """datasketch's `MinHashLSHForest.query`: the entries sharing the longest prefixes
        of a forest key with the query's, longest first, tree by tree, in key order, until
        `k` are found.

        A shorter prefix's range of keys holds the longer one's, whose entries are found
        already: only the range's new ends are read (datasketch reads it all again), each
        end found by bisection (all keys are equally long: the keys with a prefix end
        at the prefix padded with 0xff bytes)."""
        self._sort()
        found: set[Entry] = set()
        trees = list(zip(bands, self._sorted, self._tables, strict=True))
        ranges: list[tuple[int, int]] = []
        for band, ordered, _table in trees:
            at = bisect.bisect_left(ordered, band)
            ranges.append((at, at))
        size = len(trees[0][0])
        for width in range(size, 0, -BAND_WIDTH):
            pad = b"\xff" * (size - width)
            for tree, (band, ordered, table) in enumerate(trees):
                prefix = band[:width]
                low, high = ranges[tree]
                start = bisect.bisect_left(ordered, prefix, 0, low) if low else 0
                end = bisect.bisect_right(ordered, prefix + pad, high)
                if start == low and end == high:
                    continue
                ranges[tree] = (start, end)
                for at in [*range(start, low), *range(high, end)]:
                    entries = table[ordered[at]]
                    if len(found) + len(entries) < k:
                        found.update(entries)  # k cannot be reached within them
                        continue
                    for entry in entries:
                        found.add(entry)
                        if len(found) >= k:
                            return found
        return found


Segment = Callable[[int, bytes, bytes], Iterable[tuple[bytes, Sequence[str]]]]
"""segment(tree, lo, hi): the forest keys of a tree in [lo, hi), ascending, each with the
keys under it; read lazily, so a query that stops early leaves the rest unread."""


def forest_reads(
    bands: Sequence[bytes], k: int, segment: Segment, reach: Sequence[int] | None = None
) -> set[str]:
    """The keys under every forest key that `Forest.query_bands(bands, k)` reads in the
    forest that `segment` reads (each key at version 0), asking `segment` only for the
    ranges the query reaches, in its order (#19).

    The query reads, width by width and tree by tree, the new ends of its range of keys
    with the query's prefix: the keys from the shorter prefix's first key up to the
    longer one's range, then from the end of that range to the shorter one's last key.

    `reach`: per tree, the widest prefix the query's key shares with a key of that tree
    (`shared_width`), if known: the ranges of wider prefixes hold no key and are not
    asked for. Leaving them out reads the same keys in the same order, since a range
    that grows around an empty one reads what it would have read from the query's key.
    """
    found: set[str] = set()
    needed: set[str] = set()
    size = len(bands[0])
    bounds = [(band, band) for band in bands]
    """Per tree: the range of keys read so far, [low, high)."""
    widest = size if reach is None else min(size, max(reach, default=0))
    for width in range(widest, 0, -BAND_WIDTH):
        for tree, band in enumerate(bands):
            if reach is not None and reach[tree] < width:
                continue
            prefix = band[:width]
            low, high = bounds[tree]
            top = key_after(prefix, size)
            bounds[tree] = (prefix, top)
            for lo, hi in ((prefix, low), (high, top)):
                if lo >= hi:
                    continue
                for _, keys in segment(tree, lo, hi):
                    needed.update(keys)
                    if len(found) + len(keys) < k:
                        found.update(keys)  # k cannot be reached within them
                        continue
                    for key in keys:
                        found.add(key)
                        if len(found) >= k:
                            return needed
    return needed


def shared_width(band: bytes, others: Iterable[bytes]) -> int:
    """The widest prefix of whole hash values (in bytes, a multiple of `BAND_WIDTH`) that
    a forest key shares with one of `others`; of a tree's keys, the two next to it in
    order share the widest (`forest_reads`' `reach`)."""
    widest = 0
    for other in others:
        width = 0
        while (
            width < len(band)
            and band[width : width + BAND_WIDTH] == other[width : width + BAND_WIDTH]
        ):
            width += BAND_WIDTH
        widest = max(widest, width)
    return widest


def key_after(prefix: bytes, size: int) -> bytes:
    """The first byte string after every `size`-byte key that starts with `prefix`."""
    if prefix.count(0xFF) == len(prefix):
        return b"\xff" * (size + 1)  # no key of `size` bytes reaches it
    return (int.from_bytes(prefix, "big") + 1).to_bytes(len(prefix), "big")


def forest_neighbourhood(
    queries: Sequence[Sequence[bytes]], rows: Iterable[tuple[str, int, bytes]], k: int
) -> set[str]:
    """The keys a forest needs to answer each query as the forest of every key in `rows`
    would (`Forest.query` with `k`): those under every forest key the query reads there.

    A forest that holds these keys and more (other queries' keys, entries added later)
    reads the same forest keys in the same order up to where the whole forest stops, each
    with all of its entries, so it finds the same entries (or stops sooner, on new ones).

    Args:
        queries: per query, its forest key in each tree (tree i at position i).
        rows: (key, tree, forest key) of the whole forest, at least every row that shares
            a query's first hash value in that tree.
        k: the entries a query asks for.
    """
    if not queries:
        return set()
    tables: list[dict[bytes, list[str]]] = [{} for _ in queries[0]]
    for key, tree, band in sorted(set(rows)):
        tables[tree].setdefault(band, []).append(key)
    ordered = [sorted(table) for table in tables]

    def segment(tree: int, lo: bytes, hi: bytes) -> Iterator[tuple[bytes, list[str]]]:
        keys = ordered[tree]
        for at in range(bisect.bisect_left(keys, lo), bisect.bisect_left(keys, hi)):
            yield keys[at], tables[tree][keys[at]]

    def reach(tree: int, band: bytes) -> int:
        keys = ordered[tree]
        at = bisect.bisect_left(keys, band)
        return shared_width(band, keys[max(at - 1, 0) : at + 1])

    needed: set[str] = set()
    for bands in queries:
        widths = [reach(tree, band) for tree, band in enumerate(bands)]
        needed |= forest_reads(bands, k, segment, widths)
    return needed
