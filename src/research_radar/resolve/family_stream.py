"""A stream of findings indexed in turn, scored a chunk at a time (#19).

`FamilyIndex.assign_stream` indexes a date-ordered stream of findings, each compared with
the ones before it. `Stream` holds what it needs of the stream's members as arrays (their
token ids, their projects, each project's previous and next member) and scores a chunk's
forest candidates at once, exactly as `FamilyIndex._weighed` scores them one member at a
time: with each member's document frequencies and index size as they are just before it
is indexed. Pure: no I/O, no clock.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from research_radar.resolve.minhash import Signature

__all__ = ["FORK_CHUNKS", "FORK_SIGNING", "Stream", "related_in_chunks", "signed_on_cores"]


class Stream:
    """The members of a stream: their token ids (`tokens`, `lengths` each, in the order of
    their token sets) and their projects.

    Args:
        tokens: every member's token ids, one member after the other.
        lengths: how many token ids each member has.
        keys: each member's project key.
    """

    def __init__(self, tokens: Any, lengths: Any, keys: Sequence[str]) -> None:
        import numpy as np

        self.tokens = tokens
        self.lengths = lengths
        self.starts = np.cumsum(lengths) - lengths
        self.keys = list(keys)
        numbers: dict[str, int] = {}
        self.projects = np.array([numbers.setdefault(key, len(numbers)) for key in keys], int)
        ranks = np.empty(len(numbers), int)
        ranks[[numbers[key] for key in sorted(numbers)]] = np.arange(len(numbers))
        self.key_ranks = ranks[self.projects]
        """Per member: its project key's place among the stream's keys, sorted."""
        size = len(self.keys)
        self.previous = np.full(size, -1)
        """Per member: the member before it of the same project (-1: none)."""
        self.next = np.full(size, size)
        """Per member: the member after it of the same project (`size`: none)."""
        order = np.lexsort((np.arange(size), self.projects))
        same = self.projects[order[1:]] == self.projects[order[:-1]]
        self.previous[order[1:][same]] = order[:-1][same]
        self.next[order[:-1][same]] = order[1:][same]

    def ids(self, member: int) -> Any:
        """A member's token ids."""
        start = self.starts[member]
        return self.tokens[start : start + self.lengths[member]]

    def _gather(self, members: Any) -> tuple[Any, Any]:
        """The token ids of some members, one after the other, and the member of each."""
        import numpy as np

        lengths = self.lengths[members]
        offsets = np.repeat(self.starts[members] - (np.cumsum(lengths) - lengths), lengths)
        return self.tokens[offsets + np.arange(len(offsets))], np.repeat(members, lengths)

    def related(
        self,
        df: Any,
        copies: Any,
        total: int,
        start: int,
        found: Sequence[Any],
        k: int,
        least: float,
    ) -> list[list[tuple[str, float]]]:
        """Per member of the chunk from `start` (one per `found`, the stream members it
        found in the forest), what `FamilyIndex.related` gives just before the member is
        indexed: up to `k` projects, (key, score rounded to 4 places) best first, that
        score `least` or more.

        Args:
            df: every token's document frequency before the chunk (indexed by token id).
            copies: every token's weight (`tokens.copies`).
            total: the projects indexed before the chunk.
        """
        import numpy as np

        query, entry, scores = self._scores(df, copies, total, start, found)
        # as `FamilyIndex._best`: only what may round to `least` or more and rank in the
        # best k is rounded; the k-th best score of each query, by sorting them all
        bounds = np.searchsorted(query, np.arange(start, start + len(found) + 1))
        near = np.full(len(found), least - 1e-4)
        counts = np.diff(bounds)
        ranked = np.lexsort((-scores, query))
        many = np.flatnonzero(counts > k)
        near[many] = np.maximum(near[many], scores[ranked[bounds[many] + k - 1]] - 1e-4)
        picked = np.flatnonzero(scores >= near[query - start])
        at, number, value = query[picked] - start, entry[picked], _rounded(scores[picked])
        kept = value >= least
        at, number, value = at[kept], number[kept], value[kept]
        # best first, then by key (`FamilyIndex._best`); the first k of each member
        order = np.lexsort((self.key_ranks[number], -value, at))
        at, number, value = at[order], number[order], value[order]
        first = np.searchsorted(at, np.arange(len(found)))
        best = np.arange(len(at)) - first[at] < k
        result: list[list[tuple[str, float]]] = [[] for _ in found]
        keys = self.keys
        for place, member, score in zip(
            at[best].tolist(), number[best].tolist(), value[best].tolist(), strict=True
        ):
            result[place].append((keys[member], score))
        return result

    def _scores(
        self, df: Any, copies: Any, total: int, start: int, found: Sequence[Any]
    ) -> tuple[Any, Any, Any]:
        """The projects among the entries (stream members) each member of a chunk found
        whose newest entry that is, not its own project, and their scores against it, as
        `FamilyIndex._weighed` gives them: (member, entry, score) arrays, by member."""
        import numpy as np

        stop = start + len(found)
        sizes = np.fromiter(map(len, found), np.int64, len(found))
        query = np.repeat(np.arange(start, stop), sizes)
        entry = np.concatenate([*found, np.empty(0, np.int64)]).astype(np.int64)
        keep = (self.next[entry] >= query) & (self.projects[entry] != self.projects[query])
        keep &= self.lengths[query] > 0  # `related` of an empty token set: nothing
        query, entry = query[keep], entry[keep]
        flat, _ = self._gather(entry)
        pair = np.repeat(query - start, self.lengths[entry])
        asked = np.arange(start, stop)
        own, owner = self._gather(asked)
        owner -= start
        totals = total + np.cumsum(self.previous[asked] < 0) - (self.previous[asked] < 0)
        counts = self._counts(df, start, len(found))

        def weights_of(members: Any, tokens: Any) -> Any:
            idf = np.log((totals[members] + 1) / (counts(members, tokens) + 1)) + 1.0
            return idf * copies[tokens]

        weights = weights_of(pair, flat)
        own_weights = weights_of(owner, own)
        # each by `sum`, as `_weighed` (reduceat adds in another order: other roundings)
        bounds = np.cumsum(self.lengths[asked]).tolist()
        own_sums = np.array([part.sum() for part in np.split(own_weights, bounds[:-1])])
        mark = np.zeros((len(found), len(df)), bool)
        mark[owner, own] = True
        shared = mark[pair, flat]
        lengths = self.lengths[entry]
        scores = np.zeros(len(entry))
        nonempty = np.flatnonzero(lengths)
        if len(nonempty):
            starts = (np.cumsum(lengths) - lengths)[nonempty]
            norms = np.sqrt(own_sums[query[nonempty] - start] * np.add.reduceat(weights, starts))
            dots = np.add.reduceat(weights * shared, starts)
            scores[nonempty] = np.divide(dots, norms, out=np.zeros(len(starts)), where=norms > 0)
        return query, entry, scores

    def _counts(self, df: Any, start: int, size: int) -> Any:
        """Each token's document frequency just before each member of the chunk of `size`
        from `start` is indexed: a function of (chunk members, tokens) → counts. The
        members indexed before change it: +1 for a member's tokens, -1 for those of the
        entry of its project it replaces."""
        import numpy as np

        members = np.arange(start, start + size)
        added, by = self._gather(members)
        older = members[self.previous[members] >= 0]
        removed, _ = self._gather(self.previous[older])
        at = np.concatenate([by, np.repeat(older, self.lengths[self.previous[older]])])
        token = np.concatenate([added, removed])
        changed, column = np.unique(token, return_inverse=True)
        place = np.full(len(df), len(changed))  # the column of each token; unchanged: last
        place[changed] = np.arange(len(changed))
        steps = np.zeros((size + 1, len(changed) + 1), np.int64)
        np.add.at(
            steps, (at - start + 1, column), np.where(np.arange(len(token)) < len(added), 1, -1)
        )
        before = np.cumsum(steps, axis=0)

        def counts(members: Any, tokens: Any) -> Any:
            """Per token, its count before a chunk member (by place in the chunk)."""
            return df[tokens] + before[members, place[tokens]]

        return counts


