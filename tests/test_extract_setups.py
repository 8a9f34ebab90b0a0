"""Extraction on the shapes of real benchmark pages (issue #14): set-ups stated once for
many numbers, tables whose units, scores or precisions are said around them, and the
units field pages use."""

from __future__ import annotations

import pytest

from research_radar.extract.cataloguefiles import default_catalog
from research_radar.extract.claims import extract_claims
from research_radar.extract.markdown import parse_segments
from research_radar.extract.scopes import find_scopes, is_setup_heading
from research_radar.models import Claim


def _numbers(claims: list[Claim]) -> dict[float, Claim]:
    return {metric.value: claim for claim in claims for metric in claim.metrics}


_ANOTHER_PART = "\n## Ports\n\nA port to the Jetson Orin is under way.\n"
"""A second part named at the end: a page naming one part only has it hold for all of its
numbers below it (`extract.soleparts`); with two, what a section states stays its own."""


def test_a_statement_without_a_number_still_sets_up_the_table_below() -> None:
    text = (
        "## Benchmarks\n"
        "Benchmarks run on an 8xA100-80GB, power limited to 330W. All benchmarks are run at "
        "batch size=1, with a prompt length (just 5 tokens).\n\n"
        "| Model | Technique | Tokens/Second |\n| --- | --- | --- |\n"
        "| Llama-2-7B | Base | 104.9 |\n|  | 8-bit | 155.58 |\n\n"
        "### Tensor Parallelism\n"
        "| Model | Number of GPUs | Tokens/Second |\n| --- | --- | --- |\n"
        "| Llama-2-7B | 2 | 168.84 |\n"
    )
    found = _numbers(extract_claims(text))
    assert 330 not in found  # a power limit is a rating, not a measurement
    first = found[104.9]
    assert first.metrics[0].unit == "tok/s"
    assert first.conditions.hardware and first.conditions.hardware[0].startswith("A100")
    assert first.conditions.load["batch"] == "1" and first.conditions.load["prompt"] == "5"
    assert found[155.58].conditions.model == ["Llama-2-7B"]
    # the section's set-up holds for its subsection
    parallel = found[168.84]
    assert parallel.conditions.hardware == first.conditions.hardware
    assert parallel.conditions.load["gpus"] == "2"


def test_experimental_settings_are_a_set_up_not_a_limitation() -> None:
    text = (
        "## Leaderboard on 3090\n\n"
        "- Device: a single NVIDIA GeForce RTX 3090 GPU (24GB)\n"
        "- Experimental Settings: Vicuna-7B-v1.3, greedy decoding, FP16 precision, "
        "batch size = 1\n\n"
        "| Models | Translation | #Mean Accepted Tokens |\n| --- | --- | --- |\n"
        "| EAGLE | 1.83x | 4.35 |\n"
    )
    claims = extract_claims(text)
    assert all(c.kind.value != "limitation" for c in claims)
    row = _numbers(claims)[1.83]
    assert row.conditions.model == ["Vicuna-7B"] and row.conditions.precision == ["FP16"]
    assert row.conditions.load["batch"] == "1"
    assert [(m.value, m.unit) for m in row.metrics] == [(1.83, "x"), (4.35, "")]


def test_a_features_list_sets_nothing_up() -> None:
    text = (
        "# Fast\nFeaturing:\n1. Very low latency\n2. int8/int4 quantization\n\n"
        "## Results\n| Model | tok/s |\n| --- | --- |\n| Llama-2-7B | 104.9 |\n"
    )
    assert _numbers(extract_claims(text))[104.9].conditions.precision == []


def test_the_repository_names_its_own_row_and_unitless_timings_are_read() -> None:
    text = (
        "### Llama-3.1-8B\n- NVIDIA AD102 PCIe * 2\n- Prompt length: 3.7k\n\n"
        "| Inference Engine | QPS | TTFT Mean | TPOT P95 |\n| --- | --- | --- | --- |\n"
        "| vLLM | 0.46 | 915.58 | 23.42 |\n| SGLang | 0.84 | 599.13 | 37.95 |\n"
        "| ZhiLight | 0.4 | 1091.12 | 88.5 |\n"
    )
    found = _numbers(extract_claims(text, "zhihu/ZhiLight@abc:docs/bench.md"))
    ours = found[1091.12]
    assert ours.conditions.baseline == ["vLLM", "SGLang"]
    assert not ours.metrics[0].name.endswith("(baseline)")
    assert found[599.13].metrics[0].name.endswith("(baseline)")
    assert ours.conditions.hardware == ["AD102"] and ours.conditions.load["gpus"] == "2"
    assert ours.conditions.load["prompt"] == "3.7k" and "context" not in ours.conditions.load


@pytest.mark.parametrize(
    ("text", "value", "unit"),
    [
        pytest.param("An average of ~73.7k tokens/s input per node.", 73.7, "ktok/s", id="k"),
        pytest.param("在 8 路并发下，吞吐达到 1.2 万 tokens/s。", 1.2, "万tok/s", id="wan"),
        pytest.param("| Tps |\n| --- |\n| 5101.72 |\n", 5101.72, "tok/s", id="Tps"),
        pytest.param("| 系统平均功耗 |\n| --- |\n| 1521.0W |\n", 1521.0, "W", id="power"),
        pytest.param("| cputime吞吐 |\n| --- |\n| 1663.8op/s |\n", 1663.8, "op/s", id="ops"),
    ],
)
def test_units_pages_write(text: str, value: float, unit: str) -> None:
    found = _numbers(extract_claims(text))
    assert found[value].metrics[0].unit == unit


def test_a_rating_in_watts_is_not_a_measurement() -> None:
    assert not extract_claims("| 单卡TDP |\n| --- |\n| TDP 400W |\n")


def test_sizes_memory_and_a_score_named_above_the_table() -> None:
    text = (
        "|            | Q4_0 | F16 |\n|---|---|---|\n"
        "| ms/token (CPU @ Platinum 8260) | 74 | 189 |\n"
        "| file size | 3.3G | 12G |\n| mem usage | 4.0G | 13G |\n\n"
        "Measure the perplexity with a stride of 512 and max input length of 2048:\n\n"
        "|  | Q4_0 | F16 |\n|---|---|---|\n| ChatGLM3-6B-Base | 6.215 | 5.972 |\n"
    )
    found = _numbers(extract_claims(text))
    assert found[74].conditions.hardware == ["Xeon Platinum 8260"]
    assert found[74].conditions.baseline == ["FP16"]
    assert found[3.3].metrics[0].unit == "GB" and found[13].metrics[0].unit == "GB"
    score = found[6.215]
    assert score.metrics[0].name == "perplexity" and score.metrics[0].unit == ""


