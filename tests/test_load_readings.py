"""Load written in the ways benchmark pages write it (issue #14): lengths in prose
(`decoding 256 tokens`, `input/output length of 1024/512.`, `2K-in 256-out`), Chinese
lengths (`输出长度为 512`, `输入输出长度分别为 ...`), GPU counts (`an 8-GPU node`), and the
note a table carries below it (a whole paragraph, or the items of a list)."""

from __future__ import annotations

import pytest

from research_radar.extract.cataloguefiles import default_catalog
from research_radar.extract.claims import extract_claims
from research_radar.extract.conditions import find_conditions
from research_radar.extract.loads import read_load
from research_radar.extract.markdown import parse_segments
from research_radar.models import Claim


def _load(text: str) -> dict[str, str]:
    return dict(find_conditions(text, default_catalog()).load)


def _numbers(claims: list[Claim]) -> dict[float, Claim]:
    return {metric.value: claim for claim in claims for metric in claim.metrics}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param(
            "Latency is the time taken when decoding 512 tokens.",
            {"output": "512"},
            id="decoding-n-tokens",
        ),
        pytest.param(
            "Every request used an input/output length of 2048/256.",
            {"prompt": "2048", "output": "256"},
            id="io-pair-at-sentence-end",
        ),
        pytest.param(
            "We set input lengths of 500 and output lengths of 1500 for the chat run",
            {"prompt": "500", "output": "1500"},
            id="plural-lengths",
        ),
        pytest.param(
            "The input and output lengths are 4096 and 128 here",
            {"prompt": "4096", "output": "128"},
            id="input-and-output-are",
        ),
        pytest.param(
            "A 4K-in 512-out workload on each node",
            {"prompt": "4K", "output": "512"},
            id="k-in-n-out",
        ),
        pytest.param(
            "服务端测试中输入长度为 3000，输出长度为 600",
            {"prompt": "3000", "output": "600"},
            id="zh-output-wei",
        ),
        pytest.param(
            "压测时输入输出长度分别为 2000 和 400",
            {"prompt": "2000", "output": "400"},
            id="zh-respectively",
        ),
        pytest.param(
            "长文本场景：输入长度/输出长度 = 8192/1024",
            {"prompt": "8192", "output": "1024"},
            id="zh-length-slash",
        ),
        pytest.param("Training ran on one 8-GPU node.", {"gpus": "8"}, id="n-dash-gpu"),
        pytest.param(
            "The chat mix has 700-token prompts and 90-token outputs.",
            {"prompt": "700", "output": "90"},
            id="n-token-prompts",
        ),
        pytest.param("Concurrent users: 48", {"concurrency": "48"}, id="concurrent-users-colon"),
        pytest.param("并发度 24 时首字延迟最低", {"concurrency": "24"}, id="zh-bingfadu"),
        pytest.param("并发请求数为 12", {"concurrency": "12"}, id="zh-concurrent-requests"),
        pytest.param("Deployment: TP: 4, one replica", {"tp": "4"}, id="tp-colon"),
        pytest.param(
            "Prompt: 900 tokens, completion: 90 tokens",
            {"prompt": "900", "output": "90"},
            id="prompt-colon-tokens",
        ),
        pytest.param(
            "Each request is 3000 tokens in, 300 tokens out.",
            {"prompt": "3000", "output": "300"},
            id="tokens-in-tokens-out",
        ),
        pytest.param(
            "每条请求输入 1500 tokens，生成 150 个 token",
            {"prompt": "1500", "output": "150"},
            id="zh-input-n-tokens",
        ),
        pytest.param("生成长度 640，批大小 2", {"output": "640", "batch": "2"}, id="zh-gen-length"),
        pytest.param("prompt长度 4000 的场景", {"prompt": "4000"}, id="zh-prompt-length"),
        pytest.param(
            "We fixed `input_len` at 700 and `output_len` at 70 for chat.",
            {"prompt": "700", "output": "70"},
            id="keys-in-code",
        ),
        pytest.param(
            "a prompt length of 900 and 45 generation steps",
            {"prompt": "900", "output": "45"},
            id="generation-steps",
        ),
        pytest.param("served with a tensor parallelism degree of 2", {"tp": "2"}, id="tp-degree"),
        pytest.param("Each box holds 4 H100 GPUs.", {"gpus": "4"}, id="n-part-gpus"),
        pytest.param("训练使用 16 张 A800 显卡", {"gpus": "16"}, id="zh-n-part-cards"),
        pytest.param("提示词 300 个 token 的请求", {"prompt": "300"}, id="zh-prompt-n-tokens"),
        pytest.param("批处理大小为 12 时", {"batch": "12"}, id="zh-batch-processing-size"),
        pytest.param("batch size 设为 24", {"batch": "24"}, id="zh-batch-set-to"),
        pytest.param(
            "输出token数 256，序列长度 3000", {"output": "256", "prompt": "3000"}, id="zh-tokens"
        ),
        pytest.param("张量并行度为 2", {"tp": "2"}, id="zh-tp"),
        pytest.param("- GPUs: 3", {"gpus": "3"}, id="gpus-key"),
        pytest.param(
            "- Hardware: 6 NVIDIA A100-SXM4-80GB", {"gpus": "6"}, id="count-after-a-set-up-key"
        ),
        pytest.param("Hardware: AMD MI300X GPU(6x)", {"gpus": "6"}, id="count-in-brackets-after"),
        pytest.param("served on A100 (x2)", {"gpus": "2"}, id="x-count-in-brackets"),
        pytest.param("QPS 为 3 时的延迟", {"rate": "3"}, id="zh-qps"),
        pytest.param(
            "| Engine | Prefill (3000 tokens) | Decode (300 tokens) |",
            {"prompt": "3000", "output": "300"},
            id="lengths-in-parentheses",
        ),
        pytest.param("Request rate configured (RPS):   6.00", {"rate": "6.00"}, id="vllm-rps"),
        pytest.param("each with responses of 350 tokens", {"output": "350"}, id="responses-of"),
        pytest.param("max output tokens 700", {"output": "700"}, id="max-output-tokens"),
        pytest.param("then 90 completion tokens", {"output": "90"}, id="completion-tokens"),
        pytest.param("driven with 7 requests per second", {"rate": "7"}, id="with-rps"),
        pytest.param("`torchrun --nproc_per_node=4 infer.py`", {"gpus": "4"}, id="torchrun"),
        pytest.param("`deepspeed --num_gpus 2 run.py`", {"gpus": "2"}, id="deepspeed-gpus"),
        pytest.param(
            "每条请求 300个输入token，80个输出token",
            {"prompt": "300", "output": "80"},
            id="zh-n-ge-tokens",
        ),
        pytest.param(
            "Throughput with parallel requests (12 parallel)",
            {"concurrency": "12"},
            id="count-in-brackets",
        ),
        pytest.param(
            "Mode: sequential requests, p50 40 ms", {"concurrency": "1"}, id="sequential-requests"
        ),
        pytest.param("Single-user TTFT is 80 ms", {"concurrency": "1"}, id="single-user"),
        pytest.param("### Single Request Performance", {"concurrency": "1"}, id="single-request"),
        pytest.param("单并发下首字延迟 90 ms", {"concurrency": "1"}, id="zh-single-concurrency"),
        pytest.param("Pattern: one request at a time", {"concurrency": "1"}, id="one-at-a-time"),
        pytest.param(
            "### Input 3000 / Output 150", {"prompt": "3000", "output": "150"}, id="slashed-pair"
        ),
        pytest.param("## 长文档（16K 输入）", {"prompt": "16K"}, id="zh-length-then-input"),
        pytest.param("（700 输入，256 输出）", {"output": "256"}, id="zh-length-then-output"),
        pytest.param("- 静态导出，batch 大小为 4", {"batch": "4"}, id="zh-english-batch-key"),
        pytest.param(
            "Settings follow production (2048 tokens per batch, top-4 experts).",
            {"batch": "2048"},
            id="tokens-per-batch",
        ),
        pytest.param("测试时每批 4K 个 token", {"batch": "4K"}, id="zh-tokens-per-batch"),
        pytest.param(
            "Timings come from a single NVIDIA-A6000 GPU.", {"gpus": "1"}, id="vendor-hyphen-word"
        ),
        pytest.param("Served by 4x NVIDIA-L40S.", {"gpus": "4"}, id="vendor-hyphen-count"),
        pytest.param("Prefill 900 tok/s at 512 context.", {"context": "512"}, id="plain-context"),
        pytest.param("a 4096 context window", {"context": "4096"}, id="context-window"),
        # a settings key, words on what the requests hold, then their one count of tokens
        pytest.param(
            "- **Input**: synthetic chat turns (system + user, 300 tokens)",
            {"prompt": "300"},
            id="input-words-then-count",
        ),
        pytest.param(
            "- Output: short replies, about 96 tokens", {"output": "96"}, id="output-words"
        ),
        # a count of GPUs, however the sentence opens and whatever stands between
        pytest.param("Using 16 H800, one epoch takes 3 h.", {"gpus": "16"}, id="capital-using"),
        pytest.param("On 4 A100s the run takes 3 h.", {"gpus": "4"}, id="capital-on-plural"),
        pytest.param("We trained on dual RTX 3090s.", {"gpus": "2"}, id="dual-part"),
        pytest.param("It fits a single 80GB A100.", {"gpus": "1"}, id="single-memory-part"),
        pytest.param("It fits a single 48GB GPU.", {"gpus": "1"}, id="single-memory-gpu"),
        pytest.param("- 模型在单张 80G GPU 上测试", {"gpus": "1"}, id="zh-single-memory-gpu"),
        pytest.param("实验使用 4 个 GPU 完成", {"gpus": "4"}, id="zh-n-ge-gpu"),
        pytest.param("Served on 3 nodes × 4 A100.", {"gpus": "12"}, id="nodes-times-parts"),
        pytest.param("Served on 3 x 4xA100 nodes.", {"gpus": "12"}, id="machines-of-parts"),
        # an output length in the words authors use
        pytest.param(
            "# input token is 700, output token is 90",
            {"prompt": "700", "output": "90"},
            id="token-is",
        ),
        pytest.param(
            "**Short prompts (300×300 tokens)**",
            {"prompt": "300", "output": "300"},
            id="length-by-length-tokens",
        ),
        pytest.param(
            "Long run (4096 x 512 tokens)", {"prompt": "4096", "output": "512"}, id="by-x"
        ),
        pytest.param("输入输出长度 3000/300 时", {"prompt": "3000", "output": "300"}, id="zh-io"),
        pytest.param("生成 token 数为 96", {"output": "96"}, id="zh-generated-token-count"),
        pytest.param("解码长度 640 的场景", {"output": "640"}, id="zh-decode-length"),
        pytest.param("最终推理20个token，用时 9 s", {"output": "20"}, id="zh-infer-n-tokens"),
        pytest.param(
            "| 编码 3000 长度的显存 | 生成 4000 长度的显存 |",
            {"prompt": "3000", "output": "4000"},
            id="zh-phase-n-length",
        ),
        pytest.param(
            "prompt 900 tokens, generation 90 tokens", {"output": "90"}, id="generation-n"
        ),
        pytest.param("**Tokens Generated:** ~325", {"output": "325"}, id="tokens-generated-key"),
        pytest.param("after 96 tokens generated", {"output": "96"}, id="n-tokens-generated"),
        pytest.param("with a response length of 700", {"output": "700"}, id="response-length"),
        pytest.param("ollama with num_predict 96", {"output": "96"}, id="num-predict"),
        pytest.param("run with --gen-len 96 here", {"output": "96"}, id="gen-len-flag"),
        pytest.param(
            "With --output-len 90, decode is steady.", {"output": "90"}, id="flag-then-comma"
        ),
    ],
)
def test_a_load_written_in_prose_is_read(text: str, expected: dict[str, str]) -> None:
    load = _load(text)
    assert {key: load.get(key) for key in expected} == expected


