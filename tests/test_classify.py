"""The rule classifier and the `radar taxonomy` / `radar classify` commands."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Literal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from research_radar.classify import rules as classify_module
from research_radar.classify.model import Taxonomy
from research_radar.classify.profile import load_taxonomy
from research_radar.classify.rules import (
    build_classification,
    classify,
    classify_dimension,
    classify_flags,
    classify_target,
)
from research_radar.cli import app

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture(scope="module")
def taxonomy() -> Taxonomy:
    return load_taxonomy()


def _values(tags: dict[str, list], dimension: str) -> list[str]:  # type: ignore[type-arg]
    return [tag.value for tag in tags[dimension]]


# ------------------------------------------------------------ realistic titles


@pytest.mark.parametrize(
    ("title", "text", "expected"),
    [
        pytest.param(
            "EAGLE-3 speculative decoding engine for Qwen3-8B on RTX 4090",
            "",
            {"workload": ["llm-agentic"], "mechanism": ["quant-sparsity-speculation"]},
            id="speculative-qwen",
        ),
        pytest.param(
            "语音流式 TTS 调度",
            "",
            {"workload": ["crossmodal-streaming"], "mechanism": ["schedule"]},
            id="speech-schedule-zh",
        ),
        pytest.param(
            "VLA action-chunk runtime",
            "Runs SmolVLA policies on a robot arm with asynchronous action chunks.",
            {"workload": ["decision-policy"]},
            id="vla",
        ),
        pytest.param(
            "Stable Diffusion 3 DiT with step caching",
            "Reuses features across denoising steps to skip compute.",
            {"workload": ["diffusion"], "mechanism": ["cache"]},
            id="diffusion",
        ),
        pytest.param(
            "Looped transformer with adaptive depth and early exit",
            "",
            {"workload": ["loop-recurrent"], "mechanism": ["compute-quality-budget"]},
            id="loop",
        ),
        pytest.param(
            "面向 DeepSeek MoE 的 KV 缓存卸载与 FP8 量化推理引擎",
            "",
            {"workload": ["llm-agentic"], "mechanism": ["cache", "quant-sparsity-speculation"]},
            id="moe-zh",
        ),
        pytest.param(
            "Tensor-parallel serving with continuous batching on vLLM",
            "",
            {"mechanism": ["schedule", "parallel-pipeline"], "system_level": ["serving"]},
            id="serving",
        ),
    ],
)
def test_realistic_items(taxonomy: Taxonomy, title: str, text: str, expected: dict) -> None:  # type: ignore[type-arg]
    tags = classify(taxonomy, title, text)
    for dimension, values in expected.items():
        assert sorted(_values(tags, dimension)) == sorted(values), dimension


def test_kernel_optimisation_agent_loop(taxonomy: Taxonomy) -> None:
    title = "KernelLoop: an LLM agent that generates Triton kernels and verifies them"
    text = (
        "The agent profiles each kernel to find the bottleneck, proposes candidates, checks "
        "correctness against a reference oracle and keeps what it learned in a skill library."
    )
    tags = classify(taxonomy, title, text)
    assert "kernel-compiler-fusion" in _values(tags, "mechanism")
    stages = _values(tags, "rsi_stage")
    for stage in ("diagnosis", "candidate-generation", "verification", "reusable-experience"):
        assert stage in stages
    assert classify_target(taxonomy, title, text) == "engine"


def test_harness_improvement_targets_the_harness(taxonomy: Taxonomy) -> None:
    title = "Self-improving agent harness: prompt and skill evolution for inference tuning"
    assert classify_target(taxonomy, title) == "harness"


def test_no_target_without_rsi_work(taxonomy: Taxonomy) -> None:
    title = "EAGLE-3 speculative decoding engine for Qwen3"
    assert classify(taxonomy, title)["rsi_stage"] == []
    assert classify_target(taxonomy, title) is None


def test_maturity_takes_the_highest_level_and_flags_are_apart(taxonomy: Taxonomy) -> None:
    text = "The paper's method was merged upstream. Numbers are author-reported; 未独立复现. Known issue: hangs on ROCm."
    tags = classify(taxonomy, "Prefix cache for SGLang", text)
    assert _values(tags, "maturity") == ["integrated"]
    flags = [tag.value for tag in classify_flags(taxonomy, "Prefix cache", text)]
    assert flags[:1] == ["unverified"] and {"failure", "boundary"} <= set(flags)


# ------------------------------------------------------------------ mechanics


def test_single_valued_dimensions_give_at_most_one_tag(taxonomy: Taxonomy) -> None:
    title = "TTS and VLA and diffusion and Mamba serving kernels"
    tags = classify(taxonomy, title, "scheduling, caching, speculative decoding, FP8")
    for dim in taxonomy.main:
        if not dim.multi:
            assert len(tags[dim.id]) <= 1, dim.id
    confidences = [tag.confidence for tag in tags["mechanism"]]
    assert confidences == sorted(confidences, reverse=True) and len(confidences) >= 3


def test_title_weighs_more_than_body(taxonomy: Taxonomy) -> None:
    workload = taxonomy.dimension("workload")
    title_tags = classify_dimension(workload, "Whisper ASR runtime", "diffusion")
    body_tags = classify_dimension(workload, "runtime", "Whisper ASR")
    assert title_tags[0].value == "crossmodal-streaming"
    assert title_tags[0].confidence > body_tags[0].confidence


def test_defaults_have_no_terms_and_zero_confidence(taxonomy: Taxonomy) -> None:
    tags = classify(taxonomy, "A new release", "")
    assert [(t.value, t.terms, t.confidence) for t in tags["workload"]] == [
        ("llm-agentic", [], 0.0)
    ]
    assert tags["mechanism"] == [] and tags["relation"] == []
    assert _values(tags, "maturity") == ["idea"]


def test_negated_terms_do_not_count(taxonomy: Taxonomy) -> None:
    assert classify(taxonomy, "Runtime without a KV cache")["mechanism"] == []
    tags = classify(taxonomy, "推理引擎", "非 serving 场景，未做量化")
    assert tags["mechanism"] == [] and _values(tags, "system_level") == ["model-execution"]


def test_decision_policy_is_not_a_system_policy(taxonomy: Taxonomy) -> None:
    tags = classify(taxonomy, "A cache eviction policy and a search policy for kernels")
    assert _values(tags, "workload") != ["decision-policy"]
    assert _values(classify(taxonomy, "Diffusion policy for robot arms"), "workload") in (
        ["decision-policy"],
        ["diffusion"],
    )


@pytest.mark.parametrize(
    ("text", "policy"),
    [
        pytest.param("a learned policy for the robot", True, id="policy"),
        pytest.param("Policies trained with RL", True, id="start-of-text"),
        pytest.param("the eviction policy of the cache", False, id="eviction"),
        pytest.param("Scheduling  Policies", True, id="two-spaces-are-not-the-word"),
        pytest.param("SCHEDULING POLICIES", False, id="scheduling-any-case"),
        pytest.param("optimisation policy, retry policy", False, id="two-system-policies"),
        pytest.param("retry policy and a control policy", True, id="one-of-each"),
        pytest.param("the policy file format", False, id="policy-file"),
        pytest.param("policymakers", False, id="inside-a-word"),
    ],
)
def test_the_policy_pattern_leaves_out_the_policies_of_systems(
    taxonomy: Taxonomy, text: str, policy: bool
) -> None:
    rule = next(
        rule
        for rule in taxonomy.value("workload", "decision-policy").rules
        if rule.kind == "pattern" and "polic" in rule.source
    )
    assert (rule.pattern.search(text) is not None) is policy


def test_terms_are_reported_as_written_in_the_input(taxonomy: Taxonomy) -> None:
    tags = classify(taxonomy, "KVCache OFFLOADING for Qwen", "")
    cache = tags["mechanism"][0]
    assert cache.value == "cache" and cache.terms == ["KVCache", "OFFLOADING"]
    assert cache.dimension == "mechanism"


def test_classification_as_dict(taxonomy: Taxonomy) -> None:
    result = build_classification(taxonomy, "Triton kernel autotuning agent", "")
    data = result.as_dict()
    assert set(data) == {"tags", "target", "flags", "terms", "confidence"}
    assert data["target"] == "engine"
    assert data["terms"]["mechanism"]["kernel-compiler-fusion"] == ["Triton", "kernel"]
    assert 0.0 < data["confidence"]["mechanism"]["kernel-compiler-fusion"] <= 1.0
    assert list(data["tags"]) == [dim.id for dim in taxonomy.main]


def test_public_api() -> None:
    assert sorted(classify_module.__all__) == [
        "BODY_LIMIT",
        "CONFIDENCE_HALF",
        "Classification",
        "FLAGS_DIMENSION",
        "RELATIVE_CUTOFF",
        "TARGET_DIMENSION",
        "TITLE_WEIGHT",
        "build_classification",
        "classify",
        "classify_dimension",
        "classify_flags",
        "classify_target",
        "match_values",
        "score_values",
    ]


# ------------------------------------------------------------------ properties

VOCABULARY = [
    "KV cache",
    "kv-cache",
    "Speculative",
    "EAGLE",
    "FP8",
    "量化",
    "投机",
    "缓存",
    "VLA",
    "robot",
    "policy",
    "TTS",
    "语音",
    "流式",
    "diffusion",
    "DiT",
    "kernel",
    "Triton",
    "agent",
    "not",
    "without",
    "未",
    "非",
    "İ",
    "ß",
    "Σ",
    "-",
    "_",
    " ",
    "\n",
    "(",
    "*",
    "\\b",
    "[",
]
texts = st.lists(st.sampled_from(VOCABULARY) | st.text(max_size=12), max_size=30).map("".join)


@settings(max_examples=150, deadline=None)
@given(title=texts, text=texts)
def test_never_crashes_and_terms_occur_in_input(taxonomy: Taxonomy, title: str, text: str) -> None:
    result = build_classification(taxonomy, title, text)
    everything = [tag for tags in result.tags.values() for tag in tags]
    for tag in [*everything, *result.target, *result.flags]:
        assert 0.0 <= tag.confidence <= 1.0
        for term in tag.terms:
            assert term and (term in title or term in text)
    for dim in taxonomy.main:
        assert dim.multi or len(result.tags[dim.id]) <= 1


@settings(max_examples=50, deadline=None)
@given(text=st.text(max_size=300))
def test_body_only_never_beats_the_same_term_in_title(taxonomy: Taxonomy, text: str) -> None:
    dim = taxonomy.dimension("mechanism")
    in_title = classify_dimension(dim, "speculative decoding", text)
    in_body = classify_dimension(dim, "", "speculative decoding " + text)
    best = {tag.value: tag.confidence for tag in in_title}
    for tag in in_body:
        if tag.value == "quant-sparsity-speculation":
            assert best[tag.value] >= tag.confidence


# ------------------------------------------------------------- labelled items


def _load(name: str) -> list[dict]:  # type: ignore[type-arg]
    lines = (FIXTURES / name).read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


@pytest.mark.parametrize(
    ("name", "workload_floor", "mechanism_floor"),
    [
        pytest.param("classify_labelled.jsonl", 0.95, 0.9, id="tuned"),
        pytest.param("classify_heldout.jsonl", 0.8, 0.7, id="held-out"),
    ],
)
def test_labelled_items_stay_above_floor(
    taxonomy: Taxonomy, name: str, workload_floor: float, mechanism_floor: float
) -> None:
    """Guards against regressions; benchmarks/classify_bench.py prints the figures."""
    items = _load(name)
    workload_hits = mechanism_hits = mechanism_total = 0
    for item in items:
        tags = classify(taxonomy, item["title"], item["summary"])
        workload_hits += _values(tags, "workload") == item["expected"]["workload"]
        want = set(item["expected"]["mechanism"])
        mechanism_hits += len(want & set(_values(tags, "mechanism")))
        mechanism_total += len(want)
    assert workload_hits / len(items) >= workload_floor
    assert mechanism_hits / mechanism_total >= mechanism_floor


# --------------------------------------------------------------------------- CLI

runner = CliRunner()


def _squash(output: str) -> str:
    """Output without whitespace and Rich box lines, so wrapping does not matter."""
    return re.sub(r"[\s│╭╮╰╯─]+", "", output)


def test_taxonomy_command_prints_tables() -> None:
    result = runner.invoke(app, ["taxonomy"])
    assert result.exit_code == 0, result.output
    for text in (
        "workload",
        "模型/工作负载",
        "quant-sparsity-speculation",
        "跨模态与流式交互",
        "cs.DC",
    ):
        assert text in _squash(result.stdout)


def test_taxonomy_command_json_with_profile(tmp_path: Path) -> None:
    profile = tmp_path / "mine.toml"
    profile.write_text(
        '[dimensions.mechanism.values.cache]\nterms_zh = ["显存复用"]\n', encoding="utf-8"
    )
    result = runner.invoke(app, ["taxonomy", "--json", "--profile", str(profile)])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["origins"][-1] == str(profile)
    assert "显存复用" in data["dimensions"][1]["values"][1]["terms_zh"]


def test_taxonomy_command_bad_profile_is_one_clear_error(tmp_path: Path) -> None:
    profile = tmp_path / "bad.toml"
    profile.write_text("[dimensions.mechanism.values.cache]\npatterns = ['(']\n", encoding="utf-8")
    result = runner.invoke(app, ["taxonomy", "--profile", str(profile)])
    assert result.exit_code == 1
    assert "bad.toml:2:" in _squash(result.output) and "Traceback" not in result.output


def test_classify_reads_stdin_and_prints_json_lines() -> None:
    lines = [
        {"title": "EAGLE-3 speculative decoding engine for Qwen3 on RTX 4090", "id": 7},
        {"title": "语音流式 TTS 调度", "summary": "deadline scheduler", "text": None},
    ]
    stdin = "\n".join(json.dumps(line, ensure_ascii=False) for line in lines) + "\n\n"
    result = runner.invoke(app, ["classify"], input=stdin)
    assert result.exit_code == 0, result.output
    first, second = (json.loads(line) for line in result.stdout.splitlines())
    assert first["title"] == lines[0]["title"] and first["id"] == 7
    assert first["tags"]["mechanism"] == ["quant-sparsity-speculation"]
    assert first["terms"]["mechanism"]["quant-sparsity-speculation"] == ["EAGLE-3", "speculative"]
    assert first["target"] is None and first["flags"] == []
    assert second["tags"]["workload"] == ["crossmodal-streaming"]
    assert "调度" in second["terms"]["mechanism"]["schedule"]
    assert 0 < second["confidence"]["mechanism"]["schedule"] <= 1


def test_classify_reports_bad_lines_and_goes_on(tmp_path: Path) -> None:
    path = tmp_path / "items.jsonl"
    good = json.dumps({"title": "KV cache offload"})
    path.write_text(f'{good}\nnot json\n[1]\n{{"summary": "x"}}\n{good}\n', encoding="utf-8")
    result = runner.invoke(app, ["classify", str(path)])
    assert result.exit_code == 1
    assert len(result.stdout.splitlines()) == 2
    assert f"{path}:2: not valid JSON" in result.stderr
    assert f"{path}:3: expected a JSON object" in result.stderr
    assert f'{path}:4: missing "title"' in result.stderr
    assert "3 line(s) skipped" in result.stderr


def test_classify_missing_file_is_one_clear_error(tmp_path: Path) -> None:
    result = runner.invoke(app, ["classify", str(tmp_path / "nope.jsonl")])
    assert result.exit_code == 1
    assert "nope.jsonl:inputfilenotfound" in _squash(result.output)
    assert "Traceback" not in result.output


def test_classify_with_profile(tmp_path: Path) -> None:
    profile = tmp_path / "mine.toml"
    profile.write_text(
        '[dimensions.workload.values.retrieval]\nlabel_en = "RAG"\nlabel_zh = "检索增强"\n'
        'terms = ["RAG"]\nweight = 2.0\n',
        encoding="utf-8",
    )
    stdin = json.dumps({"title": "RAG serving for Llama"}) + "\n"
    result = runner.invoke(app, ["classify", "-", "--profile", str(profile)], input=stdin)
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["tags"]["workload"] == ["retrieval"]


@pytest.mark.parametrize("command", ["taxonomy", "classify"])
def test_help_teaches_with_an_example(command: str) -> None:
    result = runner.invoke(app, [command, "--help"])
    assert result.exit_code == 0
    assert f"radar{command}" in _squash(result.stdout)


def test_classify_accepts_json_as_a_no_op() -> None:
    """README: data commands take --json; classify already prints JSON lines."""
    stdin = json.dumps({"title": "KV cache offload"}) + "\n"
    plain = runner.invoke(app, ["classify"], input=stdin)
    result = runner.invoke(app, ["classify", "--json"], input=stdin)
    assert result.exit_code == 0, result.output
    assert (
        result.stdout == plain.stdout and json.loads(result.stdout)["title"] == "KV cache offload"
    )
    help_text = _squash(runner.invoke(app, ["classify", "--help"]).stdout)
    assert "--json" in help_text and "alwaysJSONlines" in help_text


# --- the learned classifier (refs #15) --------------------------------------------------


def test_wordllama_loads_from_its_wheel_without_network(monkeypatch: pytest.MonkeyPatch) -> None:
    import socket

    from research_radar.classify.learned import embed, load_embedder

    def refuse(*_args: object, **_kwargs: object) -> None:
        raise OSError("network disabled in this test")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    load_embedder.cache_clear()
    vectors = embed(["KV cache eviction for long-context LLM inference"])
    assert vectors.shape == (1, 256)
    assert abs(float((vectors**2).sum()) - 1.0) < 1e-3


def test_owner_names_and_credits_are_not_evidence(taxonomy: Taxonomy) -> None:
    from research_radar.classify.classifier import classify_item

    text = (
        "A command-line tool that renders Markdown tables.\n\n"
        "## Acknowledgements\nBuilt with FlashAttention kernels, thanks to vLLM.\n"
    )
    result = classify_item(taxonomy, "kvcache-ai/table-tool", text, kind="repo")
    mechanisms = [tag.value for tag in result.tags["mechanism"]]
    assert "cache" not in mechanisms and "kernel-compiler-fusion" not in mechanisms


def test_unknown_instead_of_silent_defaults(taxonomy: Taxonomy) -> None:
    from research_radar.classify.classifier import NOT_APPLICABLE, UNKNOWN, classify_item

    result = classify_item(taxonomy, "A cookbook of soup recipes")
    assert [tag.value for tag in result.tags["system_level"]] == [UNKNOWN]
    assert [tag.value for tag in result.tags["maturity"]] == [UNKNOWN]
    assert [tag.value for tag in result.tags["mechanism"]] == [UNKNOWN]
    assert [tag.value for tag in result.tags["rsi_stage"]] == [NOT_APPLICABLE]
    assert result.topic is not None and result.topic < 0.5


def test_a_repository_is_at_least_code_available(taxonomy: Taxonomy) -> None:
    from research_radar.classify.classifier import classify_item

    result = classify_item(taxonomy, "someone/engine", "An LLM inference engine.", kind="repo")
    assert result.tags["maturity"][0].value == "code-available"
    paper = classify_item(taxonomy, "EAGLE-3: speculative decoding", kind="paper")
    assert paper.tags["maturity"][0].value == "paper-reported"


def test_learned_classifier_reads_titles_without_rule_terms(taxonomy: Taxonomy) -> None:
    from research_radar.classify.classifier import Item, classify_items

    results = classify_items(
        taxonomy,
        [
            Item(
                "Medusa: Simple LLM Inference Acceleration Framework with Multiple Decoding Heads"
            ),
            Item("SnapKV: LLM Knows What You are Looking for Before Generation"),
            Item("Fast Sampling of Diffusion Models with Fewer Denoising Steps"),
        ],
    )
    values = [[tag.value for tag in r.tags["mechanism"]] for r in results]
    assert "quant-sparsity-speculation" in values[0]
    assert results[1].tags["workload"][0].value == "llm-agentic"
    assert results[2].tags["workload"][0].value == "diffusion"
    assert all(0.0 <= tag.confidence <= 1.0 for r in results for tag in r.tags["mechanism"])


def test_chinese_text_is_classified_by_the_rules(taxonomy: Taxonomy) -> None:
    from research_radar.classify.classifier import classify_item

    result = classify_item(taxonomy, "基于投机解码的大模型推理加速")
    assert result.tags["mechanism"][0].value == "quant-sparsity-speculation"
    assert result.tags["mechanism"][0].terms == ["投机"]
    assert result.tags["workload"][0].value == "llm-agentic"


def test_topic_relevance_separates_inference_from_other_work() -> None:
    from research_radar.classify.classifier import topic_relevance

    on, off = topic_relevance(
        [
            ("Evicting KV cache entries for long-context LLM serving", ""),
            ("A survey of wildlife photography techniques", ""),
        ]
    )
    assert on > 0.5 > off


def test_finding_tags_drop_unknown_and_not_applicable(taxonomy: Taxonomy) -> None:
    from research_radar.classify.classifier import classify_item, finding_tags

    tags = finding_tags(classify_item(taxonomy, "A cookbook of soup recipes"))
    assert tags["system_level"] == [] and tags["rsi_stage"] == []


def test_evidence_text_drops_credits_related_work_and_owners() -> None:
    from research_radar.classify.evidence import evidence_text, evidence_title

    text = (
        "# Tool\nFast serving for kvcache-lab/fastserve users.\n"
        "## Related work\nPagedAttention, CUTLASS.\n"
        "## Usage\nRun it.\n"
        "Thanks to the Triton team.\n"
    )
    cleaned = evidence_text(text)
    assert "CUTLASS" not in cleaned and "Triton" not in cleaned
    assert "kvcache-lab" not in cleaned and "fastserve" in cleaned
    assert "Run it." in cleaned
    assert evidence_title("kvcache-lab/fastserve") == "fastserve"


def test_evidence_text_reads_images_code_headings_and_owners_across_lines() -> None:
    from research_radar.classify.evidence import evidence_text

    text = (
        "![logo\nbanner](img/a.png) Serve org/model on\r\nowner/name and www.x.org/a\n"
        "```\nskip/this code\n```\n"
        "<H2>Credits</H2>\nby lab/team\n<h2>Usage</h2>\n"
        "~~~\nalso/code\n~~~\n"
        "# Notes ##\nsee [the docs](https://a.b/c) for a/b/c\n"
    )
    assert evidence_text(text) == (
        "  Serve model on\nname and  \nUsage\nNotes\nsee the docs for b/c"
    )


def test_a_large_batch_matches_item_by_item_classification(taxonomy: Taxonomy) -> None:
    from research_radar.classify.classifier import PARALLEL_MIN, Item, classify_items

    titles = [
        "Speculative decoding with KV cache offload for LLM serving",
        "Few-step diffusion sampling with FP8 kernels",
        "A cookbook of soup recipes",
        "基于投机解码的大模型推理加速",
    ]
    items = [Item(f"{titles[i % len(titles)]} {i}") for i in range(PARALLEL_MIN)]
    batch = classify_items(taxonomy, items)
    for index in (0, 1, 2, 3, PARALLEL_MIN - 4, PARALLEL_MIN - 3, PARALLEL_MIN - 1):
        alone = classify_items(taxonomy, [items[index]])[0]
        assert batch[index].as_dict() == alone.as_dict()


def test_ngram_terms_are_words_word_pairs_and_character_grams() -> None:
    from research_radar.classify.learned import ngram_terms

    terms = ngram_terms("Fused KV")
    assert {"w:fused", "w:kv", "b:fused kv"} <= set(terms)
    assert {"c: fu", "c:sed ", "c: fuse", "c: kv "} <= set(terms)
    assert "c: fused" not in terms  # at most five characters
    assert "c:d k" not in terms  # character n-grams stay inside a word


def test_ngram_rows_are_unit_length_tf_idf_of_known_terms() -> None:
    import math

    import numpy as np

    from research_radar.classify.learned import Ngrams, ngram_rows

    vocabulary = ["w:kv", "w:cache", "b:kv cache"]
    ngrams = Ngrams(
        index={term: column for column, term in enumerate(vocabulary)},
        idf=np.array([1.0, 2.0, 3.0], dtype=np.float32),
    )
    rows = ngram_rows(ngrams, ["KV cache cache", "soup", "kv"])
    dense = np.zeros((3, 3), dtype=np.float32)
    dense[rows.items, rows.columns] = rows.values
    first = np.array([1.0, (1.0 + math.log(2)) * 2.0, 3.0])
    assert np.allclose(dense[0], first / np.linalg.norm(first), atol=1e-6)
    assert not dense[1].any()  # no known term: an empty row, not a division by zero
    assert np.allclose(dense[2], [1.0, 0.0, 0.0])


def test_ngram_rows_match_the_vectorizer_that_fitted_them() -> None:
    pytest.importorskip("sklearn")
    import numpy as np
    from sklearn.feature_extraction.text import TfidfVectorizer

    from research_radar.classify.learned import Ngrams, ngram_rows, ngram_terms

    titles = [
        "Tensor-parallel decoding across GPUs",
        "Fused attention kernels for decoding",
        "KV cache eviction for long-context decoding",
        "Tensor parallel serving with fused kernels",
    ]
    vectorizer = TfidfVectorizer(analyzer=ngram_terms, sublinear_tf=True, dtype=np.float32)
    expected = vectorizer.fit_transform(titles).toarray()
    terms = vectorizer.get_feature_names_out()
    ngrams = Ngrams(
        index={str(term): column for column, term in enumerate(terms)},
        idf=vectorizer.idf_.astype(np.float32),
    )
    rows = ngram_rows(ngrams, titles)
    dense = np.zeros(expected.shape, dtype=np.float32)
    dense[rows.items, rows.columns] = rows.values
    assert np.allclose(dense, expected, atol=1e-6)


def test_a_head_trained_with_ngrams_refuses_to_score_without_them() -> None:
    import numpy as np

    from research_radar.classify.learned import Head, Ngrams, ngram_rows

    head = Head(
        classes=("on-topic",),
        weights=np.zeros((1, 2), dtype=np.float32),
        bias=np.zeros(1, dtype=np.float32),
        thresholds=np.array([0.5], dtype=np.float32),
        kind="sigmoid",
        ngram_weights=np.array([[4.0]], dtype=np.float32),
    )
    features = np.zeros((2, 2), dtype=np.float32)
    with pytest.raises(ValueError, match="n-gram"):
        head.probabilities(features)
    ngrams = Ngrams(index={"w:kernel": 0}, idf=np.ones(1, dtype=np.float32))
    probs = head.probabilities(features, ngram_rows(ngrams, ["kernel", "soup"]))
    assert probs[0, 0] > 0.95 and probs[1, 0] == pytest.approx(0.5)


def test_the_bundled_model_carries_its_ngram_vocabulary() -> None:
    from research_radar.classify.learned import load_model

    model = load_model()
    assert model.ngrams is not None and len(model.ngrams.index) == len(model.ngrams.idf)
    for name in ("mechanism", "topic"):
        weights = model.heads[name].ngram_weights
        assert weights is not None and weights.shape[1] == len(model.ngrams.idf)


def test_explain_names_the_title_words_behind_a_learned_value(taxonomy: Taxonomy) -> None:
    from research_radar.classify.classifier import classify_item

    title = "Ring attention for million-token prefill"
    result = classify_item(taxonomy, title)
    learned = [tag for tag in result.tags["mechanism"] if not tag.terms]
    assert [tag.value for tag in learned] == ["parallel-pipeline"]  # no rule term matched
    words = result.explain["mechanism"]
    assert words and all(word in title.casefold() for word in words)


def test_explain_keeps_rule_terms_for_rule_values(taxonomy: Taxonomy) -> None:
    from research_radar.classify.classifier import classify_item

    result = classify_item(taxonomy, "Fused attention kernels for decoding")
    kernel = next(t for t in result.tags["mechanism"] if t.value == "kernel-compiler-fusion")
    assert kernel.terms and set(kernel.terms) <= set(result.explain["mechanism"])


def _stub_model(topic: float, mechanism: float) -> Any:
    """A model whose heads give every item the same probabilities (no rule features
    match the test title, so the classifier halves the topic relevance)."""
    import numpy as np

    from research_radar.classify.learned import Head, LearnedModel

    width = 256 + 1

    def head(classes: tuple[str, ...], prob: float, kind: Literal["softmax", "sigmoid"]) -> Head:
        logit = float(np.log(prob / (1 - prob)))
        return Head(
            classes=classes,
            weights=np.zeros((len(classes), width), dtype=np.float32),
            bias=np.full(len(classes), logit, dtype=np.float32),
            thresholds=np.full(len(classes), 0.5, dtype=np.float32),
            kind=kind,
        )

    return LearnedModel(
        rule_values=("mechanism:cache",),
        heads={
            "workload": head(("llm-agentic",), 0.9, "softmax"),
            "mechanism": head(("cache",), mechanism, "sigmoid"),
            "topic": head(("on-topic",), topic, "sigmoid"),
        },
        info={},
    )


def test_a_learned_mechanism_needs_some_topic_relevance_not_half(taxonomy: Taxonomy) -> None:
    from research_radar.classify.classifier import MECHANISM_TOPIC_MIN, Item, classify_items

    title = "Faster answers from a language model"
    mechanisms = {}
    for topic in (0.8, 0.6, 0.3):  # halved: 0.4, 0.3, 0.15
        result = classify_items(taxonomy, [Item(title)], model=_stub_model(topic, 0.9))[0]
        assert result.topic == pytest.approx(topic / 2, abs=1e-3)
        mechanisms[topic] = [tag.value for tag in result.tags["mechanism"]]
    assert 0.15 < MECHANISM_TOPIC_MIN <= 0.3
    assert mechanisms == {0.8: ["cache"], 0.6: ["cache"], 0.3: ["unknown"]}