def test_a_bits_column_and_a_gpu_count_heading() -> None:
    text = (
        "## Model: h2oai/h2ogpt-4096-llama2-7b-chat\n### Number of GPUs: 1\n"
        "| bits | gpus | generation speed [tokens/sec] |\n|---|---|---|\n"
        "| 16 | 1 x NVIDIA GeForce RTX 4090 (24564 MiB) | 40.9252 |\n"
        "| 4 | 1 x NVIDIA GeForce RTX 4090 (24564 MiB) | 32.571 |\n"
    )
    found = _numbers(extract_claims(text))
    quantised = found[32.571].conditions
    assert quantised.precision == ["4-bit"] and quantised.baseline == ["FP16"]
    assert quantised.load["gpus"] == "1" and quantised.hardware == ["RTX 4090"]


def test_a_native_row_is_the_reference_and_a_max_batch_is_a_cap() -> None:
    text = (
        "- vLLM args: --dyn-max-batch-size 32\n\n"
        "| 评测项 | cputime |\n| --- | --- |\n"
        "| flaggems | 601.04us |\n| nativetorch | 629.83us |\n"
    )
    found = _numbers(extract_claims(text))
    assert found[601.04].conditions.baseline == ["nativetorch"]
    assert found[629.83].metrics[0].name.endswith("(baseline)")
    assert "batch" not in found[601.04].conditions.load


def test_each_clause_keeps_its_own_model() -> None:
    claims = extract_claims("It is 11x faster on Falcon 40B and 3x faster on Llama 2 70B.")
    assert [(c.metrics[0].value, c.conditions.model) for c in claims] == [
        (11.0, ["Falcon-40B"]),
        (3.0, ["Llama-2-70B"]),
    ]
    # one model for both numbers: one claim
    [claim] = extract_claims("Prefill 963 tok/s and decode 63 tok/s on Qwen3-8B.")
    assert len(claim.metrics) == 2


def test_a_sentence_ends_after_a_model_size() -> None:
    text = (
        "vLLM achieves 1.5x higher throughput and 1.7x faster time-to-first-token (TTFT) than "
        "Text Generation Inference (TGI) for Llama 3.1 405B. It also achieves 1.8x higher "
        "throughput than TGI for Llama 3.1 70B."
    )
    found = _numbers(extract_claims(text))
    assert found[1.7].conditions.model == ["Llama-3.1-405B"] and found[1.7].conditions.baseline
    assert found[1.8].conditions.model == ["Llama-3.1-70B"]


def test_the_name_after_a_described_baseline() -> None:
    [claim] = extract_claims(
        "It achieves 1.3x higher throughput compared to the leading industry solution, "
        "TensorRT-LLM, for Llama-3-8B."
    )
    assert claim.conditions.baseline == ["TensorRT-LLM"]


@pytest.mark.parametrize(
    ("text", "value", "unit"),
    [
        pytest.param("| FTL(min)(s) |\n| --- |\n| 0.55 |\n", 0.55, "s", id="min-is-minimum"),
        pytest.param("| 50%(s) |\n| --- |\n| 1.2 |\n", 1.2, "s", id="percentile"),
        pytest.param(
            "All µs/call.\n\n| Kernel | M=1 |\n| --- | --- |\n| ours | 12.5 |\n",
            12.5,
            "us",
            id="all",
        ),
        pytest.param("Each takes 12.3 s/video.", 12.3, "s/video", id="video"),
        pytest.param("Memory use drops by 18\\% on L20.", 18.0, "%", id="latex"),
    ],
)
def test_units_around_tables_and_in_prose(text: str, value: float, unit: str) -> None:
    assert _numbers(extract_claims(text))[value].metrics[0].unit == unit


def test_an_attribute_of_a_tag_over_several_lines_is_not_a_number() -> None:
    text = '<img\n  src="a.png"\n  style="width: 100%; display: block;"\n  alt="x" />\n'
    assert extract_claims(text) == []


def test_a_column_of_1x_is_the_reference() -> None:
    text = (
        "| Hardware | FAST_ATTN | SLOW_ATTN |\n| --- | --- | --- |\n"
        "| MI300X | **1.00x** | 3.82x |\n| MI325X | **1.00x** | 4.36x |\n"
    )
    found = _numbers(extract_claims(text))
    assert found[3.82].conditions.baseline == ["FAST_ATTN"]
    assert found[1.0].metrics[0].name.endswith("(baseline)")


def test_a_system_beside_ours_is_its_reference() -> None:
    text = (
        "Decode throughput on A100 (tokens/s):\n\n"
        "| Batch size | HF | Ours |\n|---|---|---|\n| 1 | 30.1 | 85.2 |\n"
        "| Throughput increase | - | 2.8x |\n"
    )
    found = _numbers(extract_claims(text))
    assert found[85.2].conditions.baseline == ["HF"]
    assert found[30.1].metrics[0].name.endswith("(baseline)")


def test_the_table_and_clause_building_blocks_export_their_readers() -> None:
    from research_radar.extract import (
        cells,
        clauses,
        columnplan,
        references,
        rowplan,
        tablepairs,
        tablerows,
    )

    assert set(cells.__all__) == {
        "bare_cell",
        "head_name",
        "header_named",
        "header_unit",
        "is_score_head",
        "names_metric",
        "row_unit",
    }
    assert set(references.__all__) == {
        "Key",
        "Plan",
        "Row",
        "OURS",
        "WIDE_PRECISIONS",
        "add_others",
        "choose",
        "compared_stems",
        "compared_with",
        "named_positions",
        "new_systems",
        "own_key",
        "owner_unless_named",
        "system_key",
        "systems_not_precisions",
    }
    assert rowplan.__all__ == ["row_plan"]
    assert columnplan.__all__ == ["column_plan", "ratio_of"]
    assert set(tablerows.__all__) == {"header_load", "read_row"}
    assert tablepairs.__all__ == ["compared_pairs"]
    assert clauses.__all__ == ["split_by_clause"]


