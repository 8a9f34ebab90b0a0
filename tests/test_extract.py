"""Claim extraction: metrics, conditions, kinds, tables, JSON files, the CLI."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from research_radar.cli import app
from research_radar.extract import baselines as baselines_module
from research_radar.extract import claims as extract_module
from research_radar.extract import claimviews as claimviews_module
from research_radar.extract import conditions as conditions_module
from research_radar.extract import documents as documents_module
from research_radar.extract import loadrules as loadrules_module
from research_radar.extract import markdown as markdown_module
from research_radar.extract import metrics as metrics_module
from research_radar.extract import tables as tables_module
from research_radar.extract import units as units_module
from research_radar.extract.benchmark_json import parse_benchmark_json
from research_radar.extract.cataloguefiles import default_catalog
from research_radar.extract.claims import extract_claims
from research_radar.extract.claimviews import claim_to_json, own_metrics
from research_radar.extract.documents import extract_file
from research_radar.extract.durations import duration_seconds
from research_radar.models import ClaimKind, Conditions

SHARED = Path(os.environ.get("RADAR_SHARED", Path(__file__).resolve().parents[2] / "shared"))
BENCH = Path(__file__).resolve().parents[1] / "benchmarks" / "evidence_bench.py"
NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?|\.\d+")
SCIENTIFIC = re.compile(r"\d+(?:\.\d+)?[eE][-+]?\d+")


def test_exported_members() -> None:
    assert set(extract_module.__all__) == {"extract_claims"}
    assert set(documents_module.__all__) == {"extract_document", "extract_file", "load_included"}
    assert set(claimviews_module.__all__) == {"claim_to_json", "own_metrics"}


def test_building_blocks_export_what_the_package_shares() -> None:
    assert set(loadrules_module.__all__) == {"LOAD_RULES", "LoadRule"}
    assert set(baselines_module.__all__) == {
        "BASELINE_WORDS",
        "find_baselines",
        "names_reference",
        "spelled_out",
    }
    assert set(conditions_module.__all__) == {
        "CONDITION_FIELDS",
        "find_conditions",
        "format_repeats",
        "single_valued",
        "tidy_conditions",
        "with_load",
    }
    assert set(markdown_module.__all__) == {
        "Segment",
        "clean_text",
        "parse_segments",
        "split_cells",
        "table_indices",
    }
    assert set(metrics_module.__all__) == {"find_metrics", "metric_words"}
    assert set(units_module.__all__) == {
        "DEFAULT_METRIC_NAMES",
        "NUMBER_BODY",
        "NUMBER_PATTERN",
        "PERF_UNITS",
        "RATIO_UNITS",
        "UNIT_PATTERN",
        "canonical_unit",
        "number_start",
        "parse_number",
        "part_number",
        "range_end",
    }


def test_english_claim_with_all_conditions() -> None:
    text = (
        "On an RTX 4090 with Qwen3-8B Q4_K_M at batch 1, we get 7.81→3.66 s/it, "
        "a 2.1x speedup over llama.cpp b8902."
    )
    [claim] = extract_claims(text, where="o/r@abc:README.md")
    data = claim_to_json(claim)
    assert set(data) == {"kind", "text", "metrics", "conditions", "line", "where", "complete"}
    assert set(data["conditions"]) == {
        "hardware",
        "model",
        "precision",
        "baseline",
        "software",
        "load",
    }
    assert data["kind"] == "performance"
    assert [(m["value"], m["unit"]) for m in data["metrics"]] == [
        (7.81, "s/it"),
        (3.66, "s/it"),
        (2.1, "x"),
    ]
    assert data["conditions"]["hardware"] == ["RTX 4090"]
    assert data["conditions"]["model"] == ["Qwen3-8B"]
    assert data["conditions"]["precision"] == ["Q4_K_M"]
    assert data["conditions"]["baseline"] == ["llama.cpp b8902"]
    assert data["conditions"]["load"] == {"batch": "1"}
    assert data["where"] == "o/r@abc:README.md#L1" and data["line"] == 1
    assert data["complete"] is True


def test_chinese_claim_with_baseline_and_load() -> None:
    text = "说明\n\n在 RTX 5090 32GB 上用 vLLM 0.11.0 跑 Qwen3.6-27B FP8，并发 8、上下文 32K 时相对 SGLang 吞吐提升 35%，p99 延迟 120 ms。"
    [claim] = extract_claims(text)
    assert claim.line == 3
    assert claim.conditions.hardware == ["RTX 5090 32 GB"]
    assert claim.conditions.baseline == ["SGLang"]
    assert claim.conditions.load == {"concurrency": "8", "context": "32K", "percentiles": "p99"}
    assert [(m.value, m.unit) for m in claim.metrics] == [(35.0, "%"), (120.0, "ms")]


def test_markup_between_digits_never_joins_two_numbers() -> None:
    assert (
        markdown_module.clean_text("`2`12.5 ms and **3**4 and `v1.2`")
        == "2 12.5 ms and 3 4 and v1.2"
    )
    values = [m.value for c in extract_claims("Latency: `2`12.5 ms on H100") for m in c.metrics]
    assert 212.5 not in values


def test_vs_pairs_share_the_unit() -> None:
    [claim] = extract_claims("M5 Pro 48 GB 上 decode 74 vs oMLX 38 tok/s")
    assert [(m.value, m.unit) for m in claim.metrics] == [(74.0, "tok/s"), (38.0, "tok/s")]
    assert claim.conditions.baseline == ["oMLX"]


def test_incomplete_claim_is_marked() -> None:
    [claim] = extract_claims("Decode reaches 93 tok/s on an RTX 5070.")
    assert not claim.complete
    assert claim.conditions.missing() == ["model", "precision", "baseline"]


def test_table_rows_inherit_heading_and_header() -> None:
    text = (
        "## gpt-oss-20b on 1× Arc Pro B70 (MXFP4), vs llama.cpp\n\n"
        "| context | prefill tok/s | llama.cpp | speedup |\n|---|---|---|---|\n"
        "| 2K | 4147 | 927 | 4.47× |\n| 4K | 3428 | 896 | 3.83× |\n"
    )
    claims = extract_claims(text)
    assert [c.line for c in claims] == [5, 6]
    first = claims[0]
    assert first.conditions.hardware == ["Arc Pro B70"]
    assert first.conditions.model == ["gpt-oss-20b"]
    assert first.conditions.precision == ["MXFP4"]
    assert first.conditions.baseline == ["llama.cpp"]
    assert first.conditions.load["context"] == "2K"
    assert [(m.name, m.value, m.unit) for m in first.metrics] == [
        ("prefill", 4147.0, "tok/s"),
        ("prefill (llama.cpp baseline)", 927.0, "tok/s"),
        ("speedup", 4.47, "x"),
    ]
    assert [m.value for m in own_metrics(first)] == [4147.0, 4.47]
    assert first.complete


def test_tab_separated_row_inherits_from_earlier_cells() -> None:
    text = "Lily\tQwen3.6-35B-A3B Q4 / group 64\tM5 Max 128 GB，batch 1，decode 1.236–1.319× vs MLX"
    [claim] = extract_claims(text)
    assert claim.conditions.model == ["Qwen3.6-35B-A3B"]
    assert claim.conditions.precision == ["Q4"]
    assert [m.value for m in claim.metrics] == [1.236, 1.319]


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        pytest.param("默认路由已回退。", ClaimKind.NEGATIVE, id="zh-reverted"),
        pytest.param("NVFP4 在 RTX 3090 上不支持。", ClaimKind.NEGATIVE, id="zh-unsupported"),
        pytest.param("The +9.32 pp claim was withdrawn in v3.", ClaimKind.NEGATIVE, id="withdrawn"),
        pytest.param(
            "Split-serve is slower at 64 concurrent requests: 12.1 tok/s.",
            ClaimKind.NEGATIVE,
            id="slower",
        ),
        pytest.param("开启后质量下降。", ClaimKind.NEGATIVE, id="zh-quality-drop"),
        pytest.param(
            "Output is bit-exact with the reference.", ClaimKind.CORRECTNESS, id="correctness"
        ),
        pytest.param("WER 2.66 on test-clean.", ClaimKind.QUALITY, id="quality"),
        pytest.param(
            "Only the Q4_K_M path supports 8 conversations.", ClaimKind.LIMITATION, id="limitation"
        ),
        pytest.param("Merged into main as PR #35.", ClaimKind.STATUS, id="status"),
    ],
)
def test_kinds(text: str, kind: ClaimKind) -> None:
    assert [c.kind for c in extract_claims(text)] == [kind]


def test_plain_prose_and_code_blocks_make_no_claims() -> None:
    text = "An engine for Arc GPUs.\n\n```\n./bench --ctx 4096 --speed 3x\n```\n"
    assert extract_claims(text) == []


def test_benchmark_json_file(tmp_path: Path) -> None:
    path = tmp_path / "pd_dsr1_conc8_isl512_osl256.json"
    record = {
        "backend": "sglang-oai",
        "output_throughput": 1098.91,
        "p99_ttft_ms": 4288.5,
        "std_ttft_ms": 9.0,
    }
    path.write_text(json.dumps(record), encoding="utf-8")
    [claim] = extract_file(path, "o/r@abc:bench/x.json")
    assert claim.conditions.model == ["DeepSeek-R1"]
    assert claim.conditions.software == ["SGLang"]
    assert claim.conditions.load == {
        "concurrency": "8",
        "prompt": "512",
        "output": "256",
        "percentiles": "p99",
    }
    assert [(m.name, m.unit) for m in claim.metrics] == [
        ("output_throughput", "tok/s"),
        ("p99_ttft_ms", "ms"),
    ]
    assert claim.where == "o/r@abc:bench/x.json"
    assert parse_benchmark_json({"rows": [record, record]}, "x.json", "w")[1].metrics


def test_corpus_benchmark_files() -> None:
    folder = SHARED / "corpus" / "AMD-AGI__Infera" / "files" / "bench"
    if not folder.is_dir():
        pytest.skip("../shared corpus not present")
    for path in sorted(folder.rglob("*.json")):
        [claim] = extract_file(path, "AMD-AGI/Infera")
        text = path.read_text(encoding="utf-8")
        assert claim.conditions.load["concurrency"] in path.name
        assert all(repr(m.value) in text for m in claim.metrics)


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=300))
def test_never_crashes_on_arbitrary_text(text: str) -> None:
    extract_claims(text)


SNIPPETS = st.sampled_from(
    [
        "RTX 4090",
        "Qwen3-8B",
        "Q4_K_M",
        "vs llama.cpp",
        "相对 vLLM",
        "tok/s",
        "ms",
        "×",
        "%",
        "→",
        " vs ",
        "batch 1",
        "并发 8",
        "p99",
        "± 3",
        "|",
        "\n",
        "。",
        "; ",
        "4K",
        "GB",
        "s/it",
        "对比",
        "from",
        " to ",
        "WER",
        "9/20 tasks",
        "2m23s",
        "1h05m",
        "1分23秒",
        "5.56986e-05",
        "2.29E-05",
        "3e5c1a",
        "25'34''",
        "-",
        ".",
        ",",
    ]
)
NOISY = st.lists(
    st.one_of(
        SNIPPETS,
        st.integers(0, 99999).map(str),
        st.floats(0, 1e4).map(lambda f: f"{f:.3g}"),
        st.text(max_size=4),
    ),
    max_size=40,
).map(" ".join)


@settings(max_examples=200, deadline=None)
@given(NOISY)
def test_metric_values_come_from_the_text(text: str) -> None:
    written = {
        abs(float(n.replace(",", "")))
        for n in NUMBER.findall(text)
        if n.replace(",", "").replace(".", "")
    }
    written |= {float(n) for n in SCIENTIFIC.findall(text)}  # `5.56986e-05` as one value
    # the one value not written as a number: the seconds of a compound duration (`2m23s`)
    written |= set(duration_seconds(text))
    for claim in extract_claims(text):
        for metric in claim.metrics:
            assert abs(metric.value) in written, (metric, text)


@settings(max_examples=200, deadline=None)
@given(NOISY)
def test_condition_names_are_canonical(text: str) -> None:
    # the one exception, a row label under a `Model` column (extract.rowlabels), needs a
    # header word these snippets never write
    cat = default_catalog()
    for claim in extract_claims(text):
        for field in ("hardware", "model", "precision", "software"):
            for name in getattr(claim.conditions, field):
                assert cat.is_canonical(field, name), (field, name, text)


def test_labelled_set_precision_and_recall() -> None:
    spec = importlib.util.spec_from_file_location("evidence_bench", BENCH)
    assert spec and spec.loader
    bench = importlib.util.module_from_spec(spec)
    sys.modules["evidence_bench"] = bench  # its dataclasses look their module up
    spec.loader.exec_module(bench)
    items = [
        json.loads(line) for line in bench.FIXTURE.read_text(encoding="utf-8").splitlines() if line
    ]
    assert len(items) >= 40
    for field, (tp, pred, gold) in bench.score(items).items():
        assert tp / max(pred, 1) >= 0.9, field
        assert tp / max(gold, 1) >= 0.9, field


def test_cli_extract_json_and_table(tmp_path: Path) -> None:
    path = tmp_path / "README.md"
    path.write_text(
        "# Bench\n\nOn H100 with Llama-3.1-8B BF16, TTFT 35 ms vs vLLM.\n", encoding="utf-8"
    )
    runner = CliRunner()
    result = runner.invoke(app, ["extract", str(path), "--where", "o/r@abc:README.md", "--json"])
    assert result.exit_code == 0, result.output
    [data] = json.loads(result.stdout)
    assert data["where"] == "o/r@abc:README.md#L3"
    assert data["conditions"]["hardware"] == ["H100"] and data["complete"]
    table = runner.invoke(app, ["extract", str(path)])
    assert table.exit_code == 0 and "H100" in table.stdout and "作者报告" in table.stdout
    config = tmp_path / "radar.toml"
    config.write_text('language = "en"\n', encoding="utf-8")
    english = runner.invoke(app, ["extract", str(path), "--config", str(config)])
    assert english.exit_code == 0 and "author-reported" in english.stdout
    assert "作者报告" not in english.stdout
    missing = runner.invoke(app, ["extract", str(tmp_path / "nope.md")])
    assert missing.exit_code == 2 and "Error:" in missing.output


def test_a_negated_comparison_is_not_a_baseline() -> None:
    [claim] = extract_claims("Targets are not compared with each other: 271.1 tok/s on RTX 5090.")
    assert claim.conditions.baseline == []
    [claim] = extract_claims("未对比 llama.cpp：RTX 5090 上 271.1 tok/s。")
    assert claim.conditions.baseline == []
    [claim] = extract_claims("271.1 tok/s on RTX 5090 vs llama.cpp.")
    assert claim.conditions.baseline == ["llama.cpp"]


def _named(claim_text: str) -> list[tuple[str, float, str]]:
    return [(m.name, m.value, m.unit) for c in extract_claims(claim_text) for m in c.metrics]


@pytest.mark.parametrize(
    ("text", "own", "baseline"),
    [
        pytest.param(
            "2x B70 vs llama.cpp SYCL: prefill 963 vs 763 tok/s (1.26x).",
            [963.0, 1.26],
            [763.0],
            id="bare-then-measured",
        ),
        pytest.param(
            "gpt-oss-120b: about 31 tok/s decode vs about 12.4 tok/s for LM Studio.",
            [31.0],
            [12.4],
            id="both-measured",
        ),
        pytest.param("decode 74 tok/s，对比 oMLX 为 38 tok/s。", [74.0], [38.0], id="zh-cue"),
        pytest.param(
            "Profiler hints OFF 2.4840 ms vs ON 2.4957 ms.", [2.4957], [2.484], id="baseline-first"
        ),
        pytest.param(
            "On an RTX 4090, a 2.1x speedup over llama.cpp, 35% vs vLLM.",
            [2.1, 35.0],
            [],
            id="ratio-without-pair",
        ),
    ],
)
def test_the_compared_systems_number_is_named_baseline(
    text: str, own: list[float], baseline: list[float]
) -> None:
    claims = extract_claims(text)
    assert [m.value for claim in claims for m in own_metrics(claim)] == own
    marked = [m for claim in claims for m in claim.metrics if m.name.endswith(" (baseline)")]
    assert [m.value for m in marked] == baseline


def test_a_bare_pair_after_a_measured_one_keeps_its_numbers() -> None:
    text = (
        "gpt-oss-20b: prefill 1795 vs 927 tok/s at 512 context (1.94x), 4147 vs 927 at 2K (4.47x)."
    )
    assert _named(text) == [
        ("prefill", 1795.0, "tok/s"),
        ("prefill (baseline)", 927.0, "tok/s"),
        ("speedup", 1.94, "x"),
        ("prefill", 4147.0, "tok/s"),
        ("prefill (baseline)", 927.0, "tok/s"),
        ("speedup", 4.47, "x"),
    ]


SAMPLE_README = (
    "# Mach X\n\n"
    "Author-reported, on Intel Arc Pro B70 (32 GB each), same GGUF, llama.cpp with FlashAttention\n"
    "as baseline:\n\n"
    "- gpt-oss-20b, 1x B70: prefill 1795 vs 927 tok/s at 512 context (1.94x), 4147 vs 927 at 2K\n"
    "  (4.47x); decode 58.3 vs 50.3 tok/s at 512 (1.16x).\n"
    "- gpt-oss-120b (MXFP4), 2x B70 tensor-parallel: about 31 tok/s decode vs about 12.4 tok/s for\n"
    "  LM Studio on the same two cards.\n"
    "- Qwen3.6-35B-A3B (all Q8_0), 2x B70 vs llama.cpp SYCL layer split: prefill 963 vs 763 tok/s\n"
    "  (1.26x), decode 63 vs 42 tok/s (1.49x); perplexity 6.36.\n\n"
    "Other notes: vLLM was tried once.\n\n"
    "| model | decode tok/s |\n|---|---|\n| Qwen3-8B | 50 |\n"
)


def test_conditions_stay_in_their_list_item_and_paragraph() -> None:
    claims = extract_claims(SAMPLE_README)
    qwen = next(c for c in claims if c.text.startswith("Qwen3.6-35B-A3B"))
    assert qwen.line == 10
    assert "LM Studio" not in qwen.conditions.software
    assert qwen.conditions.baseline == ["llama.cpp"]
    # a wrapped list item is one statement, and its later sentences keep its conditions
    decode = next(c for c in claims if c.text.startswith("decode 58.3"))
    assert decode.line == 7 and decode.conditions.model == ["gpt-oss-20b"]
    assert decode.conditions.hardware == ["Arc Pro B70"]
    lm_studio = next(c for c in claims if c.line == 8)
    assert lm_studio.conditions.baseline == ["LM Studio"]
    # the table follows another paragraph: the set-up prose above the list is not its own,
    # but the part the section's lead states holds in all of the section (issue #14)
    [row] = [c for c in claims if c.line == 17]
    assert row.conditions.software == ["vLLM"] and row.conditions.baseline == []
    assert row.conditions.hardware == ["Arc Pro B70 32 GB"]


def test_list_items_inherit_the_paragraph_that_introduces_them() -> None:
    text = "Setup: RTX 4090 with vLLM 0.11.0.\n\n- Qwen3-8B: 50 tok/s\n- Llama-3.1-8B: 40 tok/s\n"
    claims = extract_claims(text)
    assert [c.conditions.hardware for c in claims] == [["RTX 4090"], ["RTX 4090"]]
    assert [c.conditions.model for c in claims] == [["Qwen3-8B"], ["Llama-3.1-8B"]]


@pytest.mark.parametrize(
    ("text", "names"),
    [
        pytest.param(
            "MTP3, long reasoning: 584.0-695.1 decode tok/s at 72.4-83.3% draft acceptance.",
            ["decode", "decode", "acceptance", "acceptance"],
            id="acceptance-after",
        ),
        pytest.param(
            "engine is behind: 86% prefill, 82% decode",
            ["prefill", "decode"],
            id="word-right-after",
        ),
        # a percentage said to be lower/faster/higher is a change of its metric, and the
        # direction is said once: the second clause's `by up to 40%` names no verb
        pytest.param(
            "reduces latency by up to 52% and VRAM by up to 40%",
            ["latency reduction", "VRAM"],
            id="before",
        ),
        # the bare 0.48 is a latency too: the number reader takes it after the rules' 52%
        pytest.param(
            "HY-VLA: latency 0.48 (52% lower)",
            ["latency reduction", "latency"],
            id="not-inside-a-word",
        ),
        pytest.param("decode is 30% faster than vLLM", ["decode speedup"], id="faster-after"),
        pytest.param("throughput improved by 20% on A100", ["throughput increase"], id="up"),
        pytest.param("显存减少约40%，延迟降低了52%", ["显存降低", "延迟降低"], id="zh-before"),
        pytest.param("accuracy 95% on MMLU", ["accuracy"], id="no-direction"),
    ],
)
def test_percentages_take_the_nearest_metric_word(text: str, names: list[str]) -> None:
    assert [name for name, _, _ in _named(text)] == names


def test_table_scores_take_their_column_name() -> None:
    text = (
        "| Model | AIME 2025 | GPQA-Diamond |\n|---|---|---|\n| Qwen3.6-27B | 86.67% | 86.87% |\n"
    )
    [claim] = extract_claims(text)
    assert claim.kind is ClaimKind.QUALITY
    assert [(m.name, m.value) for m in claim.metrics] == [
        ("AIME 2025", 86.67),
        ("GPQA-Diamond", 86.87),
    ]


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        pytest.param("CPU-only is supported.", None, id="supported-is-a-capability"),
        pytest.param(
            "Vectors are kept in CPU memory, retrieving only the keys that matter.",
            None,
            id="only-as-mechanism",
        ),
        pytest.param("Only Qwen3.6-27B is supported;", ClaimKind.LIMITATION, id="only-x-supported"),
        pytest.param(
            "Limitations: only the two artifacts are supported;",
            ClaimKind.LIMITATION,
            id="limitations-only",
        ),
        pytest.param(
            "At the moment, it is only supported for some models.",
            ClaimKind.LIMITATION,
            id="only-supported-for",
        ),
        pytest.param("INT8 KV is unsupported.", ClaimKind.NEGATIVE, id="unsupported"),
        pytest.param("该功能只支持 CUDA。", ClaimKind.LIMITATION, id="zh-only-supports"),
        pytest.param("仅在 RTX 4090 上验证。", ClaimKind.LIMITATION, id="zh-only"),
    ],
)
def test_supported_is_not_a_limit_but_only_x_is(text: str, kind: ClaimKind | None) -> None:
    assert [c.kind for c in extract_claims(text)] == ([kind] if kind else [])


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("据称在 RTX 4090 上 decode 可达 120 tok/s。", id="zh"),
        pytest.param("It reportedly reaches 120 tok/s on an RTX 4090.", id="reportedly"),
        pytest.param("The fork is claimed to reach 120 tok/s on an RTX 4090.", id="claimed-to"),
        pytest.param("It allegedly reaches 120 tok/s on an RTX 4090.", id="allegedly"),
    ],
)
def test_hedged_statements_are_not_the_authors_firm_claims(text: str) -> None:
    [claim] = extract_claims(text, reporter="author")
    assert claim.reporter == "community"
    assert claim.conditions.load["hedged"] == "yes"
    [firm] = extract_claims("It reaches 120 tok/s on an RTX 4090.", reporter="author")
    assert firm.reporter == "author" and "hedged" not in firm.conditions.load


def test_the_set_up_paragraph_names_the_baseline() -> None:
    claims = extract_claims(SAMPLE_README)
    first = next(c for c in claims if c.text.startswith("gpt-oss-20b"))
    assert first.conditions.baseline == ["llama.cpp"]
    [claim] = extract_claims("以 vLLM 0.11.0 作为基线，RTX 4090 上吞吐 50 tok/s。")
    assert claim.conditions.baseline == ["vLLM 0.11.0"]


def test_tables_module_exports_its_reader() -> None:
    assert set(tables_module.__all__) == {"TableClaim", "read_table"}


def test_precision_columns_compare_with_the_wide_one() -> None:
    text = (
        "#### RTX 4090\n\n"
        "| Model | FP16 latency (ms) | INT4 latency (ms) | Speedup |\n|---|---|---|---|\n"
        "| Llama-2-7B | 15.50 | 5.28 | 2.94x |\n"
    )
    claims = extract_claims(text)
    by_value = {m.value: c for c in claims for m in c.metrics}
    fp16, int4, speedup = by_value[15.5], by_value[5.28], by_value[2.94]
    assert fp16.conditions.precision == ["FP16"] and not fp16.conditions.baseline
    assert [m.name for m in fp16.metrics] == ["FP16 latency (baseline)"]
    assert int4.conditions.precision == ["INT4"] and int4.conditions.baseline == ["FP16"]
    assert speedup.conditions.baseline == ["FP16"] and speedup.conditions.precision == ["INT4"]
    assert all(c.conditions.model == ["Llama-2-7B"] for c in claims)
    assert all(c.conditions.hardware == ["RTX 4090"] for c in claims)
    assert {m.value for m in own_metrics(int4)} == {5.28, 2.94}


def test_a_header_of_load_values_gives_each_cell_its_load() -> None:
    text = (
        "TTFT of Llama-3-8B (Unit: Seconds):\n\n"
        "| Seq Len | 256 | 512 |\n|---|---|---|\n"
        "| FP16 | 0.031 | 0.055 |\n| Ours | 0.021 | 0.033 |\n| Speedup | 1.52x | 1.68x |\n"
    )
    claims = extract_claims(text)
    found = {(m.value, m.unit): c for c in claims for m in c.metrics}
    assert set(found) == {
        (0.031, "s"),
        (0.055, "s"),
        (0.021, "s"),
        (0.033, "s"),
        (1.52, "x"),
        (1.68, "x"),
    }
    assert found[(0.021, "s")].conditions.load["prompt"] == "256"
    assert found[(0.033, "s")].conditions.load["prompt"] == "512"
    assert found[(0.033, "s")].conditions.baseline == ["FP16"]
    assert found[(1.68, "x")].conditions.baseline == ["FP16"]
    assert not found[(0.055, "s")].conditions.baseline
    assert all(c.conditions.model == ["Llama-3-8B"] for c in claims)


def test_a_second_header_row_names_the_systems_and_the_last_is_ours() -> None:
    text = (
        "| setting | 6 nodes | 3 nodes |\n|---|---|---|\n"
        "| engine | vLLM 0.7.3, BF16 | Chitu 0.1.0, FP8 |\n"
        "| bs=1 | 6.85 token/s | 7.0 token/s |\n"
    )
    claims = extract_claims(text)
    by_value = {m.value: c for c in claims for m in c.metrics}
    assert by_value[7.0].conditions.baseline == ["vLLM 0.7.3"]
    assert by_value[7.0].conditions.precision == ["FP8"]
    assert by_value[7.0].conditions.load["batch"] == "1"
    assert by_value[6.85].conditions.precision == ["BF16"]
    assert not by_value[6.85].conditions.baseline


def test_a_continuation_row_keeps_the_model_of_the_row_above() -> None:
    text = (
        "| Model | GPUs | tok/s |\n|---|---|---|\n| Llama-2-70B | 4 | 1,200 |\n|  | 8 | 2,300 |\n"
    )
    claims = extract_claims(text)
    assert [c.conditions.model for c in claims] == [["Llama-2-70B"], ["Llama-2-70B"]]
    assert all(m.value == 2300.0 for m in claims[1].metrics)


def test_a_1x_row_is_the_baseline_of_the_others() -> None:
    text = "| System | Throughput |\n|---|---|\n| HF Transformers | 1.0x |\n| Ours | 24x |\n"
    claims = extract_claims(text)
    ours = next(c for c in claims if any(m.value == 24 for m in c.metrics))
    assert ours.conditions.baseline == ["Hugging Face Transformers"]  # the catalogue's name for it


def test_a_setup_section_after_the_results_holds_for_them() -> None:
    text = (
        "# KV transfer\n\n## Results\n\n"
        "For a prompt length of 32,768 tokens the transfer took only 31.65 ms.\n\n"
        "| Prompt Length | TTFT (ms) |\n|---|---|\n| 128 tokens | 46.09 |\n\n"
        "## Benchmark Setup\n\n- **Hardware**: NVIDIA H800 x 16\n- **Model**: Qwen3-8B\n"
    )
    claims = extract_claims(text)
    found = {m.value: c for c in claims for m in c.metrics}
    assert set(found) == {31.65, 46.09}
    for value in (31.65, 46.09):
        assert found[value].conditions.hardware == ["H800"]
        assert found[value].conditions.model == ["Qwen3-8B"]
    assert found[46.09].conditions.load["prompt"] == "128"
    assert found[31.65].conditions.load["prompt"] == "32768"


def test_a_setup_line_holds_for_its_section_only() -> None:
    text = (
        "## A\n\nModel: Qwen3-8B\n\nDecode reaches 40 tok/s.\n\n## B\n\nDecode reaches 50 tok/s.\n"
    )
    claims = extract_claims(text)
    by_value = {m.value: c for c in claims for m in c.metrics}
    assert by_value[40].conditions.model == ["Qwen3-8B"]
    assert by_value[50].conditions.model == []


def test_a_table_takes_its_unit_from_its_heading_or_the_note_below() -> None:
    heading = "### Decode speed (token/s)\n\n| System | M-7B |\n| --- | --- |\n| Ours | 12.5 (4 on GPU) |\n"
    below = "| System | M-7B |\n| --- | --- |\n| Ours | 310 |\n\nNumbers (Unit: tokens/second).\n"
    for text, value in ((heading, 12.5), (below, 310.0)):
        (claim,) = [c for c in extract_claims(text) if c.metrics]
        assert [(m.value, m.unit) for m in claim.metrics] == [(value, "tok/s")]


def test_sequence_length_columns_are_load_and_a_speedup_column_is_a_ratio() -> None:
    text = (
        "| Batch_size | Input Seqlen | Output Seqlen | FT <br/> Latency (ms) | FT <br/> Speedup |\n"
        "| :-: | :-: | :-: | :-: | :-: |\n"
        "| 4 | 128 | 8 | 629.64 | 1.60 |\n"
    )
    (claim,) = [c for c in extract_claims(text) if c.metrics]
    assert claim.conditions.load == {"batch": "4", "prompt": "128", "output": "8"}
    assert [(m.value, m.unit) for m in claim.metrics] == [(629.64, "ms"), (1.6, "x")]
    load = conditions_module.find_conditions(
        "Workload: input sequence length = 512, output sequence length = 32.", default_catalog()
    ).load
    assert load == {"prompt": "512", "output": "32"}


def test_the_last_systems_variants_are_not_its_baselines() -> None:
    text = (
        "| System | tok/s |\n| --- | --- |\n| Petals | 2.84 |\n| FlexLLMGen | 7.32 |\n"
        "| FlexLLMGen with Compression | 8.38 |\n"
    )
    # the project's own rows (FlexLLMGen's page) are compared with the others; rows of
    # systems none of which is the page's own say nothing of which is compared (#14)
    where = "FMInference/FlexLLMGen@abc:README.md"
    rows = {c.line: c for c in extract_claims(text, where=where) if c.metrics}
    assert rows[3].metrics[0].name.endswith("(baseline)")
    assert not rows[4].metrics[0].name.endswith("(baseline)")
    assert rows[5].conditions.baseline == ["Petals"]
    elsewhere = {c.line: c for c in extract_claims(text) if c.metrics}
    assert not elsewhere[5].conditions.baseline


@pytest.mark.parametrize(
    ("text", "values"),
    [
        pytest.param("kernel１２３s on H100 is fast", set(), id="full-width-glued-to-a-word"),
        pytest.param("MI1,234,567.89X speedup", set(), id="tail-of-a-glued-number"),
        pytest.param("runs at ２.５x faster than llama.cpp on A100", {2.5}, id="full-width"),
        pytest.param("仅需0.82秒", {0.82}, id="glued-to-chinese"),
        pytest.param("throughput 1,234 tok/s on H100", {1234.0}, id="grouped"),
    ],
)
def test_a_number_is_always_a_whole_number_of_the_input(text: str, values: set[float]) -> None:
    """Never the tail of a longer number, whatever the script of its digits (refs #13)."""
    found = {metric.value for claim in extract_claims(text) for metric in claim.metrics}
    assert found == values


def _by_value(text: str) -> dict[float, tuple[str, Conditions]]:
    """Each extracted number -> (its unit, its claim's conditions)."""
    return {m.value: (m.unit, c.conditions) for c in extract_claims(text) for m in c.metrics}


def test_a_sections_lead_sets_up_its_subsections_and_names_the_rows_baseline() -> None:
    text = (
        "# Kernels\n\nFast FP8 GEMMs.\n\n## Performance\n\n"
        "We test all shapes on H800 SXM5 with NVCC 12.8. All speedups are in comparison "
        "to our implementation based on CUTLASS 3.6.\n\n### Dense\n\n"
        "| M | Computation | Speedup |\n|---|---|---|\n| 64 | 206 TFLOPS | 2.7x |\n"
    )
    found = _by_value(text)
    tflops, ratio = found[206.0][1], found[2.7][1]
    assert tflops.hardware == ["H800"] and tflops.precision == ["FP8"]
    # the row's speedup is over CUTLASS: so is the TFLOPS beside it (issue #14)
    assert tflops.baseline == ["CUTLASS 3.6"]
    assert ratio.baseline == ["CUTLASS 3.6"]


def test_a_glossary_list_before_the_numbers_is_no_set_up() -> None:
    text = (
        "## Benchmarks\n\n* OPUS-MT: a base Transformer trained with Marian\n"
        "* WMT14 model: a base Transformer\n\n### CPU\n\n"
        "| | Tokens per second |\n| --- | --- |\n| Marian 1.11.0 | 344.5 |\n"
    )
    assert _by_value(text)[344.5][1].model == []


def test_a_label_row_names_the_rows_below_and_a_dash_row_is_a_variant() -> None:
    text = (
        "| | Tokens per second | BLEU |\n| --- | --- | --- |\n"
        "| **OPUS-MT model** | | |\n| Marian 1.11.0 | 344.5 | 27.93 |\n| - int16 | 330.2 | 27.65 |\n"
        "| CTranslate2 3.6.0 | 525.0 | 27.92 |\n\n"
        "Executed with 4 threads on an Intel(R) Xeon(R) Platinum 8275CL CPU.\n"
    )
    found = {
        m.value: (m.unit, c.conditions)
        for c in extract_claims(text, where="OpenNMT/CTranslate2@abc:README.md")
        for m in c.metrics
    }
    assert found[27.93][0] == "" and found[344.5][0] == "tok/s"
    variant = found[330.2][1]
    assert variant.model == ["OPUS-MT"] and variant.precision == ["INT16"]
    assert variant.hardware == ["Xeon Platinum 8275CL"]
    assert found[525.0][1].baseline == ["Marian 1.11.0"]


def test_a_perplexity_table_compares_with_its_fp16_rows() -> None:
    text = (
        "| Model | Method | PPL | Alpha |\n| --- | --- | --- | --- |\n"
        "| Mixtral-8x7B | FP16 | 3.842 | |\n| | SQ W8A8 | 3.893 | 0.8 |\n"
    )
    claims = [c for c in extract_claims(text) if c.metrics]
    fp16, w8a8 = claims
    assert [(m.value, m.unit) for m in fp16.metrics] == [(3.842, "")]
    assert fp16.metrics[0].name.endswith("(baseline)")
    assert w8a8.conditions.model == ["Mixtral-8x7B"] and w8a8.conditions.baseline == ["FP16"]
    assert all(m.value != 0.8 for m in w8a8.metrics)


def test_an_html_colspan_cell_is_read_once() -> None:
    text = (
        "<table>\n<tr><th>Model</th><th>A-5B</th><th>A-5B-I2V</th></tr>\n"
        '<tr><td>单GPU显存消耗</td><td colspan="2">SAT BF16: 76GB</td></tr>\n</table>\n'
    )
    values = [m.value for c in extract_claims(text) for m in c.metrics]
    assert values == [76.0]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("It reduces TTFT by X2-X22.", [(2.0, "x"), (22.0, "x")], id="x-first"),
        pytest.param("Runs on an X11 server with 12 ms latency", [(12.0, "ms")], id="x-name"),
        pytest.param("8x A100: 4.1 hours ($132)", [(4.1, "h"), (132.0, "$")], id="cost"),
        pytest.param("花费不到 300 美元", [(300.0, "$")], id="yuan-words"),
        pytest.param("at 16 QPS it serves 4.05 requests/second", [(4.05, "req/s")], id="qps-load"),
    ],
)
def test_units_written_before_or_spelt_out(text: str, expected: list[tuple[float, str]]) -> None:
    found = [(m.value, m.unit) for c in extract_claims(text) for m in c.metrics]
    assert found == expected


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        pytest.param("在 Llama-2 70B 运行于 4 个 A100x80GB 的情况下", "gpus", "4", id="zh-count"),
        pytest.param("GPU: NVIDIA H100 80GB HBM3 * 8", "gpus", "8", id="count-after"),
        pytest.param("batch size of input is 1, generate 512 tokens", "output", "512", id="gen"),
        pytest.param("We use a batch size of 1", "batch", "1", id="batch-of"),
        pytest.param("at 16 QPS in the optimized setup", "rate", "16", id="qps"),
    ],
)
def test_load_written_in_prose(text: str, key: str, value: str) -> None:
    assert conditions_module.find_conditions(text, default_catalog()).load.get(key) == value


