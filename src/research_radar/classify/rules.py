"""The rule classifier: title and text -> tags on each taxonomy dimension (pure).

Every rule of a value is searched in the title and in the body. A title hit weighs
`TITLE_WEIGHT`, a body hit 1 (a little more when the term recurs); the value's score is
the sum over its distinct matched terms, times the value's weight, and its confidence is
`score / (score + CONFIDENCE_HALF)`. Overlapping matches of one value count once (the
longest wins), and a match right after a negation ("not", "without", 未, 不...) does not
count. Each reported term is the text as it occurs in the input.

Chinese terms are plain substrings, so no word segmentation (jieba) is needed.
"""

from __future__ import annotations

import itertools
import re
import string
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from research_radar.classify.model import Dimension, Rule, Taxonomy, Value
from research_radar.classify.reading import Reading, negated
from research_radar.models import Tag

__all__ = [
    "BODY_LIMIT",
    "CONFIDENCE_HALF",
    "FLAGS_DIMENSION",
    "RELATIVE_CUTOFF",
    "TARGET_DIMENSION",
    "TITLE_WEIGHT",
    "Classification",
    "build_classification",
    "classify",
    "classify_dimension",
    "classify_flags",
    "classify_target",
    "match_values",
    "score_values",
]

TITLE_WEIGHT = 2.0
"""A term in the title counts this many body hits."""
CONFIDENCE_HALF = 2.0
"""The score at which confidence is 0.5 (one title hit)."""
RELATIVE_CUTOFF = 0.25
"""A multi-valued dimension drops values scoring under this share of its best value."""
BODY_LIMIT = 100_000
"""Characters of body text searched; the rest is ignored to bound the time."""
TARGET_DIMENSION = "rsi_target"
FLAGS_DIMENSION = "maturity_flags"

_ASCII_ALNUM = frozenset(string.ascii_letters + string.digits)


def classify(taxonomy: Taxonomy, title: str, text: str = "") -> dict[str, list[Tag]]:
    """Tags of every main dimension (facets left out), each list sorted by confidence.

    Single-valued dimensions give at most one tag. A dimension with a default gives
    the default (no terms, confidence 0) when no rule matches.
    """
    body = text[:BODY_LIMIT]
    return {dim.id: classify_dimension(dim, title, body) for dim in taxonomy.main}


