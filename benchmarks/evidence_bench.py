"""Precision and recall of claim extraction: real benchmark documents, then statement sets.

1. Real documents (the main measure). `benchmarks/data/evidence/*.lab` label every
   number in chosen line ranges of public benchmark pages and READMEs, each pinned to a
   commit. The documents themselves are not in this repository: the script reads them
   from a local cache, `<cache>/<owner>/<name>/<commit>/<path>` (default
   ~/.cache/research-radar/evidence, or `--cache DIR`, or $RADAR_EVIDENCE_CACHE). A missing file is
   reported with the git commands that put it there.

   Each document is `split=tune` (looked at while improving the extractor) or
   `split=heldout`, `split=heldout2`, ... (never inspected against extractor output: its
   numbers are the honest ones; a later batch is labelled before any run on it). Each
   split is scored and printed separately, then all held-out batches together;
   `--verbose` lists the misses of the tune split only.

2. Statement sets (tests/fixtures/evidence_labelled.jsonl and evidence_heldout.jsonl):
   short statements, pooled per statement (the older measure, kept for continuity).

Label format (`.lab`, one record a line; `#` starts the header)::

    # doc <id> <owner/name> <commit> <path> lines=<a-b>[,<c-d>] lang=<zh|en> split=<tune|heldout>
    L<line> <value> <unit> <metric> | hw=..; model=..; prec=..; base=..; load=k:v,k:v; role=b; sw=..
    L<line> ignore <v1>,<v2>

A claim line is one number as its author measured it: the value as written, its unit
(`-` when the author gives none: a score), a metric word, and the conditions the author
gave for it anywhere in scope (document, section, paragraph or caption, table, row):
hardware, model, precision, baseline (the compared system), load. `a/b` lists
alternatives (any one is right). `role=b` marks the compared system's own number.
Baseline convention (issue #14 names "the BF16 column as the implicit baseline"): ratios,
speedups and reductions always name what they compare with; a table that lists one model
at several precisions side by side compares them with its widest precision (base= on the
others' numbers, role=b on the widest's own), framed as a comparison or not, in columns or
in rows, within each group of numbers that share hardware, software, load and metric (a
row missing the widest cell still names it; a device's peak at several data types, with no
model, and a table whose widest precision is not written are no such tables); a table of
several systems, one of them the document's own project, compares the project with the
others; any other absolute number has a base= only where the author frames a comparison
(`vs`, `compared with`, `相比`, a row or column named baseline or reference, a 1.0x row, a
ratio in the same row: a Speedup or `vs FP16` column names its baseline on the row's others).
`ignore` lists numbers on that line that are neither claims nor errors when extracted
(dates, versions, sizes in model names, settings); any other extracted number in the
ranges is a false positive.

Scoring: an extracted number matches a labelled one with the same value on the same
line, or a few lines below a multi-line statement's first line (HTML table rows, wrapped
prose). Metric precision = matched / extracted, recall = matched / labelled. Unit is
scored on matched numbers. For hardware, model, precision and baseline, on matched
numbers: recall = numbers whose labelled condition is among the extracted ones / numbers
with that condition labelled (names are compared without case, punctuation or trademark
marks, `(R)`, `(TM)`, `™`; a hardware name matches with or without its vendor's, and a
workstation card with or without its RTX, `RTX A6000` = `A6000`); precision = numbers whose
extracted condition is right / numbers with any extracted ("strict" precision counts an
extracted `ignore` number as an error too: a setting or a version read as a measurement).
Load: key=value items (batch, concurrency, prompt, output, context, gpus, tp, ep, rate).
A bare `seq len` (`SeqLen`, `序列长度`) is the prompt where a run reads it before its first
output (prefill, TTFT, an encoder's input, beside an output length) and the context where a
run decodes or trains at it (decode speed, training samples, perplexity windows, kernels).
A run stated on one GPU (`单张A100`, `单卡`, `a single H100`, `1x A100`) has gpus:1; `单卡`
naming a per-GPU metric (`单卡每秒 token 数`) sets no load.
Baseline role: P/R of `(baseline)` metrics against role=b.

Run: .venv/bin/python benchmarks/evidence_bench.py [--verbose] [--cache DIR] [--doc ID]
[--labels GLOB] [--labels-dir DIR] [--split NAME] [--docs-only]

After the `load` line of each split, `load by key` gives the load recall of each key
(recall/labelled), aggregate counts only.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from research_radar.extract.claims import extract_claims
from research_radar.models import Claim

ROOT = Path(__file__).resolve().parent.parent
LABELS = ROOT / "benchmarks" / "data" / "evidence"
FIXTURES = ROOT / "tests" / "fixtures"
FIXTURE = FIXTURES / "evidence_labelled.jsonl"
HELDOUT = FIXTURES / "evidence_heldout.jsonl"
"""A small set labelled after the extractor was written (see its source field)."""
DEFAULT_CACHE = Path(
    os.environ.get(
        "RADAR_EVIDENCE_CACHE", str(Path.home() / ".cache" / "research-radar" / "evidence")
    )
)
FIELDS = ("hardware", "model", "precision", "software", "baseline", "load", "metrics")
CONDITIONS = ("hardware", "model", "precision", "baseline")
LOAD_ORDER = ("batch", "concurrency", "prompt", "output", "context", "gpus", "tp", "ep", "rate")
"""The load keys scored, in the order the per-key recall line prints them."""
LOAD_KEYS = set(LOAD_ORDER)
SLACK = 8
"""How many lines below a statement's first line a labelled number may stand."""
_UNITS = {
    "tok/s": "tok/s",
    "token/s": "tok/s",
    "tfops": "TFLOPS",
    "tflops": "TFLOPS",
    "tflop/s": "TFLOPS",
    "-": "",
    "req/s": "req/s",
    "qps": "req/s",
    "rps": "req/s",
    "iter/s": "it/s",
    "ms/tok": "ms/token",
    "images/s": "img/s",
    "image/s": "img/s",
}
"""Spellings of one unit that labels write either way (`iter/s` is `it/s`)."""


