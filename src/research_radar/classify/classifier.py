"""The classifier the pipeline uses: learned heads combined with the bilingual rules.

Per dimension (DESIGN.md's six, plus topic relevance):
- workload: the learned softmax over the workloads the curated lists cover, with the
  rules' confidences among its features; a workload no list covers (cross-modal and
  streaming) and Chinese text (which the embedding reads poorly) are decided by the
  rules. `unknown` when the best probability is under `WORKLOAD_MIN`.
- mechanism (several values): each mechanism the lists cover has a learned sigmoid with
  a threshold tuned for F1; the others (and Chinese text) come from the rules. The
  matched terms stay the explanation. `unknown` when none is kept.
- system level, relation: the rules; `unknown` when no rule matches (no default).
- RSI stage: the rules, only for work with an improvement loop; `not-applicable`
  otherwise.
- maturity: the highest level the evidence shows: the source kind (a repository has
  code; an arXiv paper is paper-reported) and the text's wording; `unknown` when neither
  says anything.
- topic: the learned on-topic probability (AI inference performance).

Words in an owner name, credits, related work, links and code blocks are never read
(`classify.evidence`). The model loads lazily, once per process.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from research_radar.classify.evidence import evidence_text, evidence_title
from research_radar.classify.learned import (
    LearnedModel,
    NgramRows,
    RuleMatches,
    embed,
    featurize,
    load_embedder,
    load_model,
    model_input,
    ngram_evidence,
    rule_matches,
)
from research_radar.classify.model import Dimension, Taxonomy
from research_radar.classify.rules import (
    BODY_LIMIT,
    CONFIDENCE_HALF,
    RELATIVE_CUTOFF,
    TARGET_DIMENSION,
    Classification,
    classify_dimension,
    classify_flags,
)
from research_radar.cores import aside
from research_radar.language import written_in
from research_radar.models import Tag

__all__ = [
    "NOT_APPLICABLE",
    "MECHANISM_TOPIC_MIN",
    "FORKED_SHARE",
    "PARALLEL_MIN",
    "UNKNOWN",
    "WORKLOAD_MIN",
    "Item",
    "classify_item",
    "classify_items",
    "finding_tags",
    "topic_relevance",
]

UNKNOWN = "unknown"
"""The value of a dimension whose evidence is too thin."""
NOT_APPLICABLE = "not-applicable"
"""The RSI stage of work without a self-improvement loop."""
WORKLOAD_MIN = 0.5
"""The workload probability under which the workload is `unknown`."""
RULE_MIN = 0.3
"""The rule confidence from which a rule-decided value is reported (one body hit is 1/3)."""
LEARNED_RULE_MIN = 0.55
"""For an item that is only a title: the rule confidence from which a value the mechanism
head learned is reported even when the head says no, i.e. more than one title hit (one is
0.5). On the training lists' titles (5-fold), letting one hit through cost kernel F1
0.68 -> 0.62 and parallel 0.55 -> 0.52 and helped no class by more than 0.004. Items with
evidence text keep `RULE_MIN`: the head read only its first characters (refs #15)."""
MECHANISM_TOPIC_MIN = 0.2
"""The topic relevance from which the mechanism head's values are reported (the rules'
values need none). Not 0.5: on the training lists with each curated section held out
whole (`benchmarks/classify_cv.py`), the topic head rates 18% of the on-topic titles of
a section it never saw under 0.5, and a 0.5 gate cut the macro-F1 of head-or-rule
mechanisms from 0.697 to 0.643 (compute/quality budget 0.75 -> 0.52); at 0.2 the
off-topic titles that get a mechanism rise from 68 to 96 of 538 (no gate: 117) (refs #15)."""


@dataclass(frozen=True)
class Item:
    """What the classifier reads of one item."""

    title: str
    text: str = ""
    kind: str = ""
    """`repo`, `paper`, `blog` or empty: evidence for the maturity level."""


def classify_item(
    taxonomy: Taxonomy, title: str, text: str = "", *, kind: str = ""
) -> Classification:
    """Every dimension of one item (see `classify_items`)."""
    return classify_items(taxonomy, [Item(title, text, kind)])[0]


def classify_items(
    taxonomy: Taxonomy, items: Sequence[Item], *, model: LearnedModel | None = None
) -> list[Classification]:
    """Every dimension of each item, in one batch (embedding is batched).

    A large batch is read in two processes: a forked one classifies the last items
    (`FORKED_SHARE`) from their text to their explanation while this one classifies the
    first. Each item's classification depends on no other item (the embedding, the
    n-gram rows and the heads are per item), so the halves give the batch's result.
    """
    if not items:
        return []
    model = model or load_model()
    if len(items) < PARALLEL_MIN:
        return _classify_batch(taxonomy, model, items)
    split = len(items) - math.ceil(len(items) * FORKED_SHARE)
    load_embedder()  # loaded once, before the fork: both processes embed
    with aside(lambda: _classify_batch(taxonomy, model, items[split:]), fork=True) as theirs:
        mine = _classify_batch(taxonomy, model, items[:split])
        return mine + theirs()


def _classify_batch(
    taxonomy: Taxonomy, model: LearnedModel, items: Sequence[Item]
) -> list[Classification]:
    """`classify_items` of a batch, in this process."""
    pairs = [(evidence_title(item.title), evidence_text(item.text)[:BODY_LIMIT]) for item in items]
    learned = tuple(
        dim.id
        for dim in taxonomy.main
        if dim.id in ("workload", "mechanism") and _learned(model, dim.value_ids, dim.id)
    )
    names = (*model.rule_values, "workload:", "mechanism:")
    found_rules = [_rule_pass(taxonomy, names, learned, pair) for pair in pairs]
    texts = [model_input(title, body) for title, body in pairs]
    vectors, ngrams = embed(texts), model.ngram_rows(texts)
    features = featurize(taxonomy, model, pairs, [p.matches for p in found_rules], vectors)
    heads = {name: head.probabilities(features, ngrams) for name, head in model.heads.items()}
    results = []
    for index, (item, found) in enumerate(zip(items, found_rules, strict=True)):
        probs = {name: values[index] for name, values in heads.items()}
        result = _classify(taxonomy, model, item, found, probs, features[index])
        results.append(_with_learned_evidence(model, result, ngrams, index))
    return results


PARALLEL_MIN = 2000
"""Items from which a forked process classifies part of the batch."""
FORKED_SHARE = 0.5
"""The share of a large batch the forked process classifies. This process unpickles what
the forked one sends back (its classifications); the forked one pickles them: the two
end together at about half."""


@dataclass(frozen=True)
class _RulePass:
    """What the rules say of one item, before the learned heads are applied."""

    chinese: bool
    titled: bool
    """Only a title to read (no evidence text)."""
    matches: RuleMatches
    dims: dict[str, list[Tag]]
    """`classify_dimension` of every main dimension the heads do not decide."""
    target: list[Tag]
    flags: list[Tag]


def _rule_pass(
    taxonomy: Taxonomy, names: Sequence[str], learned: Sequence[str], text: tuple[str, str]
) -> _RulePass:
    title, body = text
    dims = {
        dim.id: classify_dimension(dim, title, body)
        for dim in taxonomy.main
        if dim.id not in learned
    }
    stages = [t for t in dims.get("rsi_stage", []) if t.value != NOT_APPLICABLE]
    return _RulePass(
        chinese=written_in(f"{title}\n{body}") == "zh",
        titled=not body.strip(),
        matches=rule_matches(taxonomy, names, title, body),
        dims=dims,
        # what `classify_target` reads, matched once (it was matched twice)
        target=(
            classify_dimension(taxonomy.dimension(TARGET_DIMENSION), title, body)
            if stages and taxonomy.has(TARGET_DIMENSION)
            else []
        ),
        flags=classify_flags(taxonomy, title, body),
    )


def topic_relevance(
    items: Sequence[tuple[str, str]], *, model: LearnedModel | None = None
) -> list[float]:
    """P(on topic: AI inference performance) of each (title, text), from the learned head."""
    if not items:
        return []
    model = model or load_model()
    head = model.heads["topic"]
    from research_radar.classify.profile import load_taxonomy

    pairs = [(evidence_title(title), evidence_text(text)) for title, text in items]
    features = featurize(load_taxonomy(), model, pairs)
    probs = head.probabilities(features, model.ngram_rows([model_input(t, b) for t, b in pairs]))
    return [_gated(model, row, float(p)) for row, p in zip(features, probs[:, 0], strict=True)]


def _gated(model: LearnedModel, features: np.ndarray, prob: float) -> float:
    """The topic probability, halved when no workload or mechanism term of the profile
    occurs: the lists' off-topic items are all machine learning, so the head alone cannot
    tell a text from another field apart."""
    rules = features[len(features) - len(model.rule_values) :]
    return round(prob if float(rules.max(initial=0.0)) > 0 else prob / 2, 3)


def finding_tags(classification: Classification) -> dict[str, list[Tag]]:
    """The tags a finding keeps: `unknown` and `not-applicable` become empty lists."""
    return {
        dim: [tag for tag in tags if tag.value not in (UNKNOWN, NOT_APPLICABLE)]
        for dim, tags in classification.tags.items()
    }


def _classify(
    taxonomy: Taxonomy,
    model: LearnedModel,
    item: Item,
    found: _RulePass,
    probs: dict[str, np.ndarray],
    features: np.ndarray,
) -> Classification:
    chinese = found.chinese
    topic = _gated(model, features, float(probs["topic"][0])) if "topic" in probs else None
    on_topic = topic is None or topic >= MECHANISM_TOPIC_MIN
    tags: dict[str, list[Tag]] = {}
    explain: dict[str, list[str]] = {}
    for dim in taxonomy.main:
        if dim.id == "workload" and dim.id not in found.dims:
            tags[dim.id] = _workload(model, found.matches["workload"], probs["workload"], chinese)
        elif dim.id == "mechanism" and dim.id not in found.dims:
            rule_min = LEARNED_RULE_MIN if found.titled else RULE_MIN
            tags[dim.id] = _mechanism(
                taxonomy,
                model,
                found.matches["mechanism"],
                probs["mechanism"],
                (chinese, on_topic),
                rule_min,
            )
        elif dim.id == "rsi_stage":
            stages = found.dims[dim.id]
            tags[dim.id] = stages or [Tag(dimension=dim.id, value=NOT_APPLICABLE, confidence=1.0)]
        elif dim.id == "maturity":
            tags[dim.id] = _maturity(dim, item.kind, found.dims[dim.id])
        else:
            kept = [t for t in found.dims[dim.id] if t.terms]
            tags[dim.id] = kept or [_unknown(dim.id, 0.0)]
    for dim_id, dim_tags in tags.items():
        explain[dim_id] = [term for tag in dim_tags for term in tag.terms][:6]
    return Classification(
        tags=tags, target=found.target, flags=found.flags, topic=topic, explain=explain
    )


def _with_learned_evidence(
    model: LearnedModel, result: Classification, ngrams: NgramRows | None, index: int
) -> Classification:
    """`result` whose explanation also names, for each value a head chose without rule
    terms, the words of the item that raised that value's score most."""
    if ngrams is None or model.ngrams is None:
        return result
    explain = dict(result.explain)
    for dim_id, dim_tags in result.tags.items():
        head = model.heads.get(dim_id)
        if head is None or head.ngram_weights is None:
            continue
        words: list[str] = []
        for tag in dim_tags:
            if tag.terms:
                words.extend(tag.terms)
            elif tag.value in head.classes:
                row = head.ngram_weights[head.classes.index(tag.value)]
                words.extend(ngram_evidence(model.ngrams, ngrams, index, row))
        explain[dim_id] = words[:6]
    return dataclasses.replace(result, explain=explain)


def _learned(model: LearnedModel, value_ids: list[str], head: str) -> bool:
    """The profile still has every value the head was trained on."""
    return head in model.heads and set(model.heads[head].classes) <= set(value_ids)


def _unknown(dimension: str, confidence: float) -> Tag:
    return Tag(dimension=dimension, value=UNKNOWN, confidence=round(confidence, 3))


def _workload(
    model: LearnedModel, rules: dict[str, Tag], probs: np.ndarray, chinese: bool
) -> list[Tag]:
    head = model.heads["workload"]
    unlearned = {v: t for v, t in rules.items() if v not in head.classes}
    learned_best = int(np.argmax(probs))
    best_prob = float(probs[learned_best])
    strongest_rule = max(rules.values(), key=lambda t: t.confidence, default=None)
    if chinese or (unlearned and strongest_rule is not None and strongest_rule.value in unlearned):
        if strongest_rule is not None and strongest_rule.confidence >= RULE_MIN:
            return [strongest_rule]
        if chinese:
            return [_unknown("workload", strongest_rule.confidence if strongest_rule else 0.0)]
    value = head.classes[learned_best]
    if best_prob < WORKLOAD_MIN:
        return [_unknown("workload", best_prob)]
    terms = rules[value].terms if value in rules else []
    return [Tag(dimension="workload", value=value, terms=terms, confidence=round(best_prob, 3))]


def _mechanism(
    taxonomy: Taxonomy,
    model: LearnedModel,
    rules: dict[str, Tag],
    probs: np.ndarray,
    flags: tuple[bool, bool],
    rule_min: float,
) -> list[Tag]:
    """Learned values need an item relevant enough to the topic (`MECHANISM_TOPIC_MIN`:
    the heads never saw other fields); rule values need their terms (`rules`: the matched
    mechanism values).

    `flags`: (Chinese text, relevant enough); `rule_min`: the rule confidence from which a
    value the head learned is kept even when the head says no."""
    chinese, on_topic = flags
    head = model.heads["mechanism"]
    kept: list[Tag] = []
    weak: set[str] = set()
    """Values the rules keep but the learned head would not."""
    for value in taxonomy.dimension("mechanism").value_ids:
        rule = rules.get(value)
        if value in head.classes and not chinese:
            index = head.classes.index(value)
            prob = float(probs[index])
            # rule evidence (the matched terms) is enough on its own, but for a bare title
            # one hit is not, against the head (it read the same title)
            ruled = rule is not None and rule.confidence >= rule_min
            if ruled and not (prob >= float(head.thresholds[index]) and on_topic):
                weak.add(value)
            learned = prob >= float(head.thresholds[index]) and on_topic
            if learned or ruled:
                prob = max(prob, rule.confidence if rule and ruled else 0.0)
                terms = rule.terms if rule else []
                kept.append(
                    Tag(dimension="mechanism", value=value, terms=terms, confidence=round(prob, 3))
                )
        elif rule is not None and rule.confidence >= RULE_MIN:
            kept.append(rule)
            weak.add(value)
    if not kept:
        best = float(probs.max()) if len(probs) else 0.0
        return [_unknown("mechanism", best)]
    # like the rules alone: a rule-only value far weaker than the best is a passing mention
    floor = _score(max((tag.confidence for tag in rules.values()), default=0.0)) * RELATIVE_CUTOFF
    return sorted(
        (tag for tag in kept if tag.value not in weak or _score(tag.confidence) >= floor),
        key=lambda tag: -tag.confidence,
    )


def _score(confidence: float) -> float:
    """The rule score behind a confidence (confidence = score / (score + CONFIDENCE_HALF))."""
    return CONFIDENCE_HALF * confidence / max(1e-6, 1.0 - confidence)


_KIND_LEVEL = {
    "repo": ("code-available", "a code repository"),
    "paper": ("paper-reported", "a paper"),
}


def _maturity(dim: Dimension, kind: str, matched: list[Tag]) -> list[Tag]:
    order = dim.value_ids
    found = [t for t in matched if t.terms]
    levels = [(order.index(t.value), t) for t in found if t.value in order]
    if kind in _KIND_LEVEL and _KIND_LEVEL[kind][0] in order:
        value, why = _KIND_LEVEL[kind]
        levels.append(
            (
                order.index(value),
                Tag(dimension="maturity", value=value, terms=[why], confidence=0.9),
            )
        )
    if not levels:
        return [_unknown("maturity", 0.0)]
    return [max(levels, key=lambda pair: pair[0])[1]]
