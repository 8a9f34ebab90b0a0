"""The catalogues know the field's product lines and model families as their makers name
them (issue #14), in sentences shaped like the pages that name them, and do not read a
name into a look-alike: a shorter part inside a longer one, a word, a math term."""

from __future__ import annotations

import re

import pytest

from research_radar.extract.cataloguefiles import default_catalog
from research_radar.extract.regexneedles import needles_of


def _names(field: str, text: str) -> list[str]:
    return default_catalog().names(field, text)


@pytest.mark.parametrize(
    ("text", "names"),
    [
        pytest.param(
            "Tesla V100S, NVIDIA A2 and NVIDIA A16 for inference",
            ["V100S", "A2", "A16"],
            id="nvidia-small-datacentre",
        ),
        pytest.param(
            "GPU: NVIDIA A100-SXM4-80GB; the baseline ran on Tesla V100-PCIE-32GB",
            ["A100 80 GB", "V100 32 GB"],
            id="nvidia-smi-names-keep-memory",
        ),
        pytest.param(
            "H800 SXM5 vs A800 PCIe",
            ["H800", "A800"],
            id="form-factors",
        ),
        pytest.param(
            "RTX PRO 6000 Blackwell Server Edition, RTX PRO 4500 Blackwell, RTX 5880 Ada",
            ["RTX PRO 6000", "RTX PRO 4500", "RTX 5880 Ada"],
            id="workstation-blackwell-ada",
        ),
        pytest.param(
            "NVIDIA GeForce RTX 5090D and RTX 4090 D",
            ["RTX 5090D", "RTX 4090D"],
            id="china-editions",
        ),
        pytest.param("Instinct MI50 and MI60", ["MI50", "MI60"], id="instinct-vega"),
        pytest.param(
            "Intel Data Center GPU Flex 170 and Gaudi2 (HL-225H)",
            ["Data Center GPU Flex 170", "Gaudi 2"],
            id="intel-datacentre",
        ),
        pytest.param(
            "Intel(R) Xeon(R) Platinum 8480+ and Xeon 6 6980P; Intel(R) Xeon(R) CPU E5-2680 v4",
            ["Xeon Platinum 8480+", "Xeon 6980P", "Xeon E5-2680 v4"],
            id="xeon-as-written",
        ),
        pytest.param(
            "Mac mini M4, MacBook Pro (M3 Max) and iPad Pro (M2)",
            ["M4", "M3 Max", "M2"],
            id="apple-in-a-device",
        ),
        pytest.param(
            "Snapdragon 8 Elite Gen 5 with Hexagon NPU, Hexagon V75, Qualcomm Cloud AI 100",
            ["Snapdragon 8 Elite Gen 5", "Hexagon NPU", "Hexagon V75", "Cloud AI 100"],
            id="qualcomm",
        ),
        pytest.param(
            "骁龙 8 Elite 与 思元370、算能 BM1684X",
            ["Snapdragon 8 Elite", "MLU370", "BM1684X"],
            id="chinese-brands",
        ),
        pytest.param(
            "Atlas 200I DK A2 and Atlas 800I A2",
            ["Atlas 200I DK A2", "Atlas 800I A2"],
            id="atlas",
        ),
        pytest.param(
            "TPU v5 lite pods, Trainium3, Trainium 2 and GroqChip",
            ["TPU v5e", "Trainium3", "Trainium2", "Groq LPU"],
            id="cloud-accelerators",
        ),
        pytest.param(
            "Cerebras CS-3, SambaNova SN40L, Graphcore Bow IPU, Tenstorrent Wormhole n300",
            ["Cerebras CS-3", "SambaNova SN40L", "Graphcore Bow IPU", "Tenstorrent Wormhole n300"],
            id="wafer-and-dataflow",
        ),
        pytest.param("a Surface Laptop 7", ["Surface Laptop 7"], id="surface"),
    ],
)
def test_hardware_of_the_field(text: str, names: list[str]) -> None:
    assert _names("hardware", text) == names


