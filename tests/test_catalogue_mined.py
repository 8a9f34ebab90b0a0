"""The catalogues read the names inference pages outside the labelled set write next to
their numbers (issue #14): spellings mined from serving, edge, accelerator and model pages,
and the near-misses that must stay unread."""

from __future__ import annotations

import pytest

from research_radar.extract.cataloguefiles import default_catalog


def _names(field: str, text: str) -> list[str]:
    return default_catalog().names(field, text)


@pytest.mark.parametrize(
    ("text", "names"),
    [
        pytest.param("M1 7-Core GPU 8GB and M2 10-core", ["M1", "M2"], id="apple-core-count"),
        pytest.param(
            "GTX 980 Ti, GTX 970 and GTX 750 Ti",
            ["GTX 980 Ti", "GTX 970", "GTX 750 Ti"],
            id="geforce-900-700",
        ),
        pytest.param("on MI200s and an MI210", ["MI200", "MI210"], id="mi200-series"),
        pytest.param(
            "Pixel 2, Pixel 3a and a Galaxy S23 Ultra",
            ["Pixel 2", "Pixel 3a", "Galaxy S23 Ultra"],
            id="phones",
        ),
        pytest.param("Mali-G76 MP10 GPU", ["Mali-G76 MP10"], id="mali-cores"),
        pytest.param(
            "Ascend 800I A2 and an 800T A3 node",
            ["Atlas 800I A2", "Atlas 800T A3"],
            id="atlas-servers",
        ),
        pytest.param(
            "Kunlun3 P800 and Kunlun XPU R200", ["Kunlun P800", "Kunlun R200"], id="kunlun"
        ),
        pytest.param("MXC500 and MetaX N260", ["MetaX C500", "MetaX N260"], id="metax"),
        pytest.param(
            "Moore Threads S4000 and MTT X300", ["MTT S4000", "MTT X300"], id="moore-threads"
        ),
        pytest.param(
            "BI-V150 and MR-V100 cards", ["Iluvatar BI-V150", "Iluvatar MR-V100"], id="iluvatar"
        ),
        pytest.param("Enflame GCU and 燧原GCU", ["Enflame GCU"], id="enflame"),
        pytest.param(
            "Raspberry Pi 3+, Raspberry Pi Zero W and RPi 1",
            ["Raspberry Pi 3+", "Raspberry Pi Zero W", "Raspberry Pi 1"],
            id="raspberry-pi",
        ),
        pytest.param("RK1808 and RK3588", ["RK1808", "RK3588"], id="rockchip"),
        pytest.param("Loongson-3A4000 and BCM2835", ["Loongson 3A4000", "BCM2835"], id="embedded"),
        pytest.param("CV186AH, CV186X and an SE7-32", ["CV186AH", "CV186X", "SE7-32"], id="sophgo"),
        pytest.param(
            "Lunar Lake 288V and LNL 258V",
            ["Core Ultra 9 288V", "Core Ultra 7 258V"],
            id="lunar-lake-skus",
        ),
        pytest.param(
            "AWS c5.2xlarge, M7i.16xLarge and ecs.g8i.48xlarge",
            ["c5.2xlarge", "M7i.16xLarge", "ecs.g8i.48xlarge"],
            id="cpu-instances",
        ),
    ],
)
def test_mined_parts(text: str, names: list[str]) -> None:
    assert _names("hardware", text) == names


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("MR-V100", id="iluvatar-is-no-v100"),
        pytest.param("section c5.2 and the m7 step", id="instance-look-alikes"),
        pytest.param("Steps S24 and 800 I/O", id="phone-and-atlas-look-alikes"),
        pytest.param("a P800 card", id="bare-p800-is-ambiguous"),
    ],
)
def test_mined_part_look_alikes(text: str) -> None:
    names = _names("hardware", text)
    assert "V100" not in names and not any(
        n.startswith(("Galaxy", "Atlas", "Kunlun", "c5", "m7")) for n in names
    )


