"""The load as benchmark tools' command-line flags and config keys write it (issue #14):
vLLM, SGLang, TensorRT-LLM and llama.cpp flags in prose and in a command block above a
result table, and the shell commands and sweeps that are no load."""

from __future__ import annotations

import pytest

from research_radar.extract.cataloguefiles import default_catalog
from research_radar.extract.claims import extract_claims
from research_radar.extract.commandblocks import read_code_blocks
from research_radar.extract.conditions import find_conditions
from research_radar.extract.loads import several_values
from research_radar.models import Claim


def _numbers(claims: list[Claim]) -> dict[float, Claim]:
    return {metric.value: claim for claim in claims for metric in claim.metrics}


def _load(text: str) -> dict[str, str]:
    return dict(find_conditions(text, default_catalog()).load)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param(
            "vllm bench serve --dataset-name random --random-input-len 1024 "
            "--random-output-len 128 --max-concurrency 64 --request-rate 4.5 -tp 8",
            {"prompt": "1024", "output": "128", "concurrency": "64", "rate": "4.5", "tp": "8"},
            id="vllm-bench-serve",
        ),
        pytest.param(
            "python benchmarks/benchmark_throughput.py --input-len 1024 --output-len 128 "
            "--tensor-parallel-size=4",
            {"prompt": "1024", "output": "128", "tp": "4"},
            id="vllm-throughput",
        ),
        pytest.param(
            "python -m sglang.bench_serving --random-input 2048 --random-output 256 "
            "--tp-size 4 --ep-size 8",
            {"prompt": "2048", "output": "256", "tp": "4", "ep": "8"},
            id="sglang-bench-serving",
        ),
        pytest.param(
            "python -m sglang.bench_one_batch --batch-size 32 --input-len 256 --output-len 32",
            {"batch": "32", "prompt": "256", "output": "32"},
            id="sglang-one-batch",
        ),
        pytest.param(
            "python prepare_dataset.py token-norm-dist --input-mean 128 --output-mean 2048 "
            "--num-requests 3000",
            {"prompt": "128", "output": "2048"},
            id="trtllm-dataset",
        ),
        pytest.param(
            "trtllm-bench --model m throughput --tp 2 --ep 2 --concurrency 32",
            {"tp": "2", "ep": "2", "concurrency": "32"},
            id="trtllm-bench",
        ),
        pytest.param(
            "./llama-bench -m model.gguf --n-prompt 512 --n-gen 64 -ngl 99",
            {"prompt": "512", "output": "64"},
            id="llama-bench-long",
        ),
        pytest.param("Decoding runs --output-len 14336 tokens.", {"output": "14336"}, id="long"),
        pytest.param("gen_kwargs: --output_len=128", {"output": "128"}, id="underscore"),
        pytest.param("--max-new-tokens 64 on each prompt", {"output": "64"}, id="hf-flag"),
        pytest.param("model.generate(ids, max_new_tokens=256)", {"output": "256"}, id="hf-kw"),
    ],
)
def test_a_benchmark_tool_flag_is_its_load(text: str, expected: dict[str, str]) -> None:
    load = _load(text)
    assert {key: load.get(key) for key in expected} == expected


def test_flags_are_read_by_their_own_name_not_by_the_number_before_the_next_flag() -> None:
    # `1024 --output-len` is the input length followed by a flag, not an output of 1024
    load = _load("benchmark_serving.py --input-len 1024 --output-len 128")
    assert (load["prompt"], load["output"]) == ("1024", "128")
    assert several_values("benchmark_serving.py --input-len 1024 --output-len 128") == set()


@pytest.mark.parametrize(
    ("text", "key"),
    [
        pytest.param("head -n 4 results.csv", "output", id="head-n"),
        pytest.param("tail -n 20 server.log", "output", id="tail-n"),
        pytest.param("mpirun -n 8 python bench.py", "output", id="mpirun-n"),
        pytest.param("vllm serve m --max-num-seqs 256", "batch", id="cap-seqs"),
        pytest.param("trtllm-bench throughput --max_batch_size 512", "batch", id="cap-batch"),
    ],
)
def test_a_shell_option_or_a_cap_is_no_load(text: str, key: str) -> None:
    assert key not in _load(text)


def test_a_flag_given_several_values_sweeps_them() -> None:
    assert "batch" in several_values("torchrun train.py --batch-size 1 2 4 8 --lr 3e-4")
    assert "prompt" in several_values("./llama-bench -p 512,1024,2048 -n 128")
    assert "output" not in several_values("./llama-bench -p 512,1024,2048 -n 128")


_TABLE = "| Model | Output tok/s | Mean TTFT (ms) |\n| --- | --- | --- |\n"


