"""The catalogue of hardware, models, precisions and software, and its name matcher.

Pure. A `Catalog` holds `Entry`s in precedence order: literal ones name one thing with
its aliases, pattern ones a family whose canonical name a template renders from the
named groups. `Catalog.find` gives the non-overlapping `Mention`s of one field in a
text, running only the aliases and patterns whose needles (`nameneedles`, `prefilter`)
occur in it, as one pass of one automaton over the text finds them (`namescan`). A name is canonical when the catalogue maps it to itself
(`Catalog.is_canonical`). The catalogue is read from TOML by `cataloguefiles`.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Any

from research_radar.extract.aliassearch import FieldIndex, alias_anchor, norm_alias
from research_radar.extract.nameneedles import alias_needles, pattern_needles
from research_radar.extract.namescan import NameScan, Scanned
from research_radar.extract.prefilter import RECENT_TEXTS, Probe, probe_of
from research_radar.extract.spanset import SpanSet

__all__ = [
    "FIELDS",
    "Catalog",
    "Entry",
    "Mention",
]

FIELDS = ("hardware", "model", "precision", "software")
"""Catalogue fields; each is also the array name inside the TOML files."""

_COUNTED = re.compile(r"(?<![\w.])\d{1,3}\s?[xX×*]?\s?$")
"""A count right before a part's name: `16 L40s`, `8x H100` (not a name's digits: `MI325X`)."""
_UPPER_GROUPS = frozenset({"size", "act", "q", "ud", "var_upper"})
_MEMORY_SUFFIX = re.compile(r"\s\d{1,4}(?:\.\d+)?\s(?:GB|GiB)$")
"""The memory size `_with_memory` writes after a part's name."""
_MEMORY = re.compile(r"[\s\-(（]{0,2}(\d{1,4}(?:\.\d+)?)\s?(GB|GiB|G)(?![A-Za-z0-9/])", re.I)


@dataclass(frozen=True)
class Entry:
    """One catalogue entry: a single thing or a family rendered by a template."""

    field: str
    name: str
    """Canonical name, or the family label for pattern entries."""
    source: str
    """The regular expression (case-insensitive) that finds the entry in a text."""
    template: str = ""
    """Empty for literal entries: the canonical name is `name`."""
    aliases: tuple[str, ...] = ()
    """Literal entries: the name and its aliases."""
    meta: dict[str, Any] = dataclasses.field(default_factory=dict)
    """Everything else the TOML table says (vendor, class, memory...)."""

    @cached_property
    def regex(self) -> re.Pattern[str]:
        """`source` compiled, on first use: most entries are never run (issue #19)."""
        return re.compile(self.source, re.I)

    def render(self, match: re.Match[str]) -> str:
        """The canonical name for one match of this entry."""
        if not self.template:
            return self.name
        return _rendered(self.template, tuple(match.groupdict().items()))


@dataclass(frozen=True)
class Mention:
    """A catalogue name found in a text, with where it stands."""

    field: str
    name: str
    start: int
    end: int


