"""The catalogues: canonical names, aliases, memory sizes, user extensions."""

from __future__ import annotations

from pathlib import Path

import pytest

from research_radar.errors import ConfigError
from research_radar.extract import (
    aliassearch,
    catalogue,
    cataloguefiles,
    nameneedles,
    namescan,
)
from research_radar.extract.catalogue import FIELDS
from research_radar.extract.cataloguefiles import default_catalog, load_catalog, parse_catalog


def test_exported_members() -> None:
    assert set(catalogue.__all__) == {"FIELDS", "Catalog", "Entry", "Mention"}
    assert set(cataloguefiles.__all__) == {"default_catalog", "load_catalog", "parse_catalog"}
    assert set(nameneedles.__all__) == {"alias_needles", "pattern_needle", "pattern_needles"}
    assert set(namescan.__all__) == {"FieldKeys", "NameScan", "Scanned"}
    searched = "FieldIndex alias_anchor alias_regex first_of literal_regex name_source norm_alias"
    assert set(aliassearch.__all__) == set(searched.split())


def test_bundled_catalogue_has_every_field() -> None:
    cat = default_catalog()
    for name in FIELDS:
        assert len(cat.of(name)) >= 10, name


@pytest.mark.parametrize(
    ("field", "text", "names"),
    [
        pytest.param("hardware", "runs on a 4090", ["RTX 4090"], id="bare-4090"),
        pytest.param(
            "hardware",
            "RTX 5070 12 GB + Ryzen 7600",
            ["RTX 5070 12 GB", "Ryzen 5 7600"],
            id="memory",
        ),
        pytest.param("hardware", "在RTX3060 12GB上", ["RTX 3060 12 GB"], id="chinese-glued"),
        pytest.param("hardware", "Baseline(L20x1)", ["L20"], id="count-glued-with-x"),
        pytest.param("model", "Hy3-295B-A21B 与 Hy3-A21B", ["Hy3-295B-A21B", "Hy3-A21B"], id="hy3"),
        pytest.param("model", "Hybrid parallel", [], id="hybrid-is-no-hy"),
        pytest.param(
            "model", "VoxCPM2 与 Fish Audio S2", ["VoxCPM2", "Fish Audio S2"], id="speech-models"
        ),
        pytest.param(
            "model", "stabilityai/stable-diffusion-2-1-base", ["SD2.1"], id="sd-repository-name"
        ),
        pytest.param(
            "model",
            "MobileNetV3_large_x1_0, HRNet_w18, squeezenet_v1.0, InceptionV3",
            ["MobileNetV3_large_x1_0", "HRNet_w18", "squeezenet_v1.0", "InceptionV3"],
            id="vision-identifiers",
        ),
        pytest.param(
            "hardware",
            "2×V100 32 GB, Xeon E5-2690 v4",
            ["V100 32 GB", "Xeon E5-2690 v4"],
            id="xeon",
        ),
        pytest.param("hardware", "Apple M5 Max and M3 Ultra", ["M5 Max", "M3 Ultra"], id="apple"),
        pytest.param(
            "hardware",
            "MI355X, H200, GB10, Arc B580, RTX 4090 Laptop",
            ["MI355X", "H200", "GB10", "Arc B580", "RTX 4090 Laptop"],
            id="vendors",
        ),
        pytest.param(
            "model", "Qwen3-8B vs qwen3.6-35b-a3b", ["Qwen3-8B", "Qwen3.6-35B-A3B"], id="qwen"
        ),
        pytest.param(
            "model",
            "gpt-oss-120b, DeepSeek-V4.1-Flash-1017, GLM-5.3-Flash",
            ["gpt-oss-120b", "DeepSeek-V4.1-Flash", "GLM-5.3-Flash"],
            id="moe",
        ),
        pytest.param(
            "model", "llama.cpp runs Llama 3.1 8B", ["Llama-3.1-8B"], id="llama-not-llama-cpp"
        ),
        pytest.param(
            "model",
            "Whisper large-v3, FLUX.1-dev, SDXL, π0.5",
            ["Whisper-large-v3", "FLUX.1-dev", "SDXL", "pi0.5"],
            id="other-modalities",
        ),
        pytest.param(
            "model",
            "ChatGLM2-6B vs ChatGLM-6B, Falcon 40B, OPT-175B, InternLM-20B, Vicuna-7B, NVILA-8B",
            [
                "ChatGLM2-6B",
                "ChatGLM-6B",
                "Falcon-40B",
                "OPT-175B",
                "InternLM-20B",
                "Vicuna-7B",
                "NVILA-8B",
            ],
            id="older-models",
        ),
        pytest.param("model", "GPT-2, BERT and Grok-1", ["GPT-2", "BERT", "Grok-1"], id="classic"),
        pytest.param(
            "hardware",
            "Orin, Jetson AGX Orin, L20",
            ["Jetson Orin", "Jetson AGX Orin", "L20"],
            id="orin",
        ),
        pytest.param(
            "precision",
            "Q4_K_M, IQ3_XXS, UD-IQ1_S, NVFP4, W8A8",
            ["Q4_K_M", "IQ3_XXS", "UD-IQ1_S", "NVFP4", "W8A8"],
            id="quants",
        ),
        pytest.param("precision", "EXL3 4.0bpw and bf16", ["EXL3 4.0bpw", "BF16"], id="exl3"),
        pytest.param(
            "software",
            "CUDA 12.9、Torch 2.13、llama.cpp Vulkan b8902",
            ["CUDA 12.9", "PyTorch 2.13", "llama.cpp b8902"],
            id="versions",
        ),
        pytest.param(
            "software",
            "MLX 0.32.2 + mlx-lm 0.31.3, vLLM v0.11.0",
            ["MLX 0.32.2", "mlx-lm 0.31.3", "vLLM 0.11.0"],
            id="mlx",
        ),
    ],
)
def test_names_are_canonical(field: str, text: str, names: list[str]) -> None:
    cat = default_catalog()
    assert cat.names(field, text) == names
    assert all(cat.is_canonical(field, name) for name in names)


