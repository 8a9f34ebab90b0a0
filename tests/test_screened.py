"""Screened regex calls give exactly what the plain `re` calls give (issue #19).

`screened` skips a text its needles rule out and runs a pattern's alternatives apart to
find where its next match starts; both must leave every result as `re` has it.
"""

from __future__ import annotations

import random
import re
from typing import TYPE_CHECKING

import pytest

from research_radar.extract import (
    baselines,
    cells,
    claims,
    conditions,
    context,
    kinds,
    loads,
    markdown,
    metrics,
    scopes,
    stated,
    tablepairs,
    tablerows,
    tables,
)
from research_radar.extract.cataloguefiles import default_catalog
from research_radar.extract.prefilter import Probe
from research_radar.extract.screened import Family, _plan, alive_finditer, finditer, match, search

if TYPE_CHECKING:
    from conftest import CorpusTexts

_MODULES = (cells, claims, conditions, context, kinds, loads, markdown, metrics, scopes, stated)


def _patterns() -> list[re.Pattern[str]]:
    modules = (*_MODULES, baselines, tables, tablerows, tablepairs)
    found = [v for m in modules for v in vars(m).values() if isinstance(v, re.Pattern)]
    found += [rx for _, rx in tablerows._HEADER_LOAD]
    return list(dict.fromkeys(found))


def _shape(found: re.Match[str] | None) -> object:
    return None if found is None else (found.span(), found.groups(), found.groupdict())