@pytest.mark.parametrize(
    ("text", "names"),
    [
        pytest.param("8xH100 and 8× A100", ["H100", "A100"], id="counted-glued-and-spaced"),
        pytest.param("在 2 卡 A800 上", ["A800"], id="chinese-cards"),
        pytest.param("4x RTX 4090s", ["RTX 4090"], id="plural"),
    ],
)
def test_counted_parts_are_the_part(text: str, names: list[str]) -> None:
    assert _names("hardware", text) == names


@pytest.mark.parametrize(
    ("text", "names"),
    [
        pytest.param(
            "Qwen1.5-MoE-A2.7B, Qwen2-Audio-7B and qwen2.5:7b",
            ["Qwen1.5-MoE-A2.7B", "Qwen2-Audio-7B", "Qwen2.5-7B"],
            id="qwen",
        ),
        pytest.param(
            "DeepSeek-Coder-V2-Lite, DeepSeek-LLM-67B, DeepSeek-MoE-16B, Janus-Pro-7B",
            ["DeepSeek-Coder-V2-Lite", "DeepSeek-LLM-67B", "DeepSeek-MoE-16B", "Janus-Pro-7B"],
            id="deepseek",
        ),
        pytest.param(
            "glm-4v-9b, GLM-4.5V and GLM-4-9B",
            ["GLM-4V-9B", "GLM-4.5V", "GLM-4-9B"],
            id="glm",
        ),
        pytest.param(
            "PaliGemma, Gemma 3n E4B, gemma3:4b",
            ["PaliGemma", "Gemma-3n-E4B", "Gemma-3-4B"],
            id="gemma",
        ),
        pytest.param("Phi-3.5-MoE and phi3", ["Phi-3.5-MoE", "Phi-3"], id="phi"),
        pytest.param(
            "Yi-VL-34B, Baichuan 2, internlm2-chat-20b, MiniCPM-V-2_6, MiniCPM-4.1-8B",
            ["Yi-VL-34B", "Baichuan2", "InternLM2-20B", "MiniCPM-V 2.6", "MiniCPM4.1-8B"],
            id="chinese-labs",
        ),
        pytest.param(
            "Falcon-Mamba-7B, OPT-125M, GPT-Neo 2.7B, BLOOM and gpt2-medium",
            ["Falcon-Mamba-7B", "OPT-125M", "GPT-Neo-2.7B", "BLOOM", "GPT-2-medium"],
            id="older-families",
        ),
        pytest.param(
            "Kimi-VL-A3B, Moonlight-16B-A3B, ERNIE-4.5-21B-A3B, Nemotron-4-340B",
            ["Kimi-VL-A3B", "Moonlight-16B-A3B", "ERNIE-4.5-21B-A3B", "Nemotron-4-340B"],
            id="mixtures",
        ),
        pytest.param(
            "Yuan2.0-2B, 源2.0-51B, Step-Video-T2V, moss-moon-003-sft, CPM-2",
            ["Yuan2.0-2B", "Yuan2.0-51B", "Step-Video-T2V", "MOSS-moon-003-sft", "CPM-2"],
            id="yuan-step-moss-cpm",
        ),
        pytest.param(
            "HunyuanVideo-I2V, Hunyuan3D-2 and HunyuanVideo 1.5",
            ["HunyuanVideo-I2V", "Hunyuan3D-2", "HunyuanVideo-1.5"],
            id="hunyuan",
        ),
        pytest.param(
            "FLUX.1 [dev], FLUX.1 Kontext [dev], SD1.4, stable-diffusion-xl-base-1.0",
            ["FLUX.1-dev", "FLUX.1-Kontext-dev", "SD1.4", "SDXL"],
            id="image-generators",
        ),
        pytest.param(
            "PixArt-Sigma, SVD-XT, Open-Sora 1.2, Mochi 1, LTX-Video 0.9.5, CogVideoX-5B",
            ["PixArt-Σ", "SVD-XT", "Open-Sora 1.2", "Mochi 1", "LTX-Video 0.9.5", "CogVideoX-5B"],
            id="video-generators",
        ),
        pytest.param(
            "Wan2.2-T2V-A14B and Wan 2.1",
            ["Wan2.2-T2V-A14B", "Wan2.1"],
            id="wan",
        ),
        pytest.param(
            "SAM 2, YOLO-NAS, Swin-T, distil-large-v3, SenseVoice-Small",
            ["SAM 2", "YOLO-NAS", "Swin-T", "distil-Whisper-large-v3", "SenseVoice-Small"],
            id="vision-and-speech",
        ),
        pytest.param(
            "GPT-4o-mini vs Claude 3.5 Sonnet vs Gemini 1.5 Pro",
            ["GPT-4o-mini", "Claude 3.5 Sonnet", "Gemini 1.5 Pro"],
            id="hosted",
        ),
    ],
)
def test_models_of_the_field(text: str, names: list[str]) -> None:
    assert _names("model", text) == names