# --------------------------------------------------------------------------- labels


@dataclass
class Gold:
    line: int
    value: str
    unit: str
    metric: str
    conditions: dict[str, list[str]]
    load: dict[str, str]
    role_baseline: bool


@dataclass
class Doc:
    id: str
    repo: str
    commit: str
    path: str
    ranges: list[tuple[int, int]]
    lang: str
    split: str
    gold: list[Gold] = field(default_factory=list)
    ignore: dict[int, set[float]] = field(default_factory=dict)

    def cache_path(self, cache: Path) -> Path:
        return cache / self.repo / self.commit / self.path

    def in_ranges(self, line: int) -> bool:
        return any(a <= line <= b for a, b in self.ranges)


_HEADER = re.compile(
    r"#\s*doc\s+(?P<id>\S+)\s+(?P<repo>\S+/\S+)\s+(?P<commit>[0-9a-f]{40})\s+(?P<path>\S+)\s+"
    r"lines=(?P<lines>\S+)\s+lang=(?P<lang>\w+)\s+split=(?P<split>\w+)"
)
_CLAIM = re.compile(
    r"L(?P<line>\d+)\s+(?P<value>\S+)\s+(?P<unit>\S+)\s+(?P<metric>\S+)\s*\|(?P<rest>.*)"
)
_IGNORE = re.compile(r"L(?P<line>\d+)\s+ignore\s+(?P<values>\S+)")
_KEYS = {
    "hw": "hardware",
    "model": "model",
    "prec": "precision",
    "base": "baseline",
    "sw": "software",
}


def _float(raw: str) -> float | None:
    try:
        return float(raw.replace(",", ""))
    except ValueError:
        return None


