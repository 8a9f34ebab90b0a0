"""Every family of parts a benchmark page runs on, one test each, in its makers' English
and Chinese spellings and with the counts pages write before or after it (issue #14):
the catalogue knows a family from public knowledge, not only the names tune pages used."""

from __future__ import annotations

import pytest

from research_radar.extract.cataloguefiles import default_catalog


def _names(text: str) -> list[str]:
    return default_catalog().names("hardware", text)


FAMILIES = [
    pytest.param(
        "H100 SXM5, H200 NVL, H20, H800, A800 80G, B200, GB200 NVL72, GH200, A100-SXM4-80GB",
        ["H100", "H200", "H20", "H800", "A800 80 GB", "B200", "GB200", "GH200", "A100 80 GB"],
        id="nvidia-data-centre",
    ),
    pytest.param(
        "RTX PRO 6000 Blackwell, RTX 6000 Ada, RTX 4000 SFF Ada, RTX A6000, Quadro RTX 8000",
        ["RTX PRO 6000", "RTX 6000 Ada", "RTX 4000 SFF Ada", "RTX A6000", "Quadro RTX 8000"],
        id="nvidia-workstation",
    ),
    pytest.param(
        "RTX 5090, RTX 4090D, RTX 3060 Ti, GTX 1080 Ti, RTX 4070 Laptop",
        ["RTX 5090", "RTX 4090D", "RTX 3060 Ti", "GTX 1080 Ti", "RTX 4070 Laptop"],
        id="nvidia-consumer",
    ),
    pytest.param(
        "Jetson AGX Orin, Jetson Orin Nano Super, Jetson Xavier NX, Jetson AGX Thor",
        ["Jetson AGX Orin", "Jetson Orin Nano Super", "Jetson Xavier NX", "Jetson AGX Thor"],
        id="nvidia-jetson",
    ),
    pytest.param(
        "AMD Instinct MI300X, MI325X, MI355X, MI250X",
        ["MI300X", "MI325X", "MI355X", "MI250X"],
        id="amd-instinct",
    ),
    pytest.param(
        "Radeon RX 7900 XTX, Radeon PRO W7900, Ryzen AI Max+ 395, Ryzen AI 9 HX 370",
        ["Radeon RX 7900 XTX", "Radeon PRO W7900", "Ryzen AI Max+ 395", "Ryzen AI 9 HX 370"],
        id="amd-radeon-ryzen-ai",
    ),
    pytest.param(
        "Xeon Platinum 8480+, Core Ultra 7 258V, Arc B580, Gaudi 3",
        ["Xeon Platinum 8480+", "Core Ultra 7 258V", "Arc B580", "Gaudi 3"],
        id="intel",
    ),
    pytest.param(
        "Apple M4 Max, M2 Ultra, A17 Pro, iPhone 15 Pro",
        ["M4 Max", "M2 Ultra", "A17 Pro", "iPhone 15 Pro"],
        id="apple",
    ),
    pytest.param(
        "Snapdragon 8 Gen 3, 骁龙 8 Gen 2, 第三代骁龙8, 骁龙8至尊版, Hexagon NPU",
        # the second 8 Gen 3 (its Chinese name) is the same part: names are listed once
        ["Snapdragon 8 Gen 3", "Snapdragon 8 Gen 2", "Snapdragon 8 Elite", "Hexagon NPU"],
        id="qualcomm",
    ),
    pytest.param(
        "Dimensity 9300, 天玑 9400, Genio 1200",
        ["Dimensity 9300", "Dimensity 9400", "Genio 1200"],
        id="mediatek",
    ),
    pytest.param(
        "昇腾 910B, Ascend 910C, Atlas 800I A2, 麒麟9000S",
        ["Ascend 910B", "Ascend 910C", "Atlas 800I A2", "Kirin 9000S"],
        id="huawei",
    ),
    pytest.param(
        "Cambricon MLU370-X8, 思元590, 海光 DCU K100_AI, 昆仑芯 P800",
        ["MLU370-X8", "MLU590", "DCU K100 AI", "Kunlun P800"],
        id="cambricon-hygon-kunlunxin",
    ),
    pytest.param(
        "摩尔线程 MTT S4000, 沐曦 C500, 天数智芯 BI-V150, 燧原 S60, 云燧 T20, 壁仞 BR104",
        [
            "MTT S4000",
            "MetaX C500",
            "Iluvatar BI-V150",
            "Enflame S60",
            "Enflame T20",
            "Biren BR104",
        ],
        id="chinese-accelerators",
    ),
    pytest.param(
        "Rockchip RK3588, TB-RK3399Pro, 树莓派 4B, Raspberry Pi 5, Raspberry Pi CM4",
        ["RK3588", "RK3399Pro", "Raspberry Pi 4B", "Raspberry Pi 5", "Raspberry Pi CM4"],
        id="boards",
    ),
    pytest.param(
        "Hailo-8L, Hailo8, Coral Edge TPU", ["Hailo-8L", "Hailo-8", "Edge TPU"], id="edge-npus"
    ),
    pytest.param(
        "TPU v5e, v5p-128, v4-32, ct5lp-hightpu-4t, Trillium",
        ["TPU v5e", "TPU v5p", "TPU v4", "TPU v6e"],
        id="google-tpu",
    ),
    pytest.param(
        "Inferentia2, Trainium2, two NeuronCores, trn1.32xlarge",
        ["Inferentia2", "Trainium2", "NeuronCore", "Trainium"],
        id="aws-neuron",
    ),
    pytest.param(
        "Pixel 8 Pro, Galaxy S24 Ultra, 小米14, 华为 Mate 60 Pro",
        ["Pixel 8 Pro", "Galaxy S24 Ultra", "Xiaomi 14", "Mate 60 Pro"],
        id="phones",
    ),
    pytest.param(
        "p5.48xlarge, g6e.xlarge, a3-highgpu-8g, a4-highgpu-8g, ecs.gn7i-c8g1.2xlarge",
        ["H100", "L40S", "B200", "A10"],
        id="cloud-instances",
    ),
]


@pytest.mark.parametrize(("text", "names"), FAMILIES)
def test_every_family(text: str, names: list[str]) -> None:
    assert _names(text) == names


@pytest.mark.parametrize(
    ("text", "name"),
    [
        pytest.param("8x H100", "H100", id="8x"),
        pytest.param("H800 x 8", "H800", id="x8"),
        pytest.param("8卡 A800", "A800", id="ka"),
        pytest.param("双卡 4090", "RTX 4090", id="shuangka"),
        pytest.param("4090 x2", "RTX 4090", id="x2"),
        pytest.param("910B*8", "Ascend 910B", id="star"),
        pytest.param("8张A100", "A100", id="zhang"),
    ],
)
def test_a_count_is_no_part_of_the_name(text: str, name: str) -> None:
    assert _names(text) == [name]


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("upgraded from v2-8", id="version-range"),
        pytest.param("version v5-1 of the schema", id="version-dash"),
        pytest.param("the gn7x release", id="not-an-instance"),
    ],
)
def test_look_alikes_of_the_new_families(text: str) -> None:
    assert _names(text) == []