@pytest.mark.parametrize(
    ("text", "names"),
    [
        pytest.param("W4A16g128 and W8A8C8", ["W4A16", "W8A8C8"], id="group-and-cache"),
        pytest.param("KV8 with W4A8, KV-INT8", ["KV8", "W4A8", "KV-INT8"], id="kv-cache"),
        pytest.param(
            "Q4_0_4_4, TQ1_0 and MXFP4_MOE", ["Q4_0_4_4", "TQ1_0", "MXFP4"], id="gguf-types"
        ),
        pytest.param("fp8_e4m3fn, FP8-Static", ["FP8"], id="fp8-spellings"),
        pytest.param("2.81-bits and 4.04-bit", ["2.81-bit", "4.04-bit"], id="fractional-bits"),
        pytest.param("双精度和混合精度", ["FP64", "mixed precision"], id="chinese"),
        pytest.param("QuIP# beats RTN", ["QuIP#", "RTN"], id="methods"),
        pytest.param("SpinQuant and QLoRA", ["SpinQuant", "QLoRA"], id="qat-methods"),
        pytest.param(
            "float8_rowwise | int8_per_channel | bf16_dynamic | int4_weight_only",
            ["FP8", "INT8", "BF16", "INT4"],
            id="library-scheme-names",
        ),
        pytest.param(
            "fp8_e5m2_e4m3_static_per_token then float16_tensorwise",
            ["FP8", "FP16"],
            id="library-scheme-names-with-formats",
        ),
        pytest.param(
            "squeezenet_int8, Mobilenet_v2_int8, dyn_int8 and yolov5s_fp16",
            ["INT8", "FP16"],
            id="format-ending-a-name",
        ),
        pytest.param(
            "asymmetric W4B64 kernels; Mistral-7B-w2g128 and Qwen2-7B-w3-g64-awq",
            ["4-bit", "2-bit", "3-bit", "AWQ"],
            id="weight-bits-and-group-size",
        ),
    ],
)
def test_precisions_of_the_field(text: str, names: list[str]) -> None:
    assert _names("precision", text) == names


@pytest.mark.parametrize(
    ("field", "text", "names"),
    [
        pytest.param("hardware", "an A100 beside an A10", ["A100", "A10"], id="a10-in-a100"),
        pytest.param("hardware", "an L40S node", ["L40S"], id="l4-in-l40s"),
        pytest.param("hardware", "the RT4 codec", [], id="t4-in-rt4"),
        pytest.param("hardware", "MiniMax-M1 served fast", [], id="m1-in-a-model"),
        pytest.param("hardware", "Atlas 800I A2 and W4A16", ["Atlas 800I A2"], id="a2-a16"),
        pytest.param("hardware", "an M.2 SSD", [], id="m2-ssd"),
        pytest.param("hardware", "the flex layout, 170 px", [], id="flex-word"),
        pytest.param("model", "a philosophy of phi", [], id="phi-in-philosophy"),
        pytest.param("model", "synced over WAN", [], id="wan-network"),
        pytest.param("model", "a bloom filter", [], id="bloom-word"),
        pytest.param("model", "an SVD decomposition", [], id="svd-math"),
        pytest.param("model", "solar power and mochi", [], id="words"),
        pytest.param("model", "Step-2 of the guide", [], id="step-instruction"),
        pytest.param("model", "it costs 20 yuan", [], id="yuan-currency"),
        pytest.param("model", "sam and moss", [], id="names-in-lower-case"),
        pytest.param("precision", "a sample rate of 8 bits/s", [], id="bit-rate"),
        pytest.param("precision", "the amp in a guitar amplifier", [], id="amp"),
        pytest.param(
            "precision", "set int8_mode=1, save fp16_checkpoint", [], id="library-flag-names"
        ),
        pytest.param("precision", "the bf16_gemm_time column", [], id="library-timer-names"),
        pytest.param(
            "precision",
            "GPTQMODEL_MARLIN_USE_FP32=1",
            [],
            id="environment-variable-ending-a-format",
        ),
    ],
)
def test_look_alikes_are_not_names(field: str, text: str, names: list[str]) -> None:
    assert _names(field, text) == names