@pytest.fixture(scope="module")
def texts(corpus_texts: CorpusTexts) -> list[str]:
    """The corpus's statements, then bent copies (upper case, folding look-alikes, cut)."""
    lines = corpus_texts.fields + [
        line for document in corpus_texts.documents for line in document.splitlines()
    ]
    lines = list(dict.fromkeys(line for line in lines if line.strip()))
    rng = random.Random(31)
    chosen = rng.sample(lines, min(len(lines), 2500))
    bent = [t.upper() for t in chosen[:300]]
    bent += [t.replace("i", "ı").replace("s", "ſ") for t in chosen[300:600]]
    bent += [t[len(t) // 2 :] + " " + rng.choice(lines) for t in chosen[600:900]]
    return chosen + bent


def test_screened_calls_are_the_plain_calls_on_our_patterns(texts: list[str]) -> None:
    patterns = _patterns()
    assert len(patterns) > 100
    split = [rx for rx in patterns if "|" in rx.pattern]
    assert len(split) > 40  # many have alternatives: the branch-wise search is exercised
    matched = 0
    for text in texts:
        probe = Probe(text)
        for regex in patterns:
            expected = [_shape(m) for m in regex.finditer(text)]
            assert [_shape(m) for m in finditer(regex, probe)] == expected, (regex, text)
            assert [_shape(m) for m in alive_finditer(regex, probe)] == expected, (regex, text)
            assert _shape(search(regex, probe)) == _shape(regex.search(text)), (regex, text)
            assert _shape(match(regex, probe)) == _shape(regex.match(text)), (regex, text)
            matched += bool(expected)
    assert matched > 10000


_FAMILIES = {"kinds": kinds._KINDS, "baselines": baselines._COMPARING, "loads": loads._PAIRS}


@pytest.mark.parametrize("name", list(_FAMILIES))
def test_a_family_leaves_out_only_patterns_that_cannot_match(name: str, texts: list[str]) -> None:
    """A family's look-up is necessary, not a guess: a pattern it leaves out matches
    nowhere in the text, so a statement where none is alive gives what running the
    whole family gives; and it does leave some out (it saves work)."""
    family = _FAMILIES[name]
    left_out = 0
    for text in texts:
        alive = set(family.alive(Probe(text)))
        for n, regex in enumerate(family.patterns):
            if n not in alive:
                assert regex.search(text) is None, (regex, text)
                left_out += 1
    assert left_out > len(texts)


def test_a_family_reads_the_kinds_as_the_patterns_do(texts: list[str]) -> None:
    """`kinds` reads all seven kind patterns through one look-up."""
    for text in texts[:800]:
        expected = tuple(rx.search(text) is not None for rx in kinds._KINDS.patterns)
        assert tuple(kinds._said(text)) == expected, text


def test_a_family_with_nothing_alive_finds_nothing() -> None:
    family = Family([re.compile(r"faster than (\w+)", re.I), re.compile(r"\d+ ms")])
    assert family.alive(Probe("no cue here")) == ()
    assert family.alive(Probe("2x FASTER than vLLM")) == (0,)
    assert family.alive(Probe("12 ms, faster than TGI")) == (0, 1)
    assert loads.read_load("a plain sentence about caches", default_catalog()) == {}


_PIECES = [
    "a",
    "b",
    "ab",
    "x",
    "[ab]",
    "[0-9]",
    r"\d",
    r"\s",
    "(?<=a)",
    "(?<!b)",
    "(?=x)",
    "(a)",
    "(?P<g>b)",
    "(?:ab|x)",
    ".",
]


def _alternation(rng: random.Random) -> str:
    branches = []
    for _ in range(rng.randrange(2, 5)):
        parts = []
        for _ in range(rng.randrange(1, 4)):
            part = rng.choice(_PIECES)
            if not part.startswith("(?<") and rng.random() < 0.3:
                part += rng.choice(["?", "*", "+", "{1,2}", "+?", "??"])
            parts.append(part)
        branches.append("".join(parts))
    return "|".join(branches)


def test_screened_calls_are_the_plain_calls_on_random_alternations() -> None:
    """Overlapping alternatives, look-behinds, empty matches and capture groups."""
    rng = random.Random(11)
    checked = 0
    for _ in range(1500):
        source = _alternation(rng)
        try:
            regex = re.compile(source, re.I)
        except re.error:  # a group name used twice
            continue
        for _ in range(10):
            text = "".join(rng.choice("aAbBx1 .") for _ in range(rng.randrange(0, 14)))
            probe = Probe(text)
            expected = [_shape(m) for m in regex.finditer(text)]
            assert [_shape(m) for m in finditer(regex, probe)] == expected, (source, text)
            assert _shape(search(regex, probe)) == _shape(regex.search(text)), (source, text)
            checked += len(expected)
    assert checked > 5000


def test_a_back_reference_is_run_whole() -> None:
    """`(a)|(b)\\2`: the second alternative alone would number its groups differently."""
    regex = re.compile(r"(x)|(b)(c)\2")
    text = "bcb x bcc"
    assert [m.span() for m in finditer(regex, Probe(text))] == [(0, 3), (4, 5)]


def test_an_escaped_parenthesis_is_not_a_conditional() -> None:
    """`faster \\(?(?:than|over)`: a written `(`, made optional, is no `(?(1)...)`; the
    pattern is still run by alternative (the comparison cues of `extract.baselines`)."""
    regex = re.compile(r"\w+\s+\(?(?:than|over)\s|\bvs\.?\s")  # (no start strings)
    assert len(_plan(regex).branches) == 2
    assert len(_plan(re.compile(r"(a)?(?(1)b|c)|d")).branches) == 0
    text = "2x faster (than vLLM) and 3x vs. TGI, faster over HF"
    expected = [_shape(m) for m in regex.finditer(text)]
    assert [_shape(m) for m in finditer(regex, Probe(text))] == expected
    assert len(expected) == 3


def test_a_pattern_that_says_where_it_starts_is_tried_only_there() -> None:
    """A pattern that opens with a look-behind (`(?<![A-Za-z])bs`) is tried by `re` at
    every place; its plan holds the strings a match starts with, and gives `re`'s
    matches."""
    regex = re.compile(r"(?<![A-Za-z])(?:batch|bs)\s*=\s*(\d+)", re.I)
    assert _plan(regex).starts == {"batch", "bs"}
    text = "jobs=3, BS = 8, Batch=16 and abs=2"
    expected = [_shape(m) for m in regex.finditer(text)]
    assert [_shape(m) for m in finditer(regex, Probe(text))] == expected
    assert _shape(search(regex, Probe(text))) == _shape(regex.search(text))
    assert len(expected) == 2


def test_screened_calls_are_the_plain_calls_on_a_leading_group() -> None:
    """`(?:a|b)rest`: the alternatives of a leading group, each with what follows it."""
    rng = random.Random(12)
    checked = 0
    for _ in range(800):
        rest = "".join(rng.choice(_PIECES) for _ in range(rng.randrange(0, 3)))
        source = f"(?:{_alternation(rng)}){rest}"
        try:
            regex = re.compile(source, re.I)
        except re.error:
            continue
        for _ in range(10):
            text = "".join(rng.choice("aAbBx1 .") for _ in range(rng.randrange(0, 14)))
            expected = [_shape(m) for m in regex.finditer(text)]
            assert [_shape(m) for m in finditer(regex, Probe(text))] == expected, (source, text)
            checked += len(expected)
    assert checked > 2000


def test_a_leading_group_is_spread_over_its_alternatives() -> None:
    """Only the alternative whose word is in the text is searched for a start."""
    regex = re.compile(r"(?:input len|prompt len|ISL)\s*=\s*(\d+)", re.I)
    text = "the prompt len = 128 and ISL=64, not input 32"
    assert [m.group(1) for m in finditer(regex, Probe(text))] == ["128", "64"]
