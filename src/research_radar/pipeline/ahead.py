"""Candidates read ahead: while the collect stage writes what a source found and the
resolve stage runs, a forked process extracts the claims of the texts found and
classifies them (#19).

Extraction and classification are pure and per text, and a long list's texts are known
once they are fetched, stages before the extract and classify stages read them back from
the store. Writing them (gzip, upserts) and resolving projects keep this process busy
and left the second core idle; now a forked process reads the texts meanwhile, chunk
after chunk, and the extract stage takes over the chunks it has not reached
(`cores.Ahead`), so that both processes read until the last chunk. The forked process
sends each chunk's claims and classifications back as JSON, cheaper for this process to
read than pickled models. The extract stage uses a text's claims only when the text and
where it was read are those it would extract itself; the classify stage uses a
classification only when what the classifier reads (`classifier_item`: the project's
name stands in for a missing title, so untitled sources are classified there) is what it
would classify. A run's candidates are the same with or without the work ahead, and on
a machine that cannot fork nothing is read ahead.
"""

from __future__ import annotations

import math
import pickle
from collections.abc import Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from functools import partial
from types import TracebackType

from pydantic import TypeAdapter

from research_radar.classify.classifier import Item, classify_items
from research_radar.classify.learned import load_embedder, load_model
from research_radar.classify.model import Taxonomy
from research_radar.classify.rules import Classification
from research_radar.collect.collectors import Found
from research_radar.cores import AHEAD_CHUNK, FORK_MIN, Ahead, can_fork, map_on_cores
from research_radar.extract.claims import extract_claims
from research_radar.models import Claim, Source
from research_radar.pipeline.candidates import FINDING_KINDS, classifier_item, source_where

__all__ = ["Classified", "ReadAhead", "Text", "claims_of_texts"]

Text = tuple[str, str]
"""A source's (text, where it was read)."""
Classified = tuple[Item, Classification]
"""What the classifier read of a source, and its classification."""

_WARM = "Reaches 2.1x the throughput of vLLM on one A100 (batch 8, Llama-3-8B, FP16)."
"""A text whose extraction loads what extraction reads (catalogues, patterns) before a
fork, so that the forked process does not load it again."""


@dataclass(frozen=True)
class _Found:
    """One text collect found: where it was read and, for a titled source, what the
    classifier reads of it."""

    text: Text
    item: Item | None


_Read = tuple[list[Claim], Classification | None]

_CHUNKS: TypeAdapter[list[list[_Read]]] = TypeAdapter(list[list[_Read]])
"""How the forked process sends what it read: JSON, which this process reads back at
two fifths of the CPU of unpickling the same claims and tags, model by model (#19)."""
_PICKLED = b"p"
_JSON = b"j"


def _pack(chunks: list[list[_Read]]) -> bytes:
    """What the forked process read, as JSON; pickled when a number in it is not finite
    (JSON has no infinity: it would come back as null)."""
    if all(_finite(read) for chunk in chunks for read in chunk):
        return _JSON + _CHUNKS.dump_json(chunks)
    return _PICKLED + pickle.dumps(chunks, pickle.HIGHEST_PROTOCOL)


def _unpack(data: bytes) -> list[list[_Read]]:
    if data[:1] == _JSON:
        return _CHUNKS.validate_json(data[1:])
    found: list[list[_Read]] = pickle.loads(data[1:])  # noqa: S301 - our own forked process
    return found


def _finite(read: _Read) -> bool:
    claims, classified = read
    numbers = [metric.value for claim in claims for metric in claim.metrics]
    if classified is not None:
        numbers += [tag.confidence for tags in classified.tags.values() for tag in tags]
        numbers += [tag.confidence for tag in (*classified.target, *classified.flags)]
        numbers += [] if classified.topic is None else [classified.topic]
    return all(math.isfinite(number) for number in numbers)


def _claims_of(text: Text) -> list[Claim]:
    return extract_claims(text[0], where=text[1])


def claims_of_texts(texts: Sequence[Text]) -> list[list[Claim]]:
    """The claims of each text, now (half forked for a long list)."""
    return map_on_cores(_claims_of, texts)


def _read(taxonomy: Taxonomy, chunk: Sequence[_Found]) -> list[_Read]:
    """The claims and the classification (titled sources) of each text of a chunk; the
    chunk is classified as one batch (each item's classification depends on no other)."""
    items = [found.item for found in chunk if found.item is not None]
    classified = iter(classify_items(taxonomy, items))
    return [
        (_claims_of(found.text), None if found.item is None else next(classified))
        for found in chunk
    ]


def _titled_item(source: Source) -> Item | None:
    """What the classifier reads of a source whose title does not wait for its project."""
    return classifier_item(source, "") if source.title else None


class ReadAhead:
    """The claims and classifications of the texts collect found, started ahead in a
    forked process.

    `found` is the collect stage's `on_found`; `claims` is what the extract stage asks,
    after which `classified` holds what was classified. Use as a context manager:
    leaving the block stops the work ahead.
    """

    def __init__(self, taxonomy: Taxonomy, *, minimum: int = FORK_MIN) -> None:
        self._taxonomy, self._minimum = taxonomy, minimum
        self._stack = ExitStack()
        self._started: list[tuple[list[tuple[str, _Found]], Ahead[list[_Found], list[_Read]]]]
        self._started = []
        self.classified: dict[str, Classified] = {}
        """source key -> what was classified ahead (filled by `claims`)."""

    def found(self, name: str, found: Found) -> None:
        """Start reading the texts of what a source found (a long list, on a machine that
        can fork: elsewhere the extract and classify stages read them)."""
        texts = {
            source.key: _Found((source.text, source_where(source, snapshot)), _titled_item(source))
            for source, snapshot in found.items
            if source.text and source.kind in FINDING_KINDS
        }
        if len(texts) < self._minimum or not can_fork():
            return
        if not self._started:  # loaded once, before the fork: both processes read
            extract_claims(_WARM, where="")
            load_model()
            load_embedder()
        pairs = list(texts.items())
        chunks = [
            [found for _, found in pairs[start : start + AHEAD_CHUNK]]
            for start in range(0, len(pairs), AHEAD_CHUNK)
        ]
        ahead = Ahead(
            partial(_read, self._taxonomy), chunks, minimum=0, chunk=1, pack=_pack, unpack=_unpack
        )
        self._started.append((pairs, self._stack.enter_context(ahead)))

    def claims(self, texts: dict[str, Text]) -> list[list[Claim]]:
        """The claims of each text (source key -> text, where), in order: those extracted
        ahead for the same text and where, the others now (half forked for a long list).
        Keeps what was classified ahead in `classified`."""
        known: dict[str, tuple[Text, list[Claim]]] = {}
        for started, ahead in self._started:
            if any(key in texts for key, _ in started):
                results = [read for chunk in ahead.results() for read in chunk]
                for (key, found), (claims, classified) in zip(started, results, strict=True):
                    known[key] = (found.text, claims)
                    if found.item is not None and classified is not None:
                        self.classified[key] = (found.item, classified)
        self.close()
        left = [key for key, text in texts.items() if key not in known or known[key][0] != text]
        fresh = dict(zip(left, claims_of_texts([texts[key] for key in left]), strict=True))
        return [fresh[key] if key in fresh else known[key][1] for key in texts]

    def close(self) -> None:
        """Stop the work ahead (what was not asked for is dropped)."""
        self._started = []
        self._stack.close()

    def __enter__(self) -> ReadAhead:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()
