"""Framing words: a sentence that compares gives its unnamed ratio a reference; a table's
widest precision is its other precisions' reference, framed or not (issue #14)."""

from __future__ import annotations

import pytest

from research_radar.extract.claims import extract_claims
from research_radar.extract.framing import frames_comparison
from research_radar.models import Claim

_TABLE = (
    "| | Q4_0 | Q8_0 | F16 |\n|---|---|---|---|\n"
    "| ms/token (CPU @ Platinum 8260) | 74 | 114 | 189 |\n"
    "| file size | 3.3G | 6.2G | 12G |\n"
)
"""Precisions side by side (chatglm.cpp's README): the F16 column is the others' reference."""


def _numbers(claims: list[Claim]) -> dict[float, tuple[str, list[str]]]:
    """value -> (metric name, baseline) of each number."""
    return {m.value: (m.name, list(c.conditions.baseline)) for c in claims for m in c.metrics}


@pytest.mark.parametrize(
    "lead",
    [
        pytest.param("ChatGLM-6B:\n\n", id="unframed"),
        pytest.param("## Quantized vs F16\n\n", id="heading-vs"),
        pytest.param("## Performance comparison\n\n### ChatGLM-6B\n\n", id="parent-heading"),
        pytest.param("Speed and size of each format compared with F16:\n\n", id="paragraph"),
        pytest.param("量化前后的速度与大小如下：\n\n", id="before-and-after-zh"),
    ],
)
def test_the_widest_precision_is_the_reference_of_the_others(lead: str) -> None:
    found = _numbers(extract_claims(lead + _TABLE))
    assert found[74.0] == ("Q4_0", ["FP16"]) and found[3.3][1] == ["FP16"]
    assert found[189.0][0].endswith("(baseline)")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("## GPTQ vs bitsandbytes", True),
        ("Throughput relative to FP16 (higher is better):", True),
        ("INT8 speed-ups on A100", True),
        ("与 FP16 相比的显存占用", True),
        ("以 BF16 为基线", True),
        ("## Results", False),
        ("Hunyuan-Instruct 的 BF16、FP8 在 DROP 上的评测结果如下：", False),
        ("基准测试", False),
        ("在 Atlas 800I A2 加速卡上的性能数据如下：", False),
        ("Measurements were made on 4C/8T x86 CPU with AVX2, 4 threads.", False),
    ],
)
def test_words_that_frame_a_comparison(text: str, expected: bool) -> None:
    assert frames_comparison(text) is expected


def test_a_legend_saying_higher_is_better_compares_nothing() -> None:
    assert not frames_comparison("Throughput in tokens/s (higher is better):")
    assert frames_comparison("FP8 shows 14.9% higher output throughput")


def test_rows_all_named_after_the_project_leave_the_original_model_the_reference() -> None:
    # baichuan-inc/Baichuan2: every row names the repository's model, so the repository's
    # name tells nothing; the original model beside its 4-bit one is its reference
    text = (
        "量化后在各个 benchmark 上的结果和原始版本对比如下：\n\n"
        "| Model 5-shot | C-Eval | MMLU |\n|---|---|---|\n"
        "| Baichuan2-13B-Chat | 56.74 | 57.32 |\n| Baichuan2-13B-Chat-4bits | 56.05 | 56.24 |\n"
    )
    where = "baichuan-inc/Baichuan2@ed1cf0f598378e1bc393f526c6052b8e6144eeef:README.md"
    found = _numbers(extract_claims(text, where=where))
    assert found[56.74] == ("C-Eval (baseline)", [])
    assert found[56.05] == ("C-Eval", ["Baichuan2-13B-Chat"])
    # a project's own row beside another system's is still the project's own
    own = "| Model | GSM8K |\n|---|---|\n| Best Baseline | 52.1 |\n| ChatGLM3-6B-Base | 72.3 |\n"
    found = _numbers(extract_claims(own, where="THUDM/ChatGLM3@732294f:README.md"))
    assert found[52.1][0].endswith("(baseline)") and found[72.3][1] == ["Best Baseline"]
