"""The taxonomy profile: bundled ids, bilingual labels, user profiles, clear errors."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from research_radar.classify import profile as taxonomy_module
from research_radar.classify.build import build_rule
from research_radar.classify.model import Taxonomy
from research_radar.classify.profile import load_taxonomy
from research_radar.errors import ConfigError

# DESIGN.md, "Stable value ids of the default profile".
DESIGN_IDS = {
    "workload": [
        "llm-agentic",
        "diffusion",
        "loop-recurrent",
        "decision-policy",
        "crossmodal-streaming",
    ],
    "mechanism": [
        "schedule",
        "cache",
        "parallel-pipeline",
        "kernel-compiler-fusion",
        "quant-sparsity-speculation",
        "compute-quality-budget",
    ],
    "system_level": ["operator", "model-execution", "serving", "end-to-end", "controller"],
    "rsi_stage": [
        "diagnosis",
        "candidate-generation",
        "constrained-search",
        "verification",
        "selection",
        "reusable-experience",
    ],
    "maturity": ["idea", "paper-reported", "code-available", "integrated", "locally-validated"],
    "relation": ["existing-capability", "open-issue-pr", "extensible-gap", "not-recommended"],
}
FACET_IDS = {
    "rsi_target": ["engine", "harness"],
    "maturity_flags": ["unverified", "counterexample", "failure", "boundary"],
}
CJK = re.compile(r"[\u4e00-\u9fff]")


@pytest.fixture(scope="module")
def bundled() -> Taxonomy:
    return load_taxonomy()


def _shared() -> Path:
    default = Path(__file__).resolve().parents[2] / "shared"
    return Path(os.environ.get("RADAR_SHARED", default))


def _design_table() -> dict[str, list[str]]:
    """dimension id -> value ids, read from the table of DESIGN.md."""
    path = _shared() / "DESIGN.md"
    if not path.is_file():
        pytest.skip("../shared/DESIGN.md not found (set RADAR_SHARED)")
    table: dict[str, list[str]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) == 2 and re.fullmatch(r"`[a-z_]+`", cells[0]):
            main = cells[1].split("(+")[0]
            table[cells[0].strip("`")] = re.findall(r"`([a-z-]+)`", main)
    return table


def test_bundled_profile_has_the_design_dimensions_in_order(bundled: Taxonomy) -> None:
    assert [dim.id for dim in bundled.main] == list(DESIGN_IDS)
    for dim_id, value_ids in {**DESIGN_IDS, **FACET_IDS}.items():
        assert bundled.dimension(dim_id).value_ids == value_ids


def test_bundled_ids_match_the_design_table(bundled: Taxonomy) -> None:
    table = _design_table()
    assert table == DESIGN_IDS
    for dim_id, value_ids in table.items():
        assert bundled.dimension(dim_id).value_ids == value_ids


def test_facets_name_their_parents(bundled: Taxonomy) -> None:
    assert bundled.dimension("rsi_target").parent == "rsi_stage"
    assert bundled.dimension("maturity_flags").parent == "maturity"
    assert bundled.dimension("maturity_flags").multi


def test_every_label_is_bilingual_and_every_value_has_rules(bundled: Taxonomy) -> None:
    for dim in bundled.dimensions:
        assert dim.label_en and CJK.search(dim.label_zh), dim.id
        for value in dim.values:
            assert value.label_en and not CJK.search(value.label_en), value.id
            assert CJK.search(value.label_zh), value.id
            assert value.terms("term") and value.terms("term_zh"), value.id


def test_dimension_settings(bundled: Taxonomy) -> None:
    assert bundled.dimension("mechanism").multi
    assert not bundled.dimension("workload").multi
    assert bundled.dimension("workload").default == "llm-agentic"
    assert bundled.dimension("maturity").ordered
    assert bundled.dimension("relation").default is None
    assert bundled.dimension("rsi_stage").requires


def test_lookups_and_labels(bundled: Taxonomy) -> None:
    assert bundled.label("mechanism", "cache") == "Cache 缓存"
    assert bundled.label("mechanism", "cache", lang="en") == "Cache"
    assert bundled.value("workload", "decision-policy").label("en").startswith("Decision")
    with pytest.raises(KeyError, match="unknown dimension 'nope'"):
        bundled.dimension("nope")
    with pytest.raises(KeyError, match="unknown value 'nope' of workload"):
        bundled.value("workload", "nope")


def test_profile_metadata_queries_and_feeds(bundled: Taxonomy) -> None:
    assert bundled.name == "inference"
    assert CJK.search(bundled.description("zh")) and "inference" in bundled.description("en")
    assert bundled.queries.arxiv_categories == ("cs.LG", "cs.DC", "cs.CL", "cs.AR", "cs.PF")
    assert bundled.queries.arxiv_terms
    axes = dict(bundled.queries.github_axes)
    assert list(axes) == ["model", "system", "mechanism"]
    queries = bundled.queries.github()
    assert len(queries) == len(axes["model"]) * len(axes["system"]) * len(axes["mechanism"])
    assert "Qwen inference engine KV cache" in queries
    assert bundled.feeds == ()
    assert bundled.origins == ("research_radar/data/taxonomy.toml",)


def test_as_dict_is_json_ready(bundled: Taxonomy) -> None:
    data = bundled.as_dict()
    assert [dim["id"] for dim in data["dimensions"]][:2] == ["workload", "mechanism"]
    cache = data["dimensions"][1]["values"][1]
    assert cache["id"] == "cache" and "缓存" in cache["terms_zh"]
    assert data["queries"]["github_count"] == len(bundled.queries.github())


# ------------------------------------------------------------------- user profiles


def _write(tmp_path: Path, text: str, name: str = "profile.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


EXTENSION = """
[profile]
description_en = "Our team's view"

