"""Model and load conditions as pages state them (issue #14): in a page's title, in a
settings section, in a column header over scores, as a list of sizes after a family, and
the load written in prose (expert parallelism, concurrency, input and output lengths)."""

from __future__ import annotations

import pytest

from research_radar.extract.cataloguefiles import default_catalog
from research_radar.extract.claims import extract_claims
from research_radar.extract.conditions import find_conditions
from research_radar.extract.loads import several_values
from research_radar.models import Claim


def _numbers(claims: list[Claim]) -> dict[float, Claim]:
    return {metric.value: claim for claim in claims for metric in claim.metrics}


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        pytest.param("Each decode replica runs 64 EP across 8 nodes.", "ep", "64", id="n-ep"),
        pytest.param("The router was tested with EP=16 and DP=2.", "ep", "16", id="ep-equals"),
        pytest.param(
            "MoE layers use expert parallelism of 8 on one node.", "ep", "8", id="ep-words"
        ),
        pytest.param("At 512 concurrency the queue grows.", "concurrency", "512", id="n-conc"),
        pytest.param("We ran it with a concurrency of 32.", "concurrency", "32", id="conc-of"),
        pytest.param("An L40S box, input 1024, output 256.", "prompt", "1024", id="input-n"),
        pytest.param("An L40S box, input 1024, output 256.", "output", "256", id="output-n"),
        pytest.param("单卡测试，输入 2048，输出 512。", "output", "512", id="zh-in-out"),
        pytest.param("On H200, prompt 128 / 256 new tokens:", "prompt", "128", id="prompt-slash"),
        pytest.param("On H200, prompt 128 / 256 new tokens:", "output", "256", id="new-tokens"),
        pytest.param(
            "使用512的提示长度、32的生成长度和96的批量大小", "prompt", "512", id="zh-de-prompt"
        ),
        pytest.param(
            "使用512的提示长度、32的生成长度和96的批量大小", "output", "32", id="zh-de-output"
        ),
        pytest.param(
            "使用512的提示长度、32的生成长度和96的批量大小", "batch", "96", id="zh-de-batch"
        ),
        pytest.param(
            "20 steps, 512x512 output image resolution", "output", None, id="image-output"
        ),
        pytest.param("rate=2, bsz=4", "rate", "2", id="rate-equals"),
        pytest.param("rate=2, bsz=4", "batch", "4", id="bsz"),
        pytest.param("请求速率 4，输入 token 数 2048", "rate", "4", id="zh-rate"),
        pytest.param("请求速率 4，输入 token 数 2048", "prompt", "2048", id="zh-input-tokens"),
        pytest.param("gen_len=32", "output", "32", id="gen-len"),
        pytest.param("prefill 2048 tokens, decode 128 tokens", "prompt", "2048", id="prefill-n"),
        pytest.param("prefill 2048 tokens, decode 128 tokens", "output", "128", id="decode-n"),
        pytest.param("prefill 2048 tokens/s", "prompt", None, id="prefill-rate"),
        pytest.param("128 in / 64 out", "prompt", "128", id="n-in"),
        pytest.param("128 in / 64 out", "output", "64", id="n-out"),
    ],
)
def test_load_written_in_prose(text: str, key: str, value: str | None) -> None:
    assert find_conditions(text, default_catalog()).load.get(key) == value


def test_an_output_rate_is_not_an_output_length() -> None:
    load = find_conditions("input 128 output 35 tokens/s", default_catalog()).load
    assert "prompt" not in load


def test_a_settings_section_sets_up_the_results_beside_it() -> None:
    text = (
        "# Report\n\n# Settings\n\nAll runs use 16 B200 GPUs with TP=2.\n\n"
        "# Results\n\nDecode reaches 900 tok/s per GPU.\n"
    )
    claim = _numbers(extract_claims(text))[900]
    assert claim.conditions.hardware[0].startswith("B200")
    assert claim.conditions.load["tp"] == "2"