@pytest.mark.parametrize(
    ("text", "key"),
    [
        pytest.param("The decoder emits 300 tokens/s on one GPU.", "output", id="a-rate"),
        pytest.param("输出吞吐为 1500 tokens/s", "output", id="zh-output-rate"),
        pytest.param("Model A100-80GB runs here.", "gpus", id="memory-size"),
        pytest.param("We logged 12 in 2023 and 30 out of 40 later.", "prompt", id="in-out-words"),
        pytest.param("input/output length of 1024/512.5 ms", "prompt", id="io-pair-on-a-decimal"),
        pytest.param("We swept bs=2/4/16 on each GPU.", "batch", id="a-batch-sweep"),
        pytest.param("We sent 6 prompts to warm up.", "prompt", id="a-count-of-prompts"),
        pytest.param("Output: 75 tokens/s on average", "output", id="an-output-rate"),
        pytest.param("生成 30 个 token/s 的速度", "output", id="zh-generation-rate"),
        pytest.param("Peak concurrent requests: 900", "concurrency", id="peak-concurrency"),
        pytest.param("Concurrency:        13.74", "concurrency", id="a-measured-concurrency"),
        pytest.param("In 2023 H100 GPUs were scarce.", "gpus", id="a-year-before-a-part"),
        pytest.param("Rent costs $3 H100 GPU hours.", "gpus", id="a-price-before-a-part"),
        pytest.param("50 denoising steps on one card", "output", id="diffusion-steps"),
        pytest.param("ISL=8K, OSL=512, 32 & 96 concurrent requests", "concurrency", id="c-list"),
        pytest.param("显存占用降低后可用 6 倍批大小", "batch", id="zh-times-the-batch"),
        pytest.param("增大 batch 大小到 3 倍", "batch", id="zh-english-batch-grows"),
        pytest.param("The scheduler admits up to 6144 tokens per batch.", "batch", id="batch-cap"),
        pytest.param("It folds 900 tokens per batch per second.", "batch", id="batch-rate"),
        pytest.param("批量提升 3 倍", "batch", id="zh-batch-grows"),
        pytest.param("Concurrency: 2 / 6 / 24", "concurrency", id="concurrency-sweep"),
        pytest.param("并发 3/9/27 三档", "concurrency", id="zh-concurrency-sweep"),
        pytest.param("TP 2/4 on one node", "tp", id="tp-sweep"),
        pytest.param("It serves 9 requests per second.", "rate", id="served-rps"),
        pytest.param("`llama-cli -ngl 99 -m q4.gguf`", "gpus", id="gpu-layers"),
        pytest.param("训练需要超过 3,000 个 A100 GPU", "gpus", id="thousands-of-parts"),
        pytest.param("outputs of 45 tokens/s each", "output", id="outputs-rate"),
        pytest.param("We compare 2 and 4 GPUs.", "gpus", id="gpu-list"),
        pytest.param("- GPU: 4090", "gpus", id="a-part-named-by-its-number"),
        pytest.param("- GPU: 80GB", "gpus", id="a-gpus-memory"),
        pytest.param("GPU: 35% busy", "gpus", id="a-gpus-utilisation"),
        pytest.param("We printed 3 cards.", "gpus", id="cards-alone"),
        pytest.param("分别在 4 或 8 卡上测试", "gpus", id="zh-card-list"),
        pytest.param("Sequential read reaches 3 GB/s", "concurrency", id="sequential-read"),
        pytest.param("共 300 输入", "prompt", id="zh-a-count-of-inputs"),
        pytest.param("Input 900 / Output 75 tok/s", "output", id="slashed-pair-output-rate"),
        pytest.param("It makes 300 context switches per second.", "context", id="context-switch"),
        pytest.param("- Input: mixed prompts, 128 or 640 tokens", "prompt", id="input-two-counts"),
        pytest.param("- Output: chat replies at 41.5 tokens/s", "output", id="output-words-rate"),
        pytest.param(
            "each rank has 1024 * world_size = 1024 * 8 = 8192 tokens", "gpus", id="a-product"
        ),
        pytest.param("a batch of 8 x 4096 tokens", "output", id="a-batch-of-sequences"),
        pytest.param("prompts of 1024 * 10 tokens each", "output", id="a-product-of-tokens"),
        pytest.param("Total generated tokens: 25600", "output", id="a-total"),
        pytest.param("平均每秒生成token数量: 64.5", "output", id="zh-per-second-count"),
        pytest.param("Long prompts (2048×2048 tokens)", "resolution", id="no-resolution"),
        pytest.param("--output-len 128,256 swept", "output", id="a-flag-list"),
    ],
)
def test_look_alikes_of_a_load_are_not_read(text: str, key: str) -> None:
    assert key not in _load(text)