@dataclass(frozen=True)
class Classification:
    """Everything the classifier says about one item."""

    tags: dict[str, list[Tag]]
    """Main dimension id -> tags, best first."""
    target: list[Tag] = field(default_factory=list)
    """The RSI target (engine or harness) as a tag, or empty."""
    flags: list[Tag] = field(default_factory=list)
    """Maturity flags."""
    topic: float | None = None
    """P(the item is about the profile's topic), when a learned model scored it."""
    explain: dict[str, list[str]] = field(default_factory=dict)
    """Dimension id -> the evidence terms behind its values (learned classifier only)."""

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready: value ids, matched terms and confidences per dimension."""
        every = {**self.tags, TARGET_DIMENSION: self.target, FLAGS_DIMENSION: self.flags}
        return {
            "tags": {dim: [tag.value for tag in tags] for dim, tags in self.tags.items()},
            "target": self.target[0].value if self.target else None,
            "flags": [tag.value for tag in self.flags],
            "terms": {dim: {tag.value: tag.terms for tag in tags} for dim, tags in every.items()},
            "confidence": {
                dim: {tag.value: tag.confidence for tag in tags} for dim, tags in every.items()
            },
            **({"topic": self.topic} if self.topic is not None else {}),
        }


def build_classification(taxonomy: Taxonomy, title: str, text: str = "") -> Classification:
    """Main tags, RSI target and maturity flags of one item at once."""
    tags = classify(taxonomy, title, text)
    return Classification(
        tags=tags,
        target=_target_tags(taxonomy, title, text[:BODY_LIMIT], tags.get("rsi_stage")),
        flags=classify_flags(taxonomy, title, text),
    )


def classify_target(
    taxonomy: Taxonomy, title: str, text: str = "", *, stages: list[Tag] | None = None
) -> str | None:
    """`engine` or `harness`: what an RSI item improves; None when it is not RSI work.

    Args:
        stages: the item's `rsi_stage` tags if already computed; otherwise computed here.
    """
    tags = _target_tags(taxonomy, title, text[:BODY_LIMIT], stages)
    return tags[0].value if tags else None


def _target_tags(taxonomy: Taxonomy, title: str, body: str, stages: list[Tag] | None) -> list[Tag]:
    if not taxonomy.has(TARGET_DIMENSION):
        return []
    if stages is None and taxonomy.has("rsi_stage"):
        stages = classify_dimension(taxonomy.dimension("rsi_stage"), title, body)
    if not stages:
        return []
    return classify_dimension(taxonomy.dimension(TARGET_DIMENSION), title, body)


def classify_flags(taxonomy: Taxonomy, title: str, text: str = "") -> list[Tag]:
    """Maturity flags (unverified, counterexample, failure, boundary) the text states."""
    if not taxonomy.has(FLAGS_DIMENSION):
        return []
    return classify_dimension(taxonomy.dimension(FLAGS_DIMENSION), title, text[:BODY_LIMIT])


def classify_dimension(dimension: Dimension, title: str, text: str = "") -> list[Tag]:
    """Tags of one dimension, best first."""
    title_text, body_text = Reading.of(title, dimension), Reading.of(text, dimension)
    if dimension.requires and not (
        _matches(_present(dimension.requires, title_text), title_text)
        or _matches(_present(dimension.requires, body_text), body_text)
    ):
        return []
    kept = [
        (value, terms, score)
        for value, terms, score in _scored(dimension, title_text, body_text)
        if _confidence(score) >= dimension.min_confidence
    ]
    # tags only for the values kept (a tag is a validated model, the costliest object here)
    tags = [
        _tag(dimension.id, value, terms, score) for value, terms, score in _pick(dimension, kept)
    ]
    if not tags and dimension.default is not None:
        tags = [Tag(dimension=dimension.id, value=dimension.default, terms=[], confidence=0.0)]
    return tags


def score_values(dimension: Dimension, title: str, text: str = "") -> list[Tag]:
    """Every value of a dimension with its matched terms and confidence (0 when none
    matched), in profile order, ignoring `requires`, `min_confidence` and the default."""
    matched = match_values(dimension, title, text)
    return [
        matched.get(value.id) or Tag(dimension=dimension.id, value=value.id)
        for value in dimension.values
    ]


def match_values(dimension: Dimension, title: str, text: str = "") -> dict[str, Tag]:
    """value id -> tag of every value of a dimension whose rules match (terms not empty),
    in profile order, ignoring `requires`, `min_confidence` and the default."""
    title_text = Reading.of(title, dimension)
    body_text = Reading.of(text[:BODY_LIMIT], dimension)
    return {
        value.id: _tag(dimension.id, value, terms, score)
        for value, terms, score in _scored(dimension, title_text, body_text)
    }


def _pick(dimension: Dimension, scored: list[_Scored]) -> list[_Scored]:
    """The values a dimension reports of those scored (value, terms, score), best first."""
    if not scored:
        return []
    order = {value.id: index for index, value in enumerate(dimension.values)}
    if dimension.ordered and not dimension.multi:
        return [max(scored, key=lambda found: order[found[0].id])]
    ranked = sorted(scored, key=lambda found: (-found[2], order[found[0].id]))
    if not dimension.multi:
        return ranked[:1]
    floor = ranked[0][2] * RELATIVE_CUTOFF
    return [found for found in ranked if found[2] >= floor]


_Scored = tuple[Value, list[str], float]
"""A value whose rules match, its matched terms and its score."""


def _scored(dimension: Dimension, title: Reading, body: Reading) -> Iterator[_Scored]:
    """Each value whose rules match, in profile order, with its terms and score. A value
    none of whose needles is found is passed over at once (most values of an item)."""
    in_title, in_body = title.needles, body.needles
    for value in dimension.values:
        if value.loose or not (
            value.needles.isdisjoint(in_body) and value.needles.isdisjoint(in_title)
        ):
            terms, score = _score(value, title, body)
            if terms:
                yield value, terms, score


def _score(value: Value, title: Reading, body: Reading) -> tuple[list[str], float]:
    """The matched terms of a value (as they occur, title first) and its score."""
    in_title, in_body = _candidates(value, title), _candidates(value, body)
    if not in_title and not in_body:
        return [], 0.0
    title_terms = _distinct(_matches(in_title, title)) if in_title else {}
    body_counts: dict[str, int] = {}
    body_terms: dict[str, str] = {}
    for match in _matches(in_body, body) if in_body else ():
        key = match.casefold()
        body_counts[key] = body_counts.get(key, 0) + 1
        body_terms.setdefault(key, match)
    if not title_terms and not body_terms:
        return [], 0.0
    score = TITLE_WEIGHT * len(title_terms)
    score += sum(min(1.0 + 0.25 * (count - 1), 1.5) for count in body_counts.values())
    score *= value.weight
    terms = list(title_terms.values())
    terms += [term for key, term in body_terms.items() if key not in title_terms]
    return terms, score


def _candidates(value: Value, text: Reading) -> Sequence[Rule]:
    """The rules of a value that can match `text`, in no particular order (the matches
    of all of them are merged)."""
    if not text.raw:
        return ()
    hits = value.needles & text.needles
    if not hits:
        return value.loose
    if len(hits) == 1:
        rules = value.by_needle[next(iter(hits))]
    else:  # a rule with several needles found once
        rules = tuple({id(rule): rule for n in hits for rule in value.by_needle[n]}.values())
    return rules + value.loose if value.loose else rules


def _present(rules: tuple[Rule, ...], text: Reading) -> tuple[Rule, ...]:
    """The rules whose needle occurs in `text`, and those without one."""
    found = text.needles
    return tuple(rule for rule in rules if not rule.needles or not found.isdisjoint(rule.needles))


def _tag(dimension_id: str, value: Value, terms: list[str], score: float) -> Tag:
    return Tag(dimension=dimension_id, value=value.id, terms=terms, confidence=_confidence(score))


def _matches(rules: Sequence[Rule], text: Reading) -> list[str]:
    """The text of each non-negated, non-overlapping match of the rules, in text order."""
    if not text.raw:
        return []
    spans = _spans(rules, text)
    if len(spans) > 1:
        spans.sort()
        if any(one[1] > other[0] for one, other in itertools.pairwise(spans)):
            spans = _longest_first(spans)
    form = text.form
    raw = form.raw
    return [raw[start:end] for start, end in spans if end > start and not negated(form, start)]


def _longest_first(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Of overlapping spans, the longest (then the first) wins; in text order."""
    spans = sorted(spans, key=lambda span: (span[0] - span[1], span[0]))
    kept: list[tuple[int, int]] = []
    for start, end in spans:
        if end > start and all(end <= other[0] or start >= other[1] for other in kept):
            kept.append((start, end))
    return sorted(kept)