def test_the_title_of_a_page_of_top_level_sections_names_its_model() -> None:
    text = (
        "# Serving Mixtral-8x7B on a budget\n\n# Overview\n\nWhy we did it.\n\n"
        "# Results\n\nThroughput is 2,400 tok/s on 4 H100.\n\n"
        "# Qwen2-7B too\n\nIt reaches 3,100 tok/s on 4 H100.\n"
    )
    found = _numbers(extract_claims(text))
    assert found[2400].conditions.model == ["Mixtral-8x7B"]
    assert found[3100].conditions.model == ["Qwen2-7B"]  # its own heading wins


def test_a_single_top_heading_adds_no_scope_of_its_own() -> None:
    text = "# Notes on Mixtral-8x7B\n\n## Results\n\nThroughput is 2,400 tok/s.\n"
    assert _numbers(extract_claims(text))[2400].conditions.model == ["Mixtral-8x7B"]


def test_bare_numbers_under_model_columns_are_that_models_scores() -> None:
    text = (
        "| Suite | Task | Llama-3-8B | Qwen2-7B |\n| --- | --- | --- | --- |\n"
        "| Reasoning | ARC-c | **61.2**\\* | 58.9 |\n"
        "|  | BoolQ | 80.1 | 84.3 |\n"
    )
    found = _numbers(extract_claims(text))
    assert found[61.2].conditions.model == ["Llama-3-8B"]
    assert found[84.3].conditions.model == ["Qwen2-7B"]
    assert {m.name for m in found[80.1].metrics} == {"BoolQ"}
    assert all(m.unit == "" for m in found[58.9].metrics)


def test_a_table_of_model_rows_and_model_columns_reads_no_score() -> None:
    text = "| Draft \\ Target | Llama-3-8B |\n| --- | --- |\n| Llama-3-1B | 0.7 |\n"
    assert 0.7 not in _numbers(extract_claims(text))


@pytest.mark.parametrize(
    ("text", "models"),
    [
        pytest.param(
            "Serving Llama2-7B/13B/70B", ["Llama-2-7B", "Llama-2-13B", "Llama-2-70B"], id="slash"
        ),
        pytest.param("LLaMA 7B, 13B and 65B", ["Llama-7B", "Llama-13B", "Llama-65B"], id="and"),
        pytest.param("在 Qwen-7B 和 14B 上测试", ["Qwen-7B", "Qwen-14B"], id="zh"),
        pytest.param("Llama-2-7B, 2B tokens of data", ["Llama-2-7B"], id="tokens-not-size"),
    ],
)
def test_sizes_listed_after_a_family(text: str, models: list[str]) -> None:
    assert find_conditions(text, default_catalog()).model == models


@pytest.mark.parametrize(
    ("text", "models"),
    [
        pytest.param("Model: Qwen/Qwen2.5-7B-Instruct", ["Qwen2.5-7B"], id="owner-is-family"),
        pytest.param(
            "模型：deepseek-ai/DeepSeek-R1-Distill-Qwen-32B",
            ["DeepSeek-R1-Distill-Qwen-32B"],
            id="owner-with-suffix",
        ),
        pytest.param("meta-llama/Meta-Llama-3.1-70B-Instruct", ["Llama-3.1-70B"], id="meta"),
        pytest.param("Llama/Qwen 7B", ["Llama", "Qwen-7B"], id="alternatives-kept"),
    ],
)
def test_a_repository_id_names_its_model_not_its_owners_family(
    text: str, models: list[str]
) -> None:
    assert find_conditions(text, default_catalog()).model == models


def test_a_set_up_line_with_a_repository_id_sets_up_its_section() -> None:
    text = (
        "## Results\n\nOurs is 2.5x faster than vLLM.\n\n- Model: Qwen/Qwen2.5-7B-Instruct\n\n"
        "| Batch | Ours (tok/s) |\n|---|---|\n| 1 | 120 |\n"
    )
    found = {m.value: c for c in extract_claims(text) for m in c.metrics}
    assert found[120.0].conditions.model == found[2.5].conditions.model == ["Qwen2.5-7B"]


def test_thousands_of_tokens_per_second_written_k_tps() -> None:
    claim = _numbers(extract_claims("Decode reaches 12.5K TPS per node."))[12.5]
    assert claim.metrics[0].unit == "ktok/s"