def test_the_reading_building_blocks_export_their_api() -> None:
    from research_radar.extract import context, kinds, stated

    assert set(kinds.__all__) == {"is_hedged", "kind_of"}
    assert set(stated.__all__) == {
        "SectionUnits",
        "intro_score",
        "intro_unit",
        "stated_unit",
        "table_unit",
    }
    assert set(context.__all__) == {
        "LEAD_FIELDS",
        "REQUIRED",
        "SURVEY",
        "Context",
        "add_to_lead",
        "defines",
        "enter_section",
        "hosted",
        "is_host_line",
        "not_where_run",
        "project_of",
        "sized",
        "unlisted",
    }
    assert context.project_of("zhihu/ZhiLight@abc:docs/x.md") == "ZhiLight"
    assert context.project_of("https://github.com/o/Repo/blob/main/README.md") == "Repo"
    assert context.project_of("notes.md") == ""


@pytest.mark.parametrize(
    ("text", "heading", "aside"),
    [
        pytest.param("Measured on one RTX 4090.", None, False, id="a-set-up"),
        pytest.param("[^gpu]: Measured on one RTX 4090.", None, True, id="footnote"),
        pytest.param("Supported boards: K230, RK3588.", None, True, id="survey"),
        pytest.param("- GPU: RTX 3060 or better", None, True, id="requirement"),
        pytest.param("- GPU: RTX 3060", "Hardware requirements", True, id="required-heading"),
        pytest.param("- GPU: RTX 3060", "Test environment", False, id="set-up-heading"),
    ],
)
def test_what_says_nothing_of_where_the_numbers_ran(
    text: str, heading: str | None, aside: bool
) -> None:
    """One check for the sole part of a page and for a set-up line's parent section."""
    from research_radar.extract.context import not_where_run

    assert not_where_run(text, heading) is aside


def test_a_token_rate_intro_and_gpu_count_columns() -> None:
    text = (
        "We support Mixtral 8x7B; the average token generation rates are:\n\n"
        "|                  |   1 GPU |    2 GPU  |\n|---|---|---|\n"
        "|        int8      |   97.92 |   155.03  |\n"
    )
    found = _numbers(extract_claims(text))
    assert found[97.92].metrics[0].unit == "tok/s"
    assert found[155.03].conditions.load["gpus"] == "2"


def test_a_table_of_set_up_keys_and_values_sets_up_its_section() -> None:
    text = (
        "## 训练性能\n\n"
        "| GPU Number | 8 | 16 |\n| --- | --- | --- |\n| TGS (Tokens/GPU/Second) | 4078 | 3939 |\n\n"
        "测试使用的硬件如下表所示：\n\n"
        "| 硬件 | 硬件型号 |\n| --- | --- |\n| GPU | nvidia_a100-sxm4-80gb |\n| Memory | 2TB |\n\n"
        "## Elsewhere\n\n| Model | Latency (ms) |\n| --- | --- |\n| Llama-2-7B | 12.5 |\n"
    )
    found = _numbers(extract_claims(text))
    # the row `GPU | nvidia_a100-sxm4-80gb` holds for its section, above the table too
    assert found[4078].conditions.hardware == ["A100 80 GB"]
    assert found[3939].conditions.load["gpus"] == "16"
    assert found[12.5].conditions.hardware == []


def test_a_table_of_two_columns_of_numbers_sets_nothing_up() -> None:
    text = "## Results\n\n| Model | Latency (ms) |\n| --- | --- |\n| H100 | 12.5 |\n| Llama-2-7B | 9.1 |\n"
    found = _numbers(extract_claims(text))
    assert found[9.1].conditions.hardware == []


def test_a_workload_defined_once_gives_its_load_to_the_numbers_named_after_it() -> None:
    text = (
        "| Benchmark Case | Optimized |\n|---|---|\n"
        "| **Short Prompt** | Total TPS: 16611.86 |\n| **Very Long Prompt** | Total TPS: 7835.01 |\n"
        "| ShareGPT | Total TPS: 6256.39 |\n\n"
        "## Benchmark Dataset\n\n"
        "- Very long prompt: 32000 input tokens, 100 output tokens\n"
        "- Long prompt: 4000 input tokens, 200 output tokens\n"
        "- Short prompt: 128 input tokens, 4 output tokens\n"
        "- Input length: 1024\n"
    )
    found = _numbers(extract_claims(text))
    assert found[16611.86].conditions.load == {"prompt": "128", "output": "4"}
    # the longest term the row names: not `Long prompt`
    assert found[7835.01].conditions.load == {"prompt": "32000", "output": "100"}
    # `Input length` names a setting, not a workload; ShareGPT is not defined
    assert found[6256.39].conditions.load == {}


def test_a_configuration_line_below_a_table_sets_up_its_section() -> None:
    text = (
        "## Benchmarks\n\n[`stabilityai/stable-diffusion-2-1-base`](https://x.y/z) (512x512)\n\n"
        "| Device | Latency (s) |\n| --- | --- |\n| iPhone 13 | 10.8 |\n\n"
        "- The procedure follows the standard configuration: 20 inference steps, 512x512 "
        "output image resolution, classifier-free guidance (batch size of 2 for unet).\n"
    )
    load = _numbers(extract_claims(text))[10.8].conditions
    assert load.model == ["SD2.1"]
    assert load.load["batch"] == "2" and load.load["steps"] == "20"
    assert "output" not in load.load  # `512x512 output image resolution` is no output length


@pytest.mark.parametrize(
    ("sentence", "hardware"),
    [
        pytest.param(
            "We evaluate in two settings: LLaMA-7B on an A10G and LLaMA-13B on an A100.",
            set(),
            id="paired-alternatives",
        ),
        pytest.param("Our test configuration: LLaMA-7B on an A10G.", {("A10G",)}, id="one-each"),
    ],
)
def test_a_configuration_sentence_sets_up_one_thing_per_field(
    sentence: str, hardware: set[tuple[str, ...]]
) -> None:
    segments = list(parse_segments(f"## Results\n\n{sentence}\n\nvLLM is 24x faster.\n"))
    scopes = find_scopes(segments, default_catalog())
    assert {tuple(s.names["hardware"]) for s in scopes if "hardware" in s.names} == hardware


def test_a_chinese_note_below_a_table_sets_it_up() -> None:
    text = (
        "| Model | 推理速度 (字符/秒) |\n| ---- | ----- |\n| ChatGLM2-6B | 44.62 |\n\n"
        "> 使用官方实现，batch size = 1，bf16 精度，测试硬件为 A100-SXM4-80G\n"
    )
    claim = _numbers(extract_claims(text))[44.62]
    assert claim.conditions.hardware == ["A100 80 GB"]
    assert claim.conditions.load["batch"] == "1"


