"""Conditions in the phrasings of the field (issue #14): counts of parts, threads and
cores, short load forms, comparisons, and model names of any family."""

from __future__ import annotations

import pytest

from research_radar.extract.cataloguefiles import default_catalog
from research_radar.extract.claims import extract_claims
from research_radar.extract.conditions import find_conditions


def _load(text: str) -> dict[str, str]:
    return find_conditions(text, default_catalog()).load


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("Served on 8*A100 80GB.", {"gpus": "8"}, id="star"),
        pytest.param("Served on 2 x H100.", {"gpus": "2"}, id="spaced-x"),
        pytest.param("八卡 H800 集群", {"gpus": "8"}, id="zh-eight-cards"),
        pytest.param("部署于四张 A100", {"gpus": "4"}, id="zh-four-counted"),
        pytest.param("A run on sixteen H100 parts.", {"gpus": "16"}, id="sixteen"),
        pytest.param("在单个 A100 上", {"gpus": "1"}, id="zh-a-single-part"),
        pytest.param("A Pi 5 with 4 threads.", {"threads": "4"}, id="threads"),
        pytest.param("llama-bench -t 8 on the board", {"threads": "8"}, id="t-flag"),
        pytest.param("使用 8 线程推理", {"threads": "8"}, id="zh-threads"),
        pytest.param("A 56-core Xeon", {"cores": "56"}, id="cores"),
        pytest.param("With in 2k out 256.", {"prompt": "2k", "output": "256"}, id="in-out"),
        pytest.param("At 1k/1k.", {"prompt": "1k", "output": "1k"}, id="k-pair"),
        pytest.param("seq len 4096 only", {"prompt": "4096"}, id="seq-len-spaced"),
        pytest.param("At QPS 10 the tail grows.", {"rate": "10"}, id="at-qps"),
        pytest.param("prompt 1024 tokens each", {"prompt": "1024"}, id="prompt-n-tokens"),
        pytest.param("Run with -p 512 -n 128.", {"prompt": "512", "output": "128"}, id="flags"),
    ],
)
def test_load_in_short_forms(text: str, expected: dict[str, str]) -> None:
    load = _load(text)
    assert {key: load.get(key) for key in expected} == expected


@pytest.mark.parametrize(
    ("text", "key"),
    [
        pytest.param("单卡吞吐超过 3600 token/s", "gpus", id="per-gpu-not-one-gpu"),
        pytest.param("部署在单台 A100 服务器上", "gpus", id="a-single-server"),
        pytest.param("It reaches QPS 120 at peak.", "rate", id="qps-measured"),
        pytest.param("In 5 out of 10 runs it won.", "prompt", id="in-out-of"),
        pytest.param("Read 4 threads of the forum.", "cores", id="threads-not-cores"),
    ],
)
def test_what_is_not_that_load(text: str, key: str) -> None:
    assert key not in _load(text)


@pytest.mark.parametrize(
    ("text", "baseline"),
    [
        pytest.param("FooServe v.s. llama.cpp: 2.1x faster.", ["llama.cpp"], id="v-s"),
        pytest.param("Relative to PyTorch, 2.4x.", ["PyTorch"], id="relative-to"),
        pytest.param("A 3.1x speedup over llama.cpp.", ["llama.cpp"], id="over"),
        pytest.param("与原生 HuggingFace 相比延迟降低 40%。", ["HuggingFace"], id="zh-before-cue"),
        pytest.param("比 llama.cpp 快 2.5 倍。", ["llama.cpp"], id="zh-bi"),
    ],
)
def test_the_compared_system(text: str, baseline: list[str]) -> None:
    assert find_conditions(text, default_catalog()).baseline == baseline


@pytest.mark.parametrize(
    ("text", "models"),
    [
        pytest.param(
            "DeepSeek-R1-Distill-Qwen-7B and deepseek-coder-6.7b",
            ["DeepSeek-R1-Distill-Qwen-7B", "DeepSeek-coder-6.7B"],
            id="deepseek",
        ),
        pytest.param("internlm2_5-7b-chat", ["InternLM2.5-7B"], id="internlm-underscore"),
        pytest.param("BLOOM-7b1 and Qwen-1_8B", ["BLOOM-7B1", "Qwen-1_8B"], id="odd-sizes"),
        pytest.param("stable-diffusion-v1-5", ["SD1.5"], id="sd-repo"),
        pytest.param(
            "SmolLM2-1.7B, OLMo-7B, MobileLLaMA-1.4B",
            ["SmolLM2-1.7B", "OLMo-7B", "MobileLLaMA-1.4B"],
            id="small-lms",
        ),
        pytest.param(
            "MobileNetV2, ResNet-50 and YOLOv8n",
            ["MobileNetV2", "ResNet-50", "YOLOv8n"],
            id="vision",
        ),
        pytest.param("Orion-14B and XuanYuan-70B", ["Orion-14B", "XuanYuan-70B"], id="any-family"),
        pytest.param("ChatGLM-6b", ["ChatGLM-6B"], id="chatglm-not-glm"),
    ],
)
def test_models_of_any_family(text: str, models: list[str]) -> None:
    assert default_catalog().names("model", text) == models


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("an FP16-7B run", id="format-not-family"),
        pytest.param("the model-7b and Chat-6B", id="common-words"),
        pytest.param("since inception the UNet takes 50 ms", id="words-not-networks"),
        pytest.param("DeepSeek served 608B input tokens", id="tokens-not-a-size"),
    ],
)
def test_what_is_no_model_name(text: str) -> None:
    names = default_catalog().names("model", text)
    assert names in ([], ["DeepSeek"]), names


def test_billions_of_tokens_are_no_model_size() -> None:
    """`Total input tokens: 608B` under a DeepSeek heading is a count, not `DeepSeek-608B`."""
    text = "# DeepSeek-V3 serving\n\n- Total input tokens: 608B, of which 342B (56.3%) hit the cache.\n"
    claims = [c for c in extract_claims(text) if any(m.value == 56.3 for m in c.metrics)]
    assert claims and all(
        not c.conditions.model or "608" not in c.conditions.model[0] for c in claims
    )
