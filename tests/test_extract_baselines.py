"""The compared system of a statement: how comparisons are written, and what only looks
like one (issue #14)."""

from __future__ import annotations

import random
import re

import pytest

from research_radar.extract.baselines import BASELINE_WORDS, find_baselines
from research_radar.extract.cataloguefiles import default_catalog
from research_radar.extract.claims import extract_claims
from research_radar.extract.compared import _CLAUSE_END, BASELINE_SUFFIX, _NextMatch, _Words
from research_radar.extract.metrics import find_metrics
from research_radar.extract.projectnames import project_aliases
from research_radar.models import Claim, Conditions


def _numbers(claims: list[Claim]) -> dict[float, Claim]:
    return {metric.value: claim for claim in claims for metric in claim.metrics}


def _baseline_of(text: str, value: float) -> list[str]:
    return list(_numbers(extract_claims(text))[value].conditions.baseline)


@pytest.mark.parametrize(
    ("text", "value", "baseline"),
    [
        pytest.param(
            "On one L40S we reach 3,100 tok/s versus 2,000 tok/s for TGI.",
            3100.0,
            ["TGI"],
            id="vs-number-for-name",
        ),
        pytest.param(
            "Decode latency: 12 ms (Foo) vs. 19 ms (vLLM).",
            12.0,
            ["vLLM"],
            id="vs-number-then-name-in-brackets",
        ),
        pytest.param(
            "The fused kernel runs 1.4x as fast as cuBLAS on long rows.",
            1.4,
            ["cuBLAS"],
            id="as-fast-as",
        ),
        pytest.param(
            "After the fix the async engine is competitive with Ollama (only 3% slower).",
            3.0,
            ["Ollama"],
            id="competitive-with",
        ),
        pytest.param(
            "Offloading gives a 12x speedup compared to running on CPU.",
            12.0,
            ["CPU"],
            id="compared-to-running-on",
        ),
        pytest.param(
            "On 8 GPUs, Quokka scales to 7.2x the single-GPU throughput.",
            7.2,
            ["single-GPU"],
            id="times-the-throughput-of",
        ),
        pytest.param(
            "Using FP16 as the baseline, the INT8 path gives a 1.6x speed-up.",
            1.6,
            ["FP16"],
            id="precision-as-the-baseline",
        ),
        pytest.param(
            "With Quokka-Serve as the baseline, decoding is 2.2x faster.",
            2.2,
            ["Quokka-Serve"],
            id="unknown-name-as-the-baseline",
        ),
        pytest.param(
            "- **1.7x** faster than [Quokka](https://example.org/quokka) (7B).",
            1.7,
            ["Quokka"],
            id="markdown-link-after-than",
        ),
        pytest.param(
            '- **2.6x** faster than <a href="https://example.org/q"><b>Quokka</b></a> (7B).',
            2.6,
            ["Quokka"],
            id="html-link-after-than",
        ),
        pytest.param(
            "以 HuggingFace 为基准，加速比达到 3.2x。",
            3.2,
            ["HuggingFace"],
            id="zh-yi-wei-jizhun",
        ),
        pytest.param(
            "推理速度较上一版本提升 20%。",
            20.0,
            ["上一版本"],
            id="zh-jiao-previous-version",
        ),
        pytest.param(
            "在同一块 L40S 上，Quokka 的延迟仅为 TGI 的 55%。",
            55.0,
            ["TGI"],
            id="zh-wei-name-de-percent",
        ),
        pytest.param(
            "Quokka 用了稀疏注意力，相对于 Wombat 显存更少；与标准的 Mistral-7B 相比，解码提升 27%。",
            27.0,
            ["Mistral-7B"],
            id="zh-yu-biaozhun-de-name-xiangbi",
        ),
        pytest.param(
            "与 FP16 模型相比，INT8 量化后显存占用减少 45%。",
            45.0,
            ["FP16"],
            id="zh-yu-name-noun-xiangbi",
        ),
        pytest.param(
            "PagedAttention gives up to 24x throughput over Hugging Face Transformers.",
            24.0,
            ["Hugging Face Transformers"],
            id="ratio-noun-over-name",
        ),
        pytest.param(
            "Quokka can speed up Wan2.1 2x without much loss of quality.",
            2.0,
            ["Wan2.1"],
            id="speed-up-name-ratio",
        ),
        pytest.param(
            "与 vLLM 的性能对比：吞吐提升 1.8 倍。", 1.8, ["vLLM"], id="zh-name-measure-cue"
        ),
        pytest.param(
            "相对原始模型加速 1.5 倍。", 1.5, ["原始模型"], id="zh-name-ends-at-the-change"
        ),
    ],
)
def test_a_comparison_names_its_baseline(text: str, value: float, baseline: list[str]) -> None:
    assert _baseline_of(text, value) == baseline


