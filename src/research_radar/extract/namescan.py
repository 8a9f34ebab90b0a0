"""Where the catalogue's names can be, found in one pass over a text (issue #19).

Pure. A building block of `catalogue.Catalog`. A `NameScan` holds one Aho-Corasick
automaton over the keys of every field: a needle string (`prefilter.Needles`) of each
alias and pattern, the one its first clause holds (an alias's longest run), and the
anchor of each alias that has one (what the folded text holds where a match of it
starts, `aliassearch.alias_anchor`). One pass over the folded text (`prefilter.fold`)
tells which aliases and patterns could match (their other needles are looked up only
then) and where each anchored alias could start (`Scanned`, per field): each field's
matcher (`aliassearch.FieldIndex.matches`) tries only those, there. It needs neither the
vocabulary of every rule's needles (`prefilter.Probe.present`) nor an index per field: a
statement costs one pass of the automaton and a look at what it met.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from ahocorasick_rs import AhoCorasick, MatchKind

from research_radar.extract.prefilter import Needles

__all__ = ["FieldKeys", "NameScan", "Scanned"]


@dataclass(frozen=True)
class FieldKeys:
    """What a scan looks for of one field (`aliassearch.FieldIndex.keys`)."""

    anchors: Sequence[str | None]
    """Per alias, its anchor, or None."""
    alias_needles: Sequence[Sequence[str]]
    """Per alias, the strings each of its matches holds."""
    pattern_needles: Sequence[Needles]


@dataclass(frozen=True)
class Scanned:
    """What one pass over a text found for one field."""

    places: dict[int, list[int]]
    """Per place of the folded text, the anchored aliases (by number) whose anchor starts
    there and whose other needles the text holds, as met (callers sort them)."""
    aliases: list[int]
    """The aliases without an anchor whose needles are all in the text, in order."""
    patterns: list[int]
    """The patterns whose needles are all in the text, in order."""


class _Gate(NamedTuple):
    """An alias or a pattern (`alias`: which), run where its needles are: its key is a
    string of its first clause, `rest` holds its other clauses. An anchored alias's
    `anchor` is the number of its anchor among the keys, else -1. (A tuple: a scan
    unpacks every gate its keys open, issue #19.)"""

    field: int
    alias: bool
    number: int
    digit: bool
    rest: tuple[tuple[str, ...], ...]
    anchor: int = -1


class NameScan:
    """Every field's keys in one automaton."""

    def __init__(self, fields: Sequence[FieldKeys]) -> None:
        strings = sorted(
            {
                *(a for keys in fields for a in keys.anchors if a is not None),
                *(s for keys in fields for needles in keys.alias_needles for s in needles[:1]),
                *(
                    s
                    for keys in fields
                    for needles in keys.pattern_needles
                    for s in (needles.clauses[0] if needles.clauses else ())
                ),
            }
        )
        number = {string: n for n, string in enumerate(strings)}
        gates: list[_Gate] = []
        firsts: list[frozenset[str]] = []
        for at, keys in enumerate(fields):
            for n, anchor in enumerate(keys.anchors):
                alias_needles = keys.alias_needles[n]
                rest: tuple[tuple[str, ...], ...] = tuple((s,) for s in alias_needles[1:])
                keyed = number[anchor] if anchor is not None else -1
                gates.append(_Gate(at, True, n, False, rest, keyed))
                firsts.append(frozenset(alias_needles[:1]))
            for n, needles in enumerate(keys.pattern_needles):
                rest = tuple(tuple(sorted(clause)) for clause in needles.clauses[1:])
                gates.append(_Gate(at, False, n, needles.digit, rest))
                firsts.append(needles.clauses[0] if needles.clauses else frozenset())
        gated: list[list[int]] = [[] for _ in strings]
        for g, first in enumerate(firsts):
            for string in first:
                gated[number[string]].append(g)
        self._fields = len(fields)
        self._gated = tuple(tuple(found) for found in gated)
        """Per key: the gates one of whose first clause's strings it is."""
        self._anchors = frozenset(gate.anchor for gate in gates if gate.anchor >= 0)
        self._gates = tuple(gates)
        self._always = frozenset(g for g, first in enumerate(firsts) if not first)
        self._automaton = AhoCorasick(strings, matchkind=MatchKind.Standard) if strings else None
        self._open: dict[tuple[frozenset[int], bool], tuple[_Gate, ...]] = {}

    def scan(self, folded: str, has_digit: bool) -> list[Scanned | None]:
        """Per field, what the folded text holds of its keys, or None when nothing
        (`has_digit`: whether the text holds a digit, which some needles ask for)."""
        hits = (
            self._automaton.find_matches_as_indexes(folded, overlapping=True)
            if self._automaton
            else []
        )
        met = frozenset(key for key, _start, _end in hits)
        starts: dict[int, list[int]] = {}
        """Per anchor met (by key), where in the folded text."""
        if not met.isdisjoint(self._anchors):
            anchors = self._anchors
            for key, start, _end in hits:
                if key in anchors:
                    starts.setdefault(key, []).append(start)
        found: list[Scanned | None] = [None] * self._fields
        for field_at, alias, number, _digit, rest, anchor in self._opened(met, has_digit):
            if rest and not _holds(folded, rest):
                continue
            scanned = found[field_at]
            if scanned is None:
                scanned = found[field_at] = Scanned({}, [], [])
            if not alias:
                scanned.patterns.append(number)
            elif anchor < 0:
                scanned.aliases.append(number)
            else:
                for start in starts[anchor]:
                    scanned.places.setdefault(start, []).append(number)
        return found

    def _opened(self, met: frozenset[int], has_digit: bool) -> tuple[_Gate, ...]:
        """The gates, in order, that the keys met open and that a text with (or without)
        a digit and those anchors could pass: the same few keys are met in statement
        after statement, so each set of them is worked out once (issue #19)."""
        opened = self._open.get((met, has_digit))
        if opened is None:
            keyed = set(self._always)
            for key in met:
                keyed.update(self._gated[key])
            opened = tuple(
                gate
                for gate in (self._gates[g] for g in sorted(keyed))
                if (has_digit or not gate.digit) and (gate.anchor < 0 or gate.anchor in met)
            )
            if len(self._open) >= _SETS_KEPT:
                self._open.clear()
            self._open[(met, has_digit)] = opened
        return opened


_SETS_KEPT = 4096
"""How many sets of keys met a scan keeps the gates of before it starts afresh."""


def _holds(folded: str, clauses: tuple[tuple[str, ...], ...]) -> bool:
    """Whether the folded text holds one string of every clause."""
    for clause in clauses:
        for string in clause:
            if string in folded:
                break
        else:
            return False
    return True
