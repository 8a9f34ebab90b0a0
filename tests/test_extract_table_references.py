"""The compared system of a table that its own cells do not name as such: named by the
prose around it, or by the table's shape (issue #14)."""

from __future__ import annotations

from research_radar.extract.claims import extract_claims
from research_radar.extract.compared import is_baseline_metric
from research_radar.models import Claim


def _numbers(claims: list[Claim]) -> dict[float, Claim]:
    return {metric.value: claim for claim in claims for metric in claim.metrics}


def _is_baseline(claim: Claim) -> bool:
    return any(is_baseline_metric(m) for m in claim.metrics)


def test_a_sentence_without_a_number_names_the_compared_column_of_the_tables_below() -> None:
    text = (
        "### Results\n\n"
        "We benchmark our best kernels, comparing against cuBLASLt.\n\n"
        "### RTX 4090\n\n"
        "| Size | Best kernel | cuBLASLt |\n"
        "|---|---|---|\n"
        "| 1024 | 61.3 TFLOPS | 70.2 TFLOPS |\n"
    )
    found = _numbers(extract_claims(text))
    assert found[61.3].conditions.baseline == ["cuBLASLt"]
    assert not _is_baseline(found[61.3])
    assert _is_baseline(found[70.2])
    assert not found[70.2].conditions.baseline


def test_without_that_sentence_neither_column_is_the_compared_one() -> None:
    text = (
        "## Results\n\n"
        "### RTX 4090\n\n"
        "| Size | Best kernel | cuBLASLt |\n"
        "|---|---|---|\n"
        "| 1024 | 61.3 TFLOPS | 70.2 TFLOPS |\n"
    )
    found = _numbers(extract_claims(text))
    assert not found[61.3].conditions.baseline
    assert not _is_baseline(found[70.2])


def test_an_image_title_naming_two_axes_names_no_compared_column() -> None:
    text = (
        "## Latency\n\n"
        "At 32,768 tokens the KV transfer took only 31.65 ms.\n\n"
        "![Transfer Time vs KV Size](plot.png)\n\n"
        "The transfer takes a small part of the first token's time.\n\n"
        "| Prompt | Mean TTFT (ms) | KV Size | Transfer Time (ms) |\n"
        "|---|---|---|---|\n"
        "| 128 tokens | 46.09 | 20 MB | 0.54 |\n"
    )
    found = _numbers(extract_claims(text))
    assert not found[46.09].conditions.baseline
    assert not _is_baseline(found[20.0])


def test_a_column_measuring_a_named_system_holds_that_systems_own_numbers() -> None:
    text = (
        "## Results\n\n"
        "| GPU | Baseline RTF | Baseline TTFA | CUDA Graphs RTF | CUDA Graphs TTFA |\n"
        "|---|---|---|---|---|\n"
        "| RTX 4090 | 0.82 | 800ms | **4.78** | **156ms** |\n"
    )
    found = _numbers(extract_claims(text))
    assert found[4.78].conditions.baseline == ["Baseline"]
    assert not _is_baseline(found[4.78])
    assert found[4.78].metrics[0].unit == ""
    assert _is_baseline(found[800.0])


def test_a_column_named_only_after_a_system_holds_the_compared_systems_numbers() -> None:
    text = (
        "## Results\n\n"
        "| context | prefill tok/s | llama.cpp (b4500) |\n"
        "|---|---|---|\n"
        "| 2K | 4147 | 927 |\n"
    )
    found = _numbers(extract_claims(text))
    assert _is_baseline(found[927.0])
    assert found[927.0].metrics[0].unit == "tok/s"


_SPEEDUP_TABLES = (
    "### Results\n\n"
    "#### By depth\n\n"
    "| Depth | Throughput | Speedup vs Baseline |\n"
    "|---|---|---|\n"
    "| 6 | 212.1 t/s | 1.71x |\n\n"
    "#### By length\n\n"
    "| Tokens | Throughput | Speedup |\n"
    "|---|---|---|\n"
    "| 200 | 193.2 t/s | 1.54x |\n"
)


