"""The catalogues read the parts, formats and models of the whole field, not only of the
pages they were tuned on (issue #14): every generation of a family, in the spellings
pages use."""

from __future__ import annotations

import pytest

from research_radar.extract.cataloguefiles import default_catalog


def _names(field: str, text: str) -> list[str]:
    return default_catalog().names(field, text)


@pytest.mark.parametrize(
    ("text", "names"),
    [
        pytest.param(
            "a GTX 1660 Ti beside an RTX 2080 SUPER and an RTX 3050 laptop",
            ["GTX 1660 Ti", "RTX 2080 SUPER", "RTX 3050 Laptop"],
            id="geforce-generations",
        ),
        pytest.param(
            "rtx 3070 ti and RTX 2070 Super", ["RTX 3070 Ti", "RTX 2070 SUPER"], id="case"
        ),
        pytest.param(
            "Quadro RTX 8000, RTX A4000, RTX 4000 Ada, TITAN RTX",
            ["Quadro RTX 8000", "RTX A4000", "RTX 4000 Ada", "TITAN RTX"],
            id="workstation",
        ),
        pytest.param(
            "Jetson AGX Xavier and Jetson TX2", ["Jetson AGX Xavier", "Jetson TX2"], id="jetson"
        ),
        pytest.param("B100, Tesla K80, P40", ["B100", "K80", "P40"], id="datacentre-old-and-new"),
        pytest.param(
            "AMD Instinct MI308X and Radeon RX 7900 GRE, RX 580",
            ["MI308X", "Radeon RX 7900 GRE", "Radeon RX 580"],
            id="amd",
        ),
        pytest.param(
            "Habana Gaudi, Intel Arc A380", ["Gaudi", "Arc A380"], id="intel-accelerators"
        ),
        pytest.param(
            "4th Gen Xeon (Sapphire Rapids) and Emerald Rapids",
            ["4th Gen Xeon", "Sapphire Rapids", "Emerald Rapids"],
            id="xeon-generations",
        ),
        pytest.param(
            "Core i7-1165G7, i7 12700H, Core Ultra 7 155H, Intel N100",
            ["Core i7-1165G7", "Core i7-12700H", "Core Ultra 7 155H", "N100"],
            id="intel-client",
        ),
        pytest.param(
            "Ryzen 7 5800H and Ryzen 9 7940HS", ["Ryzen 7 5800H", "Ryzen 9 7940HS"], id="ryzen"
        ),
        pytest.param(
            "Apple A17 Pro in an iPhone 15 Pro", ["A17 Pro", "iPhone 15 Pro"], id="apple-phone"
        ),
        pytest.param(
            "Snapdragon 8 Gen 2, 8+ Gen 1, Snapdragon 888",
            ["Snapdragon 8 Gen 2", "Snapdragon 8+ Gen 1", "Snapdragon 888"],
            id="snapdragon",
        ),
        pytest.param(
            "天玑9300 与 麒麟9000S 以及 Helio G99",
            ["Dimensity 9300", "Kirin 9000S", "Helio G99"],
            id="mediatek-kirin",
        ),
        pytest.param(
            "昇腾910B3 与 Atlas 300I Duo", ["Ascend 910B3", "Atlas 300I Duo"], id="ascend"
        ),
        pytest.param(
            "寒武纪MLU590、海光DCU Z100、昆仑芯P800、沐曦 C500",
            ["MLU590", "DCU Z100", "Kunlun P800", "MetaX C500"],
            id="chinese-accelerators",
        ),
        pytest.param(
            "Raspberry Pi 4 Model B, Orange Pi 5 Plus and an RK3588",
            ["Raspberry Pi 4 Model B", "Orange Pi 5 Plus", "RK3588"],
            id="boards",
        ),
        pytest.param(
            "AWS Inferentia, Trn1, Cloud TPU v3", ["Inferentia", "Trainium", "TPU v3"], id="cloud"
        ),
        pytest.param(
            "Pixel 8 Pro, Galaxy S24 Ultra, XiaoMi 12 with Adreno 730 and Mali-G710",
            ["Pixel 8 Pro", "Galaxy S24 Ultra", "Xiaomi 12", "Adreno 730", "Mali-G710"],
            id="phones",
        ),
    ],
)
def test_hardware_of_every_generation(text: str, names: list[str]) -> None:
    assert _names("hardware", text) == names


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("GEMM with M4096 N4096 K4096", id="gemm-shape"),
        pytest.param("the mi 300 ms budget", id="words"),
        pytest.param("section 8 generated tokens", id="gen-not-snapdragon"),
        pytest.param("an A17 chip budget of 4 W", id="a17-alone"),
        pytest.param("first frame in 890ms, then 780ms", id="duration-not-radeon"),
    ],
)
def test_what_is_not_a_part(text: str) -> None:
    assert _names("hardware", text) == []


def test_a_names_own_digits_are_no_count_before_a_plural() -> None:
    """`MI325X l40s`: the X belongs to MI325X; the L40S stays an L40S."""
    assert _names("hardware", "MI325X l40s") == ["MI325X", "L40S"]
    assert _names("hardware", "16 L40s") == ["L40"]
    assert _names("hardware", "two 890Ms") == ["Radeon 890M"]


