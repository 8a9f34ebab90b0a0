"""Headings that state a result, and headings that only look like they do (issue #14)."""

from __future__ import annotations

import pytest

from research_radar.extract.claims import extract_claims


def _heading_numbers(text: str) -> list[tuple[float, str]]:
    return [(m.value, m.unit) for c in extract_claims(text) if c.line == 1 for m in c.metrics]


@pytest.mark.parametrize(
    ("heading", "expected"),
    [
        pytest.param("## 3.4x faster decoding than eager PyTorch", (3.4, "x"), id="faster"),
        pytest.param("### ⚡ 1.6× speed-up on the small model", (1.6, "x"), id="emoji-speedup"),
        pytest.param("**Up to 2,400 tokens/s on a single card**", (2400.0, "tok/s"), id="bold"),
        pytest.param("## 显存降低 35%", (35.0, "%"), id="zh-percent"),
        pytest.param("### 推理加速 2.2 倍", (2.2, "x"), id="zh-times"),
    ],
)
def test_a_heading_that_states_a_result_is_a_claim(
    heading: str, expected: tuple[float, str]
) -> None:
    assert expected in _heading_numbers(heading + "\n\nSome text follows.\n")


@pytest.mark.parametrize(
    "heading",
    [
        pytest.param("## Quick start (10 minutes)", id="duration"),
        pytest.param("### 4x H100 80GB", id="count-and-memory"),
        pytest.param("### 768x768", id="resolution"),
        pytest.param("## Release 0.5.1 (2025-02-11)", id="version-date"),
        pytest.param("### Qwen2.5-14B at 50%", id="percent-without-comparison"),
    ],
)
def test_a_heading_that_names_a_set_up_is_no_claim(heading: str) -> None:
    assert _heading_numbers(heading + "\n\nSome text follows.\n") == []


def test_a_heading_claim_keeps_its_sections_set_up() -> None:
    text = "# Results\n\n## 2.5x faster on H100 with Llama-3-8B\n\nDetails below.\n"
    [claim] = [c for c in extract_claims(text) if c.line == 3 and c.metrics]
    assert claim.conditions.hardware and claim.conditions.model
