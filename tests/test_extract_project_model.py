"""A model's own repository measures that model where its page names none (issue #14)."""

from __future__ import annotations

from research_radar.extract.claims import extract_claims
from research_radar.models import Claim

_PAGE = (
    "## Computational Efficiency\n\n"
    "| Resolution | 1x GPU | 2x GPUs |\n|---|---|---|\n| 256x256 | 60.5 | 40.5 |\n\n"
    "Llama-2-7B decodes 12.5 tokens/s on the same GPU.\n"
)


def _numbers(claims: list[Claim]) -> dict[float, Claim]:
    return {metric.value: claim for claim in claims for metric in claim.metrics}


def test_a_models_repository_names_the_model_its_numbers_measure() -> None:
    found = _numbers(extract_claims(_PAGE, where="hpcaitech/Open-Sora@abc123:README.md"))
    assert found[60.5].conditions.model == ["Open-Sora"]
    assert found[12.5].conditions.model == ["Llama-2-7B"]  # a named model stays


def test_a_tools_repository_names_no_model() -> None:
    found = _numbers(extract_claims(_PAGE, where="vllm-project/vllm@abc123:README.md"))
    assert found[60.5].conditions.model == []
    assert _numbers(extract_claims(_PAGE))[60.5].conditions.model == []


def test_a_tool_named_after_a_model_names_no_model() -> None:
    for where in ("hiyouga/LLaMA-Factory@abc:README.md", "karpathy/llama2.c@abc:README.md"):
        assert _numbers(extract_claims(_PAGE, where=where))[60.5].conditions.model == []