def load_docs(folder: Path = LABELS) -> list[Doc]:
    return [doc for path in sorted(folder.glob("*.lab")) for doc in _load_file(path)]


def _load_file(path: Path) -> list[Doc]:
    docs: list[Doc] = []
    doc: Doc | None = None
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line:
            continue
        header = _HEADER.match(line)
        if header:
            ranges = [
                (int(a), int(b))
                for a, b in (part.split("-") for part in header.group("lines").split(","))
            ]
            doc = Doc(
                header.group("id"),
                header.group("repo"),
                header.group("commit"),
                header.group("path"),
                ranges,
                header.group("lang"),
                header.group("split"),
            )
            docs.append(doc)
            continue
        if doc is None:
            raise ValueError(f"{path.name}: a label before the # doc header: {line}")
        ignore = _IGNORE.match(line)
        if ignore:
            values = {_float(v) for v in ignore.group("values").split(",")}
            doc.ignore.setdefault(int(ignore.group("line")), set()).update(
                v for v in values if v is not None
            )
            continue
        claim = _CLAIM.match(line)
        if not claim:
            raise ValueError(f"{path.name}: not a label: {line}")
        conditions: dict[str, list[str]] = {}
        load: dict[str, str] = {}
        role = False
        for part in claim.group("rest").split(";"):
            if "=" not in part:
                continue
            key, value = (s.strip() for s in part.split("=", 1))
            if key == "load":
                load.update(kv.split(":", 1) for kv in value.split(",") if ":" in kv)  # type: ignore[misc]
            elif key == "role":
                role = value == "b"
            elif key in _KEYS and value:
                conditions[_KEYS[key]] = [v.strip() for v in value.split("/") if v.strip()]
        doc.gold.append(
            Gold(
                int(claim.group("line")),
                claim.group("value"),
                claim.group("unit"),
                claim.group("metric"),
                conditions,
                load,
                role,
            )
        )
    return docs


def load_docs_matching(pattern: str, folder: Path = LABELS) -> list[Doc]:
    """The documents of the label files whose names match a glob (`e-*.lab`)."""
    chosen = {p.name for p in folder.glob(pattern)}
    docs: list[Doc] = []
    for path in sorted(folder.glob("*.lab")):
        if path.name in chosen:
            docs.extend(_load_file(path))
    return docs


# --------------------------------------------------------------------------- matching


_MARKS = re.compile(r"\((?:r|tm)\)|[\u00ae\u2122]")
"""Trademark marks inside a product's name: `Intel(R) Xeon(R)`, `Core(TM)`, `Ryzen™`."""


def _norm_name(value: str) -> str:
    text = re.sub(r"(?<![a-z])v(?=\d)", "", _MARKS.sub("", value.lower()))
    return re.sub(r"[^a-z0-9\u4e00-\u9fff]", "", text)


def _strip_memory(value: str) -> str:
    return re.sub(r"\s*\(?\d+(?:\.\d+)?\s?(?:GB|GiB|G)\)?$", "", value)


_VENDOR = re.compile(r"^(?:nvidia|amd|intel|apple|qualcomm|huawei|samsung|google)(?=[a-z0-9])")
"""A vendor's name before a product's: `AMD Ryzen 9 5900X` is the `Ryzen 9 5900X`."""
_WORKSTATION = re.compile(r"rtx(?=a\d{3,4}(?![0-9]))")
"""The RTX before a workstation A-series card's name: `RTX A6000` is the `A6000` (an `RTX
4090` keeps it: its number alone is no card)."""


def _bare_hardware(normed: str) -> str:
    return _WORKSTATION.sub("", _VENDOR.sub("", normed))


_MODEL_OWNER = re.compile(r"^[\w.-]+/(?=[A-Za-z])")
"""A hub organisation before a model's name: `meta-llama/Llama-2-7b-hf` is `Llama-2-7b-hf`."""
_META = re.compile(r"^meta[-_ ]?(?=llama)", re.IGNORECASE)
"""Meta's own spelling of its models: `Meta-Llama-3-8B` is `Llama-3-8B` (the same weights)."""