@pytest.mark.parametrize(
    ("note", "hardware", "gpus"),
    [
        pytest.param("* The model is tested on one H800 GPUs.", "H800", "1", id="list-item"),
        pytest.param("Numbers below were all measured on 8x A100.", "A100", "8", id="paragraph"),
        pytest.param("- 所有模型均在两张 H20 上测试", "H20", "2", id="zh"),
        pytest.param(
            "* An NVIDIA GPU with CUDA support is required.\n  * The model is tested on four A100s.",
            "A100",
            "4",
            id="nested-item",
        ),
    ],
)
def test_a_note_right_below_a_table_that_says_where_it_ran_sets_it_up(
    note: str, hardware: str, gpus: str
) -> None:
    text = (
        "## Requirements\n\n"
        "| Model | Peak GPU Memory | 28 steps |\n|---|---|---|\n"
        "| Step1X-Edit | 42.5GB | 22s |\n| Step1X-Edit-FP8 | 31GB | 25s |\n\n"
        f"{note}\n"
        "* We recommend to use GPUs with 80GB of memory.\n\n"
        "## Serving\n\n| Model | Throughput (tok/s) |\n|---|---|\n| Step1X-Edit | 812 |\n"
    )
    found = _numbers(extract_claims(text))
    for value in (42.5, 22.0, 31.0, 25.0):
        assert found[value].conditions.hardware == [hardware]
        assert found[value].conditions.load["gpus"] == gpus
    # the note is its table's, not the next section's
    assert found[812.0].conditions.hardware == []
    assert "gpus" not in found[812.0].conditions.load


@pytest.mark.parametrize("heading", ["硬件配置", "软硬件环境", "测试平台", "Testbed"])
def test_a_set_up_section_after_the_results_sets_up_its_parent(heading: str) -> None:
    text = (
        "## 性能测试\n\n| 模型 | 吞吐 (tokens/s) |\n|---|---|\n| Qwen2-7B | 1234 |\n\n"
        f"### {heading}\n\n* 显卡：8 × NVIDIA A800 80GB\n\n"
        "## 部署\n\n| 模型 | 显存 (GB) |\n|---|---|\n| Qwen2-7B | 15.2 |\n"
    )
    found = _numbers(extract_claims(text + _ANOTHER_PART))
    assert found[1234.0].conditions.hardware == ["A800 80 GB"]
    assert found[1234.0].conditions.load["gpus"] == "8"
    assert found[15.2].conditions.hardware == []  # another top section


def test_a_caption_below_a_table_that_ends_its_number_with_a_period_sets_it_up() -> None:
    text = (
        "## Perf\n\n| Batch | Ours (tok/s) | vLLM (tok/s) |\n|---|---|---|\n| 1 | 120 | 100 |\n\n"
        "Table 1. Llama-3-8B on an RTX 4090.\n\n"
        "## Latency\n\n| Batch | Ours (ms) |\n|---|---|\n| 1 | 31 |\n"
    )
    found = _numbers(extract_claims(text + _ANOTHER_PART))
    assert found[120.0].conditions.hardware == found[100.0].conditions.hardware == ["RTX 4090"]
    assert found[120.0].conditions.model == ["Llama-3-8B"]
    assert found[31.0].conditions.hardware == []  # the next section's table is not captioned


@pytest.mark.parametrize("mark", [".", ":"])
def test_a_figure_caption_sets_up_the_paragraph_below_it(mark: str) -> None:
    text = (
        "## Perf\n\nOur engine loads models 3.5x faster than before.\n\n![tp](a.png)\n\n"
        f"Figure 3{mark} Decode throughput of Llama-2-70B on 8xA100.\n\n"
        "Ours reaches 1200 tokens/s.\n"
    )
    found = _numbers(extract_claims(text))
    assert found[1200.0].conditions.hardware == ["A100"]
    assert found[1200.0].conditions.model == ["Llama-2-70B"]
    assert found[1200.0].conditions.load["gpus"] == "8"
    assert found[3.5].conditions.hardware == []


@pytest.mark.parametrize(
    ("sentence", "hardware", "gpus"),
    [
        pytest.param("The experiments run on 8 H100 GPUs.", "H100", "8", id="passive"),
        pytest.param("Experiments were conducted on a single A100.", "A100", "1", id="conducted"),
        pytest.param("We run all experiments on 2 RTX 4090 GPUs.", "RTX 4090", "2", id="we-run"),
        pytest.param("实验在 8 卡 H800 上进行。", "H800", "8", id="zh"),
        pytest.param("测试均在单卡 A100 上完成。", "A100", "1", id="zh-single"),
    ],
)
def test_an_evaluation_sentence_sets_up_its_whole_section(
    sentence: str, hardware: str, gpus: str
) -> None:
    text = (
        "## Results\n\nOurs is 2.5x faster than vLLM.\n\n"
        f"{sentence}\n\n### Decode\n\n| Batch | Ours (tok/s) |\n|---|---|\n| 1 | 120 |\n\n"
        "## Training\n\n| Batch | Ours (tok/s) |\n|---|---|\n| 1 | 77 |\n"
    )
    found = _numbers(extract_claims(text + _ANOTHER_PART))
    for value in (2.5, 120.0):  # the number above the sentence and the subsection's
        assert found[value].conditions.hardware == [hardware]
        assert found[value].conditions.load["gpus"] == gpus
    assert found[77.0].conditions.hardware == []


def test_a_further_set_up_holds_below_it_only() -> None:
    text = (
        "## Results\n\n| Batch | Ours (tok/s) |\n|---|---|\n| 1 | 120 |\n\n"
        "We further evaluate on 8 H100 GPUs.\n\n| Batch | Ours (tok/s) |\n|---|---|\n| 1 | 640 |\n"
    )
    found = _numbers(extract_claims(text))
    assert found[640.0].conditions.hardware == ["H100"]
    assert found[120.0].conditions.hardware == []


