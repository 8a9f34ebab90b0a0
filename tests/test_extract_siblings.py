"""Sibling sections named after systems, one of them the project's own: its numbers are
compared with the others', theirs are the compared systems' own (issue #14)."""

from __future__ import annotations

from research_radar.extract.claims import extract_claims
from research_radar.extract.compared import is_baseline_metric
from research_radar.models import Claim

_PAGE = (
    "## x86\n\n### Meta-Llama-3-8B-Instruct\n\n#### llama.cpp\n\n"
    "| Batch size | Throughput (Tokens/s) |\n|---|---|\n| 1 | 8.47 |\n\n"
    "#### DashInfer\n\n"
    "| Batch size | Throughput (Tokens/s) |\n|---|---|\n| 1 | 16.37 |\n| 8 | 95.66 |\n\n"
    "### Qwen1.5-4B-Chat\n\n#### DashInfer\n\n"
    "| Batch size | Throughput (Tokens/s) |\n|---|---|\n| 1 | 30.20 |\n"
)
_WHERE = "modelscope/dash-infer@f3cca8ed98b23e204b5569bc8a4806cf6193e31b:docs/EN/performance.md"


def _numbers(claims: list[Claim]) -> dict[float, tuple[bool, list[str]]]:
    """value -> (is the compared system's own, baseline)."""
    return {
        m.value: (is_baseline_metric(m), list(c.conditions.baseline))
        for c in claims
        for m in c.metrics
    }


def test_the_projects_section_is_compared_with_its_sibling_systems() -> None:
    found = _numbers(extract_claims(_PAGE, where=_WHERE))
    assert found[8.47] == (True, [])
    assert found[16.37] == (False, ["llama.cpp"]) and found[95.66] == (False, ["llama.cpp"])
    # a section with no sibling system compares nothing
    assert found[30.20] == (False, [])


def test_without_the_projects_own_section_no_direction_is_said() -> None:
    found = _numbers(extract_claims(_PAGE, where="someone/bench-notes@abc:README.md"))
    assert found[8.47] == (False, []) and found[16.37] == (False, [])
    neutral = _PAGE.replace("#### DashInfer", "#### vLLM")
    found = _numbers(extract_claims(neutral, where=_WHERE))
    assert found[8.47] == (False, []) and found[16.37][1] == []


def test_a_heading_that_names_more_than_a_system_is_no_sibling_system() -> None:
    page = _PAGE.replace("#### llama.cpp", "#### llama.cpp on 48 cores, FP16")
    found = _numbers(extract_claims(page, where=_WHERE))
    assert found[8.47] == (False, []) and found[16.37] == (False, [])


def test_a_section_named_as_the_baseline_holds_the_compared_numbers_of_its_siblings() -> None:
    text = (
        "# Report\n\n## BF16 Baseline\n\n| Configuration | Latency (s) |\n|---|---|\n"
        "| Base (32,256,32) | 0.62 |\n\n## W8A8 SmoothQuant\n\n"
        "| Configuration | Latency (s) |\n|---|---|\n| Base (32,256,32) | 0.46 |\n"
    )
    found = {
        m.value: (m.name, c.conditions.baseline) for c in extract_claims(text) for m in c.metrics
    }
    assert found[0.62][0].endswith("(baseline)")
    assert found[0.46] == ("Latency", ["BF16 Baseline"])
    # without a sibling section nothing is compared
    alone = text.split("## W8A8")[0]
    assert not any(m.name.endswith("(baseline)") for c in extract_claims(alone) for m in c.metrics)


def test_columns_of_one_references_measurements_are_all_the_reference() -> None:
    text = (
        "| GPU | Baseline RTF | Baseline TTFA | Graphs RTF | Graphs TTFA |\n|---|---|---|---|---|\n"
        "| RTX 4090 | 0.82 | 800 ms | 4.78 | 156 ms |\n"
    )
    found = {
        m.value: (m.name, c.conditions.baseline) for c in extract_claims(text) for m in c.metrics
    }
    assert found[0.82][0].endswith("(baseline)") and found[800.0][0].endswith("(baseline)")
    assert found[156.0][1] == ["Baseline"]
