"""Precision and recall of the classifiers (rules alone, and learned + rules), plus speed.

    .venv/bin/python benchmarks/classify_bench.py [--profile FILE] [--misses] [--no-curated]

Curated lists (../shared/curated-lists, labelled by benchmarks/curated_mapping.toml):
a model is trained in memory on the "train" lists only (needs scikit-learn, the `train`
extra) and measured on the "heldout" lists, titles only, per class; the rule classifier
is measured on the same items (the "before" figure). The tuning figures are the 5-fold
cross-validated ones printed while training.

Two labelled sets, items of the example reports described in our own words, with the
expected workload, mechanisms and whether the item is RSI work:
- tests/fixtures/classify_labelled.jsonl (daily reports): the profile's terms were tuned
  on it, so its figures are training figures;
- tests/fixtures/classify_heldout.jsonl (E1 digest): written and labelled before the
  classifier was run on it, never tuned on: the honest figure. When ../shared/corpus is present (or RADAR_SHARED points at the
shared folder), the speed is also measured on its README files.

Real projects (benchmarks/data/projects_labelled.tsv: repository names and hand labels,
at least 40): their descriptions are read from ../shared at run time (corpus READMEs and
the curated lists' one-line repository descriptions); workload accuracy, per-mechanism
figures on the on-topic ones and topic accuracy (learned relevance >= 0.5).
"""

from __future__ import annotations

import argparse
import json
import os
import time
from collections import Counter
from pathlib import Path
from typing import Any

from research_radar.classify.model import Taxonomy
from research_radar.classify.profile import load_taxonomy
from research_radar.classify.rules import build_classification, classify

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures"
SETS = {
    "tuned (daily reports)": FIXTURES / "classify_labelled.jsonl",
    "held-out (E1 digest)": FIXTURES / "classify_heldout.jsonl",
}


def load_items(path: Path) -> list[dict[str, Any]]:
    lines = path.read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def score(taxonomy: Taxonomy, items: list[dict[str, Any]]) -> dict[str, Counter[str]]:
    """Per dimension: true positives, false positives, false negatives (micro counts)."""
    counts: dict[str, Counter[str]] = {
        "workload": Counter(),
        "mechanism": Counter(),
        "rsi": Counter(),
    }
    for item in items:
        result = build_classification(taxonomy, item["title"], item.get("summary", ""))
        expected = item["expected"]
        for dim in ("workload", "mechanism"):
            got = set(result.as_dict()["tags"][dim])
            want = set(expected[dim])
            counts[dim]["tp"] += len(got & want)
            counts[dim]["fp"] += len(got - want)
            counts[dim]["fn"] += len(want - got)
            for value in got - want:
                counts[dim][f"fp:{value}"] += 1
            for value in want - got:
                counts[dim][f"fn:{value}"] += 1
        is_rsi = bool(result.tags.get("rsi_stage"))
        key = {(True, True): "tp", (True, False): "fp", (False, True): "fn"}.get(
            (is_rsi, bool(expected["rsi"])), "tn"
        )
        counts["rsi"][key] += 1
    return counts


def print_scores(name: str, counts: dict[str, Counter[str]], total: int) -> None:
    print(f"\n{name}: {total} items")
    print(f"{'dimension':<10} {'precision':>9} {'recall':>7} {'f1':>6}   tp  fp  fn")
    for dim, count in counts.items():
        tp, fp, fn = count["tp"], count["fp"], count["fn"]
        precision = tp / (tp + fp) if tp + fp else 1.0
        recall = tp / (tp + fn) if tp + fn else 1.0
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
        print(f"{dim:<10} {precision:>9.3f} {recall:>7.3f} {f1:>6.3f}  {tp:>3} {fp:>3} {fn:>3}")
        errors = sorted((k, v) for k, v in count.items() if ":" in k)
        if errors:
            print("           errors: " + ", ".join(f"{k}×{v}" for k, v in errors))


def print_misses(taxonomy: Taxonomy, items: list[dict[str, Any]]) -> None:
    for item in items:
        tags = classify(taxonomy, item["title"], item.get("summary", ""))
        got = {dim: [tag.value for tag in tags[dim]] for dim in ("workload", "mechanism")}
        want = {dim: item["expected"][dim] for dim in ("workload", "mechanism")}
        if any(set(got[dim]) != set(want[dim]) for dim in got):
            print(f"- {item['title']}: got {got}, want {want}")


def shared_readmes() -> list[str]:
    shared = Path(os.environ.get("RADAR_SHARED", ROOT.parent / "shared"))
    corpus = shared / "corpus"
    if not corpus.is_dir():
        return []
    files = sorted(corpus.glob("*/**/README*.md"))
    return [path.read_text(encoding="utf-8", errors="replace") for path in files]