@dataclass(frozen=True)
class Catalog:
    """All catalogue entries, in precedence order (user entries first)."""

    entries: tuple[Entry, ...]
    _cache: dict[str, tuple[tuple[Mention, ...], ...]] = dataclasses.field(
        default_factory=dict, compare=False, repr=False
    )

    def of(self, field_name: str) -> tuple[Entry, ...]:
        return tuple(entry for entry in self.entries if entry.field == field_name)

    @cached_property
    def _index(self) -> dict[str, FieldIndex[Entry]]:
        return {name: _build_index(self.entries, name) for name in FIELDS}

    def find(self, field_name: str, text: str) -> list[Mention]:
        """Non-overlapping mentions of one field, longest match first, in text order."""
        return list(self._found(text)[_FIELD_AT[field_name]])

    def _found(self, text: str) -> tuple[tuple[Mention, ...], ...]:
        """`_find_all`, once per text read lately."""
        found = self._cache.get(text)
        if found is None:
            if len(self._cache) > RECENT_TEXTS:
                self._cache.clear()
            # a statement is asked for every field (its conditions, the spans its names
            # block for numbers): all four are found at once (issue #19)
            found = self._cache[text] = self._find_all(text)
        return found

    @cached_property
    def _scan(self) -> NameScan:
        """Every field's aliases and patterns in one automaton: one pass over a
        statement tells which of them could match there (issue #19)."""
        return NameScan([self._index[name].keys for name in FIELDS])

    def _find_all(self, text: str) -> tuple[tuple[Mention, ...], ...]:
        """The mentions of every field (in `FIELDS` order)."""
        probe = probe_of(text)
        scanned = self._scan.scan(probe.folded, probe.has_digit)
        if "_" in text:
            # `nvidia_a100-sxm4-80gb`, `H100_SXM`: a device written as an identifier is read
            # with spaces (the same length: the mentions' places hold)
            device = probe_of(text.replace("_", " "))
            scanned[0] = self._scan.scan(device.folded, device.has_digit)[0]
            return tuple(
                self._matched(name, device if at == 0 else probe, scanned[at])
                for at, name in enumerate(FIELDS)
            )
        # (most statements name nothing of most fields: those cost no call, issue #19)
        return tuple(
            self._matched(name, probe, found) if found is not None else ()
            for name, found in zip(FIELDS, scanned, strict=True)
        )

    def _matched(
        self, field_name: str, probe: Probe, scanned: Scanned | None
    ) -> tuple[Mention, ...]:
        """The mentions of one field: its aliases and patterns tried only where the scan
        of the text says they could match (`FieldIndex.matches`)."""
        if scanned is None:
            return ()  # most statements name nothing of most fields
        index = self._index[field_name]
        text = probe.text
        literals, patterns = index.matches(probe, scanned)
        found: list[tuple[int, int, int, str]] = []
        for match in literals:
            hit = index.lookup.get(norm_alias(match.group(0)))
            if hit and match.end() > match.start():
                found.append((match.start(), match.end(), hit[0], hit[1]))
        for n, match in patterns:
            rank, entry = index.patterns[n]
            if match.end() > match.start():
                found.append((match.start(), match.end(), rank, entry.render(match)))
        if not found:
            return ()
        taken = [Mention(field_name, name, start, end) for start, end, name in _kept(found)]
        if field_name == "hardware":
            taken = [self._plural(_with_memory(m, text), text) for m in taken]
        return tuple(sorted(taken, key=lambda m: m.start) if len(taken) > 1 else taken)

    def _plural(self, mention: Mention, text: str) -> Mention:
        """`16 L40s` is sixteen L40, not an L40S: a count, then a lower-case plural `s`."""
        if not (
            text[mention.end - 1 : mention.end] == "s"
            and mention.name.endswith("S")
            and _COUNTED.search(text, 0, mention.start)
        ):
            return mention
        single = self._index["hardware"].lookup.get(
            norm_alias(text[mention.start : mention.end - 1])
        )
        if not single:
            return mention
        return dataclasses.replace(mention, name=single[1], end=mention.end - 1)

    def names(self, field_name: str, text: str) -> list[str]:
        """Canonical names of one field in a text, first occurrence order, no repeats."""
        found = self._found(text)[_FIELD_AT[field_name]]
        return list(dict.fromkeys(m.name for m in found)) if found else []

    def part_class(self, name: str) -> str:
        """The class (`cpu`, `consumer`, `data-centre`...) of the hardware entry a canonical
        name comes from, its memory size aside (`RTX 5070 12 GB`); '' when unknown."""
        found = self._classes.get(name)
        if found is None:
            bare = _MEMORY_SUFFIX.sub("", name)
            hit = self._index["hardware"].lookup.get(norm_alias(bare))
            entry = self.entries[hit[0]] if hit else None
            if entry is None:
                entry = next(
                    (e for _, e in self._index["hardware"].patterns if e.regex.fullmatch(bare)),
                    None,
                )
            found = self._classes[name] = str(entry.meta.get("class", "")) if entry else ""
        return found

    @cached_property
    def _classes(self) -> dict[str, str]:
        return {}

    def is_canonical(self, field_name: str, name: str) -> bool:
        """True when the catalogue maps `name`, read alone, to itself."""
        mentions = self.find(field_name, name)
        return len(mentions) == 1 and mentions[0].name == name