def test_two_comparisons_in_one_sentence_keep_their_own_baselines() -> None:
    text = "Foo gets 11x - 19x more throughput than HF and 1.9x - 2.3x more than TGI."
    found = _numbers(extract_claims(text))
    assert found[11.0].conditions.baseline == ["HF"]
    assert found[2.3].conditions.baseline == ["TGI"]


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("Throughput vs. Batch Size on one A10G: 640 tok/s at 16.", id="axis"),
        pytest.param("Latency vs. Sequence Length: 35 ms at 4K tokens.", id="axis-length"),
        pytest.param("Accuracy vs. Speed: 99.1% accuracy at 2.0x speed.", id="two-metrics"),
        pytest.param("Foo at TP=4 vs TP=8 gives 1,200 vs 2,100 tok/s.", id="settings"),
        pytest.param("The kernel was built against CUDA 12.1 and reaches 310 TFLOPS.", id="built"),
        pytest.param("与 vLLM 的部署方式相同，吞吐为 900 tokens/s。", id="zh-same-as"),
        pytest.param("不同bs的图模型性能比较：bs=8 时吞吐提升 1.5 倍。", id="zh-different"),
        pytest.param("The model takes 7,711 MB (31.4% of VRAM).", id="share-of-vram"),
        pytest.param("KV blocks take 12 GB, 31% of HBM capacity.", id="share-of-hbm"),
    ],
)
def test_what_only_looks_like_a_comparison_names_no_baseline(text: str) -> None:
    claims = [c for c in extract_claims(text) if c.metrics]
    assert claims
    assert all(c.conditions.baseline == [] for c in claims)


def test_a_cue_that_closes_its_phrase_takes_the_name_before_it() -> None:
    # `相比` ends `与 X 相比`; the precision after the comma is the number's own
    assert find_baselines("与 BF16 相比，FP8 吞吐提升 1.5 倍。", default_catalog()) == ["BF16"]


def test_a_number_is_never_compared_with_its_own_hardware() -> None:
    text = (
        "## L4 vs L40S\n\n"
        "| Model | L4 (tok/s) | L40S (tok/s) |\n"
        "|---|---|---|\n"
        "| Qwen2-7B | 410 | 1,230 |\n"
    )
    found = _numbers(extract_claims(text))
    assert found[1230.0].conditions.hardware == ["L40S"]
    assert "L40S" not in found[1230.0].conditions.baseline


def test_a_number_is_never_compared_with_the_system_it_names() -> None:
    text = (
        "**Offline mode: HF V.S. TensorRT-LLM**\n"
        "| Backend | Batch | Time (s) |\n"
        "|---|---|---|\n"
        "| TensorRT-LLM | 1 | 12.46 |\n"
    )
    found = _numbers(extract_claims(text))
    assert found[12.46].conditions.software[:1] == ["TensorRT-LLM"]
    assert "TensorRT-LLM" not in found[12.46].conditions.baseline


def test_a_scopes_precision_is_not_taken_by_a_number_compared_with_it() -> None:
    text = (
        "The prefill kernels use FP16 accumulation.\n\n"
        "| Engine | TTFT (s) |\n"
        "|---|---|\n"
        "| FP16 | 0.40 |\n"
        "| Quokka | 0.25 |\n"
    )
    found = _numbers(extract_claims(text))
    assert found[0.25].conditions.baseline == ["FP16"]
    assert found[0.25].conditions.precision == []


def test_a_speedup_header_names_its_reference_in_brackets() -> None:
    text = "| Shape | Time (us) | Speedup (over PyTorch) |\n|---|---|---|\n| 4096 | 120 | 2.1x |\n"
    assert _baseline_of(text, 2.1) == ["PyTorch"]