@pytest.mark.parametrize(
    "intro",
    [
        "The following tables show results on 8x H100 with Llama-3-70B:",
        "以下为 8 卡 H100、Llama-3-70B 的测试结果：",
    ],
)
def test_a_sentence_that_introduces_titled_tables_sets_up_each_of_them(intro: str) -> None:
    table = "| Batch | Ours (tok/s) |\n|---|---|\n| 1 | {} |\n"
    text = (
        "## Results\n\nOurs is 3.1x faster than vLLM.\n\n"
        f"{intro}\n\n**Prefill**\n\n{table.format(120)}\n**Decode**\n\n{table.format(130)}\n"
        f"## Training\n\n{table.format(77)}"
    )
    found = _numbers(extract_claims(text + _ANOTHER_PART))
    for value in (120.0, 130.0):
        assert found[value].conditions.hardware == ["H100"]
        assert found[value].conditions.model == ["Llama-3-70B"]
        assert found[value].conditions.load["gpus"] == "8"
    assert found[3.1].conditions.hardware == found[77.0].conditions.hardware == []


@pytest.mark.parametrize(
    ("line", "hardware", "gpus"),
    [
        pytest.param("测试硬件：NVIDIA A100 80G * 8", "A100 80 GB", "8", id="zh-test-hardware"),
        pytest.param("**测试条件**：单卡 4090，batch=1", "RTX 4090", "1", id="zh-test-conditions"),
        pytest.param("推理卡：L20", "L20", None, id="zh-inference-card"),
        pytest.param("Test machine: 2x RTX 3090", "RTX 3090", "2", id="test-machine"),
        pytest.param("- Server: 8x A800", "A800", "8", id="server"),
    ],
)
def test_a_set_up_line_after_the_first_number_sets_up_its_section(
    line: str, hardware: str, gpus: str | None
) -> None:
    text = (
        "## Results\n\nOurs is 2.5x faster than vLLM.\n\n"
        f"{line}\n\n### Decode\n\n| Batch | Ours (tok/s) |\n|---|---|\n| 1 | 120 |\n\n"
        "## Training\n\n| Batch | Ours (tok/s) |\n|---|---|\n| 1 | 77 |\n"
    )
    found = _numbers(extract_claims(text + _ANOTHER_PART))
    for value in (2.5, 120.0):
        assert found[value].conditions.hardware == [hardware]
        assert found[value].conditions.load.get("gpus") == gpus
    assert found[77.0].conditions.hardware == []


@pytest.mark.parametrize(
    "between", ["Results on 2x A100:", "We then tested on 2x A100:", "以下为 2 卡 A100 上的结果："]
)
def test_a_sentence_between_two_tables_that_introduces_the_next_is_not_a_note(
    between: str,
) -> None:
    table = "| Batch | Ours (tok/s) |\n|---|---|\n| 1 | {} |\n"
    text = f"## R\n\n{table.format(120)}\n{between}\n\n{table.format(130)}"
    found = _numbers(extract_claims(text))
    assert found[130.0].conditions.hardware == ["A100"]
    assert found[130.0].conditions.load["gpus"] == "2"
    assert found[120.0].conditions.hardware == []


@pytest.mark.parametrize("head", ["Notes:", "注："])
def test_a_list_of_notes_below_a_table_sets_it_up(head: str) -> None:
    table = "| Batch | Ours (tok/s) |\n|---|---|\n| 1 | {} |\n"
    text = (
        f"## R\n\n{table.format(120)}\n{head}\n\n- Tested on 2x A100.\n- 测试硬件为 2 卡 A100\n\n"
        f"## Next\n\n{table.format(130)}"
    )
    found = _numbers(extract_claims(text + _ANOTHER_PART))
    assert found[120.0].conditions.hardware == ["A100"]
    assert found[130.0].conditions.hardware == []


def test_a_recommendation_below_a_table_sets_nothing_up() -> None:
    text = (
        "| Model | Peak GPU Memory |\n|---|---|\n| Step1X-Edit | 42.5GB |\n\n"
        "* We recommend to use an H100 GPU for better generation quality.\n"
    )
    assert _numbers(extract_claims(text))[42.5].conditions.hardware == []


def test_a_row_that_names_only_its_device_role_takes_the_part_named_for_it() -> None:
    text = (
        "- CPU为Intel(R) Xeon(R) Gold 6271C, 固定CPU线程数为1. GPU为Tesla T4.\n\n"
        "| 模型 | 推理后端 | 部署硬件 | FP32 时延 (ms) |\n| --- | --- | --- | --- |\n"
        "| YOLOv5s | TensorRT | GPU | 7.87 |\n| YOLOv5s | ONNX Runtime | CPU | 176.41 |\n"
        "| YOLOv5s | Paddle Inference | NPU | 99.5 |\n"
    )
    found = _numbers(extract_claims(text))
    assert found[7.87].conditions.hardware == ["T4"]
    assert found[176.41].conditions.hardware == ["Xeon Gold 6271C"]
    assert found[99.5].conditions.hardware != ["Xeon Gold 6271C"]  # no part named for NPU


def test_a_machine_listed_with_dashes_names_the_part_of_each_device_role() -> None:
    text = (
        "Test machine: \\\nCPU - Intel Core i7-12700K \\\nGPU - NVIDIA GeForce RTX 3080\n\n"
        "## Numbers\n\n| Device | Model | Time (s) |\n| --- | --- | --- |\n"
        "| GPU | small | 0.9 |\n| CPU | small | 12.5 |\n"
    )
    found = _numbers(extract_claims(text))
    assert found[0.9].conditions.hardware == ["RTX 3080"]
    assert found[12.5].conditions.hardware == ["Core i7-12700K"]


def test_a_paragraph_with_a_number_of_its_own_still_sets_up_the_table_below_it() -> None:
    text = (
        "## Results\n\nOn H100 with Llama-3-8B at batch 16, our engine is 2.1x faster "
        "than vLLM.\n\n| System | tok/s |\n|---|---|\n| Ours | 333.3 |\n\n"
        "Elsewhere, Qwen2.5-7B reaches 50.5 tok/s.\n\nSome prose without a number.\n\n"
        "| System | tok/s |\n|---|---|\n| Ours | 444.4 |\n"
    )
    found = _numbers(extract_claims(text))
    row = found[333.3].conditions
    assert (row.hardware, row.model, row.load.get("batch")) == (["H100"], ["Llama-3-8B"], "16")
    # a paragraph further up is not the set-up of the second table
    assert found[444.4].conditions.model != ["Qwen2.5-7B"]


