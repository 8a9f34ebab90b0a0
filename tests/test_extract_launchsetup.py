"""A server's launch command as the set-up of the results measured against it (issue #14):
the sections it reaches, the devices its environment lists, and what it never overrides."""

from __future__ import annotations

import pytest

from research_radar.extract import launchsetup
from research_radar.extract.claims import extract_claims
from research_radar.extract.commandblocks import read_code_blocks
from research_radar.extract.launchsetup import is_how_to, visible_devices
from research_radar.models import Claim


def _numbers(claims: list[Claim]) -> dict[float, Claim]:
    return {metric.value: claim for claim in claims for metric in claim.metrics}


def test_exported_members() -> None:
    assert sorted(launchsetup.__all__) == ["is_how_to", "visible_devices"]


_SERVER = (
    "```bash\nexport ASCEND_RT_VISIBLE_DEVICES=0,1,2,3\n"
    "vllm serve /data/Qwen3-32B \\\n  --tensor-parallel-size 4 \\\n  --port 8011\n```\n\n"
)
_RESULTS = (
    "## Test Results\n\n| Dataset | Throughput (tok/s) |\n| --- | --- |\n| gsm8k | 1523.5 |\n"
)


def _page(server_heading: str) -> str:
    return (
        "# Suffix decoding on Atlas A2\n\n"
        f"## {server_heading}\n\nStart the server:\n\n{_SERVER}"
        "## Benchmark\n\nRun the benchmark client against it.\n\n" + _RESULTS
    )


def test_results_after_a_servers_launch_section_run_on_its_devices() -> None:
    load = _numbers(extract_claims(_page("vLLM Instance Deployment")))[1523.5].conditions.load
    assert (load.get("tp"), load.get("gpus")) == ("4", "4")


@pytest.mark.parametrize(
    "heading",
    [
        pytest.param("Installation", id="install"),
        pytest.param("Quick Start", id="quick-start"),
        pytest.param("Usage", id="usage"),
        pytest.param("快速开始", id="zh-quick-start"),
    ],
)
def test_a_how_to_sections_launch_sets_up_no_results_elsewhere(heading: str) -> None:
    load = _numbers(extract_claims(_page(heading)))[1523.5].conditions.load
    assert "tp" not in load
    assert "gpus" not in load


def test_a_launch_with_no_results_after_it_sets_up_none_before_it() -> None:
    text = "# Serving\n\n" + _RESULTS + "\n## Deployment\n\n" + _SERVER + "## Notes\n\nNone.\n"
    load = _numbers(extract_claims(text))[1523.5].conditions.load
    assert "tp" not in load


def test_a_rows_own_parallelism_wins_over_the_launch() -> None:
    text = (
        "# Serving\n\n## Deployment\n\n" + _SERVER + "## Results\n\n"
        "| TP | Throughput (tok/s) |\n| --- | --- |\n| 2 | 811.5 |\n| 8 | 2911.5 |\n"
    )
    found = _numbers(extract_claims(text))
    assert found[811.5].conditions.load.get("tp") == "2"
    assert found[2911.5].conditions.load.get("tp") == "8"


def test_the_next_launch_ends_the_reach_of_the_one_before() -> None:
    text = (
        "# Serving\n\n## Deployment\n\n" + _SERVER + "## Results\n\n"
        "| Dataset | Throughput (tok/s) |\n| --- | --- |\n| gsm8k | 1523.5 |\n\n"
        "```bash\nvllm serve /data/Qwen3-32B --tensor-parallel-size 8\n```\n\n"
        "| Dataset | Throughput (tok/s) |\n| --- | --- |\n| gsm8k | 2740.5 |\n"
    )
    found = _numbers(extract_claims(text))
    assert found[1523.5].conditions.load.get("tp") == "4"
    assert found[2740.5].conditions.load.get("tp") == "8"


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        pytest.param(["CUDA_VISIBLE_DEVICES=0,1 python serve.py"], 2, id="inline"),
        pytest.param(["export ASCEND_RT_VISIBLE_DEVICES=0,1,2,3"], 4, id="export"),
        pytest.param(["export HIP_VISIBLE_DEVICES='4,5,6,7'  # MI300X"], 4, id="quoted"),
        pytest.param(
            ["CUDA_VISIBLE_DEVICES=0 python a.py", "CUDA_VISIBLE_DEVICES=0,1 python a.py"],
            0,
            id="one-run-per-set",
        ),
        pytest.param(["CUDA_VISIBLE_DEVICES=$GPUS python a.py"], 0, id="variable"),
        pytest.param(["echo 'CUDA_VISIBLE_DEVICES=0,1"], 0, id="unclosed-quote"),
        pytest.param(["python a.py --tp 2"], 0, id="none"),
    ],
)
def test_visible_devices(body: list[str], expected: int) -> None:
    assert visible_devices(body) == expected


