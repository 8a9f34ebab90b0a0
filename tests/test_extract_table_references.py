"""The compared system of a table that its own cells do not name as such: named by the
prose around it, or by the table's shape (issue #14)."""

from __future__ import annotations

import pytest

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


def test_a_column_opening_with_base_holds_the_unchanged_systems_numbers() -> None:
    text = (
        "## Results\n\n"
        "| Batch | Base latency (ms) | Base tok/s | Cached latency (ms) | Cached tok/s |\n"
        "|---|---|---|---|---|\n"
        "| 4 | 41.5 | 96.2 | 30.8 | 129.7 |\n"
    )
    found = _numbers(extract_claims(text))
    assert _is_baseline(found[41.5])
    assert _is_baseline(found[96.2])
    assert found[30.8].conditions.baseline == ["Base"]
    assert found[129.7].conditions.baseline == ["Base"]
    assert not _is_baseline(found[129.7])


def test_a_reference_column_compares_only_the_numbers_it_has_a_match_for() -> None:
    text = (
        "## Results\n\n"
        "| Model | Baseline mAP | Pruned mAP | Pruned latency (ms) | Latency ratio |\n"
        "|---|---|---|---|---|\n"
        "| DetNet-S | 41.7 | 40.9 | 6.35 | 0.62 |\n"
    )
    found = _numbers(extract_claims(text))
    assert _is_baseline(found[41.7])
    assert found[40.9].conditions.baseline == ["Baseline mAP"]
    assert not found[6.35].conditions.baseline  # no baseline latency to compare it with
    assert found[0.62].conditions.baseline == ["Baseline mAP"]  # a ratio, though written bare


@pytest.mark.parametrize(
    "label",
    [pytest.param("base", id="a-model-size"), pytest.param("base.en", id="an-english-model")],
)
def test_a_bare_base_label_is_a_model_size_not_the_compared_system(label: str) -> None:
    text = (
        "## Whisper sizes\n\n"
        f"| Model | tiny | {label} | small |\n"
        "|---|---|---|---|\n"
        "| RTF | 0.05 | 0.09 | 0.21 |\n"
    )
    found = _numbers(extract_claims(text))
    assert not any(_is_baseline(found[v]) for v in (0.05, 0.09, 0.21))
    assert not found[0.21].conditions.baseline


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
    # the throughput beside the row's speedup is measured against the same system
    assert found[193.2].conditions.baseline == ["Baseline"]


def test_a_new_section_does_not_take_the_compared_system_of_the_last() -> None:
    text = _SPEEDUP_TABLES.replace("#### By length", "### By length")
    found = _numbers(extract_claims(text))
    assert found[1.71].conditions.baseline == ["Baseline"]
    assert not found[1.54].conditions.baseline


_ENGINE_TABLE = (
    "## Results\n\n"
    "| Model | GPU | batch | Engine | TPOT (ms) |\n"
    "|---|---|---|---|---|\n"
    "| Qwen2.5-0.5B | A10 | 8 | fast_serve | 3.49 |\n"
    "| Qwen2.5-0.5B | A10 | 8 | transformers | 18.65 |\n"
    "| Qwen2.5-1.5B | A10 | 8 | fast_serve | 8.70 |\n"
)


def _in_repository(text: str, repository: str) -> dict[float, Claim]:
    return _numbers(extract_claims(text, where=f"{repository}@abc:README.md"))


@pytest.mark.parametrize(
    ("repository", "compared"),
    [
        pytest.param("acme/fast_serve", ["transformers"], id="the-project-s-engine"),
        pytest.param("acme/other-tool", [], id="no-row-of-the-project"),
    ],
)
def test_an_engine_column_naming_the_project_makes_the_others_compared(
    repository: str, compared: list[str]
) -> None:
    found = _in_repository(_ENGINE_TABLE, repository)
    assert found[3.49].conditions.baseline == compared
    assert found[8.70].conditions.baseline == compared
    assert _is_baseline(found[18.65]) == bool(compared)
    assert not _is_baseline(found[3.49])


@pytest.mark.parametrize(
    ("text", "value", "compared", "own"),
    [
        pytest.param(
            "# vLLM vs Fast Serve\n\n## Results\n\n| Model | Throughput gain |\n|---|---|\n"
            "| Llama-3-8B | 1.8x |\n",
            1.8,
            ["vLLM"],
            None,
            id="a-title-comparing-others-with-the-project",
        ),
        pytest.param(
            "| Model | Fast Serve FP16 | Fast Serve INT4 |\n|---|---|---|\n"
            "| Llama-2-7B | 30 tok/s | 60 tok/s |\n",
            60.0,
            ["FP16"],
            30.0,
            id="columns-all-of-the-project-compare-its-precisions",
        ),
        pytest.param(
            "| Kernel | GFLOPS | Ours/cuBLAS (%) |\n|---|---|---|\n| kernel_1 | 2262 | 15.6 |\n",
            15.6,
            ["cuBLAS"],
            None,
            id="a-ratio-header-names-the-system-below-its-bar",
        ),
        pytest.param(
            "| Input | vLLM | SGL | vLLM/SGL Gap % |\n|---|---|---|---|\n"
            "| 1000 | 1500.11 | 1437.85 | +4.33% |\n",
            4.33,
            ["SGL"],
            1437.85,
            id="ratio-columns-name-the-systems-their-first-is-compared-with",
        ),
        pytest.param(
            "| Input | Quokka | TGI | Quokka/TGI (%) |\n|---|---|---|---|\n"
            "| 1000 | 1500.11 | 900.5 | 166 |\n",
            1500.11,
            ["TGI"],
            900.5,
            id="the-first-side-of-a-ratio-column-is-compared-wherever-it-stands",
        ),
    ],
)
def test_what_the_project_is_compared_with(
    text: str, value: float, compared: list[str], own: float | None
) -> None:
    found = _in_repository(text, "acme/fast-serve")
    assert found[value].conditions.baseline == compared
    assert not _is_baseline(found[value])
    if own is not None:
        assert _is_baseline(found[own])  # the compared precision's own number
    else:
        assert not any(_is_baseline(claim) for claim in found.values())


