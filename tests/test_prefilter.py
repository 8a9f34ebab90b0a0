"""Needles never skip a match: a text a regex matches always passes its needle test."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from research_radar.extract import claims, conditions, loads, metrics
from research_radar.extract.catalogue import FIELDS
from research_radar.extract.cataloguefiles import default_catalog, load_catalog
from research_radar.extract.conditions import find_conditions
from research_radar.extract.loadrules import LOAD_RULES
from research_radar.extract.loads import load_rule_matches
from research_radar.extract.metrics import find_metrics
from research_radar.extract.prefilter import NeedleIndex, Needles, Probe
from research_radar.extract.regexneedles import needles_of

if TYPE_CHECKING:
    from conftest import CorpusTexts


def _module_patterns() -> list[re.Pattern[str]]:
    found = [rule.regex for rule in LOAD_RULES]
    for module in (claims, conditions, loads, metrics):
        found += [v for v in vars(module).values() if isinstance(v, re.Pattern)]
    cat = default_catalog()
    for name in FIELDS:
        index = cat._index[name]
        found += [entry.regex for _, entry in index.patterns]
        found += [entry.regex for entry in cat.of(name) if not entry.template]
    return found


@pytest.fixture(scope="module")
def texts(corpus_texts: CorpusTexts) -> list[str]:
    """The corpus's lines, then bent copies of them (upper case, folding look-alikes, cut)."""
    texts = corpus_texts.fields + [
        line for document in corpus_texts.documents for line in document.splitlines()
    ]
    rng = random.Random(23)
    bent = []
    for text in texts[:3000]:
        bent.append(text.upper())
        bent.append(text.replace("i", "ı").replace("s", "ſ").replace("k", "\u212a"))
        cut = rng.randrange(len(text) + 1)
        bent.append(text[cut:] + " " + rng.choice(texts))
    return texts + bent


def test_needles_never_skip_a_match_of_our_patterns(texts: list[str]) -> None:
    patterns = _module_patterns()
    needles = [needles_of(p.pattern, p.flags) for p in patterns]
    index = NeedleIndex(needles)
    checked = 0
    for text in dict.fromkeys(texts):
        probe = Probe(text)
        candidates = set(index.candidates(probe))
        for n, pattern in enumerate(patterns):
            if pattern.search(text):
                assert n in candidates, (pattern.pattern, needles[n], text)
                checked += 1
    assert checked > 5000


def test_the_needles_are_read_from_the_patterns() -> None:
    """Most of our patterns have needles; a pattern without any runs on every text."""
    patterns = _module_patterns()
    with_needles = [p for p in patterns if needles_of(p.pattern, p.flags) != Needles()]
    assert len(with_needles) > 0.9 * len(patterns)


@pytest.mark.parametrize(
    ("pattern", "text", "matches"),
    [
        pytest.param(r"xa{1,3}b", "xaab", True, id="a repeated item ends the run"),
        pytest.param(r"xa+b", "xaaab", True, id="plus"),
        pytest.param(r"W\d{1,2}A", "W١٦A", True, id="digits of another script"),
        pytest.param(r"M(?P<g>[1-9])\b", "M4", True, id="a spelled group"),
        pytest.param(r"M(?P<g>[1-9])\b", "M 4", False, id="a spelled group, apart"),
        pytest.param(r"(?:Pro|Max)?Ultra", "ultra", True, id="optional group"),
        pytest.param(r"run(?=s)", "runs", True, id="lookahead"),
        pytest.param(r"\bin(?=\s?=)\s?=", "in = 8", True, id="a lookahead's needles"),
        pytest.param(r"\bin(?=\s?=)", "runs in 8 s", False, id="a lookahead's needles, not there"),
        pytest.param(r"(?<=v)\d", "v2", True, id="a lookbehind's needles"),
        pytest.param(r"(?<=v)\d", "x2", False, id="a lookbehind's needles, not there"),
        pytest.param(r"a(?=b)?c", "ac", True, id="an optional lookahead"),
        pytest.param(r"a(?=\x63)c", "ac", True, id="a lookahead not read"),
        pytest.param(r"(?<!no )fail", "failed", True, id="lookbehind"),
        pytest.param(r"k[Kk]", "K\u212a", True, id="Kelvin sign"),
        pytest.param(r"(?:π|pi)0", "ϖ0", True, id="a cased Greek letter"),
        pytest.param(r"批(?:大小|量)\s*\d", "批量 8", True, id="CJK"),
        pytest.param(r"批(?:大小|量)\s*\d", "批次 8", False, id="CJK, not there"),
        pytest.param(r"a|b\d", "a", True, id="alternation"),
        pytest.param(r"ab{0}c", "ac", True, id="zero repeats"),
        pytest.param(r"a{,2}b", "b", True, id="up to two"),
        pytest.param(r"x\{y", "x{y", True, id="escaped brace"),
        pytest.param(r"(?i)ABC", "abc", True, id="global flags"),
        pytest.param(r"(ab)\1", "abab", True, id="back-reference"),
    ],
)
def test_needles_on_tricky_syntax(pattern: str, text: str, matches: bool) -> None:
    regex = re.compile(pattern, re.I)
    assert bool(regex.search(text)) is matches
    if matches:
        assert needles_of(pattern, re.I).could_match(Probe(text))
    else:
        assert not needles_of(pattern, re.I).could_match(Probe(text))


_PIECES = [
    "a", "b", "ab", "x", "K", "1", "2", "-", " ", "批", "量", "π", "\\d", "\\s", "\\w", ".",
    "[ab]", "[0-3]", "[xX×]", "[^a]", "\\.", "\\-",
]  # fmt: skip