def test_a_command_block_above_a_table_sets_up_its_rows() -> None:
    text = (
        "## Serving on H100\n\n"
        "```bash\n"
        "vllm bench serve --model meta-llama/Llama-3.1-8B-Instruct \\\n"
        "  --dataset-name random --random-input-len 2048 --random-output-len 128 \\\n"
        "  --max-concurrency 64 --num-prompts 1000\n"
        "```\n\n" + _TABLE + "| Llama-3.1-8B | 5123.4 | 85.2 |\n"
    )
    row = _numbers(extract_claims(text))[5123.4]
    assert row.conditions.load["prompt"] == "2048"
    assert row.conditions.load["output"] == "128"
    assert row.conditions.load["concurrency"] == "64"


def test_each_command_block_sets_up_the_table_below_it_only() -> None:
    text = (
        "## Results\n\n"
        "```\npython3 -m sglang.bench_serving --random-input 1024 --random-output 1024\n```\n\n"
        + _TABLE
        + "| Qwen3-8B | 4100.5 | 40.1 |\n\n"
        "```\npython3 -m sglang.bench_serving --random-input 8192 --random-output 1024\n```\n\n"
        + _TABLE
        + "| Qwen3-8B | 2100.5 | 190.3 |\n"
    )
    found = _numbers(extract_claims(text))
    assert found[4100.5].conditions.load["prompt"] == "1024"
    assert found[2100.5].conditions.load["prompt"] == "8192"
    assert found[2100.5].conditions.load["output"] == "1024"


def test_a_block_sweeping_a_flag_sets_up_none_of_its_values() -> None:
    text = (
        "## Throughput\n\n"
        "```bash\n"
        "for bs in 1 8; do\n"
        "python benchmark_latency.py --batch-size 1 --input-len 512 --output-len 128\n"
        "python benchmark_latency.py --batch-size 8 --input-len 512 --output-len 128\n"
        "done\n"
        "```\n\n" + _TABLE + "| Llama-2-7B | 812.5 | 30.5 |\n"
    )
    row = _numbers(extract_claims(text))[812.5]
    assert "batch" not in row.conditions.load  # alternatives, not the set-up
    assert row.conditions.load["prompt"] == "512"


def test_a_code_block_that_runs_no_benchmark_tool_sets_up_nothing() -> None:
    text = (
        "## Results\n\n"
        "```bash\nhead -n 4 results.csv\npython train.py --batch-size 64\n```\n\n"
        + _TABLE
        + "| Llama-2-7B | 812.5 | 30.5 |\n"
    )
    row = _numbers(extract_claims(text))[812.5]
    assert "output" not in row.conditions.load and "batch" not in row.conditions.load
    assert read_code_blocks(text).commands == []


@pytest.mark.parametrize(
    "command",
    [
        pytest.param("./llama-cli -m m.gguf -p 'Once upon a time' -n 10", id="llama-cli"),
        pytest.param("./run1 -m Meta-Llama-3-8B.Q2_K.gguf -p 'Hi' -n 10", id="renamed-build"),
    ],
)
def test_a_llama_cpp_run_sets_up_the_generation_length_of_its_timings(command: str) -> None:
    text = (
        f"## On the board\n\n```\n{command}\n```\n\n"
        "Decode reaches 0.77 tok/s and prefill 1.6 tok/s.\n"
    )
    assert _numbers(extract_claims(text))[0.77].conditions.load.get("output") == "10"


def test_a_command_with_n_but_no_model_file_is_no_llama_cpp_run() -> None:
    text = "## Data\n\n```\nhead -n 10 data.txt\n./prep -n 10\n```\n\nDecode reaches 0.77 tok/s.\n"
    assert "output" not in _numbers(extract_claims(text))[0.77].conditions.load


def test_a_python_block_is_code_not_a_command() -> None:
    text = "```python\nos.system('vllm bench serve --random-input-len 64')\n```\n"
    assert read_code_blocks(text).commands == []


def test_a_sentence_naming_a_flag_gives_its_load() -> None:
    text = (
        "We ran `benchmark_serving.py` with `--request-rate 4` and `--num-prompts 1000`; "
        "the mean TTFT was 85.2 ms on one H100.\n"
    )
    claim = _numbers(extract_claims(text))[85.2]
    assert claim.conditions.load["rate"] == "4"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("llama 7B Q4_0 | CUDA | pp512 | 6021.55", {"prompt": "512"}, id="pp512"),
        pytest.param("llama 7B Q4_0 | CUDA | pp 512 | 6021.55", {"prompt": "512"}, id="pp-512"),
        pytest.param("With TP=4, PP=2 it reaches 1000 tok/s.", {"tp": "4"}, id="PP=2"),
        pytest.param(
            "vllm bench serve -tp 4 -pp 2 --random-input-len 1024",
            {"tp": "4", "prompt": "1024"},
            id="-pp 2",
        ),
        pytest.param("python -m sglang.bench_one_batch --pp-size 2", {}, id="--pp-size"),
    ],
)
def test_pp_is_a_prompt_length_only_as_llama_bench_writes_it(
    text: str, expected: dict[str, str]
) -> None:
    """`pp512` is llama-bench's prompt processing of 512 tokens; `PP=2`, `-pp 2` and
    `--pp-size 2` are pipeline parallelism, no prompt length."""
    assert {k: v for k, v in _load(text).items() if k in ("prompt", "tp")} == expected


