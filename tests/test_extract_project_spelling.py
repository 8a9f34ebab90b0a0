"""A project's name is found in a label however it is spelt, exactly as the per-name
regexes that the matcher replaced found it (#19: one regex compiled per repository)."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from research_radar.extract.projectnames import name_parts, names_own, spelt_at


def _pattern(name: str) -> str:
    """The regex a name was matched with before: words joined by an optional separator."""
    parts = [p for p in re.split(r"[\s_.\-]+|(?<=[a-z])(?=[A-Z])", name) if p]
    return r"[\s_.\-]?".join(re.escape(p) for p in parts)


def _owned_by_regex(name: str, label: str) -> bool:
    pattern = _pattern(name)
    return bool(re.search(rf"^\W*{pattern}(?![A-Za-z])|\s{pattern}\W*$", label, re.I))


NAMES = st.sampled_from(["fast-serve", "FastServe", "ZhiLight", "llm.awq", "Neural Speed", "vLLM"])
LABELS = st.text(
    alphabet="fastFASTserveSERVEzhiZHIlightllmawqLLMvneuralspeedNS -_.()*:Xx1", max_size=24
)


@settings(max_examples=400, deadline=None)
@given(name=NAMES, label=LABELS)
def test_a_label_names_the_project_exactly_when_the_old_regex_did(name: str, label: str) -> None:
    assert names_own(name_parts(name), label) == _owned_by_regex(name, label)


@settings(max_examples=400, deadline=None)
@given(name=NAMES, alias=LABELS)
def test_an_alias_spelt_as_the_name_is_the_name(name: str, alias: str) -> None:
    whole = spelt_at(name_parts(name), alias, 0) == len(alias)
    assert whole == bool(re.fullmatch(_pattern(name), alias, re.I))


def test_spellings_of_one_name() -> None:
    parts = name_parts("fast-serve")
    for spelt in ("FastServe", "fast serve", "fast_serve", "FAST.SERVE"):
        assert spelt_at(parts, spelt, 0) == len(spelt)
    assert spelt_at(parts, "fast  serve", 0) == -1  # one separator at most
    assert spelt_at(parts, "Latency FastServe", 8) == 17