def _spans(rules: Sequence[Rule], text: Reading) -> list[tuple[int, int]]:
    """Where each rule matches, overlaps included (`rules`: those `_present` in the text).
    One loop over the rules with the text's forms at hand: the rule pass is per-rule
    Python work (#19)."""
    lower, aligned = text.form.lower, text.form.aligned
    spans: list[tuple[int, int]] = []
    for rule in rules:
        fast = rule.fast
        if aligned and rule.anchored:
            if fast is not None:
                starts = text.found[rule.needles[0]]
                spans += _anchored(fast, lower, starts, left_bound=rule.left_bound)
            else:
                starts = sorted({at for n in rule.needles for at in text.found.get(n, ())})
                spans += _anchored(rule.pattern, text.raw, starts, left_bound=False)
        elif fast is None or not aligned:
            spans += [hit.span() for hit in rule.pattern.finditer(text.raw)]
        elif rule.left_bound:
            spans += [
                hit.span()
                for hit in fast.finditer(lower)
                if not (hit.start() and lower[hit.start() - 1] in _ASCII_ALNUM)
            ]
        else:
            spans += [hit.span() for hit in fast.finditer(lower)]
    return spans


def _anchored(
    pattern: re.Pattern[str], text: str, starts: list[int], *, left_bound: bool
) -> list[tuple[int, int]]:
    """`pattern.finditer(text)` (less the matches an ASCII letter or digit precedes, when
    `left_bound`), tried only at `starts`: an `anchored` rule cannot match elsewhere."""
    spans = []
    end = 0
    for start in starts:
        if start >= end:  # finditer goes on after the end of its last match
            hit = pattern.match(text, start)
            if hit is not None:
                end = hit.end()
                if not (left_bound and start and text[start - 1] in _ASCII_ALNUM):
                    spans.append((start, end))
    return spans


def _distinct(matches: list[str]) -> dict[str, str]:
    """casefolded term -> the text as first seen."""
    distinct: dict[str, str] = {}
    for match in matches:
        distinct.setdefault(match.casefold(), match)
    return distinct


def _confidence(score: float) -> float:
    return round(score / (score + CONFIDENCE_HALF), 3) if score > 0 else 0.0