def test_the_unit_ratio_named_above_the_tables_is_their_reference() -> None:
    text = (
        "# Results\n\n"
        "Each cell is a mean speedup (1.00 for plain greedy decoding).\n\n"
        "## On one L4\n\n"
        "| Method | Chat | Code |\n"
        "|---|---|---|\n"
        "| Quokka | 2.1x | 2.4x |\n"
    )
    assert _baseline_of(text, 2.4) == ["plain greedy decoding"]


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("We use batch size 1 for Llama-2-7B and reach 95 tok/s.", id="setting-one"),
        pytest.param("At 1x for all layers, Quokka reaches 95 tok/s.", id="lower-case-words"),
    ],
)
def test_a_one_that_is_a_setting_names_no_reference(text: str) -> None:
    assert _baseline_of(text, 95.0) == []


def test_an_older_version_of_the_own_system_is_compared_with() -> None:
    text = (
        "| Engine | TTFT (s) |\n"
        "|---|---|\n"
        "| llama.cpp | 0.50 |\n"
        "| TinyChat (Legacy) | 0.40 |\n"
        "| TinyChat 2.0 | 0.25 |\n"
    )
    found = _numbers(extract_claims(text))
    assert found[0.40].metrics[0].name.endswith("(baseline)")
    assert not found[0.25].metrics[0].name.endswith("(baseline)")


def test_a_variant_of_the_own_system_is_not_compared_with() -> None:
    text = (
        "| Engine | TTFT (s) |\n"
        "|---|---|\n"
        "| llama.cpp | 0.50 |\n"
        "| TinyChat (FP8) | 0.20 |\n"
        "| TinyChat 2.0 | 0.25 |\n"
    )
    found = _numbers(extract_claims(text))
    assert not found[0.20].metrics[0].name.endswith("(baseline)")


def test_an_abbreviated_baseline_is_named_as_the_document_defines_it() -> None:
    text = (
        "We compare Quokka with Wombat Serving Engine (WSE) on two models.\n\n"
        "Quokka reaches 3.1x higher throughput than WSE on Llama-2-7B.\n"
    )
    assert _baseline_of(text, 3.1) == ["Wombat Serving Engine (WSE)"]


def test_brackets_that_are_no_abbreviation_leave_the_baseline_alone() -> None:
    text = (
        "Results on Llama-2-7B (FP16) are below.\n\n"
        "Quokka reaches 3.1x higher throughput than WSE on Llama-2-7B.\n"
    )
    assert _baseline_of(text, 3.1) == ["WSE"]


def test_the_system_a_heading_compares_with_holds_its_own_row() -> None:
    text = (
        "## Versus TGI\n\n"
        "| Engine | Throughput (tok/s) |\n"
        "|---|---|\n"
        "| TGI | 1800 |\n"
        "| Quokka | 2600 |\n"
    )
    found = _numbers(extract_claims(text))
    assert found[1800.0].metrics[0].name.endswith("(baseline)")
    assert found[1800.0].conditions.baseline == []
    assert found[2600.0].conditions.baseline == ["TGI"]


def _names(text: str) -> dict[float, str]:
    return {m.value: m.name for c in extract_claims(text) for m in c.metrics}


@pytest.mark.parametrize(
    ("text", "theirs", "own"),
    [
        pytest.param(
            "Quokka serves 14.2 req/s, whereas TGI serves 9.8 req/s.",
            9.8,
            14.2,
            id="whereas-named-system",
        ),
        pytest.param(
            "Quokka 的吞吐为 3300 tokens/s，而 vLLM 仅为 2400 tokens/s。",
            2400.0,
            3300.0,
            id="zh-er-named-system",
        ),
        pytest.param("首字延迟由 640 ms 降至 260 ms。", 640.0, 260.0, id="zh-you-jiang-zhi"),
        pytest.param(
            "After the fix, decode speed is 88 tok/s (was 51 tok/s).", 51.0, 88.0, id="was"
        ),
    ],
)
def test_the_compared_systems_number_is_named_so(text: str, theirs: float, own: float) -> None:
    names = _names(text)
    assert names[theirs].endswith("(baseline)")
    assert not names[own].endswith("(baseline)")


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("Quokka serves 14.2 req/s on L4, while on L40S it serves 31 req/s.", id="hw"),
        pytest.param("TTFT was 120 ms and TPOT was 30 ms at batch 8.", id="was-without-bracket"),
    ],
)
def test_a_contrast_without_a_compared_system_names_no_baseline_number(text: str) -> None:
    assert not any(name.endswith("(baseline)") for name in _names(text).values())