def test_a_throughput_is_not_an_output_length() -> None:
    load = conditions_module.find_conditions("It generates 100 tokens/s", default_catalog()).load
    assert "output" not in load


def test_chinese_comparison_with_a_chinese_name() -> None:
    [claim] = extract_claims("DeepSpeed-HE 比现有系统快 15 倍以上")
    assert claim.conditions.baseline == ["现有系统"]


def test_a_post_title_and_a_figure_caption_set_up_the_prose() -> None:
    text = (
        '---\nlayout: post\ntitle: "Serving LLMs on AMD MI300X"\n---\n\n'
        "<b>Figure 6</b>: Throughput (Llama-3.2-1B-Instruct, 10000 requests of 512 tokens).\n\n"
        "DMA achieves better throughput than the custom kernel. The gain starts at 5.5%.\n"
    )
    [claim] = [c for c in extract_claims(text) if c.metrics]
    assert claim.conditions.hardware == ["MI300X"]
    assert claim.conditions.model == ["Llama-3.2-1B"]
    assert claim.conditions.load.get("prompt") == "512"
    assert claim.conditions.baseline == ["custom kernel"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param(
            "Model | Latency (ms)\n--- | ---\nLlama-3-8B | 25\n", [(25.0, "ms")], id="no-pipes"
        ),
        pytest.param(
            "| Model | Latency (ms) |\n|---|---|\n| Llama | 25.3 (1.8x) |\n",
            [(25.3, "ms"), (1.8, "x")],
            id="ratio-in-parentheses",
        ),
        pytest.param(
            "| Model | Prefill / Decode (tok/s) |\n|---|---|\n| Llama | 1200 / 80 |\n",
            [(1200.0, "tok/s"), (80.0, "tok/s")],
            id="pair",
        ),
        pytest.param(
            "All timings in us/call.\n\n| op | time |\n|---|---|\n| gemm | 12.5 |\n",
            [(12.5, "us")],
            id="unit-above",
        ),
        pytest.param(
            "| Model | PyTorch (Sec) |\n|---|---|\n| BERT | 1.25 |\n", [(1.25, "s")], id="sec"
        ),
    ],
)
def test_table_shapes(text: str, expected: list[tuple[float, str]]) -> None:
    assert [(m.value, m.unit) for c in extract_claims(text) for m in c.metrics] == expected