def _random_pattern(rng: random.Random, depth: int = 0) -> str:
    parts = []
    for _ in range(rng.randrange(1, 5)):
        choice = rng.random()
        if choice < 0.2 and depth < 2:
            inner = "|".join(_random_pattern(rng, depth + 1) for _ in range(rng.randrange(1, 3)))
            head = rng.choice(["(", "(?:", f"(?P<g{rng.randrange(99)}>", "(?=", "(?<!", "(?<="])
            part = head + inner + ")"
            if head.startswith("(?<"):
                part = head + rng.choice(["a", "1", "x", "批"]) + ")"  # a fixed width
        else:
            part = rng.choice(_PIECES)
        if not part.startswith("(?<") and rng.random() < 0.3:
            part += rng.choice(["?", "*", "+", "{1,2}", "{2}", "{0,1}", "+?", "??"])
        parts.append(part)
    pattern = "".join(parts)
    return pattern if depth or rng.random() < 0.8 else pattern + "|" + _random_pattern(rng, 1)


def test_needles_never_skip_a_match_of_random_patterns() -> None:
    rng = random.Random(7)
    alphabet = "aAbBxX×kK\u212a12١-  批量πΠϖ.\n"
    checked = 0
    for _ in range(3000):
        source = _random_pattern(rng)
        try:
            regex = re.compile(source, re.I)
        except re.error:  # a repeated lookaround, a group name used twice
            continue
        needles = needles_of(source, re.I)
        for _ in range(20):
            text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 12)))
            if regex.search(text):
                assert needles.could_match(Probe(text)), (source, needles, text)
                checked += 1
    assert checked > 1000


def test_load_rule_matches_are_each_rules_matches(texts: list[str]) -> None:
    for text in texts[:4000]:
        expected = tuple(tuple(rule.regex.finditer(text)) for rule in LOAD_RULES)
        found = load_rule_matches(text)
        assert [[m.span() for m in ms] for ms in found] == [
            [m.span() for m in ms] for ms in expected
        ], text
    assert find_conditions("batch 8 on 2x A100", default_catalog()).load["batch"] == "8"


def test_needles_read_after_the_probe_read_its_words() -> None:
    """A probe's words are looked up again when new needles join the vocabulary."""
    probe = Probe("throughput went up 3x over qwvzjx in the end")
    assert probe.present is not None
    needles = needles_of(r"over\s+qwvzjx", re.I)
    assert needles.could_match(probe)
    assert not needles_of(r"over\s+qwvzjy", re.I).could_match(probe)


def test_a_probe_reads_the_needles_added_after_it() -> None:
    """A probe whose needles were found looks up the strings added since: a few one by one,
    many through the vocabulary again."""
    probe = Probe("zqxa1 and zqxb2 sit beside wvq-7 here")
    assert probe.present is not None
    few = needles_of(r"zqxb2|wvq-7|zqxc3")
    assert few.could_match(probe)
    assert not needles_of(r"zqxc3|zqxd4").could_match(probe)
    many = [f"ykv{n:03d}" for n in range(80)]
    assert not needles_of("|".join(many)).could_match(probe)
    assert needles_of("|".join([*many, "zqxa1"])).could_match(probe)
    later = Probe("ykv042 only")
    assert needles_of("|".join(many)).could_match(later)
    assert not needles_of(r"zqxb2|wvq-7").could_match(later)


def test_a_statement_read_again_gives_a_fresh_equal_result(tmp_path: Path) -> None:
    """Conditions and metrics are remembered per statement: callers still own what they
    get, and another catalogue reads the statement again."""
    cat = default_catalog()
    text = "On 2x A100 with Llama-3-8B at BF16, batch 8: 1234 tok/s vs 800 tok/s for vLLM 0.5.0."
    first = find_conditions(text, cat)
    first.hardware.append("changed")
    first.load["batch"] = "99"
    again = find_conditions(text, cat)
    assert again.hardware == ["A100"] and again.load["batch"] == "8"
    metrics = find_metrics(text, cat, again)
    metrics[0].value = -1.0
    assert [m.value for m in find_metrics(text, cat, again)] == [1234.0, 800.0]
    extra = tmp_path / "mine.toml"
    extra.write_text('[[hardware]]\nname = "Tile Engine"\naliases = ["Llama-3-8B"]\n')
    mine = load_catalog(extra)
    assert find_conditions(text, mine).hardware == ["A100", "Tile Engine"]
    assert find_conditions(text, cat).hardware == ["A100"]


def test_texts_without_a_digit_are_asked_only_about_needles_that_need_none() -> None:
    """An index answers a text without a digit from the strings of its needles that need
    no digit: such texts share one answer, and it is each needle's own test."""
    patterns = [r"batch\s?(\d+)", r"greedy", r"(?:at|@)\s?\d+[Kk]", r"greedy\s+decoding"]
    needles = [needles_of(p, re.I) for p in patterns]
    index = NeedleIndex(needles)
    texts = ["at batch size eight, greedy", "batch at greedy decoding", "plain prose", "at 4K"]
    for text in texts:
        probe = Probe(text)
        expected = tuple(n for n, one in enumerate(needles) if one.could_match(probe))
        assert index.known(probe) == expected, text
    assert index.known(Probe("at batch size eight, greedy")) == (1,)
    assert index.known(Probe("batch at greedy decoding")) == (1, 3)
    assert index.known(Probe("the batch at dawn")) is index.known(Probe("plain prose"))
