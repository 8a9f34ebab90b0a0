"""Claims extracted ahead: while the collect stage writes what a source found and the
resolve stage runs, a forked process extracts the claims of the texts found (#19).

Extraction is pure and per text, and a long list's texts are known once they are
fetched, a stage before the extract stage reads them back from the store. Writing them
(gzip, upserts) and resolving projects keep this process busy and left the second core
idle; now a forked process extracts meanwhile, and the extract stage takes over the texts
it has not reached (`cores.Ahead`). The extract stage uses a text's claims only when the
text and where it was read are those it would extract itself, so a run's claims are the
same with or without the work ahead.
"""

from __future__ import annotations

from contextlib import ExitStack
from types import TracebackType

from research_radar.collect.collectors import Found
from research_radar.cores import FORK_MIN, Ahead, map_on_cores
from research_radar.extract.claims import extract_claims
from research_radar.models import Claim
from research_radar.pipeline.candidates import FINDING_KINDS, source_where

__all__ = ["ClaimsAhead", "Text"]

Text = tuple[str, str]
"""A source's (text, where it was read)."""

_WARM = "Reaches 2.1x the throughput of vLLM on one A100 (batch 8, Llama-3-8B, FP16)."
"""A text whose extraction loads what extraction reads (catalogues, patterns) before a
fork, so that the forked process does not load it again."""


def _claims_of(text: Text) -> list[Claim]:
    return extract_claims(text[0], where=text[1])


class ClaimsAhead:
    """The claims of the texts collect found, started ahead in a forked process.

    `found` is the collect stage's `on_found`; `claims` is what the extract stage asks.
    Use as a context manager: leaving the block stops the work ahead.
    """

    def __init__(self, *, minimum: int = FORK_MIN) -> None:
        self._minimum = minimum
        self._stack = ExitStack()
        self._started: list[tuple[dict[str, Text], Ahead[Text, list[Claim]]]] = []

    def found(self, name: str, found: Found) -> None:
        """Start extracting the texts of what a source found (a long list only)."""
        texts = {
            source.key: (source.text, source_where(source, snapshot))
            for source, snapshot in found.items
            if source.text and source.kind in FINDING_KINDS
        }
        if len(texts) < self._minimum:
            return
        if not self._started:
            extract_claims(_WARM, where="")
        ahead = Ahead(_claims_of, list(texts.values()), minimum=self._minimum)
        self._started.append((texts, self._stack.enter_context(ahead)))

    def claims(self, texts: dict[str, Text]) -> list[list[Claim]]:
        """The claims of each text (source key -> text, where), in order: those extracted
        ahead for the same text and where, the others now (half forked for a long list)."""
        known: dict[str, tuple[Text, list[Claim]]] = {}
        for started, ahead in self._started:
            if any(key in texts for key in started):
                results = ahead.results()
                known |= {key: (text, results[i]) for i, (key, text) in enumerate(started.items())}
        self.close()
        left = [key for key, text in texts.items() if key not in known or known[key][0] != text]
        fresh = dict(zip(left, map_on_cores(_claims_of, [texts[key] for key in left]), strict=True))
        return [fresh[key] if key in fresh else known[key][1] for key in texts]

    def close(self) -> None:
        """Stop the work ahead (what was not asked for is dropped)."""
        self._started = []
        self._stack.close()

    def __enter__(self) -> ClaimsAhead:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()