def test_a_concurrency_written_as_a_count_wins_over_one_said_in_words() -> None:
    assert _load("40 concurrent users, single-user mode off")["concurrency"] == "40"


def test_a_count_beside_a_pair_of_lengths_is_read() -> None:
    assert _load("bs=6, 2k/2k") == {"batch": "6", "prompt": "2k", "output": "2k"}
    assert _load("on 6 GPUs/node")["gpus"] == "6"


def test_values_of_two_keys_joined_by_and_are_both_read() -> None:
    assert _load("Run with batch size 4 and 24 GPUs.") == {"batch": "4", "gpus": "24"}
    assert _load("TP 2 and 40 concurrent requests") == {"tp": "2", "concurrency": "40"}


def test_a_rate_after_concurrent_users_is_no_concurrency() -> None:
    assert _load("Ours trails at 16 concurrent users: 9.5 tok/s.").get("concurrency") == "16"


def test_a_note_below_a_table_is_read_whole() -> None:
    text = (
        "# Results\n\n"
        "| Model | Throughput (tok/s) |\n|---|---|\n| Qwen2-7B | 812.5 |\n\n"
        "Note that every number comes from a single H100 box. "
        "They were all taken at batch size 32 with 64 concurrent requests.\n"
    )
    load = _numbers(extract_claims(text))[812.5].conditions.load
    assert load.get("batch") == "32"
    assert load.get("concurrency") == "64"


