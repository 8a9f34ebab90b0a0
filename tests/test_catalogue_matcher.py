"""The needle-filtered catalogue matcher finds exactly what running every regex finds."""

from __future__ import annotations

import random
import re
from functools import partial
from typing import TYPE_CHECKING

import pytest

from research_radar.extract import aliassearch
from research_radar.extract import catalogue as catalog_module
from research_radar.extract.catalogue import FIELDS, Catalog, Mention
from research_radar.extract.cataloguefiles import default_catalog
from research_radar.extract.nameneedles import alias_needles, pattern_needle
from research_radar.extract.namescan import FieldKeys, NameScan, Scanned
from research_radar.extract.prefilter import Needles, Probe, fold

if TYPE_CHECKING:
    from conftest import CorpusTexts


def _reference_find(cat: Catalog, field_name: str, text: str) -> list[Mention]:
    """The matcher before the needles (issue #19): the whole alternation, every pattern."""
    index = cat._index[field_name]
    if field_name == "hardware":
        text = text.replace("_", " ")  # a part written as an identifier (`H100_SXM`)
    found: list[tuple[int, int, int, str]] = []
    if index.literal is not None:
        for match in index.literal.finditer(text):
            hit = index.lookup.get(aliassearch.norm_alias(match.group(0)))
            if hit and match.end() > match.start():
                found.append((match.start(), match.end(), hit[0], hit[1]))
    for rank, entry in index.patterns:
        for match in entry.regex.finditer(text):
            if match.end() > match.start():
                found.append((match.start(), match.end(), rank, entry.render(match)))
    found.sort(key=lambda item: (item[0] - item[1], item[2], item[0]))
    taken: list[Mention] = []
    for start, end, _rank, name in found:
        if all(end <= m.start or start >= m.end for m in taken):
            taken.append(Mention(field_name, name, start, end))
    if field_name == "hardware":
        taken = [cat._plural(catalog_module._with_memory(m, text), text) for m in taken]
    return sorted(taken, key=lambda m: m.start)


def _assert_same(cat: Catalog, texts: list[str]) -> int:
    """`find` (every field of a text at once, issue #19; a part written as an identifier,
    `H100_SXM`, read with spaces) against the matcher without needles."""
    compared = 0
    for text in texts:
        for name in FIELDS:
            expected = _reference_find(cat, name, text)
            assert cat.find(name, text) == expected, (name, text)
            compared += 1
    return compared


def test_same_mentions_on_the_fixtures(corpus_texts: CorpusTexts) -> None:
    lines = [line for document in corpus_texts.documents for line in document.splitlines()]
    texts = corpus_texts.fields + corpus_texts.documents + lines
    assert _assert_same(default_catalog(), texts) > 1000


def _generated(rng: random.Random, cat: Catalog, count: int) -> list[str]:
    """Sentences made of catalogue aliases and names, bent the ways text bends them."""
    words = [a for entry in cat.entries for a in (entry.aliases or (entry.name,))]
    words += ["Qwen3-8B", "Llama-3.1-70B", "DeepSeek-V3", "vLLM 0.8.5", "Q4_K_M", "W4A16"]
    words += ["Apple M4 Max", "M3 Ultra", "i9-13900K", "EPYC 9654", "CUDA 12.4", "pi0.5"]
    glue = ["", " ", "-", "2x", "4×", "8X", "x", "(", ")", ", ", "上", "测试", "_", ".", "/"]
    glue += ["1234567890" * 3, " 24 GB", " 80GiB", "GPU", " tok/s", "\n", " vs ", "ı", "İ"]

    def bend(word: str) -> str:
        choice = rng.randrange(6)
        if choice == 0:
            return word.upper()
        if choice == 1:
            return word.lower()
        if choice == 2:
            return re.sub(r"[\s\-]", rng.choice(["", " ", "-"]), word)
        if choice == 3:  # characters that match ASCII letters under re.IGNORECASE
            return word.replace("i", "ı").replace("s", "ſ").replace("k", "\u212a")
        if choice == 4:
            return word.replace("I", "İ").replace("K", "\u212a")
        return word

    texts = []
    for _ in range(count):
        parts = [
            bend(rng.choice(words)) if rng.random() < 0.6 else rng.choice(glue)
            for _ in range(rng.randrange(1, 14))
        ]
        texts.append("".join(rng.choice(["", " ", ""]) + part for part in parts))
    return texts


def test_same_mentions_on_generated_text() -> None:
    cat = default_catalog()
    texts = _generated(random.Random(19), cat, 3000)
    texts.append(" ".join(texts[:400]))  # one long text as well
    assert _assert_same(cat, texts) == 4 * 3001