def test_a_paragraph_that_introduces_a_table_holds_across_the_captions_before_it() -> None:
    text = (
        "## Benchmark\n\n使用 megatron 在单机8卡A100环境下训练的速度对比如下：\n\n**Dense** Qwen2.5-14B:\n\n"
        "| | Megatron-LM |\n| --- | --- |\n| 训练速度 | 9.04s/it |\n\n"
        "在双机16卡A800环境下训练的速度对比如下：\n\n**MoE** Qwen3-30B-A3B:\n\n- 注意：DeepSpeed 另行测试。\n\n"
        "| | Megatron-LM |\n| --- | --- |\n| 训练速度 | 9.6s/it |\n\n"
        "Later prose.\n\n| | Megatron-LM |\n| --- | --- |\n| 训练速度 | 7.7s/it |\n"
    )
    found = _numbers(extract_claims(text))
    moe = found[9.6].conditions
    assert (moe.hardware, moe.model, moe.load.get("gpus")) == (["A800"], ["Qwen3-30B-A3B"], "16")
    # the introduction holds up to the end of the table it introduces, no further
    assert found[7.7].conditions.hardware != ["A800"]


def test_a_section_of_set_up_lines_without_numbers_sets_up_its_parent() -> None:
    text = (
        "# Tool comparison\n\nGoal: compare two load generators.\n\n"
        "## Prerequisites\n\n- Hardware: A100 80G\n- Versions:\n  - vllm: v0.17.0\n\n"
        "## Run\n\n| Metric | Value |\n|---|---|\n| Request throughput (req/s) | 108.08 |\n"
    )
    claim = _numbers(extract_claims(text))[108.08]
    assert claim.conditions.hardware == ["A100 80 GB"]


def test_a_set_up_line_beside_numbers_holds_for_its_section_only() -> None:
    text = (
        "# Tool\n\n## Run\n\n- Hardware: A100 80G\n\nIt serves 108.08 req/s.\n\n"
        "## Other\n\nIt serves 99.5 req/s.\n\n## Third\n\n- GPU: L40S\n\nIt serves 77.5 req/s.\n"
    )
    found = _numbers(extract_claims(text))
    assert found[108.08].conditions.hardware == ["A100 80 GB"]
    assert found[99.5].conditions.hardware == []


def test_the_documents_one_set_up_section_holds_for_its_other_sections() -> None:
    text = (
        "## Reduce notes\n\n### Problem\n\nSum an array.\n\n### Hardware\n\n"
        "NVIDIA A100-PCIE-40GB, CUDA 11.8.\n\n### Baseline\n\nThe baseline takes 990.66us.\n\n"
        "## Block reduce\n\n### On H100\n\n| Kernel | Time (us) |\n|---|---|\n| v1 | 479.58 |\n\n"
        "## Warp reduce\n\n| Kernel | Time (us) |\n|---|---|\n| v2 | 462.02 |\n"
    )
    found = _numbers(extract_claims(text))
    assert found[990.66].conditions.hardware == ["A100"]
    assert found[479.58].conditions.hardware == ["H100"]  # a nearer heading wins
    assert found[462.02].conditions.hardware == ["A100"]


def test_set_up_sections_naming_different_parts_stay_in_their_sections() -> None:
    text = (
        "## Kernels\n\n### Hardware\n\nNVIDIA A100-PCIE-40GB.\n\n"
        "## Serving\n\n### Hardware\n\nNVIDIA H100.\n\n### Load\n\nIt serves 99.5 req/s.\n\n"
        "## Other\n\n| Kernel | Time (us) |\n|---|---|\n| v2 | 462.02 |\n"
    )
    found = _numbers(extract_claims(text))
    assert found[99.5].conditions.hardware == ["H100"]
    assert found[462.02].conditions.hardware == []


@pytest.mark.parametrize(
    "section",
    [
        "## Supported hardware\n\nIt runs on NVIDIA H100.",
        "## Compatibility\n\n- GPUs supported: NVIDIA H100",
        "## Notes\n\n[^gpu]: Measured on one H100.",
        "## Requirements\n\n- GPU: NVIDIA H100",
        "## Install\n\n- GPU: NVIDIA H100 or better",
    ],
)
def test_a_section_listing_what_runs_sets_nothing_up(section: str) -> None:
    text = (
        f"# Tool\n\n{section}\n\n## Results\n\n| Kernel | Time (us) |\n|---|---|\n| v2 | 462.02 |\n"
    )
    assert _numbers(extract_claims(text))[462.02].conditions.hardware == []


def test_a_chinese_note_naming_a_long_platform_below_a_table_sets_it_up() -> None:
    text = (
        "### Intel\n\n| 模型 | Token Rate (tokens/s) |\n|---|---|\n| GLM-Edge-4B-Chat | 27 |\n\n"
        "* 在Intel LNL 288V (ARC 140V 8X@2.05GHz) 平台上测试。\n"
    )
    # the platform is the Lunar Lake SoC and its Arc GPU: both are named
    assert _numbers(extract_claims(text))[27.0].conditions.hardware == [
        "Core Ultra 9 288V",
        "Arc 140V",
    ]


def test_an_evaluation_sentence_sets_up_its_model_for_the_section() -> None:
    text = (
        "# Ours\n\n## Evaluation\n\nOurs is 2.1x faster than vLLM.\n\n"
        "We evaluate Ours with Llama-3-8B on an A100.\n\n"
        "| Batch | tok/s |\n|---|---|\n| 1 | 91.1 |\n\nAt batch 64, Ours reaches 3000 tok/s.\n\n"
        "### Memory\n\n| Batch | GB |\n|---|---|\n| 1 | 92.2 |\n| Mistral-7B | 40.5 |\n\n"
        "## Ablation\n\n| Variant | tok/s |\n|---|---|\n| no cache | 93.3 |\n"
    )
    found = _numbers(extract_claims(text))
    for value in (3000.0, 92.2):
        assert found[value].conditions.model == ["Llama-3-8B"]
        assert found[value].conditions.hardware == ["A100"]
    assert found[40.5].conditions.model == ["Mistral-7B"]  # the row's own model wins
    assert found[93.3].conditions.model == []  # another section


def test_an_evaluation_sentence_naming_two_models_sets_up_none() -> None:
    text = (
        "## Evaluation\n\nWe evaluate Ours with Llama-3-8B and Mistral-7B.\n\n"
        "| Batch | tok/s |\n|---|---|\n| 1 | 91.1 |\n\n### Memory\n\nIt takes 92.2 GB.\n"
    )
    assert _numbers(extract_claims(text))[92.2].conditions.model == []


