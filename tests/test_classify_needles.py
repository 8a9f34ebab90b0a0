"""The rule classifier's pre-check: needles found in one pass (`classify.needles`) and the
literals a pattern rule cannot match without (`classify.literals`).

A rule is tried only where one of its needles occurs, and an `anchored` one only where a
needle starts, so each property here is what keeps the pre-check from changing a
classification: a rule that can match is never filtered out.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from research_radar.classify.build import build_rule
from research_radar.classify.literals import required_literals
from research_radar.classify.model import Rule, Taxonomy
from research_radar.classify.needles import Needles
from research_radar.classify.profile import load_taxonomy

# characters that match ASCII letters case-insensitively without lower-casing to them
# (İ, ı, ſ), the Kelvin sign, a combining dot, CJK and the separators the terms allow
ALPHABET = [
    *"aiskxbzpolcvteAISKXBZPOLCVTE1248_- .\n",
    "İ",
    "ı",
    "ſ",
    "\u212a",
    "\u0307",
    "日",
    "本",
]
texts = st.text(alphabet=st.sampled_from(ALPHABET), max_size=40)


@pytest.fixture(scope="module")
def taxonomy() -> Taxonomy:
    return load_taxonomy()


def _occurrences(needle: str, text: str) -> list[int]:
    return [at for at in range(len(text)) if text.startswith(needle, at)]


@settings(max_examples=200, deadline=None)
@given(
    needles=st.lists(st.text(alphabet=st.sampled_from(ALPHABET), max_size=4), max_size=8),
    text=texts,
)
def test_needles_finds_every_occurrence_of_every_needle(needles: list[str], text: str) -> None:
    expected = {needle: _occurrences(needle, text) for needle in needles if needle}
    assert Needles(needles).found(text) == {n: at for n, at in expected.items() if at}


# ----------------------------------------------------------------- pattern needles


@pytest.mark.parametrize(
    ("regex", "needles", "anchored"),
    [
        pytest.param(r"\brecurrent\b", ("recurrent",), True, id="word"),
        pytest.param(r"(?-i:\bKV\b)", ("kv",), True, id="case-sensitive-group"),
        pytest.param(r"\b(?:TP|PP)\d*", ("pp", "tp"), True, id="alternative"),
        pytest.param(r"\breus(?:e|ed)\b", ("reuse", "reuſe"), True, id="s-has-two-forms"),
        pytest.param(r"\bpolicy", ("policy", "poli̇cy", "polıcy"), True, id="i-has-three"),
        pytest.param(r"Q[2-3]_", ("q2_", "q3_"), True, id="small-class"),
        pytest.param(r"[1-8][- ]?bits?\b", ("bit", "bi̇t", "bıt"), False, id="needle-inside"),
        pytest.param(r"\bfoo\w*\s+asynchronously", ("foo",), True, id="leading-is-enough"),
        pytest.param(r"\d+(?:\.\d+)?\s*x", ("x",), False, id="one-letter"),
        pytest.param(r"\d+\s*\w+", (), False, id="no-literal"),
        pytest.param(r"ab|\d", (), False, id="a-branch-without-literal"),
        pytest.param(r"(?:ab)?", (), False, id="optional"),
    ],
)
def test_required_literals(regex: str, needles: tuple[str, ...], anchored: bool) -> None:
    assert required_literals(regex) == (needles, anchored)


PIECES = [
    *"aiskxAISK_- 1",
    "日本",
    "ab",
    "sk",
    "ie",
    r"\b",
    r"\w",
    r"\d",
    r"\s",
    ".",
    "[sz]",
    "[2-4]",
    "[^a]",
    "(?-i:Ks)",
    "(?-i:i)",
    "(?i:S)",
    "(?=s)",
    "(?<!x)",
    "(?!k)",
]


def _regexes() -> st.SearchStrategy[str]:
    atom = st.sampled_from(PIECES)
    quantified = st.builds(
        lambda piece, quantifier: piece + quantifier,
        atom,
        st.sampled_from(["", "", "", "?", "*", "+", "{2}"]),
    )

    def grow(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        sequence = st.lists(inner, min_size=1, max_size=4).map("".join)
        return sequence | st.lists(sequence, min_size=2, max_size=3).map(
            lambda branches: "(?:" + "|".join(branches) + ")"
        )

    return st.recursive(quantified, grow, max_leaves=8)


@settings(max_examples=400, deadline=None)
@given(regex=_regexes(), text=texts)
def test_a_pattern_matches_only_where_a_needle_occurs(regex: str, text: str) -> None:
    try:
        pattern = re.compile(regex, re.IGNORECASE)
    except re.error:
        assume(False)
        raise
    needles, anchored = required_literals(regex)
    lower = text.lower()
    for hit in pattern.finditer(text):
        if hit.end() == hit.start():
            assert not needles  # a regex that can match nothing needs no literal
            continue
        if needles:
            assert any(needle in lower for needle in needles), (regex, text, needles)
        if anchored and len(lower) == len(text):
            assert any(lower.startswith(n, hit.start()) for n in needles), (regex, text)


# -------------------------------------------------------- the profile's own rules


def _rules(taxonomy: Taxonomy) -> list[Rule]:
    return [
        rule
        for dim in taxonomy.dimensions
        for rule in (*dim.requires, *(rule for value in dim.values for rule in value.rules))
    ]


def _vocabulary(taxonomy: Taxonomy) -> list[str]:
    """Words of the profile's terms and the literal runs of its patterns."""
    words = {"not", "无", " ", "-", "_", "\n", "İ", "ı", "ſ", "2", "4-", ".", "x"}
    for rule in _rules(taxonomy):
        words.update(re.findall(r"[^\W\d_]+|\d", rule.source))
        words.update(rule.source.split())
    return sorted(words)


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_every_match_of_a_profile_rule_starts_or_holds_its_needle(
    taxonomy: Taxonomy, data: st.DataObject
) -> None:
    vocabulary = _vocabulary(taxonomy)
    cased = st.sampled_from(vocabulary).flatmap(
        lambda word: st.sampled_from([word, word.upper(), word.title()])
    )
    text = data.draw(st.lists(cased, max_size=12).map(" ".join))
    lower = text.lower()
    aligned = len(lower) == len(text)
    for rule in _rules(taxonomy):
        # what the classifier matches: a term's lower-case form on an aligned text
        if rule.fast is not None and aligned:
            hits = [hit.start() for hit in rule.fast.finditer(lower)]
        else:
            hits = [hit.start() for hit in rule.pattern.finditer(text) if hit.end() > hit.start()]
            if rule.fast is not None:
                continue  # a term on a text lower() changed the length of: not pre-checked
        for start in hits:
            assert rule.needles, rule.source
            assert any(needle in lower for needle in rule.needles), (rule.source, text)
            if rule.anchored and aligned:
                starts = [n for n in rule.needles if lower.startswith(n, start)]
                assert starts, (rule.source, text)


def test_every_pattern_of_the_profile_has_needles(taxonomy: Taxonomy) -> None:
    patterns = [rule for rule in _rules(taxonomy) if rule.kind == "pattern"]
    assert patterns and all(rule.needles for rule in patterns)


def test_a_term_is_anchored_at_its_first_word() -> None:
    rule = build_rule("term", "KV cache")
    assert (rule.needles, rule.anchored) == (("kv",), True)
    assert rule.fast is not None and rule.fast.match("kv-cache offload", 0)