def test_load_columns_and_group_headers() -> None:
    text = (
        "| | Prefill | | Decode | |\n|---|---|---|---|---|\n| Model | TP1 | TP2 | TP1 | TP2 |\n"
        "| Llama-3-8B | 1200 tok/s | 2100 tok/s | 80 tok/s | 140 tok/s |\n\n"
        "| Type | Dispatch #EP | Bandwidth |\n|---|---|---|\n| Intranode | 8 | 153 GB/s |\n"
    )
    names = {m.value: (m.name, c.conditions.load) for c in extract_claims(text) for m in c.metrics}
    assert names[2100.0] == ("Prefill TP2", {"tp": "2"})
    assert names[153.0][1] == {"ep": "8"}


def test_a_list_of_supported_models_or_a_port_source_is_no_set_up() -> None:
    text = (
        "# Runtime\n\nSupported models include pi0.5, GR00T N1.7 and HY-VLA.\n"
        "It ports the engine from the RTX 5090 to the GeForce RTX 4090.\n\n"
        "- The C++ runtime: latency 0.48 (52% lower).\n"
    )
    [claim] = [c for c in extract_claims(text) if c.metrics]
    assert claim.conditions.model == [] and claim.conditions.hardware == ["RTX 4090"]
    # a list item that names its model has it (the catalogue knows HY-VLA)
    [own] = [c for c in extract_claims(text + "- HY-VLA: latency 0.48.\n") if c.line == 7]
    assert own.conditions.model == ["HY-VLA"]