def test_a_pipeline_parallel_flag_does_not_turn_the_prompt_length_into_a_sweep() -> None:
    text = (
        "# Bench\n\n```bash\nvllm bench serve -tp 4 -pp 2 --random-input-len 1024 "
        "--random-output-len 128\n```\n\n| Model | Throughput (tok/s) |\n|---|---|\n"
        "| Llama-3-8B | 1200 |\n"
    )
    load = _numbers(extract_claims(text))[1200.0].conditions.load
    assert (load.get("prompt"), load.get("output"), load.get("tp")) == ("1024", "128", "4")


def test_a_command_blocks_model_flag_names_the_model_of_the_table_below() -> None:
    text = (
        "## Serving\n\n"
        "```bash\nvllm bench serve --model meta-llama/Llama-2-7b-hf --random-input-len 1024\n```\n\n"
        "| Concurrency | Output tok/s |\n| --- | --- |\n| 16 | 2345.6 |\n\n"
        "```\n./llama-bench -m models/qwen2-7b-instruct-q4_0.gguf -p 512\n```\n\n"
        "| Test | t/s |\n| --- | --- |\n| pp512 | 1234.5 |\n"
    )
    found = _numbers(extract_claims(text))
    assert found[2345.6].conditions.model == ["Llama-2-7B"]
    assert found[1234.5].conditions.model == ["Qwen2-7B"]


def test_a_table_that_names_its_models_keeps_them_over_the_commands() -> None:
    text = (
        "```bash\npython -m sglang.bench_serving --model-path Qwen/Qwen2-7B-Instruct\n```\n\n"
        + _TABLE
        + "| Llama-3.1-8B | 5123.4 | 85.2 |\n"
    )
    assert _numbers(extract_claims(text))[5123.4].conditions.model == ["Llama-3.1-8B"]


def test_a_block_running_several_models_names_none() -> None:
    text = (
        "```bash\nvllm bench serve --model Qwen/Qwen2-7B --random-input-len 128\n"
        "vllm bench serve --model meta-llama/Llama-2-7b-hf --random-input-len 128\n```\n\n"
        "| Concurrency | Output tok/s |\n| --- | --- |\n| 16 | 2345.6 |\n"
    )
    assert _numbers(extract_claims(text))[2345.6].conditions.model == []


def test_a_projects_own_benchmark_script_with_load_flags_sets_up_the_table_below() -> None:
    text = (
        "## Results\n\n"
        "```bash\npython scripts/bench_speed.py --batch-size 6 --input-len 640 "
        "--output-len 96\n```\n\n" + _TABLE + "| Llama-2-7B | 813.5 | 31.5 |\n"
    )
    row = _numbers(extract_claims(text))[813.5]
    assert row.conditions.load == {"batch": "6", "prompt": "640", "output": "96"}
    launcher = "```bash\ntorchrun --nproc_per_node=8 sample_video.py --seed 42\n```\n"
    assert read_code_blocks(launcher).commands == []  # how to run, not what was measured


def _format_page(commands: str) -> str:
    return (
        "## Kernel timings\n\n"
        f"```bash\n{commands}\n```\n\n"
        "| Shape | Ours | Reference |\n| --- | --- | --- |\n"
        "| 4096x4096 | 1.25 ms | 2.50 ms |\n\n"
        "## Notes\n\n| Shape | Ours |\n| --- | --- |\n| 8192x8192 | 7.75 ms |\n"
    )


@pytest.mark.parametrize(
    ("commands", "expected"),
    [
        pytest.param("python run_gemm.py 4096 4096 --dtype=float16 --iters=20", ["FP16"], id="eq"),
        pytest.param("./run.sh --precision W4A16 --warmup 3", ["W4A16"], id="scheme"),
        pytest.param(
            "python gemm.py --data_type bf16\npython gemm.py --data_type bf16",
            ["BF16"],
            id="repeated",
        ),
        pytest.param("python gemm.py --dtype fp16\npython gemm.py --dtype fp32", [], id="several"),
        pytest.param("python gemm.py --kv-cache-dtype fp8", [], id="kv-cache-only"),
    ],
)
def test_a_command_s_format_flag_sets_up_its_section(commands: str, expected: list[str]) -> None:
    found = _numbers(extract_claims(_format_page(commands)))
    assert found[1.25].conditions.precision == expected
    assert found[2.50].conditions.precision == expected
    assert found[7.75].conditions.precision == []  # another section: not its set-up