@pytest.mark.parametrize(
    "sentence",
    ["测试使用单张 A800，模型为 Qwen2-7B。", "The benchmarks use one A800 with Qwen2-7B."],
)
def test_a_sentence_naming_what_the_tests_use_sets_up_the_subsections(sentence: str) -> None:
    text = (
        f"# 性能\n\n## 测试结果\n\n本项目比 vLLM 快 2.1 倍。\n\n{sentence}\n\n"
        "| 并发 | 吞吐 (tokens/s) |\n|---|---|\n| 1 | 94.4 |\n\n"
        "### 显存\n\n| 并发 | 显存 (GB) |\n|---|---|\n| 1 | 95.5 |\n"
    )
    claim = _numbers(extract_claims(text))[95.5]
    assert claim.conditions.hardware == ["A800"]
    assert claim.conditions.model == ["Qwen2-7B"]


@pytest.mark.parametrize(
    "requirement",
    ["- 有英伟达显卡（30系，40系，V100/A100等），以及一定的显存。", "- A GPU: V100, A100, etc."],
)
def test_a_list_of_example_parts_sets_nothing_up(requirement: str) -> None:
    text = (
        "### Requirements\n\n"
        f"{requirement}\n\n| Model | GPU Memory (GB) |\n|---|---|\n| Qwen-7B | 15.5 |\n"
    )
    assert _numbers(extract_claims(text))[15.5].conditions.hardware == []


def test_a_requirements_section_opening_a_document_holds_for_its_own_section_only() -> None:
    text = (
        "## Intro\n\n### Hardware requirements\n\nNVIDIA H100.\n\n"
        "## Results\n\n| Kernel | Time (us) |\n|---|---|\n| v2 | 462.02 |\n"
    )
    assert _numbers(extract_claims(text))[462.02].conditions.hardware == []


def test_a_table_of_set_up_keys_sets_up_the_sections_after_it() -> None:
    # the numbers its values write (`3.1`, `1x`) make it no section of results
    text = (
        "# Sweep\n\n## Deployment\n\n| Parameter | Value |\n|:--|:--|\n"
        "| Model | Llama 3.1 70B Instruct FP8 |\n| Workers | 1x TP=1 |\n\n"
        "## Latency\n\n| Concurrency | TPOT p50 |\n|:--:|:--:|\n| 50 | 44ms |\n| 60 | 47ms |\n"
    )
    found = _numbers(extract_claims(text))
    assert found[44].conditions.model == ["Llama-3.1-70B"]
    assert found[47].conditions.model == ["Llama-3.1-70B"]


def test_a_two_column_results_table_is_no_set_up() -> None:
    text = (
        "# Results\n\n## Speed\n\n| Model | tok/s |\n|:--|:--|\n"
        "| Qwen2-7B | 45.1 |\n| Llama-2-7B | 40.2 |\n\n"
        "## Memory\n\n| Batch | GB |\n|:--|:--|\n| 1 | 14.5 |\n"
    )
    found = _numbers(extract_claims(text))
    assert found[45.1].conditions.model == ["Qwen2-7B"]
    assert not found[14.5].conditions.model


def test_the_part_a_sections_lead_names_holds_for_its_later_paragraphs() -> None:
    # issue #14: a hardware stated once for a section holds for every number below it in
    # the section (the table it introduces and the paragraphs after it), unless overridden
    text = (
        "## Where the cost is\n\nProfiling the engine on H200 at batch 32 showed the gap:\n\n"
        "| Step | Engine (us) |\n|---|---|\n| sync | 130 |\n\n"
        "A first fix gave no speedup (4056 vs 4109 tok/s).\n\n"
        "On an A100 the same fix gave 2100 tok/s.\n\n"
        "## Other work\n\nA port to the A10 reaches 900 tok/s.\n"
    )
    numbers = _numbers(extract_claims(text))
    assert numbers[130].conditions.hardware == ["H200"]
    assert numbers[4056].conditions.hardware == ["H200"]
    assert numbers[2100].conditions.hardware == ["A100"]
    assert numbers[900].conditions.hardware == ["A10"]


def test_a_key_and_value_table_with_digits_in_its_values_still_sets_up_the_page() -> None:
    # `Llama 3.1 70B`, `1x TP=1`: settings, not numbers the set-up section measures
    text = (
        "# Sweep\n\n## Deployment\n\n| Parameter | Value |\n|---|---|\n"
        "| Model | Llama 3.1 70B Instruct |\n| GPU | 1x H200 (1 node) |\n| Workers | 1x TP=1 |\n\n"
        "## TPOT\n\n| Concurrency | TPOT p50 |\n|---|---|\n| 50 | 44ms |\n"
    )
    found = _numbers(extract_claims(text + _ANOTHER_PART))
    assert found[44.0].conditions.hardware == ["H200"]
    assert found[44.0].conditions.model == ["Llama-3.1-70B"]


@pytest.mark.parametrize(
    ("heading", "parts"),
    [
        ("### 环境说明", ["A800"]),
        ("### 2.1 环境", ["A800"]),
        ("### 环境", ["A800"]),
        ("### 环境准备", []),  # how to install: no set-up of the numbers
        ("### 环境安装", []),
    ],
)
def test_a_chinese_environment_subsection_sets_up_its_sibling_sections(
    heading: str, parts: list[str]
) -> None:
    text = (
        f"# 训练调优\n\n## 结果\n\n{heading}\n\n8 卡 A800，CUDA 12.1。\n\n"
        "### 不同并行\n\n| 配置 | Tokens/GPU/Second |\n|---|---|\n| TP2 | 1234.5 |\n"
        f"{_ANOTHER_PART}"
    )
    assert _numbers(extract_claims(text))[1234.5].conditions.hardware == parts


@pytest.mark.parametrize("verb", ["评测", "评估", "压测"])
def test_a_chinese_evaluation_note_below_a_table_sets_it_up(verb: str) -> None:
    text = (
        "## 推理性能\n\n| 模型 | 速度 (tokens/s) |\n|---|---|\n| Qwen-7B | 40.5 |\n\n"
        f"{verb}运行于单张 A800 GPU，使用 PyTorch 2.1。\n"
        f"{_ANOTHER_PART}"
    )
    assert _numbers(extract_claims(text))[40.5].conditions.hardware == ["A800"]


