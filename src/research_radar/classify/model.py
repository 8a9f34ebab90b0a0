"""The taxonomy's data model: a profile's dimensions, values, matching rules and queries.

Pure, frozen dataclasses; `taxonomy_build` makes them from TOML, `taxonomy` loads files.
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Literal

from research_radar.classify.needles import Needles

__all__ = ["Dimension", "Queries", "Rule", "RuleKind", "Taxonomy", "Value", "rule_needles"]

RuleKind = Literal["term", "term_zh", "pattern"]


@dataclass(frozen=True)
class Rule:
    """One matching rule of a value.

    `source` is the term or regex as the profile writes it; `pattern` finds it
    case-insensitively (English terms on word boundaries, Chinese terms as substrings).
    The regexes compile at their first use: a run meets the needles of few of a profile's
    hundreds of rules, and compiling them all cost most of loading it (#19).
    """

    kind: RuleKind
    source: str
    regex: str
    """The regex of `pattern` (compiled with re.IGNORECASE)."""
    needles: tuple[str, ...] = ()
    """Lower-case literals, one of which every match contains (a term's first word; the
    `required_literals` of a pattern): a rule is tried only where one occurs. Empty: the
    rule is always tried."""
    fast_regex: str | None = None
    """The regex of `fast`, or None."""
    left_bound: bool = False
    """`fast` matches count only when no ASCII letter or digit precedes them."""
    anchored: bool = False
    """Every match starts where one of `needles` starts (always so for a term)."""

    @functools.cached_property
    def pattern(self) -> re.Pattern[str]:
        return re.compile(self.regex, re.IGNORECASE)

    @functools.cached_property
    def fast(self) -> re.Pattern[str] | None:
        """The same term, case-sensitive, for lower-cased text (much faster than `pattern`)."""
        return None if self.fast_regex is None else re.compile(self.fast_regex)


@dataclass(frozen=True)
class Value:
    """One value of a dimension, with bilingual labels and its rules."""

    id: str
    label_en: str
    label_zh: str
    rules: tuple[Rule, ...] = ()
    weight: float = 1.0
    """Multiplies the value's score; generic values (LLM) weigh less than specific ones."""
    note: str = ""
    needles: frozenset[str] = field(default=frozenset(), init=False, compare=False, repr=False)
    """The needles of the rules: where none occurs, only the rules without a needle
    (`loose`) can match."""
    loose: tuple[Rule, ...] = field(default=(), init=False, compare=False, repr=False)
    """The rules without a needle, always tried."""
    by_needle: dict[str, tuple[Rule, ...]] = field(
        default_factory=dict, init=False, compare=False, repr=False
    )
    """needle -> the rules it is a needle of."""

    def __post_init__(self) -> None:
        by_needle: dict[str, list[Rule]] = {}
        for rule in self.rules:
            for needle in rule.needles:
                by_needle.setdefault(needle, []).append(rule)
        object.__setattr__(self, "needles", frozenset(by_needle))
        object.__setattr__(self, "loose", tuple(rule for rule in self.rules if not rule.needles))
        object.__setattr__(self, "by_needle", {n: tuple(rules) for n, rules in by_needle.items()})

    def label(self, lang: str = "zh") -> str:
        return self.label_en if lang == "en" else self.label_zh

    def terms(self, kind: RuleKind | None = None) -> list[str]:
        """The rules' sources, optionally of one kind, in profile order."""
        return [rule.source for rule in self.rules if kind is None or rule.kind == kind]


@dataclass(frozen=True)
class Dimension:
    """One classification dimension.

    A dimension with a `parent` is a facet of another one (the RSI target of the RSI
    stage, the flags of the maturity); `Taxonomy.main` leaves facets out.
    """

    id: str
    label_en: str
    label_zh: str
    values: tuple[Value, ...]
    multi: bool = False
    """Several values at once (the mechanism) or at most one."""
    default: str | None = None
    """The value reported when no rule matches, or None for nothing."""
    ordered: bool = False
    """Values are ordinal (maturity): the highest matched value wins."""
    parent: str | None = None
    requires: tuple[Rule, ...] = ()
    """When not empty, the dimension is tagged only if one of these rules matches."""
    min_confidence: float = 0.0
    note: str = ""
    shared_needles: Needles | None = field(default=None, compare=False, repr=False)
    """The needles of every dimension of the profile, when the profile built them
    (`build_taxonomy`): one pass over a text finds those of all its dimensions."""

    @property
    def value_ids(self) -> list[str]:
        return [value.id for value in self.values]

    @functools.cached_property
    def needles(self) -> Needles:
        """Needles that include those of every rule of the dimension (values and
        `requires`): `shared_needles`, or its own built at the first use."""
        if self.shared_needles is not None:
            return self.shared_needles
        return Needles(rule_needles(self))

    def value(self, value_id: str) -> Value:
        for value in self.values:
            if value.id == value_id:
                return value
        raise KeyError(f"unknown value {value_id!r} of {self.id}; known: {self.value_ids}")

    def label(self, lang: str = "zh") -> str:
        return self.label_en if lang == "en" else self.label_zh


def rule_needles(dimension: Dimension) -> Iterator[str]:
    """The needles of every rule of a dimension (values and `requires`)."""
    rules = itertools.chain(dimension.requires, *(value.rules for value in dimension.values))
    return (needle for rule in rules for needle in rule.needles)


@dataclass(frozen=True)
class Queries:
    """Discovery queries the collectors read."""

    github_axes: tuple[tuple[str, tuple[str, ...]], ...] = ()
    """Named axes (model, system, mechanism); a query takes one term from each."""
    github_extra: tuple[str, ...] = ()
    arxiv_categories: tuple[str, ...] = ()
    arxiv_terms: tuple[str, ...] = ()

    def github(self) -> list[str]:
        """Every GitHub query: the cartesian product of the axes, then the extra ones."""
        axes = [terms for _, terms in self.github_axes if terms]
        combined = [" ".join(parts) for parts in itertools.product(*axes)] if axes else []
        return combined + [query for query in self.github_extra if query not in combined]


@dataclass(frozen=True)
class Taxonomy:
    """A loaded profile: topic metadata, dimensions in order, queries and feeds."""

    name: str
    description_en: str
    description_zh: str
    dimensions: tuple[Dimension, ...]
    queries: Queries = field(default_factory=Queries)
    feeds: tuple[str, ...] = ()
    origins: tuple[str, ...] = ()
    """The files this profile was built from, bundled first."""

    @property
    def main(self) -> tuple[Dimension, ...]:
        """The dimensions that are not facets of another one."""
        return tuple(dim for dim in self.dimensions if dim.parent is None)

    @property
    def dimension_ids(self) -> list[str]:
        return [dim.id for dim in self.dimensions]

    def has(self, dimension_id: str) -> bool:
        return dimension_id in self.dimension_ids

    def dimension(self, dimension_id: str) -> Dimension:
        for dim in self.dimensions:
            if dim.id == dimension_id:
                return dim
        raise KeyError(f"unknown dimension {dimension_id!r}; known: {self.dimension_ids}")

    def value(self, dimension_id: str, value_id: str) -> Value:
        return self.dimension(dimension_id).value(value_id)

    def label(self, dimension_id: str, value_id: str, lang: str = "zh") -> str:
        """The label of a value in `zh` (default) or `en`."""
        return self.value(dimension_id, value_id).label(lang)

    def description(self, lang: str = "zh") -> str:
        return self.description_en if lang == "en" else self.description_zh

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready view of the profile (rules as their sources)."""
        return {
            "name": self.name,
            "description_en": self.description_en,
            "description_zh": self.description_zh,
            "origins": list(self.origins),
            "dimensions": [_dimension_dict(dim) for dim in self.dimensions],
            "queries": {
                "github_axes": {name: list(terms) for name, terms in self.queries.github_axes},
                "github_extra": list(self.queries.github_extra),
                "github_count": len(self.queries.github()),
                "arxiv_categories": list(self.queries.arxiv_categories),
                "arxiv_terms": list(self.queries.arxiv_terms),
            },
            "feeds": list(self.feeds),
        }


def _dimension_dict(dim: Dimension) -> dict[str, Any]:
    values = [
        {
            "id": value.id,
            "label_en": value.label_en,
            "label_zh": value.label_zh,
            "weight": value.weight,
            "terms": value.terms("term"),
            "terms_zh": value.terms("term_zh"),
            "patterns": value.terms("pattern"),
        }
        for value in dim.values
    ]
    return {
        "id": dim.id,
        "label_en": dim.label_en,
        "label_zh": dim.label_zh,
        "multi": dim.multi,
        "default": dim.default,
        "ordered": dim.ordered,
        "parent": dim.parent,
        "requires": [rule.source for rule in dim.requires],
        "min_confidence": dim.min_confidence,
        "values": values,
    }