[dimensions.mechanism.values.cache]
terms_zh = ["显存复用"]

[dimensions.workload.values.retrieval]
label_en = "Retrieval / RAG"
label_zh = "检索增强"
terms = ["RAG", "retrieval"]

[queries.github.axes]
model = ["Phi"]

[queries.arxiv]
categories = ["cs.IR"]

[feeds]
urls = ["https://example.org/atom.xml"]
"""


def test_user_profile_extends_the_bundled_one(tmp_path: Path, bundled: Taxonomy) -> None:
    path = _write(tmp_path, EXTENSION)
    extended = load_taxonomy(path)
    assert extended.origins == (*bundled.origins, str(path))
    assert extended.name == "inference"
    assert extended.description_en == "Our team's view"
    cache = extended.value("mechanism", "cache")
    assert cache.terms("term_zh")[-1] == "显存复用"
    assert cache.terms("term") == bundled.value("mechanism", "cache").terms("term")
    assert extended.dimension("workload").value_ids[-1] == "retrieval"
    assert extended.label("workload", "retrieval") == "检索增强"
    assert "Phi runtime kernel" in extended.queries.github()
    assert extended.queries.arxiv_categories[-1] == "cs.IR"
    assert extended.feeds == ("https://example.org/atom.xml",)


REPLACEMENT = """
[profile]
name = "robotics"
mode = "replace"
description_en = "Robot learning"
description_zh = "机器人学习"

[dimensions.task]
label_en = "Task"
label_zh = "任务"
default = "grasp"

