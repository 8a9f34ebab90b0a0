"""Attaching the names a document states once to the numbers they govern (issue #14):
set-up lists, set-up keys with their value below them or outside the catalogue, and
the sections around a table."""

from __future__ import annotations

import pytest

from research_radar.extract.cataloguefiles import default_catalog
from research_radar.extract.claims import extract_claims
from research_radar.extract.markdown import parse_segments
from research_radar.extract.scopes import find_scopes
from research_radar.models import Claim


def _numbers(claims: list[Claim]) -> dict[float, Claim]:
    return {metric.value: claim for claim in claims for metric in claim.metrics}


@pytest.mark.parametrize(
    "machine",
    [
        pytest.param("- GPU: 2x NVIDIA L40S\n- CPU: AMD EPYC 9654\n- RAM: 512GB\n", id="gpu-first"),
        pytest.param("- CPU: AMD EPYC 9654\n- GPU: 2x NVIDIA L40S\n", id="cpu-first"),
        pytest.param("* **GPU**: NVIDIA L40S\n* **Processor**: Intel Xeon Gold 6338\n", id="bold"),
    ],
)
def test_the_host_cpu_of_a_set_up_does_not_displace_its_gpu(machine: str) -> None:
    text = (
        "# Serving numbers\n\n## Benchmark\n\nMachine:\n\n"
        f"{machine}\n"
        "### Throughput\n\n| Engine | Decode (tok/s) |\n| --- | --- |\n| ours | 311.2 |\n"
    )
    found = _numbers(extract_claims(text))
    assert found[311.2].conditions.hardware[0].startswith("L40S")


def test_a_cpu_alone_sets_up_a_cpu_benchmark_and_a_cpu_row_keeps_its_part() -> None:
    alone = (
        "## Benchmark\n\n- CPU: AMD EPYC 9654\n- RAM: 512GB\n\n"
        "### Decode\n\n| Threads | Decode (tok/s) |\n| --- | --- |\n| 16 | 21.4 |\n"
    )
    assert _numbers(extract_claims(alone))[21.4].conditions.hardware == ["EPYC 9654"]
    both = (
        "## Benchmark\n\n- GPU: NVIDIA L40S\n- CPU: AMD EPYC 9654\n\n"
        "### Latency\n\n| Model | Device | Latency (ms) |\n| --- | --- | --- |\n"
        "| ResNet-50 | CPU | 48.2 |\n| ResNet-50 | GPU | 3.1 |\n"
    )
    found = _numbers(extract_claims(both))
    assert found[48.2].conditions.hardware == ["EPYC 9654"]
    assert found[3.1].conditions.hardware[0].startswith("L40S")


def test_a_set_up_line_of_the_host_cpu_scopes_nothing_beside_a_gpu_line() -> None:
    text = "## Results\n\n- CPU: AMD EPYC 9654\n- GPU: NVIDIA L40S\n\nDecode runs at 311.2 tok/s.\n"
    cat = default_catalog()
    named = [s.names.get("hardware") for s in find_scopes(list(parse_segments(text)), cat)]
    assert ["EPYC 9654"] not in named
    assert any(n and n[0].startswith("L40S") for n in named)


def test_a_set_up_key_without_a_value_takes_the_list_below_it() -> None:
    text = (
        "## Benchmark\n\nHardware:\n\n- GPU: NVIDIA L40S\n- RAM: 256GB\n\n"
        "Checkpoints:\n\n- bf16: [acme/Qwen2.5-7B-Instruct](https://example.org/a)\n"
        "- int4: [acme/Qwen2.5-7B-Instruct-AWQ](https://example.org/b)\n\n"
        "Model:\n\n- bf16: [acme/Qwen2.5-7B-Instruct](https://example.org/a)\n"
        "- int4: [acme/Qwen2.5-7B-Instruct-AWQ](https://example.org/b)\n\n"
        "### Decode\n\n| Engine | Decode (tok/s) |\n| --- | --- |\n| ours | 87.5 |\n"
    )
    row = _numbers(extract_claims(text))[87.5]
    assert row.conditions.model == ["Qwen2.5-7B"]
    assert row.conditions.hardware[0].startswith("L40S")