def _bare_model(value: str) -> str:
    return _norm_name(_META.sub("", _MODEL_OWNER.sub("", value.strip())))


def name_matches(field_name: str, gold: str, predicted: str) -> bool:
    g, p = _norm_name(gold), _norm_name(predicted)
    if not g or not p:
        return False
    if field_name == "hardware":
        bare = _norm_name(_strip_memory(predicted))
        return bare == g or p == g or _bare_hardware(bare) == _bare_hardware(g)
    if field_name == "model":
        g, p = _bare_model(gold), _bare_model(predicted)
        return p == g or p.startswith(g) or g.startswith(p) and len(p) >= 4
    if field_name == "precision":
        aliases = {"w4a16": "int4", "4bit": "int4", "8bit": "int8", "half": "fp16"}
        return aliases.get(p, p) == aliases.get(g, g)
    return (g in p or p in g) and min(len(g), len(p)) >= 2


def _norm_load(value: str) -> set[str]:
    text = value.lower().replace(",", "").replace(" ", "")
    found = {text}
    match = re.fullmatch(r"(\d+(?:\.\d+)?)k", text)
    if match:
        number = float(match.group(1))
        found |= {f"{number * 1024:g}", f"{number * 1000:g}"}
    return found


def _norm_unit(unit: str) -> str:
    return _UNITS.get(unit.lower(), unit)


@dataclass
class Predicted:
    line: int
    value: float
    unit: str
    name: str
    claim: Claim


def predictions(doc: Doc, text: str) -> list[Predicted]:
    found: list[Predicted] = []
    for claim in extract_claims(text, where=f"{doc.repo}@{doc.commit}:{doc.path}"):
        if not doc.in_ranges(claim.line):
            continue
        for metric in claim.metrics:
            found.append(Predicted(claim.line, metric.value, metric.unit, metric.name, claim))
    return found


@dataclass
class Tally:
    counts: Counter[str] = field(default_factory=Counter)
    misses: list[str] = field(default_factory=list)

    def add(self, key: str, n: int = 1) -> None:
        self.counts[key] += n


def score_doc(doc: Doc, text: str, tally: Tally, verbose: bool) -> None:
    lines = text.splitlines()
    preds = predictions(doc, text)
    taken: set[int] = set()
    matched: list[tuple[Gold, Predicted]] = []
    for gold in doc.gold:
        value = _float(gold.value)
        candidates = [
            (abs(gold.line - p.line), i)
            for i, p in enumerate(preds)
            if i not in taken
            and value is not None
            and abs(p.value - value) < 1e-9
            and gold.line - SLACK <= p.line <= gold.line
        ]
        kind = "table" if _is_table(lines, gold.line) else "prose"
        tally.add(f"gold:{doc.lang}:{kind}")
        if not candidates:
            tally.misses.append(
                f"  {doc.id} L{gold.line} missed {gold.value} {gold.unit} ({gold.metric})"
            )
            continue
        _, index = min(candidates)
        taken.add(index)
        matched.append((gold, preds[index]))
        tally.add(f"hit:{doc.lang}:{kind}")
    for i, pred in enumerate(preds):
        if i in taken:
            continue
        if _ignored(doc, pred):
            tally.add("ignored")
            continue
        tally.add("fp")
        tally.misses.append(
            f"  {doc.id} L{pred.line} extra {pred.value:g} {pred.unit} ({pred.name}): "
            f"{pred.claim.text[:90]}"
        )
    tally.add("gold", len(doc.gold))
    tally.add("tp", len(matched))
    for gold, pred in matched:
        _score_conditions(doc, gold, pred, tally, verbose)


