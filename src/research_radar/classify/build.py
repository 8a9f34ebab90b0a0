"""Build a taxonomy profile from TOML text: parse, validate, compile rules, extend a base.

Pure: `build_taxonomy` takes the text and a name for it (`origin`) and raises ConfigError
with the origin, the line where known and the fix. `taxonomy.load_taxonomy` reads files.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, TypeVar

from research_radar.classify.literals import required_literals
from research_radar.classify.model import (
    Dimension,
    Queries,
    Rule,
    RuleKind,
    Taxonomy,
    Value,
    rule_needles,
)
from research_radar.classify.needles import Needles
from research_radar.errors import ConfigError

__all__ = ["build_rule", "build_taxonomy"]

_T = TypeVar("_T")
_CJK = re.compile(r"[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]")
_SEPARATORS = re.compile(r"[\s_-]+")
_VALUE_KEYS = {"label_en", "label_zh", "terms", "terms_zh", "patterns", "weight", "note"}
_RULE_KEYS = {"terms", "terms_zh", "patterns"}
_DIMENSION_KEYS = {
    "label_en",
    "label_zh",
    "multi",
    "default",
    "ordered",
    "parent",
    "requires",
    "min_confidence",
    "note",
    "values",
}
_TOP_KEYS = {"profile", "dimensions", "queries", "feeds"}


def build_taxonomy(
    text: str, origin: str, *, base: Taxonomy | None = None, extend: bool = True
) -> Taxonomy:
    """Build a profile from TOML text (pure); with `base`, extend or replace it."""
    ctx = _Ctx(origin, text)
    doc = ctx.parse()
    ctx.check_keys(doc, _TOP_KEYS, "the top level", "")
    profile = ctx.table(doc, "profile", "[profile]")
    mode = profile.get("mode", "extend")
    if mode not in ("extend", "replace"):
        raise ctx.error(f'[profile] mode must be "extend" or "replace", not {mode!r}', "mode")
    if base is not None and (not extend or mode == "replace"):
        base = None
    return _build(doc, profile, ctx, base)


def build_rule(kind: RuleKind, source: str) -> Rule:
    """Compile one rule; raises re.error or ValueError for a rule that cannot work."""
    if not source.strip():
        raise ValueError("an empty term would match everything")
    if kind == "pattern":
        needles, anchored = required_literals(source)
        rule = Rule(kind, source, source, needles, anchored=anchored)
        empty = rule.pattern.search("") is not None  # compiled now: a bad regex fails here
    elif kind == "term_zh" or _CJK.search(source):
        regex = r"\s*".join(re.escape(part) for part in source.split())
        needle = source.split()[0].lower()
        rule = Rule(kind, source, regex, (needle,), regex.lower(), anchored=True)
        empty = False  # escaped literals joined: never empty (source has a non-space)
    else:
        head, body = _english_regex(source)
        needle = _SEPARATORS.split(source.rstrip("*").strip())[0].lower()
        needles = (needle,) if needle else ()
        rule = Rule(kind, source, head + body, needles, body.lower(), bool(head), bool(needles))
        empty = not _SEPARATORS.sub("", source.rstrip("*"))  # no literal: only the tail
    if empty:
        raise ValueError("it matches the empty string, so it would match everything")
    return rule


def _english_regex(term: str) -> tuple[str, str]:
    """Left boundary and body of a word-bounded, separator-tolerant regex of a term.

    `*` at the end makes a stem. The left boundary is apart so the fast lower-case
    pattern can leave it out (a leading look-behind defeats the regex prefix search).
    """
    stem = term.endswith("*")
    parts = [re.escape(part) for part in _SEPARATORS.split(term.rstrip("*")) if part]
    body = r"[\s_-]*".join(parts)
    tail = r"[\w-]*" if stem else r"(?![0-9A-Za-z])"
    head = r"(?<![0-9A-Za-z])" if parts and re.match(r"\w", parts[0][:1]) else ""
    return head, body + tail


@dataclass(frozen=True)
class _Ctx:
    """The file being built, for error messages that name file, line and fix."""

    origin: str
    text: str

    def parse(self) -> dict[str, Any]:
        try:
            return tomllib.loads(self.text)
        except tomllib.TOMLDecodeError as exc:
            found = re.search(r"at line (\d+)", str(exc))
            line = int(found.group(1)) if found else None
            hint = "fix the TOML syntax (quote strings, close brackets; regexes in '...')"
            raise ConfigError(f"not valid TOML: {exc}; {hint}", self.origin, line) from None

    def line_of(self, *needles: str) -> int | None:
        """The first line holding every needle (the first needle alone as a fallback)."""
        for wanted in (needles, needles[:1]):
            for number, line in enumerate(self.text.splitlines(), start=1):
                if wanted and all(needle in line for needle in wanted):
                    return number
        return None

    def error(self, message: str, *needles: str) -> ConfigError:
        return ConfigError(message, self.origin, self.line_of(*needles) if needles else None)

    def table(self, raw: Mapping[str, Any], key: str, where: str) -> dict[str, Any]:
        value = raw.get(key, {})
        if not isinstance(value, dict):
            raise self.error(f"{where} must be a table, e.g. [{key}]", key)
        return value

    def check_keys(self, raw: Mapping[str, Any], allowed: set[str], where: str, key: str) -> None:
        unknown = sorted(set(raw) - allowed)
        if unknown:
            raise self.error(
                f"unknown key {unknown[0]!r} in {where}; allowed: {', '.join(sorted(allowed))}",
                unknown[0],
                key,
            )

    def strings(self, raw: Mapping[str, Any], key: str, where: str) -> list[str]:
        value = raw.get(key, [])
        if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
            raise self.error(f'{where}: {key} must be a list of strings, e.g. {key} = ["..."]', key)
        return value


def _build(
    doc: dict[str, Any], profile: dict[str, Any], ctx: _Ctx, base: Taxonomy | None
) -> Taxonomy:
    ctx.check_keys(
        profile, {"name", "version", "mode", "description_en", "description_zh"}, "[profile]", ""
    )
    dimensions = _build_dimensions(ctx.table(doc, "dimensions", "[dimensions]"), ctx, base)
    if not dimensions:
        raise ctx.error("the profile defines no dimension; add one, e.g. [dimensions.workload]")
    # one automaton for the whole profile: a text is scanned once, not once per dimension
    shared = Needles(needle for dim in dimensions for needle in rule_needles(dim))
    dimensions = tuple(replace(dim, shared_needles=shared) for dim in dimensions)
    feeds = ctx.strings(ctx.table(doc, "feeds", "[feeds]"), "urls", "[feeds]")
    old = base or Taxonomy("", "", "", ())
    return Taxonomy(
        name=str(profile.get("name", old.name or Path(ctx.origin).stem)),
        description_en=str(profile.get("description_en", old.description_en)),
        description_zh=str(profile.get("description_zh", old.description_zh)),
        dimensions=dimensions,
        queries=_build_queries(ctx.table(doc, "queries", "[queries]"), ctx, old.queries),
        feeds=_merged(old.feeds, feeds),
        origins=(*old.origins, ctx.origin),
    )


def _build_dimensions(
    raw: dict[str, Any], ctx: _Ctx, base: Taxonomy | None
) -> tuple[Dimension, ...]:
    old = {dim.id: dim for dim in base.dimensions} if base else {}
    for dim_id in raw:
        if base is not None and dim_id not in old:
            raise ctx.error(
                f"unknown dimension {dim_id!r}; known: {', '.join(old)}. To define new "
                'dimensions, replace the profile with [profile] mode = "replace"',
                f"dimensions.{dim_id}",
            )
    built = {**old}
    for dim_id, dim_raw in raw.items():
        if not isinstance(dim_raw, dict):
            raise ctx.error(f"dimensions.{dim_id} must be a table", f"dimensions.{dim_id}")
        built[dim_id] = _build_dimension(dim_id, dim_raw, ctx, old.get(dim_id))
    for dim in built.values():
        if dim.parent is not None and dim.parent not in built:
            raise ctx.error(
                f"dimension {dim.id!r} has unknown parent {dim.parent!r}; name a dimension id",
                "parent",
            )
    return tuple(built.values())


def _build_dimension(
    dim_id: str, raw: dict[str, Any], ctx: _Ctx, old: Dimension | None
) -> Dimension:
    where = f"[dimensions.{dim_id}]"
    ctx.check_keys(raw, _DIMENSION_KEYS, where, f"dimensions.{dim_id}")
    dim = old or Dimension(dim_id, "", "", ())
    values = _build_values(dim_id, ctx.table(raw, "values", where), ctx, dim.values)
    requires_raw = ctx.table(raw, "requires", where)
    ctx.check_keys(requires_raw, _RULE_KEYS, f"{where}.requires", "requires")
    dim = replace(
        dim,
        label_en=_text(raw, "label_en", dim.label_en),
        label_zh=_text(raw, "label_zh", dim.label_zh),
        values=values,
        multi=bool(raw.get("multi", dim.multi)),
        default=raw.get("default", dim.default),
        ordered=bool(raw.get("ordered", dim.ordered)),
        parent=raw.get("parent", dim.parent),
        requires=_merged(dim.requires, _build_rules(requires_raw, ctx, f"{where}.requires")),
        min_confidence=float(raw.get("min_confidence", dim.min_confidence)),
        note=_text(raw, "note", dim.note),
    )
    _check_dimension(dim, ctx)
    return dim


def _check_dimension(dim: Dimension, ctx: _Ctx) -> None:
    needle = f"dimensions.{dim.id}"
    if not dim.label_en or not dim.label_zh:
        raise ctx.error(f"dimension {dim.id!r} needs label_en and label_zh; add both", needle)
    if not dim.values:
        raise ctx.error(f"dimension {dim.id!r} has no values; add [{needle}.values.<id>]", needle)
    if dim.default is not None and dim.default not in dim.value_ids:
        raise ctx.error(
            f"default {dim.default!r} of {dim.id!r} is not one of its values {dim.value_ids}",
            "default",
        )
    if not 0.0 <= dim.min_confidence <= 1.0:
        raise ctx.error(f"min_confidence of {dim.id!r} must lie in [0, 1]", "min_confidence")


def _build_values(
    dim_id: str, raw: dict[str, Any], ctx: _Ctx, old: tuple[Value, ...]
) -> tuple[Value, ...]:
    built = {value.id: value for value in old}
    for value_id, value_raw in raw.items():
        where = f"[dimensions.{dim_id}.values.{value_id}]"
        if not isinstance(value_raw, dict):
            raise ctx.error(f"{where} must be a table", f"values.{value_id}")
        ctx.check_keys(value_raw, _VALUE_KEYS, where, f"values.{value_id}")
        value = built.get(value_id) or Value(value_id, "", "")
        value = replace(
            value,
            label_en=_text(value_raw, "label_en", value.label_en),
            label_zh=_text(value_raw, "label_zh", value.label_zh),
            rules=_merged(value.rules, _build_rules(value_raw, ctx, where)),
            weight=float(value_raw.get("weight", value.weight)),
            note=_text(value_raw, "note", value.note),
        )
        if not value.label_en or not value.label_zh:
            raise ctx.error(
                f"value {value_id!r} of {dim_id!r} needs both label_en and label_zh; "
                f'add e.g. label_en = "..." and label_zh = "..." under {where}',
                f"values.{value_id}",
            )
        built[value_id] = value
    return tuple(built.values())


def _build_rules(raw: Mapping[str, Any], ctx: _Ctx, where: str) -> tuple[Rule, ...]:
    kinds: tuple[tuple[str, RuleKind], ...] = (
        ("terms", "term"),
        ("terms_zh", "term_zh"),
        ("patterns", "pattern"),
    )
    rules: list[Rule] = []
    for key, kind in kinds:
        for source in ctx.strings(raw, key, where):
            try:
                rules.append(build_rule(kind, source))
            except (re.error, ValueError) as exc:
                escaped = source.replace("\\", "\\\\")
                line = ctx.line_of(source) or ctx.line_of(escaped)
                fix = "fix the regex (write it in '...' so backslashes stay)"
                if kind != "pattern":
                    fix = "remove or lengthen the term"
                message = f"{where}: bad {kind} {source!r}: {exc}; {fix}"
                raise ConfigError(message, ctx.origin, line) from None
    return tuple(rules)


def _build_queries(raw: dict[str, Any], ctx: _Ctx, old: Queries) -> Queries:
    ctx.check_keys(raw, {"github", "arxiv"}, "[queries]", "queries")
    github = ctx.table(raw, "github", "[queries.github]")
    arxiv = ctx.table(raw, "arxiv", "[queries.arxiv]")
    ctx.check_keys(github, {"axes", "extra"}, "[queries.github]", "github")
    ctx.check_keys(arxiv, {"categories", "terms"}, "[queries.arxiv]", "arxiv")
    axes = dict(old.github_axes)
    for name in ctx.table(github, "axes", "[queries.github.axes]"):
        terms = ctx.strings(github["axes"], name, "[queries.github.axes]")
        axes[name] = _merged(axes.get(name, ()), terms)
    return Queries(
        github_axes=tuple(axes.items()),
        github_extra=_merged(old.github_extra, ctx.strings(github, "extra", "[queries.github]")),
        arxiv_categories=_merged(
            old.arxiv_categories, ctx.strings(arxiv, "categories", "[queries.arxiv]")
        ),
        arxiv_terms=_merged(old.arxiv_terms, ctx.strings(arxiv, "terms", "[queries.arxiv]")),
    )


def _text(raw: Mapping[str, Any], key: str, old: str) -> str:
    value = raw.get(key, old)
    return value.strip() if isinstance(value, str) else old


def _merged(old: Sequence[_T], new: Sequence[_T]) -> tuple[_T, ...]:
    """Old items then new ones, without duplicates, in order."""
    return tuple(dict.fromkeys([*old, *new]))