@pytest.mark.parametrize(
    ("heading", "expected"),
    [
        pytest.param("Quick start", True, id="quick-start"),
        pytest.param("Installation", True, id="install"),
        pytest.param("Run with Docker", True, id="docker"),
        pytest.param("使用源代码推理", True, id="zh-usage"),
        pytest.param("vLLM Instance Deployment", False, id="deployment"),
        pytest.param("Benchmark setup", False, id="setup"),
        pytest.param("Test Results", False, id="results"),
    ],
)
def test_is_how_to(heading: str, expected: bool) -> None:
    assert is_how_to(heading) is expected


def test_each_block_is_read_for_every_kind_of_set_up_at_once() -> None:
    text = (
        "```bash\nexport CUDA_VISIBLE_DEVICES=0,1\n"
        "python -m sglang.launch_server --model-path Qwen/Qwen2-7B --tp 2 --dtype bfloat16\n"
        "python -m sglang.bench_serving --random-input 1024 --random-output 128\n```\n\n"
        "```yaml\nbatch_size: 16\n```\n"
    )
    read = read_code_blocks(text)
    assert [line for line, _ in read.launches] == [1]
    assert "bench_serving" in read.commands[0][1]
    assert read.devices == {1: 2}
    assert read.formats == [(1, "bfloat16")]
    assert read.configs == [(7, "batch_size: 16")]


def test_a_benchmark_command_in_a_quick_start_sets_up_no_later_section() -> None:
    command = (
        "```bash\npython benchmarks/benchmark_serving.py --random-input-len 1024 "
        "--random-output-len 128 --max-concurrency 64\n```\n\n"
    )
    for heading, expected in (("Quick Start", {}), ("Benchmark setup", {"concurrency": "64"})):
        text = f"# Serving\n\n## {heading}\n\n{command}" + _RESULTS
        load = _numbers(extract_claims(text))[1523.5].conditions.load
        assert {k: v for k, v in load.items() if k == "concurrency"} == expected


def test_a_launchs_format_flag_reaches_the_results_its_model_does() -> None:
    server = _SERVER.replace("--port 8011", "--dtype bfloat16")
    text = _page("vLLM Instance Deployment").replace(_SERVER, server)
    conditions = _numbers(extract_claims(text))[1523.5].conditions
    assert (conditions.precision, conditions.model) == (["BF16"], ["Qwen3-32B"])


def test_a_script_call_tagged_python_is_read_as_the_shell_command_it_is() -> None:
    """```` ```python ```` over `python3 benchmark_throughput.py --input-len 512 \\` and its
    continued flags: a command (its load sets up the table below), not Python code; a block
    that holds code too stays code."""
    call = (
        "python3 benchmark_throughput.py --backend vllm \\\n"
        "    --input-len 512 \\\n    --output-len 96\n"
    )
    table = "| Batch | Throughput (tokens/s) |\n|---|---|\n| 4 | 731.5 |\n"
    text = f"# Throughput\n\nCommand:\n```python\n{call}```\n\n{table}"
    load = _numbers(extract_claims(text))[731.5].conditions.load
    assert (load.get("prompt"), load.get("output")) == ("512", "96")
    code = f"# Throughput\n\n```python\nimport os\n{call}```\n\n{table}"
    assert "output" not in _numbers(extract_claims(code))[731.5].conditions.load
    assert read_code_blocks(code).commands == []
