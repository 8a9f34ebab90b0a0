"""Spellings of parts and models that pages write and the catalogue must read (issue #14):
names glued to Chinese, bare GeForce numbers where a count or a word makes them a card,
cloud instances by the GPU they hold, chips with their bins, identifiers with
underscores; and the look-alikes each of them must not take."""

from __future__ import annotations

import pytest

from research_radar.extract.cataloguefiles import default_catalog


def _names(field: str, text: str) -> list[str]:
    return default_catalog().names(field, text)


@pytest.mark.parametrize(
    ("text", "names"),
    [
        pytest.param("在 AMD EPYC 7763上测试", ["EPYC 7763"], id="epyc-glued-to-chinese"),
        pytest.param("Xeon Gold 6248R的吞吐", ["Xeon Gold 6248R"], id="xeon-glued-to-chinese"),
        pytest.param("在Raspberry Pi 4上", ["Raspberry Pi 4"], id="pi-glued-to-chinese"),
        pytest.param("measured on a Ryzen 7 7840HS.", ["Ryzen 7 7840HS"], id="before-full-stop"),
    ],
)
def test_a_name_ends_where_its_ascii_ends(text: str, names: list[str]) -> None:
    assert _names("hardware", text) == names


@pytest.mark.parametrize(
    ("text", "names"),
    [
        pytest.param("8x 3080 and 2×2080 Ti", ["RTX 3080", "RTX 2080 Ti"], id="counted"),
        pytest.param("两张3070，单卡4060", ["RTX 3070", "RTX 4060"], id="chinese-cards"),
        pytest.param("a 3080 GPU and a 1660 SUPER GPU", ["RTX 3080", "GTX 1660 SUPER"], id="gpu"),
        pytest.param("4060显卡、2080 8G", ["RTX 4060", "RTX 2080 8 GB"], id="word-or-memory"),
        pytest.param("GPU: 4070", ["RTX 4070"], id="set-up-line"),
        pytest.param("在 3080 Ti 上运行", ["RTX 3080 Ti"], id="chinese-on"),
    ],
)
def test_bare_geforce_numbers_where_a_card_is_meant(text: str, names: list[str]) -> None:
    assert _names("hardware", text) == names


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("videos at 1920x1080 and 1920 × 1080", id="resolution"),
        pytest.param("in 2080 the world", id="year"),
        pytest.param("we sold 4060 units", id="count"),
        pytest.param("throughput 4070 tokens/s", id="value"),
        pytest.param("depends on 1080 pixels", id="after-on"),
        pytest.param("在1080分辨率下", id="chinese-resolution"),
        pytest.param("一张1080×1920的图片", id="an-image-of-a-resolution"),
    ],
)
def test_bare_numbers_that_are_not_cards(text: str) -> None:
    assert _names("hardware", text) == []


@pytest.mark.parametrize(
    ("text", "names"),
    [
        pytest.param("p4d.24xlarge, p5.48xlarge", ["A100", "H100"], id="aws-p"),
        pytest.param(
            "g5.xlarge, ml.g5.2xlarge, g4dn.xlarge, g6.xlarge, g6e.12xlarge, p3.2xlarge",
            ["A10G", "T4", "L4", "L40S", "V100"],
            id="aws-g",
        ),
        pytest.param("p5e.48xlarge", ["H200"], id="aws-h200"),
        pytest.param(
            "a2-highgpu-1g, a3-highgpu-8g and g2-standard-4",
            ["A100", "H100", "L4"],
            id="google-cloud",
        ),
        pytest.param("Standard_NC24ads_A100_v4", ["A100"], id="azure"),
    ],
)
def test_cloud_instances_are_their_gpus(text: str, names: list[str]) -> None:
    assert _names("hardware", text) == names


@pytest.mark.parametrize(
    ("text", "names"),
    [
        pytest.param("Ascend 310P3 and 910B4", ["Ascend 310P3", "Ascend 910B4"], id="ascend-bins"),
        pytest.param("昆仑芯R200 and Kunlun R200", ["Kunlun R200"], id="kunlun-model"),
        pytest.param(
            "RTX A4000, A4500 and A5500", ["RTX A4000", "RTX A4500", "RTX A5500"], id="a-series"
        ),
        pytest.param(
            "AWS Graviton3, Graviton4 and Ampere Altra Max",
            ["Graviton3", "Graviton4", "Ampere Altra Max"],
            id="arm-servers",
        ),
        pytest.param("a Pixel with Tensor G3", ["Tensor G3"], id="tensor"),
    ],
)
def test_more_parts(text: str, names: list[str]) -> None:
    assert _names("hardware", text) == names