def test_every_literal_name_maps_to_itself() -> None:
    cat = default_catalog()
    for entry in cat.entries:
        if not entry.template:
            assert cat.is_canonical(entry.field, entry.name), (entry.field, entry.name)


@pytest.mark.parametrize(
    ("alias", "needles"),
    [
        pytest.param("RTX 4090", ("4090", "rtx"), id="ascii"),
        pytest.param("骁龙 8 至尊版", ("至尊版", "骁龙", "8"), id="mixed"),
        pytest.param("昇腾", ("昇腾",), id="caseless"),
    ],
)
def test_alias_needles_are_every_literal_run(alias: str, needles: tuple[str, ...]) -> None:
    """A mixed alias needs its caseless runs too: `8` alone is in most statements."""
    assert nameneedles.alias_needles(alias) == needles


@pytest.mark.parametrize(
    ("pattern", "clauses"),
    [
        pytest.param(
            r"(?:Stable[\s-]Video[\s-]Diffusion|SVD)[\s-]XT",
            [{"diffusion", "svd"}, {"xt"}, {"stable", "svd"}],
            id="starts-added",
        ),
        pytest.param(
            r"(?<![A-Za-z])FT(?=\s(?:Latency|Throughput))",
            [{"latency", "throughput"}, {"ft"}],
            id="starts-beside-a-look-ahead",
        ),
        pytest.param(r"vLLM(?:\s(?P<v>\d+))?", [{"vllm"}], id="starts-are-the-needle"),
        pytest.param(r"(?:\d+x\s)?KV(?P<b>\d)", [{"kv"}], id="starts-unknown"),
    ],
)
def test_pattern_needles_hold_one_of_its_starts(pattern: str, clauses: list[set[str]]) -> None:
    """A text without a string a pattern's matches start with is not run: `diffusion`
    holds no `SVD-XT`."""
    needles = nameneedles.pattern_needles(pattern)
    assert [set(clause) for clause in needles.clauses] == clauses


def test_a_pattern_whose_start_stands_nowhere_is_not_run() -> None:
    cat = default_catalog()
    assert cat.names("model", "stable video diffusion XT beats SVD XT") == ["SVD-XT"]
    assert cat.names("model", "diffusion adapters and a speech tier") == []


def test_a_mixed_alias_is_found_only_with_its_caseless_run() -> None:
    cat = default_catalog()
    assert cat.names("hardware", "骁龙 8 至尊版 runs it") == ["Snapdragon 8 Elite"]
    assert cat.names("hardware", "8 rounds of 至尊 training") == []


def test_is_canonical_rejects_aliases() -> None:
    cat = default_catalog()
    assert not cat.is_canonical("hardware", "4090")
    assert not cat.is_canonical("model", "qwen3-8b")


def test_user_catalogue_extends_and_wins(tmp_path: Path) -> None:
    extra = tmp_path / "mine.toml"
    extra.write_text(
        '[[hardware]]\nname = "Foo NPU 2"\naliases = ["FNPU2"]\n\n'
        "[[model]]\nname = \"Bar\"\npattern = '''Bar-(?P<size>\\d+)b'''\ntemplate = \"Bar-{size}B\"\n",
        encoding="utf-8",
    )
    cat = load_catalog(extra)
    assert cat.names("hardware", "on fnpu2 and H100") == ["Foo NPU 2", "H100"]
    assert cat.names("model", "Bar-7b") == ["Bar-7B"]
    assert load_catalog(tmp_path).names("hardware", "FNPU2") == ["Foo NPU 2"]


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("[[hardware]\n", id="toml"),
        pytest.param('[[hardware]]\naliases = ["x"]\n', id="no-name"),
        pytest.param("[[model]]\nname = \"x\"\npattern = '(unclosed'\n", id="regex"),
        pytest.param('hardware = "x"\n', id="not-array"),
    ],
)
def test_bad_catalogue_is_a_config_error(text: str) -> None:
    with pytest.raises(ConfigError):
        parse_catalog(text, "mine.toml")


def test_missing_extra_file_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="not found"):
        load_catalog(tmp_path / "absent.toml")