def test_the_list_below_a_table_sets_it_up_item_by_item() -> None:
    text = (
        "# 性能\n\n"
        "| 模型 | 吞吐 (tokens/s) |\n|---|---|\n| Qwen2-7B | 433.1 |\n\n"
        "- 冷启动不计入。\n"
        "- 表格中数据均为 bs=4 场景下测得。\n"
    )
    assert _numbers(extract_claims(text))[433.1].conditions.load.get("batch") == "4"


def test_a_paragraph_after_the_note_sets_nothing_up_for_the_table() -> None:
    text = (
        "# Results\n\n"
        "| Model | Throughput (tok/s) |\n|---|---|\n| Qwen2-7B | 640.2 |\n\n"
        "Measured on one node.\n\n"
        "Elsewhere we also tried batch size 64.\n"
    )
    assert "batch" not in _numbers(extract_claims(text))[640.2].conditions.load


@pytest.mark.parametrize(
    ("table", "expected"),
    [
        pytest.param(
            "| ISL/OSL | Throughput (tok/s) |\n|---|---|\n| 4096/512 | 321.5 |\n",
            {"prompt": "4096", "output": "512"},
            id="isl-osl-column",
        ),
        pytest.param(
            "| Model | Input/Output | QPS |\n|---|---|---|\n| Qwen2-7B | 2k/256 | 321.5 |\n",
            {"prompt": "2k", "output": "256"},
            id="input-output-column",
        ),
        pytest.param(
            "| Input | Output | Throughput (tok/s) |\n|---|---|---|\n| 3000 | 300 | 321.5 |\n",
            {"prompt": "3000", "output": "300"},
            id="input-and-output-columns",
        ),
        pytest.param(
            "| 输入 | 输出 | 吞吐 (tokens/s) |\n|---|---|---|\n| 1500 | 150 | 321.5 |\n",
            {"prompt": "1500", "output": "150"},
            id="zh-input-and-output-columns",
        ),
        pytest.param(
            "| Model | Prompt | Gen | Tokens/s |\n|---|---|---|---|\n| Qwen2-7B | 640 | 64 | 321.5 |\n",
            {"prompt": "640", "output": "64"},
            id="prompt-and-gen-columns",
        ),
        pytest.param(
            "| ISL/OSL | 500/50 | 5000/500 |\n|---|---|---|\n| Throughput (tok/s) | 321.5 | 99.5 |\n",
            {"prompt": "500", "output": "50"},
            id="isl-osl-header-row",
        ),
    ],
)
def test_a_length_column_gives_each_row_its_load(table: str, expected: dict[str, str]) -> None:
    load = _numbers(extract_claims(f"# Serving\n\n{table}"))[321.5].conditions.load
    assert {key: load.get(key) for key in expected} == expected


@pytest.mark.parametrize(
    ("head", "key"),
    [
        pytest.param("# Concurrent requests", "concurrency", id="concurrent-requests"),
        pytest.param("Users", "concurrency", id="users"),
        pytest.param("GPUs", "gpus", id="gpus"),
        pytest.param("Request rate (req/s)", "rate", id="request-rate-with-unit"),
        pytest.param("tp_size", "tp", id="tp-size-identifier"),
        pytest.param("TP degree", "tp", id="tp-degree"),
        pytest.param("张量并行度", "tp", id="zh-tp"),
        pytest.param("Num users", "concurrency", id="num-users"),
        pytest.param("Parallel requests", "concurrency", id="parallel-requests"),
        pytest.param("NPU数", "gpus", id="zh-npu-count"),
        pytest.param("Gen len", "output", id="gen-len"),
        pytest.param("Avg Input", "prompt", id="mean-input"),
        pytest.param("Mean output", "output", id="mean-output"),
        pytest.param("平均输出", "output", id="zh-mean-output"),
        pytest.param("TP (1)", "tp", id="footnote-mark-in-brackets"),
        pytest.param("Batch size¹", "batch", id="superscript-footnote-mark"),
        pytest.param("GPUs*", "gpus", id="asterisk-footnote-mark"),
    ],
)
def test_a_load_column_gives_each_row_its_value(head: str, key: str) -> None:
    table = f"| {head} | TTFT (ms) |\n|---|---|\n| 6 | 321.5 |\n"
    assert _numbers(extract_claims(f"# Serving\n\n{table}"))[321.5].conditions.load[key] == "6"