@pytest.mark.parametrize(
    ("text", "baseline"),
    [
        pytest.param("MLX v.s. llama.cpp: prefill 1.5x on M2", "llama.cpp", id="v.s."),
        pytest.param("与 vLLM 相比，吞吐提升 2.3 倍", "vLLM", id="yu-xiangbi"),
        pytest.param("速度是 FP16 的 2.4 倍", "FP16", id="shi-de-bei"),
        pytest.param("2.1x speedup w.r.t. PyTorch eager", "PyTorch", id="wrt"),
        pytest.param("We outperform TensorRT-LLM by 20%", "TensorRT-LLM", id="outperform"),
        pytest.param("achieves 3x the throughput of vLLM", "vLLM", id="the-x-of"),
    ],
)
def test_comparison_cues(text: str, baseline: str) -> None:
    [claim] = [c for c in extract_claims(text) if c.metrics]
    assert claim.conditions.baseline == [baseline]


@pytest.mark.parametrize(
    ("text", "expected", "baseline", "load"),
    [
        pytest.param(
            "16xL40上的混合并行比8xL40低1.16倍", [(1.16, "x")], ["L40"], {"gpus": "16"}, id="bi-8x"
        ),
        pytest.param(
            "8 路并发下吞吐 1200 tokens/s", [(1200.0, "tok/s")], [], {"concurrency": "8"}, id="lu"
        ),
        pytest.param(
            "单卡 A100 上每秒生成 30 张图", [(30.0, "img/s")], [], {"gpus": "1"}, id="images"
        ),
        pytest.param("加速比为 3.2", [(3.2, "x")], [], {}, id="jiasubi"),
        pytest.param("相较 HF 提升 24 倍", [(24.0, "x")], ["HF"], {}, id="xiangjiao"),
    ],
)
def test_chinese_phrasing(
    text: str, expected: list[tuple[float, str]], baseline: list[str], load: dict[str, str]
) -> None:
    [claim] = [c for c in extract_claims(text) if c.metrics]
    assert [(m.value, m.unit) for m in claim.metrics] == expected
    assert claim.conditions.baseline == baseline and claim.conditions.load == load