def test_a_sentence_of_paired_numbers_takes_its_paragraphs_comparison() -> None:
    text = (
        "Quokka beats TGI on every workload we tried. On two L4 cards it serves "
        "3.1 req/s vs 1.9 req/s at the same p50 latency.\n"
    )
    assert _baseline_of(text, 3.1) == ["TGI"]


def test_a_sentence_of_absolute_numbers_keeps_out_of_its_paragraphs_comparison() -> None:
    text = "Quokka beats TGI on every workload we tried. On two L4 cards it serves 3.1 req/s.\n"
    assert _baseline_of(text, 3.1) == []


def test_a_column_of_ratios_is_no_system_beside_the_others() -> None:
    text = (
        "| Model | TGI | Quokka | Quokka / TGI |\n"
        "|---|---|---|---|\n"
        "| Qwen2-7B | 1800 | 2600 | 1.44x |\n"
    )
    names = _names(text)
    assert names[1800.0].endswith("(baseline)")
    assert not names[1.44].endswith("(baseline)")
    assert _baseline_of(text, 2600.0) == ["TGI"]


def test_a_last_row_of_an_unknown_system_below_known_ones_is_the_projects_own() -> None:
    text = (
        "| Engine | Llama-3-8B |\n|---|---|\n| TGI | 1700 |\n| vLLM | 2100 |\n| Quokka | 2900 |\n"
    )
    names = _names(text)
    assert names[1700.0].endswith("(baseline)")
    assert names[2100.0].endswith("(baseline)")
    assert _baseline_of(text, 2900.0) == ["TGI", "vLLM"]


def test_a_summary_row_below_known_systems_is_no_system() -> None:
    text = (
        "| Engine | Llama-3-8B |\n|---|---|\n| TGI | 1700 |\n| vLLM | 2100 |\n| Average | 1900 |\n"
    )
    assert _baseline_of(text, 1900.0) != ["TGI", "vLLM"]


def _claims_in(repository: str, text: str) -> dict[float, Claim]:
    where = f"{repository}@{'0' * 40}:README.md"
    return _numbers(extract_claims(text, where=where))


_FIRST_COLUMN_OWN = (
    "| Model | Wombat (ms) | PyTorch (ms) | TensorFlow (ms) |\n"
    "|---|---|---|---|\n"
    "| ResNet50 | 4.2 | 11.0 | 9.5 |\n"
)


def test_a_column_named_after_the_repository_owner_is_the_projects_own() -> None:
    found = _claims_in("wombat-ai/bench-notes", _FIRST_COLUMN_OWN)
    assert found[4.2].conditions.baseline == ["PyTorch", "TensorFlow"]
    assert found[11.0].metrics[0].name.endswith("(baseline)")


def test_the_owners_name_gives_way_to_the_repositorys_own() -> None:
    text = "| Engine | Throughput (tok/s) |\n|---|---|\n| Wombat-py 2.1 | 210 |\n| Numbat | 640 |\n"
    found = _claims_in("Wombat/Numbat", text)
    assert found[210.0].metrics[0].name.endswith("(baseline)")
    assert not found[640.0].metrics[0].name.endswith("(baseline)")


def test_an_owners_hardware_column_is_not_the_projects_own() -> None:
    text = (
        "| Model | NVIDIA L4 (ms) | NVIDIA L40S (ms) |\n|---|---|---|\n| ResNet50 | 6.1 | 2.3 |\n"
    )
    found = _claims_in("NVIDIA/bench-notes", text)
    assert not any(m.name.endswith("(baseline)") for c in found.values() for m in c.metrics)


def test_a_models_original_column_is_the_reference_of_its_quantised_one() -> None:
    text = "| Bench | Qwen2-7B | Qwen2-7B-FP8 |\n|---|---|---|\n| GSM8K | 85.1 | 84.6 |\n"
    names = _names(text)
    assert names[85.1].endswith("(baseline)")
    assert _baseline_of(text, 84.6) == ["Qwen2-7B"]