def test_a_qps_column_with_its_unit_stays_a_measurement() -> None:
    table = "| Engine | QPS | TTFT (ms) |\n|---|---|---|\n| vLLM | 7.5 | 321.5 |\n"
    claims = extract_claims(f"# Serving\n\n{table}")
    assert 7.5 in _numbers(claims)
    assert "rate" not in _numbers(claims)[321.5].conditions.load


@pytest.mark.parametrize("rate", ["3", "inf"])
def test_request_rates_in_a_tables_first_column_are_its_rows_load(rate: str) -> None:
    table = f"| RPS | Engine | TTFT (ms) |\n|---|---|---|\n| {rate} | SGLang | 321.5 |\n"
    numbers = _numbers(extract_claims(f"# Serving\n\n{table}"))
    assert 3 not in numbers
    assert numbers[321.5].conditions.load["rate"] == rate


def test_input_and_output_columns_of_prices_stay_numbers() -> None:
    table = "| Model | Input ($) | Output ($) |\n|---|---|---|\n| Qwen2-7B | 0.35 | 1.25 |\n"
    claims = extract_claims(f"# Pricing\n\n{table}")
    assert {0.35, 1.25} <= set(_numbers(claims))
    assert all("output" not in claim.conditions.load for claim in claims)


def test_parts_named_over_a_length_column_are_no_lengths() -> None:
    table = (
        "| Sequence Length (ISL/OSL) | H200 | B200 |\n|---|---|---|\n| 500/5000 | 321.5 | 456.5 |\n"
    )
    claims = _numbers(extract_claims(f"# Serving\n\n{table}"))
    assert claims[321.5].conditions.load["output"] == "5000"
    assert claims[456.5].conditions.load["output"] == "5000"


def test_parts_named_over_a_batch_column_are_no_batches() -> None:
    table = "| Batch size | B200 | H100 |\n|---|---|---|\n| 6 | 321.5 | 456.5 |\n"
    claims = _numbers(extract_claims(f"# Serving\n\n{table}"))
    assert claims[321.5].conditions.load["batch"] == "6"


def test_a_header_row_of_prompt_lengths_is_no_context() -> None:
    table = "| Input length | 3K | 6K |\n|---|---|---|\n| TTFT (ms) | 321.5 | 456.5 |\n"
    load = _numbers(extract_claims(f"# Serving\n\n{table}"))[321.5].conditions.load
    assert load == {"prompt": "3K"}


def test_a_group_header_of_load_values_sets_the_columns_below_it() -> None:
    table = (
        "| Concurrency | 12 | | 48 | |\n|---|---|---|---|---|\n"
        "| Engine | TTFT (ms) | TPOT (ms) | TTFT (ms) | TPOT (ms) |\n"
        "| vLLM | 321.5 | 11.5 | 456.5 | 19.5 |\n"
    )
    claims = _numbers(extract_claims(f"# Serving\n\n{table}"))
    assert claims[321.5].conditions.load["concurrency"] == "12"
    assert claims[456.5].conditions.load["concurrency"] == "48"
    gpus = (  # `Number of GPUs` over a row of counts: the key's separator is optional
        "| Model | Number of GPUs | | |\n|---|---|---|---|\n| | 1 | 2 | 4 |\n"
        "| Llama-2-7B | 106 tok/s | 196 tok/s | 376 tok/s |\n"
    )
    counted = _numbers(extract_claims(f"# Scaling\n\n{gpus}"))
    assert [counted[v].conditions.load["gpus"] for v in (106, 196, 376)] == ["1", "2", "4"]


def test_column_labels_that_hold_a_count_are_no_load_values() -> None:
    table = (
        "| Batch size | 4 nodes, BF16 | 2 nodes, FP8 |\n|---|---|---|\n"
        "| 2 | 321.5 tok/s | 456.5 tok/s |\n"
    )
    claims = _numbers(extract_claims(f"# Serving\n\n{table}"))
    assert claims[321.5].conditions.load["batch"] == "2"
    assert claims[456.5].conditions.load["batch"] == "2"


def test_a_setup_line_below_a_table_sets_it_up() -> None:
    text = (
        "# Results\n\n"
        "| Model | Throughput (tok/s) |\n|---|---|\n| Qwen2-7B | 321.5 |\n\n"
        "Workload: 24 concurrent requests, 600 input tokens each.\n"
    )
    load = _numbers(extract_claims(text))[321.5].conditions.load
    assert load.get("concurrency") == "24"


@pytest.mark.parametrize(
    "said",
    [
        pytest.param(
            "We measured both phases. Fine-tuning ran on one L40S GPU and serving "
            "ran on four L40S GPUs.",
            id="lead-sentence",
        ),
        pytest.param(
            "Fine-tuning ran on one L40S GPU and serving on four L40S GPUs:",
            id="introduction",
        ),
    ],
)
def test_a_setup_that_counts_its_parts_twice_sets_up_no_count(said: str) -> None:
    text = f"# Speed\n\n{said}\n\n| Batch | Speedup |\n|---|---|\n| 4 | 3.25x |\n"
    load = _numbers(extract_claims(text))[3.25].conditions.load
    assert load.get("batch") == "4"
    assert "gpus" not in load


def test_a_setup_that_counts_its_part_once_sets_up_the_count() -> None:
    said = "Serving ran on four L40S GPUs."
    text = f"# Speed\n\n{said}\n\n| Batch | Speedup |\n|---|---|\n| 4 | 3.25x |\n"
    assert _numbers(extract_claims(text))[3.25].conditions.load.get("gpus") == "4"