def test_a_transposed_table_names_its_numbers_by_row() -> None:
    text = "| Metric | A100 | H100 |\n|---|---|---|\n| TTFT (ms) | 120 | 80 |\n"
    found = [
        (m.name, m.unit, c.conditions.hardware) for c in extract_claims(text) for m in c.metrics
    ]
    assert found == [("TTFT", "ms", ["A100"]), ("TTFT", "ms", ["H100"])]


def test_a_table_row_of_the_system_the_prose_compares_with_is_the_baseline() -> None:
    # the project's own system comes first; the prose names the compared one
    text = (
        "- vLLM FP16 is 2.88x faster than Hugging Face FP16.\n\n"
        "| Model Variant | Inference Speed (tokens/sec) |\n| --- | --- |\n"
        "| vLLM FP16 | 1109.08 |\n| vLLM FP32 | 365.46 |\n"
        "| Hugging Face FP16 | 384.89 |\n| Hugging Face FP32 | 314.19 |\n"
    )
    found = {m.value: (m.name, c.conditions) for c in extract_claims(text) for m in c.metrics}
    assert found[1109.08][1].baseline == ["Hugging Face"]
    assert found[365.46][1].baseline == ["Hugging Face"]
    assert found[384.89][0].endswith("(baseline)") and found[314.19][0].endswith("(baseline)")
    assert not found[1109.08][0].endswith("(baseline)")