@pytest.mark.parametrize(
    ("text", "names"),
    [
        pytest.param("a tensor g3 slice; an ampere of current", [], id="words"),
        pytest.param("the c5 class and an m7 step", [], id="cpu-instance-look-alike"),
    ],
)
def test_part_look_alikes(text: str, names: list[str]) -> None:
    assert _names("hardware", text) == names


@pytest.mark.parametrize(
    ("text", "names"),
    [
        pytest.param(
            "llama2_7b, Llama_2_13B and llama_7b",
            ["Llama-2-7B", "Llama-2-13B", "Llama-7B"],
            id="llama",
        ),
        pytest.param("qwen2_7b and qwen_7b", ["Qwen2-7B", "Qwen-7B"], id="qwen"),
        pytest.param(
            "chatglm2_6b, baichuan2_13b", ["ChatGLM2-6B", "Baichuan2-13B"], id="chinese-labs"
        ),
        pytest.param("phi-1_5 and Phi-1.5", ["Phi-1.5"], id="phi"),
    ],
)
def test_model_identifiers_with_underscores(text: str, names: list[str]) -> None:
    assert _names("model", text) == names


@pytest.mark.parametrize(
    ("text", "names"),
    [
        pytest.param(
            "Huawei P30 Pro, HUAWEI nova 7, Honor V20, Xiaomi Mi 9, OPPO Reno 8, iPad Pro, Galaxy A25",
            [
                "P30 Pro",
                "nova 7",
                "Honor V20",
                "Xiaomi Mi 9",
                "OPPO Reno 8",
                "iPad Pro",
                "Galaxy A25",
            ],
            id="phones",
        ),
        pytest.param(
            "iPhone X, iPhone XS and iPhone 8", ["iPhone X", "iPhone XS", "iPhone 8"], id="iphones"
        ),
        pytest.param("MediaTek MT6893", ["MT6893"], id="mediatek-part"),
        pytest.param(
            "SD855, SD 8 Gen 2 and SD888+",
            ["Snapdragon 855", "Snapdragon 8 Gen 2", "Snapdragon 888+"],
            id="snapdragon-short",
        ),
        pytest.param(
            "Khadas VIM3, Radxa ROCK 5B, StarFive JH7110, T-Head TH1520, Orange Pi AIpro",
            ["Khadas VIM3", "Rock 5B", "JH7110", "TH1520", "Orange Pi AIpro"],
            id="boards",
        ),
        pytest.param(
            "Kendryte K230, CanMV-K210, SpacemiT K1, SpacemiT K3, Sophgo SG2042, CV1800B, BPI-F3",
            ["K230", "K210", "SpacemiT K1", "SpacemiT K3", "SG2042", "CV1800B", "BPI-F3"],
            id="risc-v",
        ),
        pytest.param(
            "Apple Neural Engine, Intel NPU, AMD XDNA, Intel Iris Xe Graphics, UHD Graphics 620",
            ["Apple Neural Engine", "Intel NPU", "XDNA", "Iris Xe", "UHD Graphics 620"],
            id="on-chip",
        ),
        pytest.param("AMD EPYC 7B13 and Xeon 8480+", ["EPYC 7B13", "Xeon 8480+"], id="cpu-numbers"),
        pytest.param(
            "Hexagon 698, Orin AGX, XPU P800",
            ["Hexagon 698", "Jetson AGX Orin", "Kunlun P800"],
            id="more",
        ),
    ],
)
def test_edge_devices(text: str, names: list[str]) -> None:
    assert _names("hardware", text) == names


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("the rock 5 band played", id="rock-word"),
        pytest.param("the iris of the eye, an insane plane", id="iris-ane"),
        pytest.param("a mt7621 router", id="router-chip"),
        pytest.param("SD1.5 at 512px, SD 768, SD8550 and SD855.1", id="sd-not-snapdragon"),
    ],
)
def test_device_look_alikes(text: str) -> None:
    assert _names("hardware", text) == []