def print_speed(taxonomy: Taxonomy, items: list[dict[str, Any]]) -> None:
    start = time.perf_counter()
    rounds = 20
    for _ in range(rounds):
        for item in items:
            build_classification(taxonomy, item["title"], item.get("summary", ""))
    per_item = (time.perf_counter() - start) / (rounds * len(items))
    print(f"speed: {per_item * 1000:.2f} ms per labelled item (title + one-line summary)")
    texts = shared_readmes()
    if not texts:
        print("speed on corpus READMEs: skipped (../shared/corpus not found; set RADAR_SHARED)")
        return
    chars = sum(len(text) for text in texts)
    start = time.perf_counter()
    for text in texts:
        build_classification(taxonomy, "README", text)
    elapsed = time.perf_counter() - start
    print(
        f"speed on {len(texts)} corpus READMEs ({chars / 1000:.0f} k chars): "
        f"{elapsed * 1000:.0f} ms total, {elapsed / chars * 1e7:.1f} ms per 10 k chars"
    )


def curated_figures(taxonomy: Taxonomy, misses: bool) -> None:
    import sys

    import numpy as np

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import train_classifier
    from curated import build_split, load_mapping

    from research_radar.classify.classifier import Item, classify_items
    from research_radar.classify.learned import model_from_bytes

    mapping = load_mapping()
    train_items, held = build_split(mapping, "train"), build_split(mapping, "heldout")
    held_lists = sorted({name for item in held for name in item.lists})
    print(
        f"\ncurated lists: {len(train_items)} training titles; {len(held)} held-out titles "
        f"from {', '.join(held_lists)} (none of them in a training list)"
    )
    print("tuning figures (5-fold CV on the training lists):")
    arrays = train_classifier.train(train_items, train_classifier.features(train_items))
    model = model_from_bytes(train_classifier.to_bytes(arrays))
    learned = classify_items(taxonomy, [Item(item.title) for item in held], model=model)
    rules = [classify(taxonomy, item.title) for item in held]
    mechanisms = taxonomy.dimension("mechanism").value_ids
    for name, results in (("rules alone (before)", rules), ("learned + rules (after)", learned)):
        print(f"\nheld-out, {name}:")
        print(f"  {'mechanism':<28} {'precision':>9} {'recall':>7} {'f1':>6}  support")
        f1s, supports = [], []
        for value in mechanisms:
            tp = fp = fn = 0
            for item, result in zip(held, results, strict=True):
                if not item.mechanism:
                    continue
                tags = result.tags if hasattr(result, "tags") else result
                got = value in {tag.value for tag in tags["mechanism"]}
                want = value in item.mechanism
                tp, fp, fn = tp + (got and want), fp + (got and not want), fn + (want and not got)
            if tp + fn == 0:
                continue
            precision = tp / (tp + fp) if tp + fp else 0.0
            recall = tp / (tp + fn)
            f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
            f1s.append(f1)
            supports.append(tp + fn)
            print(f"  {value:<28} {precision:>9.3f} {recall:>7.3f} {f1:>6.3f}  {tp + fn:>7}")
        supported = [f1 for f1, n in zip(f1s, supports, strict=True) if n >= MIN_SUPPORT]
        right = total = 0
        for item, result in zip(held, results, strict=True):
            if item.workload:
                tags = result.tags if hasattr(result, "tags") else result
                right += tags["workload"][0].value == item.workload if tags["workload"] else 0
                total += 1
                if misses and tags["workload"] and tags["workload"][0].value != item.workload:
                    print(f"    workload miss: {item.title[:70]} -> {tags['workload'][0].value}")
        print(
            f"  mechanism macro-F1 {float(np.mean(f1s)):.3f} over {len(f1s)} classes; "
            f"workload accuracy {right / total:.3f} ({right}/{total})"
        )
        print(
            f"  mechanism macro-F1 {float(np.mean(supported)):.3f} over the {len(supported)} "
            f"classes with at least {MIN_SUPPORT} held-out titles"
        )


MIN_SUPPORT = 5
"""Held-out titles a class needs to count in the second macro-F1 (one title makes its F1
0, 0.5 or 1 by chance: the KV-cache list's "Systems" heading gives `schedule` one)."""


PROJECTS = Path(__file__).resolve().parent / "data" / "projects_labelled.tsv"


def project_texts(shared: Path) -> list[dict[str, Any]]:
    """The labelled projects (benchmarks/data/projects_labelled.tsv) with their
    descriptions read from ../shared; a project whose text is missing is left out."""
    import re

    rows = [
        line.split("\t")
        for line in PROJECTS.read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.startswith("#")
    ]
    found = []
    for repo, source, workload, mechanism, topic, _reason in rows:
        text = ""
        if source == "corpus":
            readme = shared / "corpus" / repo.replace("/", "__") / "files" / "README.md"
            text = readme.read_text(encoding="utf-8", errors="replace") if readme.is_file() else ""
        else:
            listed = shared / "curated-lists" / source.removeprefix("list:").replace("/", "__")
            link = re.compile(rf"github\.com/{re.escape(repo)}\)", re.I)
            for path in sorted(listed.glob("*.md")):
                for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
                    if link.search(line):
                        text = re.sub(r"\]\([^)]*\)", "]", line).replace("[", "").replace("]", "")
                        text = text.split("|")[0].strip(" -*")
                        break
        if not text:
            continue
        found.append(
            {
                "repo": repo,
                "kind": "repo",
                "text": text,
                "workload": None if workload == "-" else workload,
                "mechanism": set() if mechanism == "-" else set(mechanism.split(",")),
                "on_topic": topic == "on",
            }
        )
    return found