def test_a_lowercase_phrase_or_a_model_named_in_prose_picks_no_table_baseline() -> None:
    text = (
        "The KV transfer took 31.65 ms.\n\n![Transfer Time vs KV Size](plot.png)\n\n"
        "Detailed data:\n\n"
        "| Prompt Length | Mean TTFT (ms) | KV Size |\n| --- | --- | --- |\n"
        "| 128 tokens | 46.09 | 20 MB |\n"
    )
    # an image's `vs` compares axes, not systems: the `KV Size` column is no baseline
    assert all(c.conditions.baseline == [] for c in extract_claims(text) if c.metrics)


def test_speedup_columns_compare_with_the_other_system_column() -> None:
    text = (
        "#### BERT performance on T4 and PyTorch\n\n"
        "| Batch_size | Seq_len | TorchScript <br/> Latency (ms) | FT <br/> Latency (ms) "
        "| EFF-FT <br/> Latency (ms) | FT <br/> Speedup | EFF-FT <br/> Speedup |\n"
        "| --- | --- | --- | --- | --- | --- | --- |\n| 1 | 32 | 11.51 | 2.65 | 4.35 | 4.34 | 2.64 |\n"
    )
    found = {m.value: (m.name, c.conditions) for c in extract_claims(text) for m in c.metrics}
    assert found[11.51][0].endswith("(baseline)")
    for value in (2.65, 4.35, 4.34, 2.64):
        assert found[value][1].baseline == ["TorchScript"]
        assert found[value][1].hardware == ["T4"] and found[value][1].model == ["BERT"]