def test_columns_of_two_models_at_their_own_precision_have_no_reference() -> None:
    text = "| Bench | Qwen2-7B | Mistral-7B-FP8 |\n|---|---|---|\n| GSM8K | 85.1 | 52.4 |\n"
    assert not any(name.endswith("(baseline)") for name in _names(text).values())


def test_a_comparison_named_in_a_list_item_reaches_its_later_ratios() -> None:
    text = (
        "- Per-token decoding latency and memory of DuoAttention compared to full attention "
        "across context sizes. DuoAttention uses a 25% retrieval head ratio for Llama-2-7B. "
        "It achieves up to 2.45× memory reduction and 2.13× latency reduction.\n"
        "- Pre-filling latency with a 100K context. It achieves up to 1.73× latency reduction.\n"
    )
    found = _numbers(extract_claims(text))
    assert found[2.45].conditions.baseline == ["full attention"]
    assert found[2.13].conditions.baseline == ["full attention"]
    # the next list item names no comparison of its own, and the earlier item's stays there
    assert found[1.73].conditions.baseline == []
    # an absolute number is no ratio: the item's comparison is not its own
    absolute = "- Decoding compared to full attention. It reaches 41 tok/s.\n"
    assert _numbers(extract_claims(absolute))[41.0].conditions.baseline == []


def test_a_plot_against_a_budget_compares_with_no_system() -> None:
    text = (
        "DuoAttention's decoding memory and latency vs. KV budget with a fixed context "
        "length. It achieves up to 2.55× memory reduction.\n"
    )
    assert _numbers(extract_claims(text))[2.55].conditions.baseline == []


def test_a_boost_over_a_system_named_above_a_table_of_speedups() -> None:
    text = (
        "M7i performance boost ratio over M6i for INT8 quantized models:\n\n"
        "| | Speedup | Throughput |\n|---|---|---|\n| LLaMA2 7B | 1.27x | 1.38x |\n"
    )
    found = _numbers(extract_claims(text))
    assert found[1.27].conditions.baseline == ["M6i"] == found[1.38].conditions.baseline


def test_the_best_configuration_of_a_system_compared_in_chinese() -> None:
    text = "与 TensorRT-LLM 的最佳配置相比，QServe 在 A100 上实现了 2 倍的吞吐量。"
    assert _baseline_of(text, 2.0) == ["TensorRT-LLM"]


def test_a_reference_word_beside_a_measurement_names_no_system() -> None:
    # `(fp32 ref)` in a row whose speed column holds no number: the row merges into the
    # header, and its cells are measurements, never the name of a compared system
    text = (
        "| system | CER ↓ | speed ↑ | size |\n|---|---|---|---|\n"
        "| Fun-ASR-Nano | 8.06 (fp32 ref) / 8.42 (Q8 runtime) | LLM decode | enc |\n"
        "| SenseVoiceSmall | 7.81 (fp32 ref) / 8.17 (Q8 runtime) | ~20× real-time | 449 MB |\n"
        "| whisper.cpp base | 31.33 | 9.9× | 142 MB |\n"
    )
    claims = extract_claims(text)
    assert claims
    assert not any(
        any(c.isdigit() for c in b) for claim in claims for b in claim.conditions.baseline
    )


def test_beside_the_projects_own_row_and_a_best_baseline_every_other_row_is_compared() -> None:
    text = (
        "| Model | GSM8K | MATH |\n|---|---|---|\n| ChatGLM2-6B-Base | 32.4 | 6.5 |\n"
        "| Best Baseline | 52.1 | 13.1 |\n| ChatGLM3-6B-Base | 72.3 | 25.7 |\n"
    )
    claims = extract_claims(text, where="THUDM/ChatGLM3@732294f:README.md")
    found = {
        m.value: (m.name, claim.conditions.baseline) for claim in claims for m in claim.metrics
    }
    assert found[32.4][0].endswith("(baseline)") and found[52.1][0].endswith("(baseline)")
    assert found[32.4][1] == []
    assert found[72.3] == ("GSM8K", ["ChatGLM2-6B-Base", "Best Baseline"])
    # without the project's own row, the one named as the baseline is the only reference
    plain = extract_claims(text)
    found = {m.value: (m.name, claim.conditions.baseline) for claim in plain for m in claim.metrics}
    assert found[72.3][1] == ["Best Baseline"] and found[32.4][1] == ["Best Baseline"]


