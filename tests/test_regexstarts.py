"""Where a match can start: the strings read from a pattern, and the matches tried there."""

from __future__ import annotations

import os
import random
import re
import subprocess
import sys

import pytest

from research_radar.extract import regexstarts
from research_radar.extract.cataloguefiles import default_catalog
from research_radar.extract.claims import extract_claims
from research_radar.extract.prefilter import fold
from research_radar.extract.regexstarts import anchored_matches, start_strings

_NAMES = [chr(65 + n) + chr(97 + n) * 3 for n in range(20)]
"""More names than short starts may be (`Aaaa`, `Bbbb`...): each long, so each a start."""


def test_exported_members() -> None:
    assert set(regexstarts.__all__) == {"anchored_matches", "first_anchored", "start_strings"}


@pytest.mark.parametrize(
    ("pattern", "starts"),
    [
        pytest.param(r"(?<![A-Za-z])Triton(?:\s?v?\d+)?", {"triton"}, id="literal-run"),
        pytest.param(
            r"(?:NVIDIA\s)?(?:GeForce\s?)?(?:RTX|GTX)",
            {"nvidia", "geforce", "rtx", "gtx"},
            id="optional-parts",
        ),
        pytest.param(
            r"(?:NVIDIA )?(?:RTX|GTX)\d", {"nvidia rtx", "nvidia gtx", "rtx", "gtx"}, id="optional"
        ),
        pytest.param(r"Stable[\s-]Video|SVD[-_\s]XT", {"stable", "svd"}, id="factored"),
        pytest.param(r"(?-i:o[134])-mini", {"o1-mini", "o3-mini", "o4-mini"}, id="class"),
        pytest.param(
            r"KV[-_]?(?:16|8)",
            {"kv-16", "kv-8", "kv_16", "kv_8", "kv16", "kv8"},
            id="optional-after",
        ),
        pytest.param(r"\bAB\b", {"ab"}, id="zero-width"),
        pytest.param(r"(?:π|pi)0", {"pi0", "π0", "ϖ0"}, id="not-ascii"),
        pytest.param(r"Σx", {"σx", "ςx"}, id="final-sigma"),
        pytest.param(r"骁龙", {"骁龙"}, id="caseless"),
        pytest.param(
            "(?:" + "|".join(_NAMES) + ")", {name.lower() for name in _NAMES}, id="many-long"
        ),
        pytest.param("(?:" + "|".join([*_NAMES, "Xy"]) + ")", None, id="many-one-short"),
        pytest.param(r"\w+B", None, id="category"),
        pytest.param(r"a?", None, id="may-be-empty"),
        pytest.param(r"[^a]b", None, id="negated"),
        pytest.param(r"(?P<x>a)(?P=x)", {"a"}, id="reference-after"),
        pytest.param(r"(?>ab)c", None, id="atomic"),
        pytest.param(r"[ab]+(?:ab|x)", {"a", "b"}, id="repeat-then-more"),
        pytest.param(r"(?:ab)?x", {"abx", "x"}, id="once-then-more"),
    ],
)
def test_start_strings(pattern: str, starts: set[str] | None) -> None:
    found = start_strings(pattern, re.I)
    assert (set(found) if found is not None else None) == starts


def test_anchored_matches_are_finditer_on_the_catalogue_patterns() -> None:
    """Every catalogue pattern tried only where it can start finds what `finditer` finds,
    on texts made of its own matches' pieces and characters that fold to ASCII letters."""
    rng = random.Random(7)
    cat = default_catalog()
    pieces = ["RTX 4090", "rtx-4090", "Qwen3-8B", "o3-mini", "SVD-XT", "KV8", "vLLM 0.8.5"]
    pieces += ["Triton", "W4A16", "GeForce GTX 1080", "Arc B580", "x", "2x", " ", "-", "ſ"]
    pieces += ["\u212a", "İ", "ı", "_", "8", "80GB", "Llama-3.1-70B", "a", "上"]
    pieces += ["π0", "Π0", "ϖ0", "pi-0", "骁龙 8 至尊版", "在 4070 上", "Σ", "ς"]
    compared, matched = 0, 0
    for entry in cat.entries:
        if not entry.template:
            continue
        starts = start_strings(entry.source, re.I)
        if starts is None:
            continue
        for _ in range(40):
            text = "".join(rng.choice(pieces) for _ in range(rng.randrange(1, 12)))
            if len(fold(text)) != len(text):
                continue
            expected = [m.span() for m in entry.regex.finditer(text)]
            found = anchored_matches(entry.regex, text, fold(text), starts)
            assert [m.span() for m in found] == expected, (entry.name, text)
            compared += 1
            matched += bool(expected)
    assert compared > 5000
    assert matched > 10  # (tests/test_catalogue_matcher.py compares on real texts too)


_WITHOUT_PARSER = """
import re
import sys
# as on a Python whose `re` holds no module of that name (`re` has its own already)
sys.modules["re._parser"] = None
from research_radar.extract.cataloguefiles import default_catalog
from research_radar.extract.claims import extract_claims
from research_radar.extract.regexstarts import start_strings
assert start_strings(r"(?<![A-Za-z])Triton") is None
text = "On 8x RTX 4090 with Qwen3-8B at BF16, vLLM 0.8.5 reaches 2,310 tok/s at batch 32."
print(repr([c.model_dump_json() for c in extract_claims(text, catalog=default_catalog())]))
"""


def test_a_python_without_the_private_parser_reads_the_same_claims() -> None:
    """`re._parser` is private: where it is missing, patterns run whole, same output."""
    text = "On 8x RTX 4090 with Qwen3-8B at BF16, vLLM 0.8.5 reaches 2,310 tok/s at batch 32."
    expected = repr([c.model_dump_json() for c in extract_claims(text)])
    run = subprocess.run(
        [sys.executable, "-c", _WITHOUT_PARSER],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
    )
    assert run.stdout.strip() == expected
    assert "RTX 4090" in expected