def test_a_caption_unit_and_score_columns() -> None:
    text = (
        "量化前后显存占用对比 (GPU Mem in GB)：\n"
        "| Precision | Baichuan2-7B |\n|---|:---:|\n| bf16 / fp16 | 15.3 |\n| 8bits | 8.0 |\n\n"
        "结果对比如下：\n\n| Model 5-shot | C-Eval |\n|---|:---:|\n| Baichuan2-7B-Chat | 54.35 |\n"
    )
    found = {m.value: (m.unit, c.conditions) for c in extract_claims(text) for m in c.metrics}
    assert found[15.3][0] == "GB" and found[8.0][1].precision == ["8-bit"]
    assert found[54.35][0] == "" and found[54.35][1].baseline == []


def test_an_evaluation_sentence_sets_the_hardware_of_its_section() -> None:
    text = (
        "## 评估\n\n我们在 GPT 上使用最多 64 个 A100 GPU 对系统进行了评估。\n\n"
        "### 稀疏注意力\n\n吞吐量相对于 Megatron-LM 提高了 2 倍以上。\n"
    )
    [claim] = [c for c in extract_claims(text) if c.metrics]
    assert claim.conditions.hardware == ["A100"] and claim.conditions.baseline == ["Megatron"]


@pytest.mark.parametrize(
    ("text", "expected", "baseline"),
    [
        pytest.param("与原始 ZeRO 相比，效率提高 2 倍", [(2.0, "x")], ["ZeRO"], id="yuanshi"),
        pytest.param(
            "bf16 理论速度 13ms 对比量化模型天然就慢一截", [(13.0, "ms")], ["量化模型"], id="adverb"
        ),
        pytest.param("4bits 精度损失在 1 - 2 个百分点", [(1.0, "pp"), (2.0, "pp")], [], id="pp"),
        pytest.param(
            "It is 2.88x faster than Hugging Face FP16.",
            [(2.88, "x")],
            ["Hugging Face FP16"],
            id="capitalised-name",
        ),
    ],
)
def test_more_comparison_phrasing(
    text: str, expected: list[tuple[float, str]], baseline: list[str]
) -> None:
    [claim] = [c for c in extract_claims(text) if c.metrics]
    assert [(m.value, m.unit) for m in claim.metrics] == expected
    assert claim.conditions.baseline == baseline


def test_tldr_is_one_sentence_and_tokens_of_context_are_load() -> None:
    text = "**TL;DR:** vLLM reaches 2400 tok/s on H100 with 30k tokens of context."
    [claim] = [c for c in extract_claims(text) if c.metrics]
    assert claim.text.startswith("TL;DR") and claim.conditions.load["context"] == "30k"


@pytest.mark.parametrize(
    ("text", "expected", "precision", "baseline", "load"),
    [
        pytest.param(
            "在 H20 上，128 并发下 QPS 达到 15。",
            [(15.0, "req/s")],
            [],
            [],
            {"concurrency": "128"},
            id="qps-before",
        ),
        pytest.param(
            "在 batch size 为 32、输入长度 2048、输出长度 512 的条件下，吞吐为 3500 token/s。",
            [(3500.0, "tok/s")],
            [],
            [],
            {"batch": "32", "prompt": "2048", "output": "512"},
            id="zh-load",
        ),
        pytest.param(
            "FP8 精度下，单卡吞吐较 BF16 提升 1.6 倍。",
            [(1.6, "x")],
            ["FP8"],
            ["BF16"],
            {},
            id="jiao",
        ),
        pytest.param(
            "It is 1.5x faster than existing W4A4 or W4A8 kernels.",
            [(1.5, "x")],
            [],
            ["W4A4", "W4A8"],
            {},
            id="or-list",
        ),
    ],
)
def test_rates_named_first_chinese_load_and_listed_baselines(
    text: str,
    expected: list[tuple[float, str]],
    precision: list[str],
    baseline: list[str],
    load: dict[str, str],
) -> None:
    [claim] = [c for c in extract_claims(text) if c.metrics]
    assert [(m.value, m.unit) for m in claim.metrics] == expected
    assert claim.conditions.precision == precision and claim.conditions.baseline == baseline
    assert claim.conditions.load == load