@pytest.mark.parametrize(
    ("text", "names"),
    [
        pytest.param("Q40 weights, Q80 buffer", ["Q4_0", "Q8_0"], id="q40"),
        pytest.param("F32 and F16", ["FP32", "FP16"], id="f32"),
        pytest.param("INT3, INT6 and A16W4", ["INT3", "INT6", "W4A16"], id="int-widths"),
        pytest.param("a 1.58-bit (ternary) model", ["1.58-bit"], id="ternary"),
        pytest.param("半精度与单精度", ["FP16", "FP32"], id="chinese-floats"),
        pytest.param("4比特量化和8位量化", ["4-bit", "8-bit"], id="chinese-bits"),
        pytest.param("q4f16_1 and q0f32", ["q4f16_1", "q0f32"], id="mlc"),
    ],
)
def test_precision_spellings(text: str, names: list[str]) -> None:
    assert _names("precision", text) == names


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("共有 4 位用户", id="four-people"),
        pytest.param("Q4 2024 results", id="a-quarter"),
    ],
)
def test_what_is_not_a_precision(text: str) -> None:
    assert _names("precision", text) == []


@pytest.mark.parametrize(
    ("text", "names"),
    [
        pytest.param(
            "Raspberry Pi 4B, Raspberry Pi 4 Model B and an RPi 3B+",
            ["Raspberry Pi 4B", "Raspberry Pi 4 Model B", "Raspberry Pi 3B+"],
            id="pi-model-letter-as-written",
        ),
        pytest.param(
            "2 x RasPi 5 8 GB and 4 x RasPi 4B",
            ["Raspberry Pi 5 8 GB", "Raspberry Pi 4B"],
            id="raspi-short-name",
        ),
        pytest.param(
            "Qualcomm SDM865 and MSM8998 (Snapdragon 835)",
            ["SDM865", "MSM8998", "Snapdragon 835"],
            id="qualcomm-parts",
        ),
        pytest.param(
            "Kirin 970 (Cortex-A73 + Cortex-A53)",
            ["Kirin 970", "Cortex-A73", "Cortex-A53"],
            id="arm-cores",
        ),
        pytest.param(
            "Loongson 3A4000, Allwinner H6, Broadcom BCM2711",
            ["Loongson 3A4000", "Allwinner H6", "Broadcom BCM2711"],
            id="embedded-socs",
        ),
        pytest.param(
            "Celeron N5105 and an N100 box", ["Celeron N5105", "N100"], id="intel-n-series"
        ),
    ],
)
def test_edge_hardware(text: str, names: list[str]) -> None:
    assert _names("hardware", text) == names


def test_chinese_brand_names() -> None:
    text = "骁龙865、天玑9300、麒麟990、昆仑芯R200、摩尔线程 S4000、燧原 T20、树莓派4B、小米14"
    assert _names("hardware", text) == [
        "Snapdragon 865",
        "Dimensity 9300",
        "Kirin 990",
        "Kunlun R200",
        "MTT S4000",
        "Enflame T20",
        "Raspberry Pi 4B",
        "Xiaomi 14",
    ]


@pytest.mark.parametrize(
    ("text", "names"),
    [
        pytest.param(
            "Llama 4 Scout, Llama 2 13B Chat", ["Llama-4-Scout", "Llama-2-13B"], id="llama"
        ),
        pytest.param(
            "Qwen2.5-VL-7B-Instruct and Qwen1.5-MoE-A2.7B",
            ["Qwen2.5-VL-7B", "Qwen1.5-MoE-A2.7B"],
            id="qwen-variants",
        ),
        pytest.param("DeepSeek-R1-Distill-Qwen-7B", ["DeepSeek-R1-Distill-Qwen-7B"], id="distill"),
        pytest.param(
            "Mixtral 8x22B, gemma-2-9b-it", ["Mixtral-8x22B", "Gemma-2-9B"], id="mistral-gemma"
        ),
        pytest.param("Phi-3-mini-4k-instruct", ["Phi-3-mini"], id="phi"),
        pytest.param(
            "internlm2-chat-20b, Yi-1.5-9B", ["InternLM2-20B", "Yi-1.5-9B"], id="internlm-yi"
        ),
        pytest.param("GPT-NeoX-20B, Pythia-6.9B", ["GPT-NeoX-20B", "Pythia-6.9B"], id="eleuther"),
        pytest.param("YOLO11s beside ResNet-50", ["YOLO11s", "ResNet-50"], id="vision"),
        pytest.param("whisper-large-v3-turbo", ["Whisper-large-v3-turbo"], id="whisper"),
        pytest.param(
            "whisper.cpp small beside FunASR Fun-ASR-Nano",
            ["Whisper-small", "Fun-ASR-Nano"],
            id="whisper-cpp-tiers",
        ),
        pytest.param(
            "FLUX.1 [schnell] and SD3.5 Large", ["FLUX.1-schnell", "SD3.5-Large"], id="image"
        ),
        pytest.param(
            "Wan2.1-T2V-14B, CogVideoX-5B", ["Wan2.1-T2V-14B", "CogVideoX-5B"], id="video"
        ),
        pytest.param("Fused Mamba", ["Mamba"], id="mamba"),
        pytest.param("a Mamba-v1 layer and Mamba-2", ["Mamba1", "Mamba2"], id="mamba-generations"),
        pytest.param(
            "SAM2 Large, sam2.1_hiera_tiny", ["SAM2-Large", "SAM2.1-Tiny"], id="sam2-encoders"
        ),
        pytest.param("ChatterboxTTS and Orpheus-TTS", ["ChatterboxTTS", "Orpheus-TTS"], id="tts"),
        pytest.param(
            "Nemo FastConformer RNN-T vs GigaAM v3 E2E CTC",
            ["FastConformer-RNN-T", "GigaAM-v3-E2E-CTC"],
            id="russian-asr",
        ),
    ],
)
def test_models_of_every_family(text: str, names: list[str]) -> None:
    assert _names("model", text) == names


@pytest.mark.parametrize(
    "text", ["mamba install torch", "micromamba create", "sam 2", "whisper.cpp runs on CPU"]
)
def test_what_is_not_a_model(text: str) -> None:
    assert _names("model", text) == []