def test_fold_table_is_complete() -> None:
    """Every character that matches an ASCII letter or digit under re.I folds to it."""
    ascii_alnum = re.compile("[a-z0-9]", re.I)
    for point in range(0x80, 0x110000):
        char = chr(point)
        if ascii_alnum.fullmatch(char):
            folded = fold(char)
            assert re.fullmatch(folded, char, re.I), hex(point)


@pytest.mark.parametrize(
    ("pattern", "needle"),
    [
        (r"Qwen(?P<ver>\d)?-?(?P<size>\d+)B", "qwen"),
        (r"(?:Meta[- ])?Llama(?!\.cpp)", "llama"),
        (r"FlexLLMGen|FlexGen", None),
        (r"(?:π|pi|PI)[- ]?(?P<ver>0(?:\.5)?)", "0"),
        (r"Marian(?!MT)(?:\s(?P<v>\d+))?", "marian"),
        (r"abcX?yz", "abc"),
        (r"ab{2}cd", "cd"),
        (r"(?i:abc)de", None),
        (r"(?x)a b", None),
        (r"\x41bc", None),
        (r"(?P<a>x)(?P=a)yy", "yy"),
        (r"[abc]+de", "de"),
    ],
)
def test_pattern_needles(pattern: str, needle: str | None) -> None:
    assert pattern_needle(pattern) == needle


def test_aliases_searched_apart_match_as_their_alternation() -> None:
    """Live aliases are searched one by one (`first_of`), and tried where one scan of the
    text puts their anchors (`FieldIndex.matches`): the same matches, in the same order,
    as the regex of their alternation, overlaps, neighbours and characters that match
    ASCII letters under re.IGNORECASE included."""
    rng = random.Random(5)
    pieces = ["a", "ab", "abc", "b", "ba", "c", "a b", "a-b", "bc", "1x", "Ks", "S-K", "上a"]
    compared = 0
    for _ in range(3000):
        chosen = set(rng.sample(pieces, rng.randrange(1, 7)))
        aliases = sorted(chosen, key=lambda alias: (-len(alias), alias))
        text = "".join(rng.choice("abcABC -x1_ksKSſ\u212a上") for _ in range(rng.randrange(0, 30)))
        whole = aliassearch.literal_regex(aliases)
        apart = [aliassearch.literal_regex([alias]) for alias in aliases]
        expected = [m.span() for m in whole.finditer(text)]
        searches = [partial(regex.search, text) for regex in apart]
        assert [m.span() for m in aliassearch.first_of(searches)] == expected, text
        anchors = tuple(aliassearch.alias_anchor(alias) for alias in aliases)
        needles = tuple(alias_needles(alias) for alias in aliases)
        index: aliassearch.FieldIndex[catalog_module.Entry] = aliassearch.FieldIndex(
            {}, (), tuple(aliases), needles, anchors=anchors
        )
        probe = Probe(text)
        scan = NameScan([index.keys]).scan(probe.folded, probe.has_digit)[0]
        scanned = index.matches(probe, scan)[0] if scan else []
        assert [m.span() for m in scanned] == expected, text
        compared += bool(expected)
    assert compared > 200


def test_scan_places_only_the_aliases_and_patterns_whose_needles_are_there() -> None:
    """One pass finds where an anchored alias could start, only when its other needles are
    in the text too, and which patterns could match (a digit where their needles ask)."""
    keys = FieldKeys(
        anchors=("rtx", "rtx", None),
        alias_needles=(("4090", "rtx"), ("5090", "rtx"), ("昇腾",)),
        pattern_needles=(Needles((frozenset({"qwen"}),), digit=True),),
    )
    scan = NameScan([keys])
    found = scan.scan("an rtx 4090 or rtx-4090 box, qwen 7b", has_digit=True)[0]
    assert found == Scanned({3: [0], 15: [0]}, [], [0])
    assert scan.scan("qwen on 昇腾", has_digit=False) == [Scanned({}, [2], [])]
    assert scan.scan("nothing named here", has_digit=False) == [None]


def test_a_scan_opens_the_same_keys_the_same_way_in_every_text() -> None:
    """The gates a set of keys opens are worked out once: texts that meet the same keys
    still differ by their digits, their anchors' places and their other needles."""
    keys = FieldKeys(
        anchors=("rtx",),
        alias_needles=(("4090", "rtx"),),
        pattern_needles=(Needles((frozenset({"qwen"}), frozenset({"b"})), digit=True),),
    )
    scan = NameScan([keys])
    assert scan.scan("rtx 4090 or qwen 7b", has_digit=True) == [Scanned({0: [0]}, [], [0])]
    assert scan.scan("a qwen rtx 4090", has_digit=True) == [Scanned({7: [0]}, [], [])]
    assert scan.scan("qwen 7b", has_digit=True) == [Scanned({}, [], [0])]
    assert scan.scan("qwen seven b", has_digit=False) == [None]
    assert scan.scan("qwen 7b", has_digit=True) == [Scanned({}, [], [0])]