_FIELD_AT = {name: at for at, name in enumerate(FIELDS)}


def _kept(found: list[tuple[int, int, int, str]]) -> list[tuple[int, int, str]]:
    """Of the matches found (start, end, rank, name), the longest first, then the first
    in rank, then in place, each kept unless it overlaps one kept before it."""
    if len(found) == 1:  # (most fields of a statement name one thing or none)
        start, end, _rank, name = found[0]
        return [(start, end, name)]
    found.sort(key=lambda item: (item[0] - item[1], item[2], item[0]))
    kept: list[tuple[int, int, str]] = []
    if len(found) <= _FEW:
        for start, end, _rank, name in found:
            if all(end <= a or start >= b for a, b, _name in kept):
                kept.append((start, end, name))
        return kept
    held = SpanSet()  # (a text naming thousands of parts: not quadratic, issue #19)
    for start, end, _rank, name in found:
        if not held.overlaps((start, end)):
            kept.append((start, end, name))
            held.add((start, end))
    return kept


_FEW = 8
"""Up to this many matches, each is compared with those kept (fewer steps than a `SpanSet`)."""


def _build_index(entries: tuple[Entry, ...], field_name: str) -> FieldIndex[Entry]:
    lookup: dict[str, tuple[int, str]] = {}
    aliases: list[str] = []
    patterns: list[tuple[int, Entry]] = []
    for rank, entry in enumerate(entries):
        if entry.field != field_name:
            continue
        if entry.template:
            patterns.append((rank, entry))
            continue
        for alias in entry.aliases:
            lookup.setdefault(norm_alias(alias), (rank, entry.name))
            aliases.append(alias)
    # longest first; ties by text, so the regex reads the same in every process (#19)
    ordered = tuple(sorted(set(aliases), key=lambda alias: (-len(alias), alias)))
    return FieldIndex(
        lookup,
        tuple(patterns),
        ordered,
        tuple(alias_needles(alias) for alias in ordered),
        tuple(pattern_needles(entry.source) for _rank, entry in patterns),
        tuple(alias_anchor(alias) for alias in ordered),
    )


def _with_memory(mention: Mention, text: str) -> Mention:
    """`RTX 5070` followed by `12 GB` becomes `RTX 5070 12 GB`."""
    match = _MEMORY.match(text, mention.end)
    if not match:
        return mention
    unit = "GiB" if match.group(2).lower() == "gib" else "GB"
    name = f"{mention.name} {match.group(1)} {unit}"
    return Mention(mention.field, name, mention.start, match.end())


@lru_cache(maxsize=8192)
def _rendered(template: str, groups: tuple[tuple[str, str | None], ...]) -> str:
    """`_render`, once per template and groups: a page names the same parts again and
    again (issue #19)."""
    return _render(template, dict(groups))


def _render(template: str, groups: dict[str, str | None]) -> str:
    """Fill `{group}` slots; drop `[...]` segments whose groups are empty.

    A group named `*_upper` is upper-cased (`xtx` -> `XTX`), one named `*_title`
    title-cased with single spaces (`ice  lake` -> `Ice Lake`): a name reads the same
    however a page wrote its case."""

    def value(name: str) -> str:
        raw = groups.get(name) or ""
        if name in _UPPER_GROUPS or name.endswith("_upper"):
            return raw.upper()
        return " ".join(raw.split()).title() if name.endswith("_title") else raw

    def optional(match: re.Match[str]) -> str:
        inner = match.group(1)
        slots = _SLOT.findall(inner)
        if any(not groups.get(slot) for slot in slots):
            return ""
        return _SLOT.sub(lambda m: value(m.group(1)), inner)

    text = _OPTIONAL.sub(optional, template) if "[" in template else template
    return _SLOT.sub(lambda m: value(m.group(1)), text) if "{" in text else text


_OPTIONAL = re.compile(r"\[([^\[\]]*)\]")
_SLOT = re.compile(r"\{(\w+)\}")