@pytest.mark.parametrize(
    ("text", "baseline"),
    [
        pytest.param(
            "## Results\n\nAll speedups are measured against Triton.\n\n"
            "| Shape | Throughput | Speedup |\n|---|---|---|\n| 4096 | 812 TFLOPS | 1.9x |\n",
            "Triton",
            id="en",
        ),
        pytest.param(
            "## 结果\n\n加速比均相对于 PyTorch。\n\n"
            "| 形状 | 吞吐 | 加速比 |\n|---|---|---|\n| 4096 | 812 TFLOPS | 1.9x |\n",
            "PyTorch",
            id="zh",
        ),
    ],
)
def test_a_rows_absolute_numbers_take_the_baseline_its_speedup_inherits(
    text: str, baseline: str
) -> None:
    found = _numbers(extract_claims(text))
    assert found[1.9].conditions.baseline == [baseline]
    assert found[812.0].conditions.baseline == [baseline]


def test_rows_of_several_systems_none_the_projects_own_compare_none() -> None:
    # a table of frameworks on one task lists them in any order: its last row is not
    # the project's own, so no row is compared with the others (issue #14)
    text = (
        "## Latency on one image\n\n"
        "| Framework | Latency |\n"
        "|---|---|\n"
        "| PyTorch | 41.0 ms |\n"
        "| ONNX Runtime | 33.5 ms |\n"
        "| TensorRT | 12.5 ms |\n"
    )
    found = _numbers(extract_claims(text, where="someone/latency-notes@abc:README.md"))
    assert not found[12.5].conditions.baseline
    assert not found[41.0].conditions.baseline
    assert not _is_baseline(found[41.0])


def test_a_row_named_as_the_projects_own_is_compared_with_the_other_rows() -> None:
    text = (
        "## Latency on one image\n\n"
        "| Framework | Latency |\n"
        "|---|---|\n"
        "| PyTorch | 41.0 ms |\n"
        "| Ours | 12.5 ms |\n"
    )
    found = _numbers(extract_claims(text, where="someone/latency-notes@abc:README.md"))
    assert found[12.5].conditions.baseline == ["PyTorch"]
    assert _is_baseline(found[41.0])


def test_columns_of_several_systems_compare_the_last_with_the_others() -> None:
    # a header puts the new system last: `| vLLM | TensorRT |` (issue #14)
    text = (
        "## Latency on one image\n\n"
        "| Model | PyTorch | TensorRT |\n"
        "|---|---|---|\n"
        "| ResNet-50 | 41.0 ms | 12.5 ms |\n"
    )
    found = _numbers(extract_claims(text, where="someone/latency-notes@abc:README.md"))
    assert found[12.5].conditions.baseline == ["PyTorch"]
    assert _is_baseline(found[41.0])


def test_a_row_opening_with_base_before_a_workload_word_is_no_compared_system() -> None:
    # `Base Configuration (32,256,32)` is the default workload of rows of workloads
    text = (
        "## BF16\n\n"
        "| Configuration | Latency (s) |\n"
        "|---|---|\n"
        "| Base Configuration (32,256,32) | 0.62 |\n"
        "| Long Input (1,2048,32) | 0.36 |\n"
    )
    found = _numbers(extract_claims(text))
    assert not found[0.36].conditions.baseline
    assert not _is_baseline(found[0.62])


def test_a_row_opening_with_base_before_a_name_is_the_unchanged_system() -> None:
    text = (
        "## Results\n\n"
        "| System | Latency (s) |\n"
        "|---|---|\n"
        "| Base run | 0.62 |\n"
        "| Pruned run | 0.36 |\n"
    )
    found = _numbers(extract_claims(text))
    assert found[0.36].conditions.baseline == ["Base"]
    assert _is_baseline(found[0.62])


def test_rows_of_a_metric_table_are_measurements_none_a_compared_system() -> None:
    # `| Model Quality | Baseline |` is a value written as a word, not a baseline row
    text = (
        "## Results\n\n"
        "| Metric | Value |\n"
        "|---|---|\n"
        "| GPU Memory Used | 22,631 MB |\n"
        "| Tokens/Second | 339.6 |\n"
        "| Model Quality | Baseline |\n"
    )
    found = _numbers(extract_claims(text))
    assert not found[22631.0].conditions.baseline
    assert not found[339.6].conditions.baseline


def test_a_table_of_what_each_model_needs_compares_none_of_its_rows() -> None:
    # the memory a quantised model needs is no measurement against the original's
    text = (
        "## Hardware\n\n"
        "| Model | Minimum VRAM | Recommended GPU |\n"
        "|---|---|---|\n"
        "| Yi-6B-Chat | 15 GB | 1 x RTX 3090 |\n"
        "| Yi-6B-Chat-4bits | 5 GB | 1 x RTX 3060 |\n"
    )
    found = _numbers(extract_claims(text))
    assert not found[5.0].conditions.baseline
    assert not _is_baseline(found[15.0])
    measured = (
        "## Latency\n\n| Model | Latency |\n|---|---|\n"
        "| Yi-6B-Chat | 15 ms |\n| Yi-6B-Chat-4bits | 5 ms |\n"
    )
    assert _numbers(extract_claims(measured))[5.0].conditions.baseline == ["Yi-6B-Chat"]