def _is_table(lines: list[str], line: int) -> bool:
    raw = lines[line - 1].strip() if 0 < line <= len(lines) else ""
    return raw.startswith(("|", "<t", "<td"))


def _ignored(doc: Doc, pred: Predicted) -> bool:
    for line, values in doc.ignore.items():
        if line - SLACK <= pred.line <= line and any(abs(pred.value - v) < 1e-9 for v in values):
            return True
    return False


def _score_conditions(doc: Doc, gold: Gold, pred: Predicted, tally: Tally, verbose: bool) -> None:
    where = f"  {doc.id} L{gold.line} {gold.value}"
    if _norm_unit(gold.unit) == _norm_unit(pred.unit):
        tally.add("unit:ok")
    else:
        tally.misses.append(f"{where} unit {pred.unit!r} != {gold.unit!r}")
    conditions = pred.claim.conditions
    for name in CONDITIONS:
        golds = gold.conditions.get(name, [])
        got = list(getattr(conditions, name))
        right = any(name_matches(name, g, p) for g in golds for p in got)
        if golds:
            tally.add(f"{name}:gold")
            tally.add(f"{name}:recall", right)
        if got:
            tally.add(f"{name}:pred")
            tally.add(f"{name}:precise", right)
        if verbose and golds and not right:
            tally.misses.append(f"{where} {name} {got} != {golds}")
        elif verbose and got and not golds:
            tally.misses.append(f"{where} {name} {got} (none labelled)")
    predicted_load = {
        (k, v) for k, raw in conditions.load.items() if k in LOAD_KEYS for v in _norm_load(raw)
    }
    for key, value in gold.load.items():
        tally.add("load:gold")
        hit = any((key, v) in predicted_load for v in _norm_load(value))
        tally.add("load:recall", hit)
        tally.add(f"load:gold:{key}")
        tally.add(f"load:recall:{key}", hit)
        if verbose and not hit:
            tally.misses.append(f"{where} load {key}={value} not in {dict(conditions.load)}")
    tally.add("load:pred", sum(1 for k in conditions.load if k in LOAD_KEYS))
    tally.add(
        "load:precise",
        sum(
            1
            for k, raw in conditions.load.items()
            if k in gold.load and _norm_load(raw) & _norm_load(gold.load[k])
        ),
    )
    is_base = pred.name.endswith("baseline)") or pred.name.lower() in ("baseline", "基线")
    if gold.role_baseline:
        tally.add("role:gold")
        tally.add("role:recall", is_base)
    if is_base:
        tally.add("role:pred")
        tally.add("role:precise", gold.role_baseline)


def _ratio(a: int, b: int) -> str:
    return f"{a / b:.3f}" if b else "  -  "


def load_by_key(counts: Counter[str]) -> str:
    """One line: the load recall of each key on found numbers (`batch 0.912/340`: recall,
    then how many numbers have that key labelled), aggregate counts only."""
    parts = [
        f"{key} {_ratio(counts[f'load:recall:{key}'], gold)}/{gold}"
        for key in LOAD_ORDER
        if (gold := counts[f"load:gold:{key}"])
    ]
    return f"{'  load by key':<16} " + (", ".join(parts) or "none labelled")