def test_a_speedup_table_takes_the_compared_system_of_the_one_above_in_its_section() -> None:
    found = _numbers(extract_claims(_SPEEDUP_TABLES))
    assert found[1.71].conditions.baseline == ["Baseline"]
    assert found[1.54].conditions.baseline == ["Baseline"]
    assert not found[193.2].conditions.baseline  # an absolute number compares nothing


def test_a_new_section_does_not_take_the_compared_system_of_the_last() -> None:
    text = _SPEEDUP_TABLES.replace("#### By length", "### By length")
    found = _numbers(extract_claims(text))
    assert found[1.71].conditions.baseline == ["Baseline"]
    assert not found[1.54].conditions.baseline


def test_an_engine_column_naming_the_project_makes_its_rows_the_compared_ones() -> None:
    text = (
        "## Results\n\n"
        "| Model | GPU | batch | Engine | TPOT (ms) |\n"
        "|---|---|---|---|---|\n"
        "| Qwen2.5-0.5B | A10 | 8 | fast_serve | 3.49 |\n"
        "| Qwen2.5-0.5B | A10 | 8 | transformers | 18.65 |\n"
        "| Qwen2.5-1.5B | A10 | 8 | fast_serve | 8.70 |\n"
        "| Qwen2.5-1.5B | A10 | 8 | transformers | 23.50 |\n"
    )
    found = _numbers(extract_claims(text, where="acme/fast_serve@abc:README.md"))
    assert found[3.49].conditions.baseline == ["transformers"]
    assert found[8.70].conditions.baseline == ["transformers"]
    assert _is_baseline(found[18.65]) and _is_baseline(found[23.50])
    assert not _is_baseline(found[3.49])


def test_an_engine_column_compares_nothing_when_no_row_is_the_project() -> None:
    text = (
        "## Results\n\n"
        "| Model | GPU | batch | Engine | TPOT (ms) |\n"
        "|---|---|---|---|---|\n"
        "| Qwen2.5-0.5B | A10 | 8 | fast_serve | 3.49 |\n"
        "| Qwen2.5-0.5B | A10 | 8 | transformers | 18.65 |\n"
    )
    found = _numbers(extract_claims(text, where="acme/other-tool@abc:README.md"))
    assert not found[3.49].conditions.baseline
    assert not _is_baseline(found[18.65])


def test_a_title_comparing_others_with_the_project_names_the_others() -> None:
    text = (
        "# vLLM vs Fast Serve\n\n"
        "## Results\n\n"
        "| Model | Throughput gain |\n"
        "|---|---|\n"
        "| Llama-3-8B | 1.8x |\n"
    )
    found = _numbers(extract_claims(text, where="acme/fast-serve@abc:README.md"))
    assert found[1.8].conditions.baseline == ["vLLM"]


def test_columns_all_of_the_project_compare_its_precisions() -> None:
    text = (
        "| Model | Quokka FP16 | Quokka INT4 |\n"
        "|---|---|---|\n"
        "| Llama-2-7B | 30 tok/s | 60 tok/s |\n"
    )
    found = _numbers(extract_claims(text, where="acme/quokka@abc:README.md"))
    assert found[60.0].conditions.baseline == ["FP16"]
    assert _is_baseline(found[30.0])


def test_a_ratio_header_names_the_system_below_its_bar() -> None:
    text = "| Kernel | GFLOPS | Ours/cuBLAS (%) |\n|---|---|---|\n| kernel_1 | 2262 | 15.6 |\n"
    found = _numbers(extract_claims(text, where="acme/quokka@abc:README.md"))
    assert found[15.6].conditions.baseline == ["cuBLAS"]
    assert not _is_baseline(found[2262.0])  # the GFLOPS column is no compared system