@pytest.mark.parametrize(
    ("text", "gpus"),
    [
        pytest.param("The job trains on 64 GPUs.", "64", id="n-gpus"),
        pytest.param("使用 8 卡训练", "8", id="zh-cards"),
        pytest.param("在 16 张显卡上", "16", id="zh-counted-cards"),
        pytest.param("Built for the RTX 4090 GPU at home.", None, id="a-name-not-a-count"),
    ],
)
def test_a_gpu_count_in_prose(text: str, gpus: str | None) -> None:
    assert find_conditions(text, default_catalog()).load.get("gpus") == gpus


def test_a_setup_naming_several_counts_sets_none_of_them() -> None:
    text = (
        "# Report\n\n## Settings\n\nPrefill runs on 16 GPUs and decode on 96 GPUs, with TP=1.\n\n"
        "## Results\n\nDecode reaches 900 tok/s per GPU.\n"
    )
    load = _numbers(extract_claims(text))[900].conditions.load
    assert load.get("tp") == "1" and "gpus" not in load


def test_gpu_counts_and_micro_batches_in_shortest_markdown_tables() -> None:
    text = (
        "Scaling of the 7B run:\n\n"
        "| GPU Number | 8 | 64 |\n|-|-|-|\n"
        "| TGS (Tokens/GPU/Second) | 4100 | 3900 |\n\n"
        "| TP | GPU Num | Micro Bsz | TFLOPS |\n|-|-|-|-|\n| 2 | 32 | 4 | 181 |\n"
    )
    found = _numbers(extract_claims(text))
    assert found[4100].metrics[0].unit == "tok/s"
    assert found[3900].conditions.load["gpus"] == "64"
    assert found[181].conditions.load == {"tp": "2", "gpus": "32", "batch": "4"}


def test_a_sentence_with_a_number_still_introduces_its_table() -> None:
    text = (
        "## Training\n\nWith Falcon-40B we reach >170 TFLOPS on every scale:\n\n"
        "| GPUs | TFLOPS |\n| --- | --- |\n| 64 | 172 |\n"
    )
    assert _numbers(extract_claims(text))[172].conditions.model == ["Falcon-40B"]


def test_what_a_section_lead_names_holds_for_its_later_tables() -> None:
    text = (
        "## Throughput\n\nAll runs train Qwen2-7B in bf16.\n\n"
        "With checkpointing:\n\n| GPUs | TFLOPS |\n| --- | --- |\n| 64 | 172 |\n\n"
        "Without checkpointing:\n\n| GPUs | TFLOPS |\n| --- | --- |\n| 64 | 151 |\n"
    )
    later = _numbers(extract_claims(text))[151].conditions
    assert later.model == ["Qwen2-7B"] and later.precision == ["BF16"]


def test_a_size_alone_takes_the_family_in_scope() -> None:
    text = (
        "## Falcon\n\nFalcon-7B was measured first.\n\n"
        "| Size | Latency (ms) |\n| --- | --- |\n| 7B | 20.1 |\n| 40B | 95.2 |\n"
    )
    found = _numbers(extract_claims(text))
    assert found[20.1].conditions.model == ["Falcon-7B"]
    assert found[95.2].conditions.model == ["Falcon-40B"]