def report_docs(docs: list[Doc], cache: Path, split: str, verbose: bool) -> bool:
    """Score the documents of one split (`heldout*` scores every held-out batch together)."""
    if split.endswith("*"):
        chosen = [d for d in docs if d.split.startswith(split[:-1])]
    else:
        chosen = [d for d in docs if d.split == split]
    tally = Tally()
    missing: list[Doc] = []
    started = time.perf_counter()
    for doc in chosen:
        path = doc.cache_path(cache)
        if not path.exists():
            missing.append(doc)
            continue
        # misses are listed for tune documents only: held-out ones stay unseen
        listed = verbose and doc.split == "tune"
        score_doc(doc, path.read_text(encoding="utf-8", errors="replace"), tally, listed)
    elapsed = time.perf_counter() - started
    if missing:
        print(f"{len(missing)} document(s) of the {split} set are not in the cache {cache}:")
        for doc in missing:
            owner, name = doc.repo.split("/")
            print(
                f"  git clone --filter=blob:none https://github.com/{doc.repo} /tmp/{name} && "
                f"mkdir -p {doc.cache_path(cache).parent} && "
                f"git -C /tmp/{name} show {doc.commit}:{doc.path} > {doc.cache_path(cache)}"
            )
    c = tally.counts
    scored = len(chosen) - len(missing)
    projects = len({d.repo for d in chosen if d not in missing})
    zh = sum(1 for d in chosen if d.lang == "zh" and d not in missing)
    print(
        f"\n== {split}: {scored} documents from {projects} projects ({zh} in Chinese), "
        f"{c['gold']} labelled numbers ({elapsed:.2f} s)"
    )
    print(f"{'field':<16} {'precision':>9} {'recall':>7}   counts")
    print(
        f"{'metric':<16} {_ratio(c['tp'], c['tp'] + c['fp']):>9} {_ratio(c['tp'], c['gold']):>7}"
        f"   tp {c['tp']}, fp {c['fp']}, gold {c['gold']}, ignored {c['ignored']}"
    )
    strict = _ratio(c["tp"], c["tp"] + c["fp"] + c["ignored"])
    print(f"{'  strict':<16} {strict:>9}            ignored numbers counted as errors")
    for lang in ("zh", "en"):
        for kind in ("prose", "table"):
            gold = c[f"gold:{lang}:{kind}"]
            if gold:
                label = f"  recall {lang} {kind}"
                print(f"{label:<16} {'':>9} {_ratio(c[f'hit:{lang}:{kind}'], gold):>7}   of {gold}")
    print(f"{'unit (on found)':<16} {'':>9} {_ratio(c['unit:ok'], c['tp']):>7}")
    for name in (*CONDITIONS, "load", "role"):
        label = "baseline role" if name == "role" else name
        print(
            f"{label:<16} {_ratio(c[f'{name}:precise'], c[f'{name}:pred']):>9} "
            f"{_ratio(c[f'{name}:recall'], c[f'{name}:gold']):>7}"
            f"   on found numbers: labelled {c[f'{name}:gold']}, extracted {c[f'{name}:pred']}"
        )
        if name == "load":
            print(load_by_key(c))
    if verbose and split == "tune":
        # held-out errors are never printed: reading them would be tuning on them
        print("\n".join(tally.misses))
    return not missing


# --------------------------------------------------------------------------- statement sets


def _norm(value: str) -> str:
    return " ".join(value.lower().replace(",", "").split())


def predicted(text: str) -> dict[str, Counter[str]]:
    """Pooled conditions and metrics of all claims of one statement."""
    claims = extract_claims(text)
    found: dict[str, Counter[str]] = {name: Counter() for name in FIELDS}
    for name in FIELDS[:5]:
        values = {_norm(v) for claim in claims for v in getattr(claim.conditions, name)}
        found[name].update(values)
    loads = {
        f"{k}={_norm(v).replace(' ', '')}" for c in claims for k, v in c.conditions.load.items()
    }
    found["load"].update(loads)
    for claim in claims:
        found["metrics"].update(f"{m.value:g} {m.unit}" for m in claim.metrics)
    return found


def expected(item: dict[str, object]) -> dict[str, Counter[str]]:
    exp = item["expected"]
    assert isinstance(exp, dict)
    gold: dict[str, Counter[str]] = {name: Counter() for name in FIELDS}
    for name in FIELDS[:5]:
        gold[name].update({_norm(v) for v in exp[name]})
    gold["load"].update(f"{k}={_norm(v).replace(' ', '')}" for k, v in exp["load"].items())
    gold["metrics"].update(f"{float(v):g} {u}" for v, u in exp["metrics"])
    return gold


