"""The literals a regex cannot match without (pure): the needles of a pattern rule.

A term's needle is its first word. A pattern rule (a regex of the profile) had none, so
it was run over every text, and a pattern opening with `\\b` is tried at every position
of the text: the profile's thirteen took a quarter of the rule pass (#19). Its needles
are read from the parsed regex: a run of literal characters that every match contains,
or one run from each branch of an alternative that every match goes through.

A needle is looked for in the lower-cased text, so a literal counts only where whatever
matches it (case-insensitively, as the rules are compiled) lower-cases to a known form:
ASCII, where i and s also match `İ`, `ı` and `ſ`, which lower-case to `i̇`, `ı` and `ſ`
(a run with them has one needle per spelling), and CJK ideographs, which have no case.
"""

from __future__ import annotations

import re
from re import _parser  # type: ignore[attr-defined]
from typing import Any

__all__ = ["required_literals"]

_SPELLINGS = {"i": ("i", "i\u0307", "\u0131"), "s": ("s", "\u017f")}
"""The lower-cased forms of what matches i and s case-insensitively (i, I, İ, ı; s, S, ſ);
every other ASCII character matches only itself and its other case."""
_LEADING_MIN = 3
"""The length from which the literals a match starts with are its needles."""
_MAX_SPELLINGS = 16
"""A run of literals is cut before it would need more needles than this."""
_ZERO_WIDTH = frozenset({_parser.AT, _parser.ASSERT, _parser.ASSERT_NOT})
_REPEATS = frozenset(
    {_parser.MAX_REPEAT, _parser.MIN_REPEAT, getattr(_parser, "POSSESSIVE_REPEAT", None)} - {None}
)

Options = frozenset[str]
"""Literals one of which every match contains."""


def required_literals(regex: str) -> tuple[tuple[str, ...], bool]:
    """Lower-case literals, one of which occurs in the lower-cased form of every text
    that `regex`, compiled with re.IGNORECASE, matches (empty when none is known), and
    whether every match starts where one of them starts.

    The literals a match starts with are chosen when they are `_LEADING_MIN` characters
    or longer (the rule is then tried only where they start), else the most selective.
    """
    try:
        parsed = _parser.parse(regex, re.IGNORECASE)
    except re.error:
        return (), False
    best, leading = _sequence(list(parsed), ignorecase=True)
    if leading and min(map(len, leading)) >= _LEADING_MIN:
        return tuple(sorted(leading)), True
    return (tuple(sorted(best)), best == leading) if best else ((), False)


def _sequence(items: list[Any], *, ignorecase: bool) -> tuple[Options | None, Options | None]:
    """The most selective options of a sequence of parsed items (a run of literals, the
    characters between them taking no width, or the options of one item that every
    match of the sequence goes through), and the options a match starts with."""
    choices: list[Options] = []
    leading: Options | None = None
    consumed = False
    run: Options = frozenset({""})
    for op, argument in items:
        if op in _ZERO_WIDTH:
            continue
        forms = _forms(op, argument, ignorecase)
        if forms and len(run) * len(forms) <= _MAX_SPELLINGS:
            run = frozenset(head + form for head in run for form in forms)
            continue
        if run != {""}:
            choices.append(run)
            leading, consumed = (leading if consumed else run), True
        run = frozenset(forms) or frozenset({""})
        if not forms:
            inner, first = _item(op, argument, ignorecase=ignorecase)
            if inner:
                choices.append(inner)
            leading, consumed = (leading if consumed else first), True
    if run != {""}:
        choices.append(run)
        leading = leading if consumed else run
    return max(choices, key=_selectivity, default=None), leading


def _item(op: Any, argument: Any, *, ignorecase: bool) -> tuple[Options | None, Options | None]:
    """The options of one item that is not a literal (a group, an alternative or a
    repeat taken at least once) and those it starts with."""
    if op is _parser.SUBPATTERN:
        _, added, removed, inner = argument
        scoped = (ignorecase or bool(added & re.IGNORECASE)) and not removed & re.IGNORECASE
        return _sequence(list(inner), ignorecase=scoped)
    if op is getattr(_parser, "ATOMIC_GROUP", None):
        return _sequence(list(argument), ignorecase=ignorecase)
    if op is _parser.BRANCH:
        branches = [_sequence(list(branch), ignorecase=ignorecase) for branch in argument[1]]
        bests = [best for best, _ in branches]
        firsts = [first for _, first in branches]
        return (
            frozenset().union(*bests) if all(bests) else None,  # type: ignore[arg-type]
            frozenset().union(*firsts) if all(firsts) else None,  # type: ignore[arg-type]
        )
    if op in _REPEATS and argument[0] >= 1:
        return _sequence(list(argument[2]), ignorecase=ignorecase)[0], None
    return None, None


def _forms(op: Any, argument: Any, ignorecase: bool) -> tuple[str, ...]:
    """What a literal or a small class of literals (`[2-8]`) can be in the lower-cased
    text of a match; empty when that is not known."""
    if op is _parser.LITERAL:
        return _spellings(chr(argument), ignorecase)
    if op is not _parser.IN:
        return ()
    chars: list[str] = []
    for member, value in argument:
        if member is _parser.LITERAL:
            chars.append(chr(value))
        elif member is _parser.RANGE and value[1] - value[0] < _MAX_SPELLINGS:
            chars.extend(map(chr, range(value[0], value[1] + 1)))
        else:
            return ()
    forms = [_spellings(char, ignorecase) for char in chars]
    if not all(forms) or len(chars) > _MAX_SPELLINGS:
        return ()
    return tuple(dict.fromkeys(form for spelled in forms for form in spelled))


def _spellings(char: str, ignorecase: bool) -> tuple[str, ...]:
    """What a literal `char` can be in the lower-cased text of a match; empty when that
    is not known."""
    if "\u3400" <= char <= "\u9fff":
        return (char,)
    if not char.isascii():
        return ()
    lower = char.lower()
    return _SPELLINGS.get(lower, (lower,)) if ignorecase else (lower,)


def _selectivity(options: Options) -> tuple[int, int]:
    """Longer literals occur in fewer texts; fewer of them too."""
    return min(len(option) for option in options), -len(options)