def _rounded(scores: Any) -> Any:
    """`round(score, 4)` of each score (a float array), at once. `rint(10⁴ x) / 10⁴` is the
    float nearest the decimal Python's `round` gives, unless `10⁴ x` is within 10⁻⁶ of a
    half (its own rounding may then have crossed it): those are rounded one by one."""
    import numpy as np

    scaled = scores * 10000.0
    result = np.rint(scaled) / 10000.0
    for at in np.flatnonzero(np.abs(scaled - np.floor(scaled) - 0.5) < 1e-6).tolist():
        result[at] = round(float(scores[at]), 4)
    return result


FORK_SIGNING = 4000
"""Members from which `signed_on_cores` signs the second half in a forked process."""
FORK_CHUNKS = 16
"""Chunks from which `related_in_chunks` scores the second half in a forked process."""
FORKED_SHARE = 0.55
"""The share of the chunks the forked process scores when this one has other work to do
meanwhile (an import saves what does not wait for the families: #19). The forked process
takes the last chunks, which cost more (a larger forest, and it catches up on the members
before them): at 0.6 a 20,000-finding import's forked scoring took 3.7 s of CPU against
this process's 3.2 s (1.1 s saving meanwhile), and this one waited."""


def related_in_chunks(
    stream: Stream,
    values: Any,
    ask: Any,
    copies: Any,
    *,
    trees: int,
    candidates: int,
    chunk: int,
    k: int,
    least: float,
    fork_min: int = FORK_CHUNKS,
    meanwhile: Callable[[], object] | None = None,
) -> list[list[tuple[str, float]]]:
    """Per stream member, what `FamilyIndex.related` gives just before it is indexed if it
    is asked about (`Stream.related`; an empty list if not), chunk by chunk.

    What a member finds depends only on the members before it (their signatures, token
    ids and projects), not on the families given to them, so the chunks are scored apart
    from the assignment, and from `fork_min` chunks on, the second half of them in a
    forked process (`cores.map_on_cores`, #19).

    Args:
        values: every member's MinHash (n × num_perm uint32).
        ask: whether each member is asked about (booleans).
        copies: every token's weight, by token id.
        chunk: members a forest query answers at once (`SortedForest.query`).
        meanwhile: called once in this process while the forked one scores; the forked
            one then takes more than half of the chunks (`FORKED_SHARE`).
    """
    from research_radar.cores import map_on_cores

    scorer = _ChunkScorer(stream, values, ask, copies, trees, candidates, chunk, k, least)
    starts = list(range(0, len(stream.keys), chunk))
    share = 0.5 if meanwhile is None else FORKED_SHARE
    per_chunk = map_on_cores(scorer, starts, minimum=fork_min, meanwhile=meanwhile, forked=share)
    return [related for found in per_chunk for related in found]