def score(items: list[dict[str, object]], verbose: bool = False) -> dict[str, tuple[int, int, int]]:
    """field -> (true positives, predicted, expected)."""
    totals = {name: [0, 0, 0] for name in FIELDS}
    for item in items:
        pred, gold = predicted(str(item["text"])), expected(item)
        for name in FIELDS:
            hit = sum((pred[name] & gold[name]).values())
            totals[name][0] += hit
            totals[name][1] += sum(pred[name].values())
            totals[name][2] += sum(gold[name].values())
            if verbose and pred[name] != gold[name]:
                extra = sorted((pred[name] - gold[name]).elements())
                missing = sorted((gold[name] - pred[name]).elements())
                print(f"  {item['id']:<20} {name:<9} extra={extra} missing={missing}")
    return {name: (t[0], t[1], t[2]) for name, t in totals.items()}


def kind_accuracy(items: list[dict[str, object]]) -> float:
    right = 0
    for item in items:
        exp = item["expected"]
        assert isinstance(exp, dict)
        kinds = {claim.kind.value for claim in extract_claims(str(item["text"]))}
        right += exp["kind"] in kinds
    return right / len(items)


def report(path: Path, verbose: bool) -> None:
    items = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    started = time.perf_counter()
    totals = score(items, verbose=verbose)
    elapsed = time.perf_counter() - started
    print(f"{path.name}: {len(items)} statements ({elapsed:.2f} s)")
    print(f"{'field':<10} {'precision':>9} {'recall':>7} {'tp':>5} {'pred':>5} {'gold':>5}")
    for name, (tp, pred, gold) in totals.items():
        p = tp / pred if pred else 1.0
        r = tp / gold if gold else 1.0
        print(f"{name:<10} {p:>9.3f} {r:>7.3f} {tp:>5} {pred:>5} {gold:>5}")
    print(f"kind (expected kind among the claims): {kind_accuracy(items):.3f}\n")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        description=(__doc__ or "").splitlines()[0],
        epilog=(
            "example: .venv/bin/python benchmarks/evidence_bench.py --docs-only "
            "--labels 't-*.lab' --verbose   (tune documents only, listing their misses)"
        ),
    )
    parser.add_argument("--verbose", action="store_true", help="list the misses of tune documents")
    parser.add_argument(
        "--cache", type=Path, default=DEFAULT_CACHE, help="folder of cached documents"
    )
    parser.add_argument("--doc", metavar="ID", help="score one labelled document")
    parser.add_argument("--labels", metavar="GLOB", help="score the label files matching GLOB")
    parser.add_argument("--labels-dir", type=Path, default=LABELS, help="folder of the label files")
    parser.add_argument(
        "--split", metavar="NAME", help="score the documents of one split only (`tune`)"
    )
    parser.add_argument("--docs-only", action="store_true", help="skip the statement sets")
    args = parser.parse_args(argv)
    verbose: bool = args.verbose
    cache: Path = args.cache
    folder: Path = args.labels_dir
    docs = load_docs_matching(args.labels, folder) if args.labels else load_docs(folder)
    if args.doc:
        docs = [d for d in docs if d.id == args.doc]
    if args.split:
        docs = [d for d in docs if d.split == args.split]
    print(f"Real documents: {len(docs)} labelled, cache {cache}")
    per_split: dict[str, int] = defaultdict(int)
    for doc in docs:
        per_split[doc.split] += 1
    for split in sorted(per_split, key=lambda s: (s != "tune", s)):
        report_docs(docs, cache, split, verbose)
    if sum(1 for s in per_split if s.startswith("heldout")) > 1:
        report_docs(docs, cache, "heldout*", verbose)
    if not args.docs_only:
        print("\nStatement sets")
        for path in (FIXTURE, HELDOUT):
            if path.exists():
                report(path, verbose and path != HELDOUT)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
