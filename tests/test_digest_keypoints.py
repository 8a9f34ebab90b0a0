"""Key points' text tidying (digest/keypoints.py) as the other signal rules rely on it."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from research_radar.digest.keypoints import tidy_text, without_urls


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("（）(),，、；;:：  \t\u3000abc中文1")), max_size=40))
def test_tidy_text_of_a_tidy_line_is_that_line(text: str) -> None:
    # contradictions read the lines of `without_urls`, already tidy, without tidying
    # them again (refs #19)
    tidy = tidy_text(text)
    assert tidy_text(tidy) == tidy


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("（）(),，；: \nab1/.")), max_size=40))
def test_the_lines_of_a_text_without_urls_are_tidy(text: str) -> None:
    lines = without_urls(f"{text} https://example.org/{text[:3]} {text}").split("\n")
    assert [tidy_text(line) for line in lines] == lines


_METRIC_PIECES = st.sampled_from(
    ["Throughput", "TTFT", "tPoT", "speed-up", "SPEEDUP", "吞吐", "好吞吐", "延迟", "Goodput",
     "memory", "coſt", "\u212aV", "\u0130", "\u0131", "ß", "Σ", "ς", " ", "2.5×", "x", "-"]
)  # fmt: skip


@settings(max_examples=400, deadline=None)
@given(st.lists(_METRIC_PIECES, max_size=12).map("".join))
def test_metric_words_are_found_in_the_folded_line_where_the_pattern_finds_them(
    line: str,
) -> None:
    # contradictions find the metric words with a case-sensitive search of the folded line,
    # which it has already made, not with the case-insensitive pattern (refs #19)
    from research_radar.digest import contradictions as c

    folded = c._folded(line)
    assert len(folded) == len(line)
    expected = [(m.start(), c._METRIC_OF[c._folded(m.group(0))]) for m in c._METRIC.finditer(line)]
    found = [(m.start(), c._METRIC_OF[m.group(0)]) for m in c._METRIC_NEEDLES.finditer(folded)]
    assert found == expected
