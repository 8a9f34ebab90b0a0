"""A row's ratio names the baseline of the row's other numbers (issue #14)."""

from __future__ import annotations

import pytest

from research_radar.extract.claims import extract_claims
from research_radar.extract.rowratios import Group, with_row_ratio_baseline
from research_radar.models import Claim, Conditions, Metric


def _numbers(claims: list[Claim]) -> dict[float, Claim]:
    return {metric.value: claim for claim in claims for metric in claim.metrics}


@pytest.mark.parametrize(
    ("text", "value", "baseline"),
    [
        pytest.param(
            "| Model | Throughput (tok/s) | Speedup vs vLLM |\n|---|---|---|\n"
            "| Llama-3-8B | 1500 | 1.3x |\n",
            1500.0,
            ["vLLM"],
            id="en",
        ),
        pytest.param(
            "| 模型 | 吞吐 (tok/s) | 相比 vLLM 加速比 |\n|---|---|---|\n| Qwen2-7B | 900 | 1.6x |\n",
            900.0,
            ["vLLM"],
            id="zh",
        ),
    ],
)
def test_a_rows_absolute_number_takes_the_baseline_its_ratio_column_names(
    text: str, value: float, baseline: list[str]
) -> None:
    assert _numbers(extract_claims(text))[value].conditions.baseline == baseline


def _group(name: str, unit: str, baseline: list[str] | None = None) -> Group:
    metric = Metric(name=name, value=1.0, unit=unit)
    return (Conditions(baseline=baseline or []), False, [metric])


def test_the_compared_systems_own_column_is_not_compared_with_itself() -> None:
    groups = [_group("Ours", "ms"), _group("cuBLAS", "ms"), _group("vs cuBLAS", "x", ["cuBLAS"])]
    found = with_row_ratio_baseline(groups)
    assert found[0][0].baseline == ["cuBLAS"]
    assert found[1][0].baseline == []


def test_ratios_naming_different_systems_name_none_for_the_others() -> None:
    groups = [_group("Ours", "ms"), _group("vs A", "x", ["A"]), _group("vs B", "x", ["B"])]
    assert with_row_ratio_baseline(groups)[0][0].baseline == []