[dimensions.task.values.grasp]
label_en = "Grasping"
label_zh = "抓取"
terms = ["grasp*"]
"""


def test_user_profile_replaces_with_mode_replace(tmp_path: Path) -> None:
    replaced = load_taxonomy(_write(tmp_path, REPLACEMENT))
    assert replaced.name == "robotics"
    assert replaced.dimension_ids == ["task"]
    assert replaced.queries.github() == [] and replaced.feeds == ()


def test_extend_false_replaces_too(tmp_path: Path) -> None:
    text = REPLACEMENT.replace('mode = "replace"\n', "")
    replaced = load_taxonomy(_write(tmp_path, text), extend=False)
    assert replaced.dimension_ids == ["task"]
    with pytest.raises(ConfigError, match="unknown dimension 'task'"):
        load_taxonomy(_write(tmp_path, text))


# ------------------------------------------------------------------------ errors


def _error(tmp_path: Path, text: str) -> ConfigError:
    path = _write(tmp_path, text)
    with pytest.raises(ConfigError) as caught:
        load_taxonomy(path)
    assert caught.value.path == str(path)
    assert str(caught.value).startswith(str(path))
    return caught.value


def test_bad_toml_names_file_and_line(tmp_path: Path) -> None:
    error = _error(tmp_path, '[profile]\nname = "x"\n\n[dimensions.workload\n')
    assert error.line == 4
    assert "not valid TOML" in str(error) and "fix the TOML syntax" in str(error)


def test_unknown_dimension_names_line_and_fix(tmp_path: Path) -> None:
    error = _error(tmp_path, "# ours\n[dimensions.workloads.values.x]\nlabel_en = 'X'\n")
    assert error.line == 2
    assert "unknown dimension 'workloads'" in str(error)
    assert 'mode = "replace"' in str(error)


def test_value_without_labels_is_refused(tmp_path: Path) -> None:
    text = '[dimensions.mechanism.values.memory]\nterms = ["HBM"]\n'
    error = _error(tmp_path, text)
    assert error.line == 1
    assert "needs both label_en and label_zh" in str(error)


def test_invalid_regex_names_its_line(tmp_path: Path) -> None:
    text = "[dimensions.mechanism.values.cache]\nterms = [\"HBM\"]\npatterns = ['\\bkv(cache']\n"
    error = _error(tmp_path, text)
    assert error.line == 3
    assert "bad pattern" in str(error) and "fix the regex" in str(error)


def test_pattern_matching_empty_string_is_refused(tmp_path: Path) -> None:
    error = _error(tmp_path, "[dimensions.mechanism.values.cache]\npatterns = ['x*']\n")
    assert "matches the empty string" in str(error)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        pytest.param(
            "[dimensions.mechanism.values.cache]\nterm = ['x']\n", "unknown key 'term'", id="key"
        ),
        pytest.param(
            "[dimensions.mechanism.values.cache]\nterms = 'x'\n", "must be a list", id="type"
        ),
        pytest.param("[dimensions.workload]\ndefault = 'gpu'\n", "default 'gpu'", id="default"),
        pytest.param("[profile]\nmode = 'merge'\n", "mode must be", id="mode"),
        pytest.param(
            "[queries.arxiv]\ncategory = ['cs.IR']\n", "unknown key 'category'", id="query"
        ),
    ],
)
def test_profile_mistakes_are_explained(tmp_path: Path, text: str, message: str) -> None:
    assert message in str(_error(tmp_path, text))


def test_missing_profile_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="profile file not found") as caught:
        load_taxonomy(tmp_path / "nope.toml")
    assert caught.value.path == str(tmp_path / "nope.toml")


def test_replacement_without_dimensions_is_refused(tmp_path: Path) -> None:
    error = _error(tmp_path, '[profile]\nmode = "replace"\n')
    assert "defines no dimension" in str(error)


# ------------------------------------------------------------------------- rules


@pytest.mark.parametrize(
    ("kind", "source", "text", "found"),
    [
        pytest.param(
            "term", "KV cache", "a kv-cache and KVCache", ["kv-cache", "KVCache"], id="sep"
        ),
        pytest.param(
            "term",
            "quantiz*",
            "Quantized and quantization",
            ["Quantized", "quantization"],
            id="stem",
        ),
        pytest.param("term", "MTP", "MTPs, xMTP, MTP.", ["MTP"], id="bound"),
        pytest.param("term_zh", "投机", "支持投机解码", ["投机"], id="zh"),
        pytest.param("pattern", "(?-i:DiT)", "DiT not dit", ["DiT"], id="case"),
    ],
)
def test_build_rule(kind: str, source: str, text: str, found: list[str]) -> None:
    rule = build_rule(kind, source)  # type: ignore[arg-type]
    assert [hit.group() for hit in rule.pattern.finditer(text)] == found


def test_public_api() -> None:
    assert sorted(taxonomy_module.__all__) == ["BUNDLED", "load_taxonomy"]