def test_an_intro_line_unit_and_an_ours_column() -> None:
    text = (
        "Decode speed (tokens/s) on RTX 4090:\n\n"
        "| Model | llama.cpp | ours |\n|---|---|---|\n| Llama-2-7B Q4_0 | 120 | 150 |\n"
    )
    found = {
        m.value: (m.name, m.unit, c.conditions) for c in extract_claims(text) for m in c.metrics
    }
    assert found[120.0][:2] == ("llama.cpp (baseline)", "tok/s")
    assert found[150.0][2].baseline == ["llama.cpp"] and found[150.0][2].hardware == ["RTX 4090"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("- 降低11倍 GPU 显存占用", [(11.0, "x")], id="bei-before-gpu"),
        pytest.param("**5.6** faster than vanilla decoding (13B).", [(5.6, "x")], id="bare-faster"),
        pytest.param(
            "| 量化等级 | Accuracy (MMLU) |\n| --- | --- |\n| BF16 | 45.47 |\n",
            [(45.47, "")],
            id="score-in-parentheses",
        ),
        pytest.param(
            "Speedup of LightSeq over PyTorch on V100:\n\n| Batch size | LightSeq |\n|---|---|\n"
            "| 1 | 8.00 |\n",
            [(8.0, "x")],
            id="speedup-intro",
        ),
    ],
)
def test_ratios_and_scores_without_a_written_unit(
    text: str, expected: list[tuple[float, str]]
) -> None:
    assert [(m.value, m.unit) for c in extract_claims(text) for m in c.metrics] == expected


def test_a_section_set_up_holds_for_all_its_tables_and_all_experiments_for_siblings() -> None:
    text = (
        "## Performance\n\n### Single request\n\n"
        "All Hopper experiments run on a single H100 GPU.\n\n"
        "| Model | Break-even (tokens) | FP8 slope (% of BF16) |\n| --- | --- | --- |\n"
        "| Llama-3.1-8B | 7,010 | 54% |\n\n"
        "### Throughput under load\n\n"
        "We run 150 requests at concurrency 8.\n\n"
        "*Table 4: Llama-3.1-8B. FP8 shows 14.9% higher output throughput.*\n\n"
        "| Config | Output tok/s |\n| --- | --- |\n| BF16 | 450.3 |\n\n"
        "*Table 5: gpt-oss-20b. FP8 shows 4.8% higher output throughput.*\n\n"
        "| Config | Output tok/s |\n| --- | --- |\n| BF16 | 831.6 |\n"
    )
    found = {m.value: (m.unit, c.conditions) for c in extract_claims(text) for m in c.metrics}
    assert found[7010.0][0] == "tokens" and found[54.0][1].baseline == ["BF16"]
    assert found[831.6][1].load.get("concurrency") == "8"
    assert found[831.6][1].hardware == ["H100"] and found[4.8][1].hardware == ["H100"]


@pytest.mark.parametrize(
    ("text", "hardware", "load"),
    [
        pytest.param(
            "On Llama 3 70B with 4 H100s, latency drops by up to 1.5x at QPS=1.",
            ["H100"],
            {"gpus": "4", "rate": "1"},
            id="plural-and-rate",
        ),
        pytest.param("16 L40s reach 3.1x the throughput.", ["L40"], {"gpus": "16"}, id="l40s"),
        pytest.param(
            "With a batch of 128 sequences of 512 tokens each, it runs at 650 TFLOPS on H800.",
            ["H800"],
            {"batch": "128", "prompt": "512"},
            id="batch-of",
        ),
    ],
)
def test_plural_parts_and_load_phrasing(
    text: str, hardware: list[str], load: dict[str, str]
) -> None:
    [claim] = [c for c in extract_claims(text) if c.metrics]
    assert claim.conditions.hardware == hardware and claim.conditions.load == load


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("生成速度达到 100 tokens/秒。", [(100.0, "tok/s")], id="tokens-per-miao"),
        pytest.param("INT4 模型推理速度为 25.3 字/秒。", [(25.3, "char/s")], id="zi-per-miao"),
        pytest.param("最大推理速度(token / s)为 120。", [(120.0, "tok/s")], id="unit-then-number"),
        pytest.param("单卡 A800 每秒可处理 15 个请求。", [(15.0, "req/s")], id="requests"),
        pytest.param(
            "端到端延迟 P50/P99 分别为 120ms/350ms。", [(120.0, "ms"), (350.0, "ms")], id="pair"
        ),
    ],
)
def test_chinese_rates_and_paired_numbers(text: str, expected: list[tuple[float, str]]) -> None:
    assert [(m.value, m.unit) for c in extract_claims(text) for m in c.metrics] == expected


@pytest.mark.parametrize(
    ("text", "load"),
    [
        pytest.param(
            "With input/output lengths of 1024/128, throughput is 5000 tok/s.",
            {"prompt": "1024", "output": "128"},
            id="io-pair",
        ),
        pytest.param("ISL/OSL 1k/1k: 3000 tok/s.", {"prompt": "1k", "output": "1k"}, id="isl-osl"),
        pytest.param(
            "Throughput (in=2048, out=128) reaches 4000 tok/s.",
            {"prompt": "2048", "output": "128"},
            id="in-out",
        ),
        pytest.param(
            "With 100 users, throughput is 2000 tok/s.", {"concurrency": "100"}, id="users"
        ),
        pytest.param("Using 1000 prompts from ShareGPT, it serves 12 req/s.", {}, id="prompts"),
        pytest.param("With tensor parallelism of 8, it reaches 3000 tok/s.", {"tp": "8"}, id="tp"),
        pytest.param(
            "At a request rate of 4, TTFT is 150 ms.", {"rate": "4"}, id="request-rate-of"
        ),
    ],
)
def test_load_phrasing_in_english_prose(text: str, load: dict[str, str]) -> None:
    [claim] = [c for c in extract_claims(text) if c.metrics]
    assert claim.conditions.load == load


_SENTENCE_END_REFERENCE = re.compile(
    # the sentence split written plainly (each branch looks back from where it starts);
    # the shipped pattern starts its full-stop branch at the `.` for speed (#19)
    r"(?<=[。；！？!?])\s*|(?<=;)(?<!TL;)(?<!tl;)\s*|(?<=[a-z0-9)\]*%])(?<!\bvs)(?<!\bv\.s)"
    r"(?<!\be\.g)(?<!\bi\.e)(?<!\bw\.r\.t)(?<!\betc)(?<!\bapprox)\.\s+(?=[A-Z(*\[])"
)


@given(
    st.lists(
        st.sampled_from(
            [
                "a",
                "b",
                "9",
                " ",
                "\n",
                ".",
                ";",
                "vs",
                "v.s",
                "e.g",
                "i.e",
                "w.r.t",
                "etc",
                "approx",
                "TL;",
                "tl;",
                "。",
                "；",
                "！",
                "?",
                "A",
                "(",
                "*",
                "[",
                ")",
                "]",
                "%",
            ]
        ),
        max_size=40,
    ).map("".join)
)
def test_sentences_split_where_the_plain_pattern_splits(text: str) -> None:
    from research_radar.extract.markdown import _SENTENCE_END

    assert _SENTENCE_END.split(text) == _SENTENCE_END_REFERENCE.split(text)


@pytest.mark.parametrize(
    ("text", "values"),
    [
        pytest.param(
            "Recommended: a Mac with 24GB+ unified memory or a GPU with 14GB+ VRAM.",
            [],
            id="minimum",
        ),
        pytest.param(
            "The card has 48 GB GPU memory; decode runs at 31 tok/s.", [31.0], id="part-size"
        ),
        pytest.param("Peak memory use is 24GB+ on long prompts.", [24.0], id="used-at-least"),
        pytest.param("Qwen-27B uses 14 GB of GPU memory on RTX 3090.", [14.0], id="used"),
    ],
)
def test_a_memory_requirement_is_a_condition_not_a_measurement(
    text: str, values: list[float]
) -> None:
    assert [m.value for claim in extract_claims(text) for m in claim.metrics] == values