@pytest.mark.parametrize(
    ("text", "references", "compared"),
    [
        pytest.param(
            "| Model | Input Length | Quantization | Speed (tokens/s) |\n|---|---|---|---|\n"
            "| Qwen3-0.6B | 1 | BF16 | 58.57 |\n| Qwen3-0.6B | 1 | FP8 | 24.60 |\n"
            "| Qwen3-0.6B | 6144 | BF16 | 154.82 |\n| Qwen3-0.6B | 6144 | FP8 | 73.96 |\n",
            [58.57, 154.82],
            {24.6: ["BF16"], 73.96: ["BF16"]},
            id="precision-in-a-later-label-column",
        ),
        pytest.param(
            "| Model | RPi 4, ms |\n|---|---|\n| FP32 MobileNet v1 | 72 |\n"
            "| FP32 MobileNet v2 | 41 |\n| FP32 MobileNet v3 Large | 38 |\n"
            "| FP32 MobileNet v3 Small | 13 |\n| INT8 MobileNet v1 | 29 |\n| INT8 MobileNet v2 | 20 |\n",
            [72.0, 41.0],
            {29.0: ["FP32"], 20.0: ["FP32"], 38.0: []},
            id="a-models-wide-row-among-unpaired-wide-rows",
        ),
    ],
)
def test_a_models_rows_at_its_wide_precision_are_the_reference_of_its_lower_ones(
    text: str, references: list[float], compared: dict[float, list[str]]
) -> None:
    names = _names(text)
    assert all(names[value].endswith("(baseline)") for value in references)
    assert {value: _baseline_of(text, value) for value in compared} == compared
    assert not any(names[value].endswith("(baseline)") for value in compared)


def test_unknown_models_each_at_its_own_precision_are_not_compared() -> None:
    text = (
        "| Model | Shape | dtype | RK3588 |\n|---|---|---|---|\n"
        "| LPRNet | [1, 3, 24, 94] | FP16 | 586.4 |\n| YOLOv5s | [1, 3, 640, 640] | INT8 | 63.2 |\n"
    )
    names = _names(text)
    assert not names[586.4].endswith("(baseline)")
    assert _baseline_of(text, 63.2) == []


def test_a_measured_column_before_columns_of_other_systems_ratios_is_their_reference() -> None:
    text = (
        "| Model | PyTorch (ms) | ONNX Runtime | TensorRT |\n|---|---|---|---|\n"
        "| ResNet-50 | 10.2 | 1.5x | 3.1x |\n"
    )
    names = _names(text)
    assert names[10.2].endswith("(baseline)")
    assert _baseline_of(text, 1.5) == ["PyTorch"] and _baseline_of(text, 3.1) == ["PyTorch"]
    # ratio columns that name no system are no systems compared with the measured one
    plain = "| Model | PyTorch (ms) | Gain | Ratio |\n|---|---|---|---|\n| ResNet-50 | 10.2 | 1.5x | 3.1x |\n"
    assert not _names(plain)[10.2].endswith("(baseline)")


def test_the_project_is_known_by_its_name_however_spelt_and_by_its_title() -> None:
    text = (
        "# Quokka: a fast serving engine\n\n"
        "| System | Throughput (tok/s) |\n|---|---|\n"
        "| Quokka | 2100 |\n| vLLM | 1200 |\n| HF Transformers | 300 |\n"
    )
    for repository in ("acme/quo-kka", "acme/qk-engine", "acme/Quokka-for-LLaMA"):
        found = _claims_in(repository, text)
        assert found[2100.0].conditions.baseline[:1] == ["vLLM"], repository
        assert found[1200.0].metrics[0].name.endswith("(baseline)"), repository
        assert found[300.0].metrics[0].name.endswith("(baseline)"), repository
    # a title that names a comparison, a model or nothing before its colon names no project
    cat = default_catalog()
    assert project_aliases("acme/qk", "# Quokka vs vLLM: serving\n", cat) == ()
    assert project_aliases("acme/qk", "# Llama-2-7B: a model card\n", cat) == ()
    assert project_aliases("acme/qk", "Some text\n# Why serving is slow today\n", cat) == ()
    assert project_aliases("acme/AWQ", "# AWQ: activation-aware\n", cat) == ()


