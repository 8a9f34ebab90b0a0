"""Claim extraction for a whole digest: each distinct item text read once, on two cores
when there are many. Pure in what it returns (refs #19).

Extraction (`extract.claims`) is most of a large digest's time, and the claims of an item
text depend on that text alone. So a forked worker reads the texts from the front of the
list while this process does the digest's other work; then this process reads what the
worker has not started, from the back, and the two meet. The claims are the same whoever
reads them; only the time differs.
"""

from __future__ import annotations

import multiprocessing
import re
from collections.abc import Iterable
from concurrent.futures import BrokenExecutor, Future, ProcessPoolExecutor
from types import TracebackType

from research_radar.cores import can_fork
from research_radar.digest.keypoints import ClaimPoints, claim_points
from research_radar.extract.cataloguefiles import default_catalog

__all__ = ["PARALLEL_MIN", "ClaimReading"]

PARALLEL_MIN = 400
"""From this many distinct texts (about half a second of extraction) a worker helps:
fewer are read in this process, where forking would cost more than it saves."""
_CHUNK = 32
"""Texts handed over at a time: small enough for the two readers to meet evenly."""
_DIGIT = re.compile(r"\d")


def _read(texts: list[str]) -> list[ClaimPoints]:
    return [claim_points(text) for text in texts]


class ClaimReading:
    """The claims (`keypoints.claim_points`) of many item texts, being read.

    Use it as a context manager: the worker starts on entry (when there are at least
    `parallel_min` distinct texts with a digit), `result()` joins in and returns every
    text's claims, and leaving stops the worker. A text without a digit has no claim with
    a number: it is left out, and `extract_key_points` finds it empty at once.
    """

    def __init__(self, texts: Iterable[str], *, parallel_min: int = PARALLEL_MIN) -> None:
        distinct = list(dict.fromkeys(text for text in texts if _DIGIT.search(text)))
        self._chunks = [distinct[i : i + _CHUNK] for i in range(0, len(distinct), _CHUNK)]
        self._parallel = len(distinct) >= parallel_min and can_fork()
        self._pool: ProcessPoolExecutor | None = None
        self._futures: list[Future[list[ClaimPoints]]] = []

    def __enter__(self) -> ClaimReading:
        if self._parallel:
            default_catalog()  # loaded once, before the fork, for both processes
            context = multiprocessing.get_context("fork")
            self._pool = ProcessPoolExecutor(max_workers=1, mp_context=context)
            self._futures = [self._pool.submit(_read, chunk) for chunk in self._chunks]
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None

    def result(self) -> dict[str, ClaimPoints]:
        """Every text's claims; the chunks the worker has not started are read here."""
        read: dict[int, list[ClaimPoints]] = {}
        for index in reversed(range(len(self._chunks))):
            if self._futures and not self._futures[index].cancel():
                break  # the worker has this chunk and every one before it
            read[index] = _read(self._chunks[index])
        for index, future in enumerate(self._futures):
            if index not in read:
                read[index] = self._joined(future, self._chunks[index])
        return {
            text: points
            for index, chunk in enumerate(self._chunks)
            for text, points in zip(chunk, read[index], strict=True)
        }

    @staticmethod
    def _joined(future: Future[list[ClaimPoints]], chunk: list[str]) -> list[ClaimPoints]:
        try:
            return future.result()
        except BrokenExecutor:  # the worker died (killed, out of memory): read it here
            return _read(chunk)
