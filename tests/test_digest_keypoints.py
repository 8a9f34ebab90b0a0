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