def test_a_size_alone_keeps_a_row_that_names_its_own_model() -> None:
    text = (
        "## Falcon\n\nFalcon-7B was measured first.\n\n"
        "| Model | Size | Latency (ms) |\n| --- | --- | --- |\n| Mistral | 7B | 18.4 |\n"
    )
    assert _numbers(extract_claims(text))[18.4].conditions.model == ["Mistral-7B"]


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        pytest.param("Input tokens: 512, output tokens: 64.", "output", "64", id="tokens-colon"),
        pytest.param("The server ran at 4 requests per second.", "rate", "4", id="at-req-s"),
        pytest.param("Replay used an arrival rate of 2.5 req/s.", "rate", "2.5", id="arrival"),
        pytest.param("We drove it with 48 parallel requests.", "concurrency", "48", id="parallel"),
        pytest.param("A concurrency level 64 run.", "concurrency", "64", id="conc-level"),
        pytest.param("压测时并发数为 32。", "concurrency", "32", id="zh-conc-wei"),
        pytest.param("批大小为 16 时", "batch", "16", id="zh-batch-wei"),
        pytest.param("The sequence length 4096 run.", "prompt", "4096", id="seq-length"),
        pytest.param("vllm serve m --tensor-parallel-size 2", "tp", "2", id="tp-flag"),
        pytest.param("Served from two H100 cards.", "gpus", "2", id="two-parts"),
        pytest.param("部署在两张 A100 上", "gpus", "2", id="zh-two-parts"),
        pytest.param("It runs on a single NVIDIA H100.", "gpus", "1", id="a-single-part"),
        pytest.param("Hardware: 8 × NVIDIA H20-3e (141GB)", "gpus", "8", id="vendor-between"),
        pytest.param("- GPU count: 4", "gpus", "4", id="gpu-count-key"),
        pytest.param("The model is tested on four GPUs.", "gpus", "4", id="four-gpus"),
        pytest.param("八卡推理", "gpus", "8", id="zh-eight-cards"),
        pytest.param("- Tensor parallel size: 4", "tp", "4", id="tp-size-key"),
        pytest.param("The model is tested on one H800 GPU.", "gpus", "1", id="one-part"),
        pytest.param("单卡 RTX 4090 可在 75 秒内生成视频", "gpus", "1", id="zh-single-part"),
        pytest.param("### Single GPU, 4-bit", "gpus", "1", id="single-gpu-heading"),
        pytest.param(
            "支持 7B 模型从 8 卡扩展到 1024 卡，平均单卡吞吐 3600", "gpus", "8", id="a-count-first"
        ),
    ],
)
def test_more_load_phrasings(text: str, key: str, value: str) -> None:
    assert find_conditions(text, default_catalog()).load.get(key) == value


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("Throughput reached 5.53 requests/s.", id="a-rate-measured"),
        pytest.param("Input sequence length 512, output sequence length 32.", id="io-lengths"),
        pytest.param("FlashAttention-2 runs 2x faster.", id="a-name-version-not-runs"),
        pytest.param("单卡吞吐较 BF16 提升 1.6 倍", id="per-card-throughput"),
        pytest.param("单卡平均功耗 400 W", id="per-card-power"),
        pytest.param("Served on a single H100 node.", id="one-node"),
        pytest.param("部署在单台 A800 服务器上", id="zh-one-server"),
        pytest.param(
            "You can adjust the memory the weights occupy on one GPU.", id="per-gpu-how-to"
        ),
    ],
)
def test_what_is_not_that_load(text: str) -> None:
    load = find_conditions(text, default_catalog()).load
    assert "rate" not in load and "gpus" not in load and load.get("prompt") in (None, "512")
    assert "runs" not in load


def test_an_output_sequence_length_is_not_a_second_prompt_length() -> None:
    assert several_values("Input sequence length 512, output sequence length 32.") == set()
    assert several_values("Prefill on 16 GPUs, decode on 96 GPUs.") == {"gpus"}


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("Training runs on one A100 GPU and inference on eight A100 GPUs.", id="words"),
        pytest.param("微调在 1 张 L40S 上，推理在 4 张 L40S 上。", id="chinese"),
        pytest.param("Fine-tuning: 1x H100; serving: 8x H100", id="glued"),
    ],
)
def test_a_part_counted_twice_gives_several_gpu_counts(text: str) -> None:
    """The rules read a named part's first count only; the catalogue reads each (issue #14)."""
    assert "gpus" not in several_values(text)
    assert "gpus" in several_values(text, default_catalog())


def test_a_part_counted_once_gives_one_gpu_count() -> None:
    assert several_values("Inference runs on eight A100 GPUs.", default_catalog()) == set()


def test_the_load_reader_exports_its_api() -> None:
    from research_radar.extract import loads

    assert set(loads.__all__) == {
        "load_rule_matches",
        "read_load",
        "several_values",
    }
    assert loads.read_load("bs=4, TP=2", default_catalog()) == {"batch": "4", "tp": "2"}


def test_a_caption_below_a_table_sets_it_up() -> None:
    text = (
        "## Results\n\n| Batch | Latency (ms) |\n| --- | --- |\n| 1 | 20.1 |\n\n"
        "*Table 2: decode latency of Gemma-7B on 8 L4.*\n"
    )
    claim = _numbers(extract_claims(text))[20.1]
    assert claim.conditions.model == ["Gemma-7B"]
    assert claim.conditions.load["gpus"] == "8"