def test_every_bundled_pattern_has_a_needle() -> None:
    """A pattern without a needle runs on every text the extractor reads (issue #19)."""
    bare = [
        entry.name
        for entry in default_catalog().entries
        if entry.template and not needles_of(entry.source, re.I).clauses
    ]
    assert bare == []


@pytest.mark.parametrize(
    ("field", "text", "names"),
    [
        pytest.param(
            "model",
            "Qwen-1.5-72B, Qwen 2.5 7B and Qwen-72B",
            ["Qwen1.5-72B", "Qwen2.5-7B", "Qwen-72B"],
            id="qwen-version-after-a-separator",
        ),
        pytest.param(
            "model",
            "DeepSeek R1 671B, R1-Distill-Llama-8B, gpt-oss:20b, Llama-2-Chat-70B, GPT-J 6B",
            [
                "DeepSeek-R1-671B",
                "DeepSeek-R1-Distill-Llama-8B",
                "gpt-oss-20b",
                "Llama-2-70B",
                "GPT-J-6B",
            ],
            id="sizes-as-pages-space-them",
        ),
        pytest.param(
            "hardware",
            "沐曦曦云C500、天数智芯天垓100、智铠100、昆仑芯2代",
            ["MetaX C500", "Iluvatar BI-V100", "Iluvatar MR-V100", "Kunlun Gen 2"],
            id="chinese-product-names",
        ),
    ],
)
def test_spellings_of_the_field(field: str, text: str, names: list[str]) -> None:
    assert _names(field, text) == names


@pytest.mark.parametrize(
    ("text", "names"),
    [
        pytest.param(
            "MNN vs ncnn vs TNN vs Paddle Lite on the phone",
            ["MNN", "ncnn", "TNN", "Paddle Lite"],
            id="edge-runtimes",
        ),
        pytest.param(
            "MindIE on CANN, vllm-ascend and MindSpore",
            ["MindIE", "CANN", "vLLM-Ascend", "MindSpore"],
            id="ascend-stack",
        ),
        pytest.param(
            "compared with HuggingFace Transformers, LightLLM and DeepSpeed-MII",
            ["Hugging Face Transformers", "LightLLM", "DeepSpeed-MII"],
            id="serving-baselines",
        ),
        pytest.param(
            "TFLite, Core ML, ExecuTorch and QNN",
            ["TensorFlow Lite", "Core ML", "ExecuTorch", "QNN"],
            id="mobile-runtimes",
        ),
        pytest.param(
            "Triton Inference Server beside OneDiff and stable-fast",
            ["Triton Inference Server", "OneDiff", "stable-fast"],
            id="longest-name-wins",
        ),
    ],
)
def test_software_of_the_field(text: str, names: list[str]) -> None:
    assert _names("software", text) == names


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("vision transformers at scale", id="transformers-word"),
        pytest.param("an eagle and a medusa", id="decoding-methods-and-words"),
        pytest.param("a candle in metal", id="words"),
    ],
)
def test_words_are_not_software(text: str) -> None:
    assert _names("software", text) == []


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        pytest.param("Ryzen 7 1700", "cpu", id="pattern-cpu"),
        pytest.param("Xeon Platinum 8369B", "cpu", id="xeon"),
        pytest.param("A10", "data-centre", id="literal"),
        pytest.param("RTX 5070 12 GB", "consumer", id="with-memory"),
        pytest.param("Acme Widget", "", id="unknown"),
    ],
)
def test_a_parts_class_is_its_entrys(name: str, kind: str) -> None:
    assert default_catalog().part_class(name) == kind