def test_beside_the_projects_own_rows_the_precisions_and_methods_are_compared() -> None:
    text = (
        "| Method | bits | ppl |\n|---|---|---|\n"
        "| FP16 | 16 | 5.68 |\n| RTN | 4 | 6.29 |\n| GPTQ | 4 | 6.09 |\n"
    )
    found = _claims_in("someone/GPTQ-for-LLaMa", text)
    assert found[5.68].metrics[0].name.endswith("(baseline)")
    assert found[6.29].metrics[0].name.endswith("(baseline)")
    assert found[6.09].conditions.baseline == ["FP16", "RTN"]
    # a row of another system at a precision is named as that system, not its precision
    text = (
        "| Framework | Model | Throughput (tok/s) |\n|---|---|---|\n"
        "| T-MAC (CPU) | llama-2-7b (W4) | 12.6 |\n| NPE (NPU) | llama-2-7b (W4) | 10.4 |\n"
    )
    found = _claims_in("microsoft/T-MAC", text)
    assert found[10.4].metrics[0].name.endswith("(baseline)")
    assert found[12.6].conditions.baseline == ["NPE (NPU)"]


@pytest.mark.parametrize("cue", ["相较于", "较", "相对于"])
def test_the_number_announced_after_a_chinese_cue_is_the_compared_systems(cue: str) -> None:
    text = f"Quokka 的吞吐达到 2100 tokens/s，{cue} vLLM 的 1200 tokens/s 提升 75%。"
    names = _names(text)
    assert names[1200.0].endswith("(baseline)") and not names[2100.0].endswith("(baseline)")


def test_speeding_up_a_build_names_no_baseline() -> None:
    assert _baseline_of("We speed up the build with ccache; decoding runs at 40 tok/s.", 40.0) == []


def test_a_rank_column_does_not_name_the_unit_ratio_row() -> None:
    text = (
        "| 排名 | 方法 | 吞吐量 | 加速比 |\n|-----|------|--------|--------|\n"
        "| 🥇 | **Tree V2 (D=8, t=0.03)** | **193.4 t/s** | **1.62x** |\n"
        "| 4 | Linear K=5 | 125.2 t/s | 1.05x |\n| 8 | Baseline (AR) | 119.4 t/s | 1.00x |\n"
    )
    names = _names(text)
    assert names[119.4].endswith("(baseline)")
    assert _baseline_of(text, 1.62) == ["Baseline (AR)"]
    assert _baseline_of(text, 125.2) == ["Baseline (AR)"]


def test_the_row_with_a_dash_in_a_column_of_ratios_is_the_compared_system() -> None:
    text = (
        "| Setup | Latency | Speed vs baseline |\n|---|---|---|\n"
        "| One box | 6,874 ms | — |\n| Two boxes | 7,304 ms | 0.94x |\n"
        "| Split | 8,925 ms | 0.77x |\n"
    )
    claims = extract_claims(text)
    assert [c.conditions.baseline for c in claims] == [[], ["One box"], ["One box"]]
    assert claims[0].metrics[0].name.endswith("(baseline)")


def test_a_dash_in_a_column_that_holds_no_ratios_names_no_baseline() -> None:
    text = (
        "| Setup | Latency | Notes |\n|---|---|---|\n"
        "| One box | 6,874 ms | — |\n| Two boxes | 7,304 ms | fast |\n| Split | 8,925 ms | ok |\n"
    )
    assert [c.conditions.baseline for c in extract_claims(text)] == [[], [], []]


def _pieces_text(rng: random.Random) -> str:
    pieces = ["plain ", "baseline", " (", "AR 2", "off  3", "vs ", "26.2", " ms", ", ", "; "]
    pieces += ["and ", " but ", "基线 5", "naive(", "before", "x", "原始 ", "MTP 40.0", "."]
    return "".join(rng.choice(pieces) for _ in range(rng.randrange(1, 40)))


def test_baseline_words_before_a_place_are_those_a_search_ending_there_finds() -> None:
    """`_Words` finds the words once; each cue asks for the last one before it."""
    rng = random.Random(3)
    for _ in range(400):
        text = _pieces_text(rng)
        words = _Words(text)
        for place in range(len(text) + 1):
            found = list(BASELINE_WORDS.finditer(text, 0, place))
            assert words.last_start(place) == (found[-1].start() if found else None)