def test_an_example_in_a_note_below_a_table_sets_nothing_up() -> None:
    text = (
        "# Flags\n\n"
        "| Flag | Default |\n|---|---|\n| `--steps` | 321.5 |\n\n"
        "Note: pass `--nproc_per_node` to pick the GPUs; for example, "
        "`--nproc_per_node=4` runs on 4 GPUs.\n"
    )
    claims = _numbers(extract_claims(text))
    assert "gpus" not in claims[321.5].conditions.load


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("在 16 路并发下测得吞吐", {"concurrency": "16"}, id="lu-bingfa"),
        pytest.param("with 32 concurrent requests", {"concurrency": "32"}, id="concurrent"),
        pytest.param("Llama-3-70B-FP8 并发测试", {}, id="name-end-before-bingfa"),
        pytest.param("GLM-4-9B-int4 并发压测", {}, id="int4-before-bingfa"),
    ],
)
def test_a_count_before_concurrent_is_a_load_unless_it_ends_a_name(
    text: str, expected: dict[str, str]
) -> None:
    assert {k: v for k, v in _load(text).items() if k == "concurrency"} == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param(
            "Runs use 2048 tokens prefill and 128 tokens decode.",
            {"prompt": "2048", "output": "128"},
            id="count-then-phase",
        ),
        pytest.param("each with a 512 token prefill", {"prompt": "512"}, id="singular-token"),
        pytest.param("reaching 4096 tokens prefill throughput", {}, id="phase-measure"),
        pytest.param("about 300 tokens decode speed on CPU", {}, id="phase-speed"),
    ],
)
def test_a_token_count_before_its_phase_is_that_phases_length(
    text: str, expected: dict[str, str]
) -> None:
    assert {k: v for k, v in _load(text).items() if k in ("prompt", "output")} == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("scored on 26 prompt audio/text pairs", {}, id="count-of-pairs"),
        pytest.param("100 input images per run", {}, id="count-of-images"),
        pytest.param("with 2048 input / 128 output", {"prompt": "2048"}, id="length-stays"),
        pytest.param("512 input tokens", {"prompt": "512"}, id="input-tokens"),
    ],
)
def test_a_count_of_inputs_is_no_prompt_length(text: str, expected: dict[str, str]) -> None:
    assert {k: v for k, v in _load(text).items() if k == "prompt"} == expected


def test_a_sections_opening_sentence_with_a_number_still_sets_up_its_tables() -> None:
    text = (
        "### Results\n"
        "Every table below was measured on a single L40S, over about 90 seconds of speech:\n\n"
        "**Streaming**\n"
        "| Mode | Concurrency | Latency (ms) |\n|---|---|---|\n| stream | 2 | 310.5 |\n\n"
        "**Offline**\n"
        "| Backend | Batch size | RTF |\n|---|---|---|\n| ours | 4 | 0.061 |\n"
    )
    found = _numbers(extract_claims(text))
    assert found[310.5].conditions.hardware == ["L40S"]
    assert found[0.061].conditions.hardware == ["L40S"]


def test_a_new_tokens_column_is_each_rows_output_length() -> None:
    text = (
        "| Model | Seqlen | New_tokens | TTFT(ms) |\n|---|---|---|---|\n"
        "| Qwen2-0.5B | 128 | 64 | 145.9 |\n| Qwen2-0.5B | 256 | 32 | 290.1 |\n"
    )
    found = _numbers(extract_claims(text))
    assert found[145.9].conditions.load.get("output") == "64"
    assert found[290.1].conditions.load.get("output") == "32"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("The batch size is set to 32.", {"batch": "32"}, id="batch-set-to"),
        pytest.param("we set batch size here to `1`;", {"batch": "1"}, id="batch-set-here-coded"),
        pytest.param(
            "Input length is fixed at 2048 tokens and output length set to 128.",
            {"prompt": "2048", "output": "128"},
            id="lengths-fixed-at",
        ),
        pytest.param(
            "并发数设置为 16，输入长度固定为 1024",
            {"concurrency": "16", "prompt": "1024"},
            id="zh-set-to",
        ),
        pytest.param("We raised the context window to 128K.", {"context": "128K"}, id="context-to"),
        pytest.param(
            "- W1 Single: one request, prompt 256, generate 256.",
            {"prompt": "256", "output": "256"},
            id="prompt-generate-pair",
        ),
        pytest.param("Requests arrive as Poisson 6 RPS.", {"rate": "6"}, id="poisson-rate"),
        pytest.param("Run with 10 req/sec requested rate.", {"rate": "10"}, id="requested-rate"),
        pytest.param("It prefills a 1M context in 3 minutes.", {"context": "1M"}, id="context-1m"),
        pytest.param("world size 8, 300 tok/s", {"gpus": "8"}, id="world-size"),
        pytest.param(
            "token_benchmark_ray.py --mean-input-tokens 550 --mean-output-tokens 150 "
            "--num-concurrent-requests 5",
            {"prompt": "550", "output": "150", "concurrency": "5"},
            id="llmperf-flags",
        ),
        pytest.param("- Prompt's token length:        550", {"prompt": "550"}, id="possessive"),
        pytest.param("- Max Tokens: 200.", {"output": "200"}, id="max-tokens-words"),
        pytest.param("输出 max_new_tokens 是 640 时", {"output": "640"}, id="zh-copula-after-key"),
        pytest.param("prompt length 为 700", {"prompt": "700"}, id="zh-copula-after-prompt-key"),
        pytest.param("输入 padding 到 768 长度", {"prompt": "768"}, id="zh-padded-input"),
        pytest.param("all inputs padded to 1536 tokens", {"prompt": "1536"}, id="padded-inputs"),
        pytest.param("在 A800 上，6batch size：", {"batch": "6"}, id="count-before-batch-size"),
        pytest.param("### Dual GPU results", {"gpus": "2"}, id="dual-gpu"),
        pytest.param("on a quad-GPU box", {"gpus": "4"}, id="quad-gpu"),
        pytest.param("tp_size: 4", {"tp": "4"}, id="tp-size-config"),
        pytest.param("served at TP degree of 8", {"tp": "8"}, id="tp-degree-words"),
        pytest.param("ep_size=16", {"ep": "16"}, id="ep-size-config"),
        pytest.param("measured on 8 NPUs", {"gpus": "8"}, id="n-npus"),
        pytest.param("a 4-card server", {"gpus": "4"}, id="n-card"),
    ],
)
def test_load_in_the_phrasing_of_pages_outside_the_labelled_set(
    text: str, expected: dict[str, str]
) -> None:
    load = _load(text)
    assert {k: load.get(k) for k in expected} == expected