def project_figures(taxonomy: Taxonomy, misses: bool) -> None:
    """Workload, mechanism and topic figures on the labelled real projects."""
    from research_radar.classify.classifier import Item, classify_items, topic_relevance

    shared = Path(os.environ.get("RADAR_SHARED", ROOT.parent / "shared"))
    projects = project_texts(shared)
    if not projects:
        print("\nreal projects: skipped (../shared not found; set RADAR_SHARED)")
        return
    name = [p["repo"].partition("/")[2] for p in projects]
    items = [Item(n, p["text"], p["kind"]) for n, p in zip(name, projects, strict=True)]
    results = classify_items(taxonomy, items)
    topics = topic_relevance([(n, p["text"]) for n, p in zip(name, projects, strict=True)])
    print(f"\nreal projects (benchmarks/data/projects_labelled.tsv): {len(projects)} described")
    right = total = 0
    for project, result in zip(projects, results, strict=True):
        if project["workload"]:
            got = result.tags["workload"][0].value
            right, total = right + (got == project["workload"]), total + 1
            if misses and got != project["workload"]:
                print(f"    workload miss: {project['repo']} -> {got}")
    topic_right = sum(
        (score >= 0.5) == project["on_topic"]
        for project, score in zip(projects, topics, strict=True)
    )
    if misses:
        for project, score in zip(projects, topics, strict=True):
            if (score >= 0.5) != project["on_topic"]:
                print(f"    topic miss: {project['repo']} relevance {score:.2f}")
    on_topic = [
        (project, result)
        for project, result in zip(projects, results, strict=True)
        if project["on_topic"]
    ]
    print(f"  {'mechanism':<28} {'precision':>9} {'recall':>7} {'f1':>6}  support")
    f1s = []
    for value in taxonomy.dimension("mechanism").value_ids:
        tp = fp = fn = 0
        for project, result in on_topic:
            got = value in {tag.value for tag in result.tags["mechanism"]}
            want = value in project["mechanism"]
            tp, fp, fn = tp + (got and want), fp + (got and not want), fn + (want and not got)
        if tp + fn == 0:
            if fp:
                print(f"  {value:<28} {'':>9} {'':>7} {'':>6}  (0 expected, {fp} false)")
            continue
        precision = tp / (tp + fp) if tp + fp else 0.0
        recall = tp / (tp + fn)
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
        f1s.append(f1)
        print(f"  {value:<28} {precision:>9.3f} {recall:>7.3f} {f1:>6.3f}  {tp + fn:>7}")
    if misses:
        for project, result in on_topic:
            got = {tag.value for tag in result.tags["mechanism"]} - {"unknown"}
            if got != project["mechanism"]:
                print(
                    f"    mechanism miss: {project['repo']}: {sorted(got)} want {sorted(project['mechanism'])}"
                )
    macro = sum(f1s) / len(f1s) if f1s else 0.0
    print(
        f"  mechanism macro-F1 {macro:.3f} over {len(f1s)} classes ({len(on_topic)} on-topic); "
        f"workload accuracy {right / max(total, 1):.3f} ({right}/{total}); "
        f"topic accuracy {topic_right / len(projects):.3f} ({topic_right}/{len(projects)})"
    )


def print_title_speed(taxonomy: Taxonomy) -> None:
    from research_radar.classify.classifier import Item, classify_items
    from research_radar.classify.learned import load_embedder, load_model

    start = time.perf_counter()
    load_model()
    load_embedder()
    print(f"\nmodel load (WordLlama + heads): {(time.perf_counter() - start) * 1000:.0f} ms")
    items = [
        Item(f"Speculative decoding with KV cache offload for LLM serving, variant {i}")
        for i in range(10_000)
    ]
    start = time.perf_counter()
    classify_items(taxonomy, items)
    print(f"speed: 10,000 titles classified in {time.perf_counter() - start:.1f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profile", type=Path, default=None, help="a user taxonomy profile")
    parser.add_argument("--misses", action="store_true", help="list the misclassified items")
    parser.add_argument("--no-curated", action="store_true", help="skip the curated lists")
    args = parser.parse_args()
    start = time.perf_counter()
    taxonomy = load_taxonomy(args.profile)
    print(f"profile load: {(time.perf_counter() - start) * 1000:.1f} ms")
    for name, path in SETS.items():
        items = load_items(path)
        print_scores(name, score(taxonomy, items), len(items))
        if args.misses:
            print_misses(taxonomy, items)
    print()
    print_speed(taxonomy, load_items(SETS["tuned (daily reports)"]))
    print_title_speed(taxonomy)
    project_figures(taxonomy, args.misses)
    if not args.no_curated:
        curated_figures(taxonomy, args.misses)


if __name__ == "__main__":
    main()
