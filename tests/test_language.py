"""Which language a text is written in: one reading for the classifier and the report."""

from __future__ import annotations

import pytest

from research_radar import language
from research_radar.language import spaced, written_in


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        pytest.param("Only the CUDA backend is covered", "en", id="english"),
        pytest.param("仅支持 CUDA 后端", "zh", id="chinese-with-a-name"),
        pytest.param("推理 on GPU", "zh", id="as-many-characters-as-words"),
        pytest.param("Speculative decoding backend 互斥", "en", id="more-words"),
        pytest.param("8 x A100, 2.4x", "en", id="no-chinese"),
        pytest.param("", "en", id="empty"),
        pytest.param("。，", "en", id="chinese-punctuation-only"),
    ],
)
def test_a_text_is_written_in_the_language_of_most_of_it(text: str, lang: str) -> None:
    assert written_in(text) == lang


@pytest.mark.parametrize(
    ("text", "want"),
    [
        pytest.param("目标扩到RTX 4090、Q4_K_M", "目标扩到 RTX 4090、Q4_K_M", id="before-a-name"),
        pytest.param(
            "证据多出代码、条件完整的数字", "证据多出代码、条件完整的数字", id="chinese-only"
        ),
        pytest.param("面向LLM与Agentic的工作", "面向 LLM 与 Agentic 的工作", id="both-sides"),
        pytest.param("3个数字", "3 个数字", id="a-number"),
        pytest.param("more evidence: code", "more evidence: code", id="english"),
    ],
)
def test_mixed_text_is_spaced_between_chinese_and_latin_only(text: str, want: str) -> None:
    assert spaced(text) == want


def test_the_language_module_exports_its_api() -> None:
    assert language.__all__ == ["spaced", "written_in"]