@pytest.mark.parametrize(
    ("key", "expected"),
    [
        pytest.param("- **Model**: wavmix-s2 tiny", ["wavmix-s2 tiny"], id="uncatalogued"),
        pytest.param(
            "- 模型 Model: [acme/wavmix-s2](https://example.org)", ["wavmix-s2"], id="repo"
        ),
        pytest.param("- Model: Qwen2.5-7B-Instruct", ["Qwen2.5-7B"], id="catalogued"),
        pytest.param("- Model: our own checkpoint", [], id="words"),
        pytest.param("- Model Type: decoder-only", [], id="not-the-model"),
    ],
)
def test_a_model_key_in_a_test_parameters_section_names_the_page_model(
    key: str, expected: list[str]
) -> None:
    text = (
        "## Test environment\n\n- GPU: NVIDIA L40S\n\n"
        f"## Test parameters\n\n- Sample rate: 16000 Hz\n- Audio format: 16-bit PCM\n{key}\n\n"
        "## Results\n\n| Streams | Latency (ms) | RTF |\n| --- | --- | --- |\n| 4 | 151.5 | 0.42 |\n"
    )
    row = _numbers(extract_claims(text))[151.5]
    assert row.conditions.model == expected
    assert row.conditions.hardware[0].startswith("L40S")
    assert row.conditions.precision == []  # a sample format, not the model's precision


@pytest.mark.parametrize("title", ["", "# Serving notes\n\n"])
def test_a_top_section_that_measures_nothing_sets_up_the_page_after_it(title: str) -> None:
    text = (
        f"{title}## Methodology\n\nWe benchmark on a single L40S with Mistral-7B.\n\n"
        "## Results\n\n| Engine | Decode (tok/s) |\n| --- | --- |\n| ours | 120.5 |\n"
    )
    row = _numbers(extract_claims(text))[120.5]
    assert row.conditions.hardware[0].startswith("L40S")
    assert row.conditions.model == ["Mistral-7B"]


def test_a_subsection_that_measures_nothing_keeps_its_set_up_to_itself() -> None:
    text = (
        "# Notes\n\n## Usage\n\n### Demo\n\nWe run the demo on a single A100 with OPT-30B.\n\n"
        "### Accuracy\n\n| Model | Perplexity |\n| --- | --- |\n| Mistral-7B | 5.25 |\n\n"
        "# Other\n"
    )
    assert _numbers(extract_claims(text))[5.25].conditions.hardware == []


@pytest.mark.parametrize(
    ("block", "expected"),
    [
        pytest.param(
            "vllm serve Qwen/Qwen2-7B-Instruct --max-model-len 4096", ["Qwen2-7B"], id="serve"
        ),
        pytest.param(
            "CUDA_VISIBLE_DEVICES=0 python -m sglang.launch_server \\\n  --model-path Qwen/Qwen2-7B",
            ["Qwen2-7B"],
            id="module",
        ),
        pytest.param("python run.py --model acme/Mistral-7B-v0.1", ["Mistral-7B"], id="script"),
        pytest.param("pip install -e .", [], id="no-model"),
    ],
)
def test_a_block_that_serves_a_model_sets_up_the_results_below_it(
    block: str, expected: list[str]
) -> None:
    text = (
        f"## Results\n\n```bash\n{block}\n```\n\n"
        "| Engine | Decode (tok/s) |\n| --- | --- |\n| ours | 120.5 |\n\n## Elsewhere\n\n"
        "| Engine | Decode (tok/s) |\n| --- | --- |\n| ours | 99.5 |\n"
    )
    found = _numbers(extract_claims(text))
    assert found[120.5].conditions.model == expected
    assert found[120.5].conditions.load.get("context") is None  # a server's limit
    assert found[99.5].conditions.model == []


def test_a_note_on_the_table_above_sets_it_up() -> None:
    text = (
        "## Results\n\nWe compare with vLLM.\n\n"
        "| Engine | Decode (tok/s) |\n| --- | --- |\n| ours | 120.5 |\n\n"
        "The table above is for Mistral-7B on an L40S; larger models follow the same trend.\n"
    )
    row = _numbers(extract_claims(text))[120.5]
    assert row.conditions.model == ["Mistral-7B"]
    assert row.conditions.hardware[0].startswith("L40S")