@pytest.mark.parametrize(
    "entry",
    [
        "* 05/14/2025 [2.1.0]: Added Gaudi 3 kernels.",
        "* [2025/05/14] A notebook runs it on a free T4 GPU.",
        "* 2025-05-14: 新增 T4 GPU 上的示例。",
    ],
)
def test_a_news_entry_naming_a_part_sets_up_no_later_entry(entry: str) -> None:
    text = f"## News\n\n{entry}\n* 04/02/2025 [2.0.0]: Packing is 3.5x faster.\n{_ANOTHER_PART}"
    assert _numbers(extract_claims(text))[3.5].conditions.hardware == []


def test_an_undated_list_item_naming_a_part_still_sets_up_the_next() -> None:
    text = "## Results\n\n* Runs below use one L40S GPU.\n* Packing is 3.5x faster.\n"
    assert _numbers(extract_claims(text))[3.5].conditions.hardware == ["L40S"]


@pytest.mark.parametrize(
    ("note", "part"),
    [("- 上表测试环境：T4，batch_size=1。", []), ("- 测试环境：T4，batch_size=1。", ["T4"])],
)
def test_a_note_on_the_table_above_does_not_set_up_the_table_below(
    note: str, part: list[str]
) -> None:
    text = (
        "### 检测\n\n| 模型 | 延时 |\n|---|---|\n| YOLO-s | 3.2ms |\n\n"
        f"{note}\n\n| 模型 | 延时 |\n|---|---|\n| YOLO-m | 6.4ms |\n"
        f"{_ANOTHER_PART}"
    )
    found = _numbers(extract_claims(text))
    assert found[3.2].conditions.hardware == ["T4"]
    assert found[6.4].conditions.hardware == part


def test_columns_headed_by_two_device_classes_are_read_on_each_class() -> None:
    text = (
        "| Model | Online CPU Infer (ms) | Online NPU Infer (ms) | Peak GPU Memory (MB) |\n"
        "| --- | --- | --- | --- |\n| net_a | 140.5 | 33.5 | 512 |\n"
    )
    found = _numbers(extract_claims(text))
    assert found[140.5].conditions.hardware == ["CPU"]
    assert found[33.5].conditions.hardware == ["NPU"]


def test_a_titles_device_class_is_where_its_numbers_ran_unless_a_part_is_named_for_it() -> None:
    page = "# Speech runtime vs another — CPU benchmark\n\n## Results\n\nDecoding is 2.5x faster.\n"
    assert _numbers(extract_claims(page))[2.5].conditions.hardware == ["CPU"]
    named = page.replace("## Results", "CPU: Intel Core i7-12700K.\n\n## Results")
    assert _numbers(extract_claims(named))[2.5].conditions.hardware == ["Core i7-12700K"]


def test_a_row_naming_only_its_device_role_with_no_part_for_it_runs_on_the_class() -> None:
    text = "| Model | Device | Time (ms) |\n| --- | --- | --- |\n| tiny | NPU | 40.5 |\n"
    assert _numbers(extract_claims(text))[40.5].conditions.hardware == ["NPU"]


def test_a_statement_keyed_by_its_device_class_overrides_the_titles() -> None:
    text = "# NPU offload results\n\n## Numbers\n\n- NPU INT8: 181.5 ms\n- CPU INT8: 85.5 ms\n"
    found = _numbers(extract_claims(text))
    assert (found[181.5].conditions.hardware, found[85.5].conditions.hardware) == (["NPU"], ["CPU"])


def test_a_sections_device_class_takes_the_part_a_note_names_for_the_class() -> None:
    text = (
        "## Speed\n\n### Big model on GPU\n\n| Engine | Time (s) |\n| --- | --- |\n"
        "| ours | 61.5 |\n\n### Another big model on GPU\n\n| Engine | Time (s) |\n"
        "| --- | --- |\n| ours | 25.5 |\n\n"
        "*GPU Benchmarks are run with CUDA 12.4 on a NVIDIA RTX 4070.*\n\n"
        "### Small model on CPU\n\n| Engine | Time (s) |\n| --- | --- |\n| ours | 99.5 |\n\n"
        "*Run with 8 threads on an Intel Core i7-12700K.*\n"
    )
    found = _numbers(extract_claims(text))
    assert found[61.5].conditions.hardware == ["RTX 4070"]
    assert found[99.5].conditions.hardware == ["Core i7-12700K"]


def test_a_quoted_line_right_below_a_table_is_its_note() -> None:
    table = "| Kernel | GFLOPS |\n| --- | --- |\n| naive | {} |\n"
    text = (
        "# Kernels\n\n" + table.format(2262.5) + "\n> NVIDIA GeForce RTX 3080, matrix size 4096\n\n"
        "## Next\n\n" + table.format(3300.5) + "\nSome words about the next kernel on a T4.\n"
    )
    found = _numbers(extract_claims(text))
    assert found[2262.5].conditions.hardware == ["RTX 3080"]
    assert found[3300.5].conditions.hardware != ["RTX 3080"]


@pytest.mark.parametrize(
    ("heading", "expected"),
    [
        pytest.param("Hardware", True, id="hardware"),
        pytest.param("3. Test hardware", True, id="test-hardware"),
        pytest.param("Hardware used", True, id="hardware-used"),
        pytest.param("Benchmark Hardware", True, id="benchmark-hardware"),
        pytest.param("Hardware environment", True, id="hardware-environment"),
        pytest.param("Hardware and software", True, id="hardware-and-software"),
        pytest.param("Hardware details", True, id="hardware-details"),
        pytest.param("Hardware-aware kernels", False, id="hardware-aware"),
        pytest.param("Supported hardware", False, id="supported"),
        pytest.param("Benchmark your own hardware", False, id="how-to"),
        pytest.param("Comparison with other hardware", False, id="comparison"),
        pytest.param("Why hardware matters", False, id="essay"),
    ],
)
def test_only_a_heading_that_announces_the_test_hardware_is_a_set_up(
    heading: str, expected: bool
) -> None:
    assert is_setup_heading(heading) is expected


def test_a_hardware_aware_section_sets_up_no_hardware() -> None:
    """Its part is a subject of the section, not where the page's numbers ran (#14)."""
    text = (
        "# Kernels\n\n## Hardware-aware kernels\n\nThe kernels are tuned for the L4 GPU.\n\n"
        "## Results\n\nDecode runs at 41.5 tok/s.\n"
    )
    scopes = find_scopes(list(parse_segments(text)), default_catalog(), measured=[9])
    assert [s.names.get("hardware") for s in scopes if s.names.get("hardware")] == []