@pytest.mark.parametrize(
    ("text", "names"),
    [
        pytest.param("wan2.1_t2v_14b", ["Wan2.1-t2v-14B"], id="wan-identifier"),
        pytest.param(
            "ALBERT-base, XLNet-large, BART-large, PP-OCRv4, SSD-MobileNetV2",
            [
                "ALBERT-base",
                "XLNet-large",
                "BART-large",
                "PP-OCRv4",
                "SSD-MobileNetV2",
            ],
            id="networks",
        ),
        pytest.param(
            "stories15M.bin and stories260K", ["stories15M", "stories260K"], id="llama2c-stories"
        ),
        pytest.param("SenseVoiceSmall", ["SenseVoiceSmall"], id="sensevoice"),
        pytest.param(
            "HY-VLA, LingBot-VA, Cosmos3-Nano and Cosmos-Predict2.5",
            ["HY-VLA", "LingBot-VA", "Cosmos3-Nano", "Cosmos-Predict2.5"],
            id="vla-and-world-models",
        ),
        pytest.param(
            "通义千问与百川、书生·浦语", ["Qwen", "Baichuan", "InternLM"], id="chinese-names"
        ),
    ],
)
def test_more_models(text: str, names: list[str]) -> None:
    assert _names("model", text) == names


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("albert einstein drove an electra car", id="names"),
        pytest.param("a video clip of a unet, bart simpson", id="lower-case-words"),
        pytest.param("the UNet and the CLIP encoder take 50 ms", id="pipeline-parts"),
        pytest.param("an SSD storage drive", id="ssd-disk"),
        pytest.param("the stories of 15M users", id="stories-word"),
        pytest.param("rows kept in Cosmos DB", id="cosmos-database"),
    ],
)
def test_model_look_alikes(text: str) -> None:
    assert _names("model", text) == []


@pytest.mark.parametrize(
    ("text", "names"),
    [
        pytest.param("Llama 2 (7B) and Qwen (7B)", ["Llama-2-7B", "Qwen-7B"], id="llama-qwen"),
        pytest.param(
            "OPT (66B), Falcon (40B) and Yi (34B)",
            ["OPT-66B", "Falcon-40B", "Yi-34B"],
            id="families-named-by-size",
        ),
        pytest.param("Llama 2 (see 7B)", ["Llama-2"], id="not-a-size-note"),
    ],
)
def test_a_size_in_parentheses_is_the_models(text: str, names: list[str]) -> None:
    assert _names("model", text) == names


@pytest.mark.parametrize(
    ("text", "names"),
    [
        pytest.param("nvidia_a100-sxm4-80gb", ["A100 80 GB"], id="device-name-identifier"),
        pytest.param("H100_SXM and RTX_4090", ["H100", "RTX 4090"], id="underscored"),
        pytest.param("NVIDIA_GeForce_RTX_3090", ["RTX 3090"], id="geforce-identifier"),
    ],
)
def test_a_part_written_as_an_identifier(text: str, names: list[str]) -> None:
    assert _names("hardware", text) == names


def test_an_identifier_keeps_its_places() -> None:
    text = "run_on_H100_SXM: 12 ms"
    (mention,) = default_catalog().find("hardware", text)
    assert text[mention.start : mention.end] == "H100_SXM"


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("the SAM-Decoding method", id="sam-in-a-method"),
        pytest.param("Mochi-style buns, MOSS-Speech-like", id="hyphenated-words"),
    ],
)
def test_upper_case_model_words_end_before_a_hyphen(text: str) -> None:
    assert _names("model", text) == []


def test_a_family_the_catalogue_knows_wins_over_the_generic_family_and_size() -> None:
    assert _names("model", "新版本的Yuan2-2B模型、Moonlight-16B-A3B") == [
        "Yuan2.0-2B",
        "Moonlight-16B-A3B",
    ]


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("| TRTLLM | 8 | 2.92 |", ["TensorRT-LLM"]),
        ("served by TRT-LLM 0.9", ["TensorRT-LLM 0.9"]),
        ("TensorRT-LLM v0.12 engine", ["TensorRT-LLM 0.12"]),
        ("a TensorRT 10.1 engine", ["TensorRT 10.1"]),
    ],
)
def test_tensorrt_llm_as_pages_abbreviate_it(text: str, names: list[str]) -> None:
    assert default_catalog().names("software", text) == names


@pytest.mark.parametrize(
    ("text", "names"),
    [
        pytest.param("on an RTX A6000 ADA (48 GB)", ["RTX 6000 Ada"], id="a6000-ada"),
        pytest.param("on an RTX A6000 (48 GB)", ["RTX A6000"], id="a6000-ampere"),
        pytest.param("| JetsonNano2GB | Jetson TX2 |", ["Jetson Nano", "Jetson TX2"], id="glued"),
    ],
)
def test_a_boards_and_cards_spellings_name_the_product(text: str, names: list[str]) -> None:
    assert [n.split(" 48")[0] for n in _names("hardware", text)] == names