def test_next_match_is_search_from_each_place() -> None:
    rng = random.Random(5)
    for _ in range(400):
        text = _pieces_text(rng)
        clause_end = _NextMatch(_CLAUSE_END, text)
        for place in sorted(rng.sample(range(len(text) + 1), min(len(text) + 1, 8))):
            assert _span(clause_end.search(place)) == _span(_CLAUSE_END.search(text, place))


def _span(match: re.Match[str] | None) -> tuple[int, int] | None:
    return match.span() if match else None


def test_a_long_statement_of_pairs_names_each_pair_as_a_short_one_does() -> None:
    """Hundreds of `a vs b;` in one statement (read in time that is not quadratic): each
    pair's second number is the compared system's, as in a statement of one pair."""
    pairs = [f"{100 + n} vs {50 + n % 40} ms with vLLM" for n in range(300)]
    names = [m.name for m in find_metrics("; ".join(pairs), default_catalog(), Conditions())]
    one = [m.name for m in find_metrics(pairs[0], default_catalog(), Conditions())]
    assert len(one) == 2 and one[1].endswith(BASELINE_SUFFIX)
    assert names == one * 300


@pytest.mark.parametrize(
    ("text", "baseline"),
    [
        pytest.param("The baseline is PyTorch with AMP.", ["PyTorch"], id="is"),
        pytest.param("Our baseline here is llama.cpp b4500.", ["llama.cpp b4500"], id="here-is"),
        pytest.param("The baseline was the eager mode.", ["eager mode"], id="was-plain"),
        pytest.param("基线为 PyTorch FP32 推理。", ["PyTorch"], id="zh-wei"),
        pytest.param("基准是原始模型。", ["原始模型"], id="zh-shi"),
        pytest.param("The baseline is 2x slower on long prompts.", [], id="no-name"),
    ],
)
def test_a_sentence_saying_what_the_baseline_is_names_it(text: str, baseline: list[str]) -> None:
    assert find_baselines(text, default_catalog()) == baseline


def test_the_baseline_a_sections_lead_names_holds_for_its_speedup_tables() -> None:
    text = (
        "## Performance\n\nWe test training speed on one A100. The baseline is PyTorch AMP.\n\n"
        "### Training\n\n| Tokens | Ours fp16 | Ours int8 |\n|---|---|---|\n"
        "| 4096 | 1.47x | 1.44x |\n"
    )
    found = _numbers(extract_claims(text))
    assert found[1.47].conditions.baseline == ["PyTorch"]
    assert found[1.44].conditions.baseline == ["PyTorch"]


def test_the_compared_systems_own_numbers_are_compared_with_nothing() -> None:
    # the FP16 row is the reference of the `vs FP16` column: its ratio to CPU in the
    # `vs CPU` column is still its own number, and a reference is not itself compared
    text = (
        "## Speed\n\n"
        "| Config | Latency | vs CPU | vs FP16 |\n"
        "|---|---|---|---|\n"
        "| NPU FP16 | 184 ms | 2.16x slower | baseline |\n"
        "| NPU INT8 | 181 ms | 2.13x slower | 1.01x faster |\n"
    )
    claims = [c for c in extract_claims(text) if c.line == 5]
    assert claims and all(m.name.endswith(BASELINE_SUFFIX) for c in claims for m in c.metrics)
    assert all(not c.conditions.baseline for c in claims)
    assert _numbers(extract_claims(text))[181.0].conditions.baseline == ["FP16"]


def test_a_list_item_of_absolute_numbers_is_compared_only_where_it_frames_a_comparison() -> None:
    text = (
        "## Versus vLLM\n\n"
        "- Throughput: 1520 tokens/s\n"
        "- Memory: 21 GB (vs 30 GB)\n"
        "- Latency: 1.4x faster\n"
    )
    found = _numbers(extract_claims(text))
    # a measurement listed under the heading names no comparison: it is the project's own
    assert found[1520.0].conditions.baseline == []
    assert found[21.0].conditions.baseline == ["vLLM"]
    assert found[1.4].conditions.baseline == ["vLLM"]
