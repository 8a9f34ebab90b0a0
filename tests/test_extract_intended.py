"""Targets, expectations and estimates are no measurements (issue #14): the report shows
what authors measured, never what they aim for."""

from __future__ import annotations

import pytest

from research_radar.extract import intended
from research_radar.extract.claims import extract_claims
from research_radar.extract.intended import intended_spans


def _values(text: str) -> list[float]:
    return [m.value for c in extract_claims(text) for m in c.metrics]


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("- **Target**: 1.5-2x speedup vs the eager baseline", id="target-range"),
        pytest.param("- **With FP16**: Expected 2-3x total speedup", id="expected-range"),
        pytest.param("Target: 5%-30% lower latency", id="target-range-of-percentages"),
        pytest.param("The planner is targeting a 20% token share.", id="targeting"),
        pytest.param("Contexts up to ~32K tokens estimated on one card.", id="estimated-after"),
        pytest.param(
            "It helps (about 5x more work per frontier plan, author estimate).",
            id="author-estimate-far",
        ),
        pytest.param("有望将延迟降低到 50 ms", id="zh-expected"),
        pytest.param("预计吞吐提升30%", id="zh-forecast"),
        pytest.param("目标：单卡 100 tokens/s", id="zh-target"),
    ],
)
def test_an_intention_is_no_measurement(text: str) -> None:
    assert _values(text) == []


@pytest.mark.parametrize(
    ("text", "values"),
    [
        pytest.param("As expected, FP8 gives 2.1x higher throughput on H100.", [2.1], id="as"),
        pytest.param("It ran 30% faster than expected on A100.", [30], id="than-expected"),
        pytest.param("Got 181.5 ms on a T4, 81% over target.", [181.5, 81], id="over-target"),
        pytest.param("目标检测模型 YOLOv5 在 T4 上推理 10 ms。", [10], id="object-detection"),
        pytest.param("The target model Llama-3-70B decodes 50 tok/s on H100.", [50], id="model"),
        pytest.param("预计吞吐提升30%，目前实测 120 tokens/s。", [120], id="zh-measured-too"),
    ],
)
def test_a_measurement_near_an_intention_word_stays(text: str, values: list[float]) -> None:
    assert _values(text) == values


def test_the_spans_are_the_intended_numbers() -> None:
    text = "Target: 2x; measured 1.6x"
    assert [text[a:b] for a, b in intended_spans(text)] == ["2"]
    assert intended.__all__ == ["intended_spans", "stated_as_intention"]
