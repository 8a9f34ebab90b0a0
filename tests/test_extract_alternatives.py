"""A ratio that names no compared system is to the other of the two precisions (or
parts) its paragraph names: `KV-cache in BF16 and FP8. FP8 shows 14.9% higher
throughput` compares FP8 with BF16 (issue #14)."""

from __future__ import annotations

from research_radar.extract.claims import extract_claims
from research_radar.models import Claim


def _baselines(text: str) -> dict[float, list[str]]:
    claims: list[Claim] = extract_claims(text)
    return {m.value: list(c.conditions.baseline) for c in claims for m in c.metrics}


def test_a_caption_naming_two_precisions_gives_the_ratio_its_reference() -> None:
    text = (
        "*Table 4: Llama-3.1-8B under heavy load with the KV-cache in BF16 and FP8 formats. "
        "FP8 shows 14.9% higher output throughput and 14.8% lower median ITL.*\n"
    )
    found = _baselines(text)
    assert found[14.9] == ["BF16"] and found[14.8] == ["BF16"]


def test_two_parts_named_in_a_paragraph_in_chinese() -> None:
    text = "我们在 A100 和 H100 上测试了解码速度。H100 的解码速度提升了 1.8 倍。\n"
    assert _baselines(text)[1.8] == ["A100"]


def test_no_reference_is_guessed_where_it_is_open() -> None:
    # three precisions named: which one is compared with is not said
    three = "We ran BF16, FP8 and INT4 KV caches. FP8 shows 12% higher throughput.\n"
    assert _baselines(three)[12.0] == []
    # a number that is no ratio
    absolute = "We ran BF16 and FP8 KV caches. FP8 reaches 517 tok/s, faster.\n"
    assert _baselines(absolute)[517.0] == []
    # no word that compares: two precisions served, one number reported
    served = "Serving supports W4A16 and W8A8. W8A8 uses 35% of the memory.\n"
    assert _baselines(served)[35.0] == []
    # a system the sentence names may be the one compared with: nothing is guessed
    system = (
        "Both W4A16 and W8A8 run on Orin. W8A8 reaches a 3.12x prefill speedup, near llama.cpp.\n"
    )
    assert _baselines(system)[3.12] == []