@pytest.mark.parametrize(
    "text",
    [
        "The input size is set to 224 for every image model.",  # an image's side, no length
        "LLaMA-3-8B-1M reaches 10 tok/s.",  # a model's trained context, in its name
        "Throughput rises to 12 QPS at most.",  # a measured rate
        "All models run at 13 tok/s on 3 NPU cores.",  # the cores of one NPU, not 3 NPUs
        "RK3588 (3 NPU 核) 上 13 tok/s",
    ],
)
def test_no_load_from_a_size_a_name_or_a_measurement(text: str) -> None:
    load = _load(text)
    assert not {"prompt", "context", "rate", "gpus"} & set(load), load


def test_a_column_of_prompt_counts_is_no_prompt_length() -> None:
    page = (
        "| Model | num_prompts | Batch Size | Throughput (tok/s) |\n"
        "|---|---|---|---|\n"
        "| Llama-2-7B | 1000 | 8 | 512 |\n"
    )
    [claim] = [c for c in extract_claims(page) if c.metrics]
    assert claim.conditions.load.get("batch") == "8"
    assert "prompt" not in claim.conditions.load


def test_headers_that_name_a_load_in_other_words() -> None:
    page = (
        "| Model | 批处理大小 | # of GPUs | max_tokens | Throughput (tok/s) |\n"
        "|---|---|---|---|---|\n"
        "| Llama-2-7B | 16 | 4 | 256 | 900 |\n"
    )
    [claim] = [c for c in extract_claims(page) if c.metrics]
    load = claim.conditions.load
    assert (load.get("batch"), load.get("gpus"), load.get("output")) == ("16", "4", "256")


def test_an_html_group_header_over_a_row_of_values_gives_each_column_its_value() -> None:
    """`<th colspan=3>Number of GPUs</th>` over `<th>1</th><th>2</th><th>4</th>` in the
    `<thead>`: each column's count, and the values are no measurements."""
    table = (
        "<table>\n<thead>\n"
        '<tr><th rowspan="2">Model</th><th colspan="3">Number of GPUs</th></tr>\n'
        "<tr><th>1</th><th>2</th><th>4</th></tr>\n</thead>\n<tbody>\n"
        "<tr><td>Llama-2-7B</td><td>105 tok/s</td><td>195 tok/s</td><td>375 tok/s</td></tr>\n"
        "</tbody>\n</table>\n"
    )
    claims = _numbers(extract_claims(f"# Scaling\n\n{table}"))
    assert claims[105].conditions.load["gpus"] == "1"
    assert claims[375].conditions.load["gpus"] == "4"
    assert 2 not in claims and 4 not in claims
    names = table.replace("Number of GPUs", "Graph mode").replace(
        "<th>1</th><th>2</th><th>4</th>", "<th>Prefill</th><th>Decode</th><th>Total</th>"
    )
    named = _numbers(extract_claims(f"# Modes\n\n{names}"))  # a row of names: no load
    assert "gpus" not in named[105].conditions.load


def test_column_headers_of_token_count_pairs_are_each_columns_prompt_and_output() -> None:
    table = (
        "| Model | 128/2048 | 2048/128 |\n|---|---|---|\n| Llama-2-7B | 107 tok/s | 307 tok/s |\n"
    )
    claims = _numbers(extract_claims(f"# Lengths\n\n{table}"))
    assert claims[107].conditions.load == {"prompt": "128", "output": "2048"}
    assert claims[307].conditions.load == {"prompt": "2048", "output": "128"}
    ratios = "| Model | 1/8 | 1/4 |\n|---|---|---|\n| Llama-2-7B | 1.5x | 1.3x |\n"
    assert all("prompt" not in c.conditions.load for c in extract_claims(ratios))


def test_the_request_shape_alone_leaves_the_part_counts_out() -> None:
    # a named workload (`- Short prompt: ...`) reads only the shape of its requests
    text = "8x H100, input 1024, output 128"
    cat = default_catalog()
    assert read_load(text, cat) == {"prompt": "1024", "output": "128", "gpus": "8"}
    assert read_load(text, cat, counts=False) == {"prompt": "1024", "output": "128"}