class _ChunkScorer:
    """Scores the chunks of a stream in order (`related_in_chunks`): the sorted forest and
    the document frequencies hold the members before the chunk it is asked about. A
    forked copy asked first about a later chunk catches up on the members before it at
    once (the same forest: its keys sort by member, however they are added)."""

    def __init__(
        self,
        stream: Stream,
        values: Any,
        ask: Any,
        copies: Any,
        trees: int,
        candidates: int,
        chunk: int,
        k: int,
        least: float,
    ) -> None:
        import numpy as np

        from research_radar.resolve.sorted_forest import SortedForest

        self._stream, self._values, self._ask, self._copies = stream, values, ask, copies
        self._candidates, self._chunk, self._k, self._least = candidates, chunk, k, least
        self._forest = SortedForest(trees, values.shape[1])
        self._df = np.zeros(len(copies), np.int64)
        self._total = 0
        """Projects indexed so far (their newest member each)."""

    def _catch_up(self, start: int) -> None:
        """Index the members from the forest's size up to `start`: their keys in the
        forest, +1 to the counts of their tokens and -1 to those of the member of the same
        project each replaces (`FamilyIndex._enter`)."""
        import numpy as np

        stream, done = self._stream, self._forest.size
        if start <= done:
            return
        members = np.arange(done, start)
        added, _ = stream._gather(members)
        older = stream.previous[members]
        removed, _ = stream._gather(older[older >= 0])
        np.add.at(self._df, added, 1)
        np.add.at(self._df, removed, -1)
        self._total += int((older < 0).sum())
        self._forest.add(self._values[done:start])

    def __call__(self, start: int) -> list[list[tuple[str, float]]]:
        """What each member of the chunk from `start` finds (`Stream.related`)."""
        self._catch_up(start)
        stop = min(start + self._chunk, len(self._values))
        found = self._forest.query(
            self._values[start:stop], self._ask[start:stop], self._candidates
        )
        return self._stream.related(
            self._df, self._copies, self._total, start, found, self._k, self._least
        )


def signed_on_cores(
    sign: Callable[[int, int], list[Signature]], count: int, *, fork_min: int = FORK_SIGNING
) -> list[Signature]:
    """`sign(0, count)`, in parts of 1,000 members, from `fork_min` members on the second
    half of them in a forked process (`cores.map_on_cores`): a signature depends only on
    its member's tokens (#19). `sign(start, stop)`: the signatures of those members."""
    from research_radar.cores import map_on_cores

    starts = list(range(0, count, _SIGNING_PART))
    parts = map_on_cores(
        lambda start: sign(start, min(start + _SIGNING_PART, count)),
        starts,
        minimum=max(1, fork_min // _SIGNING_PART),
    )
    return [signature for part in parts for signature in part]


_SIGNING_PART = 1000