@pytest.mark.parametrize(
    ("text", "names"),
    [
        pytest.param("Qwen2_5-7B and Qwen1_5-1.8B", ["Qwen2.5-7B", "Qwen1.5-1.8B"], id="qwen"),
        pytest.param(
            "deepseek-r1:7b, DeepSeekOCR and deepseek-v3",
            ["DeepSeek-R1-7B", "DeepSeek-OCR", "DeepSeek-V3"],
            id="deepseek-spellings",
        ),
        pytest.param("phi3:3.8b and Phi-3-3.8B", ["Phi-3-3.8B"], id="phi-size"),
        pytest.param("Yi1.5-6B", ["Yi-1.5-6B"], id="yi-version"),
        pytest.param("Qwen 3 0.6B and Qwen 2.5 7B", ["Qwen3-0.6B", "Qwen2.5-7B"], id="qwen-spaced"),
        pytest.param("MiniMax-H3", ["MiniMax-H3"], id="minimax-h"),
        pytest.param("Qwen-2.5-VL-72B", ["Qwen2.5-VL-72B"], id="qwen-hyphened-version"),
        pytest.param("mistral:7b", ["Mistral-7B"], id="mistral-tag"),
        pytest.param(
            "e5-mistral-7b-instruct, bge-large-zh-v1.5. and mxbai-embed-large-v1-f16.llamafile",
            ["e5-mistral-7b-instruct", "bge-large-zh-v1.5", "mxbai-embed-large-v1-f16"],
            id="embedding-models",
        ),
        pytest.param(
            "Sana 1.6B, CosyVoice-300M and Fish-Speech 1.5",
            ["SANA-1.6B", "CosyVoice-300M", "Fish-Speech1.5"],
            id="sizes-and-versions",
        ),
        pytest.param(
            "MusicGen, MeloTTS, I2VGen-XL and HiDream-I1",
            ["MusicGen", "MeloTTS", "I2VGen-XL", "HiDream-I1"],
            id="generators",
        ),
        pytest.param("MiniCPM-V-2-6-8B", ["MiniCPM-V 2.6-8B"], id="minicpm-hyphens"),
        pytest.param("Ministral-3-3B-Instruct-2512", ["Ministral-3-3B"], id="ministral"),
        pytest.param(
            "InternVL 1.5, InternVL2_5-78B, InternVL 2.0, InternVL3_5-30B-A3B",
            ["InternVL1.5", "InternVL2.5-78B", "InternVL2", "InternVL3.5-30B-A3B"],
            id="internvl",
        ),
        pytest.param("InternVL2-Llama3-76B", ["InternVL2-Llama3-76B"], id="internvl-llm"),
        pytest.param("LLaVA-v1.5-13B", ["LLaVA-1.5-13B"], id="llava-v"),
        pytest.param(
            "Claude3.5-Sonnet, o1-mini and OpenAI o3",
            ["Claude 3.5 Sonnet", "o1-mini", "o3"],
            id="closed-models",
        ),
        pytest.param("XVERSE-MoE-A4.2B", ["XVERSE-MoE-A4.2B"], id="xverse-moe"),
        pytest.param("Step 3.5 Flash", ["Step-3.5-Flash"], id="step-3.5"),
        pytest.param(
            "CosyVoice 2 and CosyVoice2-0.5B", ["CosyVoice2", "CosyVoice2-0.5B"], id="cosyvoice"
        ),
        pytest.param(
            "Parler-TTS Mini and parler-tts-large-v1",
            ["Parler-TTS Mini", "Parler-TTS Large v1"],
            id="parler",
        ),
        pytest.param(
            "U2++ Conformer, a zipformer and MooER",
            ["U2++ Conformer", "Zipformer", "MooER"],
            id="asr",
        ),
        pytest.param("CRNN, LPRNet and Faster_R-CNN", ["CRNN", "LPRNet", "Faster_R-CNN"], id="cv"),
        pytest.param(
            "Granite 3.2 8B and Granite-4.0-Micro",
            ["Granite-3.2-8B", "Granite-4.0-Micro"],
            id="granite",
        ),
        pytest.param("RWKV v4 and RWKV-6-7B", ["RWKV-4", "RWKV-6-7B"], id="rwkv"),
        pytest.param(
            "GLM-Edge-1.5B and GLM-Edge-V-2B", ["GLM-Edge-1.5B", "GLM-Edge-V-2B"], id="glm-edge"
        ),
        pytest.param(
            "Stable Diffusion 2, Stable Diffusion 2.0 and Stable Diffusion 2.1",
            ["SD2", "SD2.1"],
            id="sd2",
        ),
    ],
)
def test_mined_models(text: str, names: list[str]) -> None:
    assert _names("model", text) == names


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("Step 3: run the server", id="step-instruction"),
        pytest.param("solves it in O(1) time; o1 is the output", id="o-series-bare"),
        pytest.param("a Stable Diffusion 20 step run", id="sd-20-steps"),
        pytest.param("CosyVoice 300M", id="cosyvoice-size-no-version"),
        pytest.param("Qwen 2 GPUs", id="qwen-count-is-no-version"),
    ],
)
def test_mined_model_look_alikes(text: str) -> None:
    names = _names("model", text)
    assert not any(
        n in {"o1", "SD2", "CosyVoice3", "Qwen2"} or n.startswith("Step-3") for n in names
    )