def test_each_clause_keeps_its_own_context_though_only_the_first_names_the_unit() -> None:
    """`4100 vs 900 at 2K (4.5x)` gives a speed whose unit the clause before gave: it is
    still that clause's number, at that clause's context; and neither context sets up the
    next sentence of the list item."""
    text = (
        "- On one L40S: prefill 1800 vs 900 tok/s at 512 context (2.0x), 4100 vs 900 at 2K\n"
        "  (4.5x); decode 61.5 vs 50.5 tok/s (1.2x).\n"
    )
    numbers = _numbers(extract_claims(text))
    assert numbers[1800].conditions.load.get("context") == "512"
    assert numbers[2.0].conditions.load.get("context") == "512"
    assert numbers[4100].conditions.load.get("context") == "2K"
    assert numbers[4.5].conditions.load.get("context") == "2K"
    assert "context" not in numbers[61.5].conditions.load


def test_a_column_of_key_lengths_is_the_context_beside_the_query_lengths() -> None:
    """`| seqlen_q | seqlen_kv |` over an attention kernel's timings: the queries' length is
    the prompt, the keys' the context, as the rules read `seqlen_kv=4096` in a line."""
    table = (
        "| bs | seqlen_q | seqlen_kv | Time (ms) |\n|---|---|---|---|\n"
        "| 8 | 512 | 512 | 0.91 |\n| 2 | 512 | 8192 | 1.73 |\n"
    )
    claims = _numbers(extract_claims(f"# Attention\n\n{table}"))
    assert claims[0.91].conditions.load == {"batch": "8", "prompt": "512", "context": "512"}
    assert claims[1.73].conditions.load == {"batch": "2", "prompt": "512", "context": "8192"}
    single = table.replace("seqlen_kv", "kv_seq_len")
    assert _numbers(extract_claims(single))[1.73].conditions.load["context"] == "8192"


def test_a_setup_sections_input_in_words_is_the_prompt_of_the_results_beside_it() -> None:
    text = (
        "# Reranker on the NPU\n\n## Results\n\n### Configuration\n\n"
        "- **Device**: NPU\n- **Input**: query and passage pairs (96 tokens)\n\n"
        "### Table\n\n| Variant | Latency |\n|---|---|\n| FP16 | 41.0ms |\n| INT8 | 39.5ms |\n"
    )
    claims = _numbers(extract_claims(text))
    assert claims[41.0].conditions.load.get("prompt") == "96"
    assert claims[39.5].conditions.load.get("prompt") == "96"


def test_a_printed_caption_line_gives_the_load_of_the_lines_below_it() -> None:
    """`Batch size 4:` / `3 parallel requests:` among the lines a program printed: the load
    of the timings printed under it, up to the next such caption."""
    text = (
        "# Runs\n\n```\nBatch size 4:\nprefill: 97.5 ms\ndecode: 21.25 ms\n"
        "3 parallel requests:\n- stream 1: 61.5 tokens/s\n- stream 2: 60.75 tokens/s\n```\n"
    )
    claims = _numbers(extract_claims(text))
    assert claims[97.5].conditions.load == {"batch": "4"}
    assert claims[21.25].conditions.load == {"batch": "4"}
    assert claims[61.5].conditions.load.get("concurrency") == "3"
    assert claims[60.75].conditions.load.get("concurrency") == "3"
    assert 4 not in claims and 3 not in claims


def test_a_key_listing_several_values_sets_up_none_of_them() -> None:
    """`Input lengths: 256 and 2048 tokens` above a table: the rules read the first value,
    which holds for some rows only; the table gets no prompt rather than a wrong one."""
    text = (
        "# Bench\n\nInput lengths: 256 and 2048 tokens.\n\n"
        "| Model | TTFT (ms) |\n|---|---|\n| Llama-3-8B | 35.5 |\n"
    )
    assert "prompt" not in _numbers(extract_claims(text))[35.5].conditions.load
    one = text.replace("Input lengths: 256 and 2048 tokens.", "Input length: 256 tokens.")
    assert _numbers(extract_claims(one))[35.5].conditions.load.get("prompt") == "256"
    pair = text.replace("Input lengths: 256 and 2048 tokens.", "Input 1024, output 128.")
    assert _numbers(extract_claims(pair))[35.5].conditions.load == {
        "prompt": "1024",
        "output": "128",
    }


def test_a_bold_line_over_bold_lines_sets_up_each_of_them() -> None:
    """`**Short prompts (300×300 tokens)**` right above `**Batch 1**` opens a group: its
    lengths hold under each bold line below it, up to the next bold line that opens one."""
    text = (
        "# Bench\n\n### Findings\n\n**Short prompts (300×300 tokens)**\n\n**Batch 1**\n\n"
        "- TTFT: 91 ms\n\n**Batch 32**\n\n- TTFT: 95 ms\n\n"
        "**Long prompts (3000×3000 tokens)**\n\n**Batch 1**\n\n- TTFT: 99 ms\n"
    )
    claims = _numbers(extract_claims(text))
    assert claims[91].conditions.load == {"prompt": "300", "output": "300", "batch": "1"}
    assert claims[95].conditions.load == {"prompt": "300", "output": "300", "batch": "32"}
    assert claims[99].conditions.load == {"prompt": "3000", "output": "3000", "batch": "1"}
    levels = [s.level for s in parse_segments(text) if s.block == "heading"]
    assert levels == [1, 3, 7, 8, 8, 7, 8]


def test_bold_lines_each_over_its_own_text_are_siblings() -> None:
    """`**Batch 1**` / text / `**Batch 32**` / text: no bold line opens a group."""
    text = "# Bench\n\n**Batch 1**\n\n- TTFT: 91 ms\n\n**Batch 32**\n\n- TTFT: 95 ms\n"
    assert [s.level for s in parse_segments(text) if s.block == "heading"] == [1, 7, 7]
    assert _numbers(extract_claims(text))[95].conditions.load == {"batch": "32"}
