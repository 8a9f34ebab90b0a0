"""Prose, tables and benchmark files -> Claims (metrics, conditions, limits).

Pure: `extract_claims` reads only its arguments (and the bundled catalogue, read once).
A claim is one statement: a sentence of prose, a list item, a table row or one record of
a benchmark JSON file. Its conditions use canonical catalogue names; a condition missing
from the statement itself is inherited from earlier sentences of the same line, and,
for list items and table rows, from the heading and set-up prose above them.
Numbers are only ever taken from the input: a metric value is a number written there.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .catalog import Catalog, default_catalog
from .models import Claim, ClaimKind, Conditions, Metric

__all__ = ["claim_to_json", "extract_claims", "extract_file", "parse_benchmark_json"]

_CONDITION_FIELDS = ("hardware", "model", "precision", "software")
_NUM = r"(?<![A-Za-z0-9_.])[-+−]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?![\d]|\.\d)"
_UNITS: tuple[tuple[str, str], ...] = (
    (r"tok(?:en)?s?/s(?:ec)?|toks/s|t/s|TPS|tps", "tok/s"),
    (r"req(?:uest)?s?/s", "req/s"),
    (r"ms/tok(?:en)?", "ms/token"),
    (r"s/it", "s/it"),
    (r"it/s", "it/s"),
    (r"[GT]B/s", ""),
    (r"[TPG]FLOPS|[TPG]FLOP/s", ""),
    (r"GiB|MiB|GB|MB|TB", ""),
    (r"ms", "ms"),
    (r"µs|us", "us"),
    (r"s(?:ec|econds?)?", "s"),
    (r"min", "min"),
    (r"FPS|fps", "FPS"),
    (r"Hz", "Hz"),
    (r"pp", "pp"),
    (r"%", "%"),
    (r"[×xX]", "x"),
)
_UNIT_RE = "|".join(f"(?:{pattern})" for pattern, _ in _UNITS)
_RATE_WORD = r"(?:prefill|decode|generation|output|input|total|prompt|eval|gen)"
_METRIC = re.compile(
    rf"(?P<num>{_NUM})(?:\s?[–—~-]\s?(?P<num2>{_NUM}))?(?:\s?±\s?{_NUM})?"
    rf"(?:\s?(?P<word>{_RATE_WORD})(?=\s?(?:tok|t/s|TPS)))?\s?(?P<unit>{_UNIT_RE})"
    r"(?![A-Za-z0-9/])",
)
_MEMORY_UNITS = {"GB", "GiB", "MiB", "MB", "TB"}
_MEMORY_CONTEXT = re.compile(
    r"memory|VRAM|RAM usage|footprint|peak|resident|显存|内存|占用|uses|saves?", re.I
)
_PERF_UNITS = {"tok/s", "req/s", "ms/token", "s/it", "it/s", "ms", "us", "s", "min", "x", "FPS"}
_NAMED = re.compile(
    r"(?P<name>WER|CER|PPL|perplexity|KL(?:D| divergence)?|NLL|RTF|accuracy|acc|success rate|"
    r"BLEU|FID|(?:dir)?CLIP(?: score)?|pass@1|成功率|准确率|均分|得分|平均)\s*(?:of|=|:|：|is|为)?\s*"
    rf"(?P<num>{_NUM})(?P<pct>\s?%)?(?P<den>/\d+(?![.\d]))?",
    re.I,
)
_NAME_WORDS = re.compile(
    r"prefill|decode|TTFT|TPOT|ITL|E2E|latency|throughput|speed-?up|acceptance|bandwidth|"
    r"memory|VRAM|goodput|tokens/round|step time|success rate|accuracy|WER|CER|"
    r"加速|吞吐|延迟|显存|首字|速度|接受率|成功率|准确率",
    re.I,
)
_DEFAULT_NAMES = {
    "tok/s": "throughput",
    "req/s": "request throughput",
    "ms": "latency",
    "us": "latency",
    "s": "time",
    "min": "time",
    "ms/token": "per-token latency",
    "s/it": "step time",
    "it/s": "iteration rate",
    "x": "speedup",
    "%": "change",
    "pp": "change",
    "FPS": "frame rate",
    "Hz": "rate",
}
_ARROW = re.compile(rf"(?P<a>{_NUM})\s?(?P<ua>{_UNIT_RE})?\s?(?:→|->|=>|⇒|⟶)\s?(?=\d)")
_FROM_TO = re.compile(rf"\bfrom\s(?P<a>{_NUM})\s?(?P<ua>{_UNIT_RE})?\sto\s(?=\d)", re.I)
_FRACTION_CONTEXT = re.compile(
    r"success|task|episode|pass|accept|correct|成功|任务|通过|接受|正确", re.I
)
_COMPARE_GAP = re.compile(
    r"\s*(?:[(（][^()（）]{0,20}[)）]\s*)?(?:vs\.?|versus|对比?|compared (?:with|to))\s?[^\n]{0,30}?"
    rf"(?={_NUM})",
    re.I,
)

_NEGATIVE = re.compile(
    r"regress|revert|withdr[ae]wn?|retract|(?<!zero )(?<!no )fail|crash|broken|known issue|"
    r"unsupported|not supported|does(?: not|n't) support|slower|worse|degrad|mismatch|incorrect|"
    r"wrong output|\bNaN\b|不支持|回退|撤回|撤销|失败|质量下降|变慢|倒退|退化|反例|负例|负结果|"
    r"错误|漂移|崩溃|更慢|无收益|未合并|落后|(?:成功率|准确率|质量|精度|性能|吞吐|速度)(?:明显)?下降",
    re.I,
)
_LIMITATION = re.compile(
    r"\bonly\b|limited to|limitation|does(?: not|n't) include|not (?:a |an )?(?:serving|end-to-end|"
    r"E2E|lossless)|experimental|not yet|caveat|仅|只在|不含|不包含|非(?:无损|serving|E2E|通用|"
    r"端到端|完整)|不能|不等于|限于|局限|限制|边界|不外推|不可比|未(?:独立)?(?:复现|验证|核实|运行)",
    re.I,
)
_CORRECTNESS = re.compile(
    r"bit[- ]?exact|bitwise|identical|token[- ]equivalen|numerically|max_abs|max_rel|tests? pass|"
    r"lossless|argmax|等价|一致|无损|数值|正确性",
    re.I,
)
_QUALITY = re.compile(
    r"accuracy|\bWER\b|\bCER\b|\bPPL\b|perplexity|\bKL\b|\bNLL\b|success rate|BLEU|\bFID\b|CLIP|"
    r"VBench|score|pass@|准确率|成功率|质量|均分|得分|MMLU|GSM8K|AIME|HumanEval|任务分数",
    re.I,
)
_STATUS = re.compile(r"\bmerged\b|\breleased?\b|\bshipped\b|已合入|已合并|合并|发布", re.I)
_PERF_WORDS = re.compile(
    r"faster|speed|throughput|latency|prefill|decode|tok/s|加速|吞吐|延迟|提升|更快", re.I
)


@dataclass(frozen=True)
class _LoadRule:
    key: str
    regex: re.Pattern[str]
    fixed: str = ""
    """Value to store instead of the captured group (for flags such as greedy)."""


def _rule(key: str, pattern: str, fixed: str = "") -> _LoadRule:
    return _LoadRule(key, re.compile(pattern, re.I), fixed)


_K = r"(\d[\d,]*(?:\.\d+)?\s?[Kk]?)(?![\d.A-Za-z])"
_LOAD_RULES = (
    _rule("batch", r"(?:batch[\s_-]?size|batch|(?<![A-Za-z])bs)\s*[=:：]?\s*(\d+)(?![\d.])"),
    _rule("batch", r"批(?:大小|量)\s*[=:：]?\s*(\d+)"),
    _rule(
        "concurrency",
        r"(?:max_concurrency|concurrency|(?<![A-Za-z])conc|并发数?)\s*[=:：]?\s*(\d+)",
    ),
    _rule("concurrency", r"(?<![A-Za-z])C\s?=\s?(\d+)(?![\d.])"),
    _rule("concurrency", r"(\d+)\s*(?:个)?(?:并发|concurrent(?:\s+requests?)?)"),
    _rule(
        "context",
        r"(?:context(?:\s+length)?|ctx(?:[_-]size)?|上下文(?:长度)?)\s*(?:of\s)?[=:：@]?\s*" + _K,
    ),
    _rule("context", r"(?:@|(?<![A-Za-z])at)\s?(\d+(?:\.\d+)?[Kk])(?![A-Za-z0-9])"),
    _rule(
        "context",
        r"(?<![A-Za-z0-9_.])(\d+(?:\.\d+)?[Kk])(?=\s*(?:decode|prefill|context|ctx|上下文|$|[/，,、)）]))",
    ),
    _rule(
        "prompt",
        r"(?:ISL|input[\s_]len(?:gth)?|prompt[\s_]len(?:gth)?|prompt tokens|(?<![A-Za-z])pp)\s*[=:：]?\s*"
        + _K,
    ),
    _rule(
        "prompt",
        r"(\d[\d,]*[Kk]?)[\s-]*(?:token[\s-]+)?(?:prompt|input)(?!s? tokens/s|[\s_]throughput)",
    ),
    _rule(
        "output",
        r"(?:OSL|output[\s_]len(?:gth)?|max_tokens|max[\s_]new[\s_]tokens|(?<![A-Za-z])tg|输出(?:上限|长度)?)\s*[=:：]?\s*"
        + _K,
    ),
    _rule("output", r"(\d[\d,]*[Kk]?)[\s-]*(?:token[\s-]+)?output(?![\s_]throughput)"),
    _rule("seed", r"(?<![A-Za-z])seed\s*[=:：]?\s*(\d+)"),
    _rule("seeds", r"(\d+)\s*(?:fixed\s+)?seeds"),
    _rule("sampling", r"\bgreedy\b|贪心", "greedy"),
    _rule("temperature", r"temperature\s*[=:：]?\s*(\d+(?:\.\d+)?)"),
    _rule("runs", r"(\d+)\s*(?:runs|repeats|repetitions|trials|次(?:重复|运行|复测))"),
    _rule("runs", r"重复\s*(\d+)\s*次|每(?:项|组|个配置|配置)?\s*(\d+)\s*次"),
    _rule("runs", r"(\d+)\s*iterations"),
    _rule("runs", r"单次运行|single run", "1"),
    _rule("tp", r"(?<![A-Za-z])TP\s?=?\s?(\d+)(?![\d.])"),
    _rule("warmup", r"warm-?up\s*(\d+(?:\.\d+)?\s?s)(?![A-Za-z])"),
    _rule("measure", r"measure\s*(\d+(?:\.\d+)?\s?s)(?![A-Za-z])"),
    _rule("chunk", r"(\d+\s?ms)\s+chunks?"),
    _rule("samples", r"(\d+)\s*samples"),
    _rule("ram", r"(\d+\s?GB)\s?(?:RAM|DDR\d|内存)"),
    _rule("ram", r"(?:RAM|内存)\s*[=:：]?\s*(\d+\s?GB)"),
    _rule("steps", r"(\d+)\s*(?:sampling\s+|denoising\s+|inference\s+|flow\s?)?steps|(\d+)\s*步"),
    _rule("resolution", r"(\d{3,4}\s?[x×]\s?\d{3,4})(?![\d])"),
    _rule("ci", r"(\d+\s?%)\s?CI\b"),
    _rule("ci", r"confidence interval|置信区间", "yes"),
    _rule("spread", r"±\s?(\d[\d,]*(?:\.\d+)?\s?%?)"),
)
_PERCENTILE = re.compile(r"(?<![A-Za-z])[Pp](50|90|95|99(?:\.9)?)(?![\d])")
_COUNT = re.compile(r"(\d{1,3})\s?[×xX]\s?$")
_REPEAT_KEYS = ("runs", "samples", "seeds", "spread", "percentiles", "ci")

_CUES = re.compile(
    r"(?<![A-Za-z])(?:vs\.?|versus|compared (?:with|to)|relative to|against)(?![A-Za-z])|"
    r"(?:faster|slower|better|higher|lower|more|less|speed-?ups?|gains?|improvements?)\s+(?:than|over)\s|"
    r"(?<=[×x%])\s+over\s|(?<=\d%)\s+of\s(?=[A-Za-z])|"
    r"相对于?|对比|相比于?|比起|较之|[快慢优高低]于|(?<![对相无类好])比(?=\s?[A-Za-z])|(?<![相反应针面绝])对(?=\s?[A-Za-z][\w.-]*\s?\d)",
    re.I,
)
_BASELINE_WORDS = re.compile(
    r"(?<![A-Za-z])(plain|baseline|AR|naive|eager|default|off|stock|original|before|原始|基线|默认)"
    r"\s*[\d(（]",
    re.I,
)
_STOP_WORDS = {
    "at",
    "on",
    "with",
    "in",
    "for",
    "and",
    "by",
    "under",
    "when",
    "while",
    "which",
    "the",
    "a",
    "an",
    "its",
    "is",
    "was",
    "of",
    "to",
    "from",
    "same",
    "across",
    "per",
    "using",
    "mean",
    "median",
    "average",
    "avg",
    "decode",
    "prefill",
    "throughput",
    "latency",
    "reaches",
    "gives",
}
_CJK_STOP = re.compile(
    r"[为的约是，,。；;：:、（()）\s]|分别|提升|下降|只有|仅有|快|慢|高|低|多|少"
)


@dataclass
class _Context:
    """Conditions in scope: names per field plus load."""

    names: dict[str, list[str]] = field(default_factory=dict)
    baseline: list[str] = field(default_factory=list)
    load: dict[str, str] = field(default_factory=dict)

    def update(self, conditions: Conditions, *, with_baseline: bool) -> None:
        for name in _CONDITION_FIELDS:
            values = getattr(conditions, name)
            if values and name == "software":
                self.names[name] = list(dict.fromkeys([*self.names.get(name, []), *values]))
            elif values:
                self.names[name] = list(values)
        if with_baseline and conditions.baseline:
            self.baseline = list(conditions.baseline)
        self.load.update(conditions.load)

    def fill(self, conditions: Conditions, *, with_baseline: bool) -> Conditions:
        data = conditions.model_dump()
        for name in _CONDITION_FIELDS:
            inherited = self.names.get(name, [])
            if not data[name]:
                data[name] = list(inherited)
            elif name == "software":
                # software versions describe the whole set-up: keep both
                data[name] = list(dict.fromkeys([*data[name], *inherited]))
        if with_baseline and not data["baseline"]:
            data["baseline"] = list(self.baseline)
        data["load"] = {**self.load, **data["load"]}
        data["repeats"] = _repeats(data["load"])
        return Conditions(**data)


@dataclass(frozen=True)
class _Segment:
    text: str
    line: int
    block: str
    """prose, list or table."""
    new_line: bool
    header: tuple[str, ...] = ()
    level: int = 0
    """Heading level: 1-6 for `#`, 7 for a bold-only line."""


# --------------------------------------------------------------------------- public API


def extract_claims(
    text: str, where: str = "", reporter: str = "author", *, catalog: Catalog | None = None
) -> list[Claim]:
    """Claims of a text (Chinese or English prose, Markdown, tab-separated tables).

    Args:
        text: the document.
        where: `owner/repo@sha:path` or a URL; each claim gets `#L<line>` appended.
        reporter: author, community or us.
        catalog: the catalogue to name conditions with (the bundled one by default).
    """
    cat = catalog or default_catalog()
    claims: list[Claim] = []
    line_ctx, block_ctx = _Context(), _Context()
    sections: list[tuple[int, _Context]] = []
    for segment in _segments(text):
        if segment.block == "heading":
            block_ctx = _section(sections, segment, cat)
            line_ctx = _Context()
            continue
        if segment.new_line:
            line_ctx = _Context()
        claim = _claim(segment, cat, where, reporter, line_ctx, block_ctx)
        if claim is None:
            own = _conditions(segment.text, cat)
            line_ctx.update(own, with_baseline=False)
            if segment.block == "prose":
                block_ctx.update(own, with_baseline=not segment.header)
            continue
        claims.append(claim)
    return claims


def _section(sections: list[tuple[int, _Context]], heading: _Segment, cat: Catalog) -> _Context:
    """Enter a heading: its context starts from its parent section's context."""
    while sections and sections[-1][0] >= heading.level:
        sections.pop()
    parent = sections[-1][1] if sections else _Context()
    context = _Context(dict(parent.names), list(parent.baseline), dict(parent.load))
    context.update(_conditions(heading.text, cat), with_baseline=True)
    sections.append((heading.level, context))
    return context


def extract_file(
    path: Path, where_prefix: str = "", reporter: str = "author", *, catalog: Catalog | None = None
) -> list[Claim]:
    """Claims of a file: JSON benchmark results, or any text (README, docs, notes)."""
    text = path.read_text(encoding="utf-8", errors="replace")
    where = where_prefix or str(path)
    if path.suffix.lower() == ".json":
        try:
            data = json.loads(text)
        except json.JSONDecodeError:
            return extract_claims(text, where, reporter, catalog=catalog)
        return parse_benchmark_json(data, path.name, where, reporter, catalog=catalog)
    return extract_claims(text, where, reporter, catalog=catalog)


def claim_to_json(claim: Claim) -> dict[str, Any]:
    """The JSON shape `radar extract --json` prints for one claim."""
    conditions = claim.conditions
    return {
        "kind": claim.kind.value,
        "text": claim.text,
        "metrics": [m.model_dump() for m in claim.metrics],
        "conditions": {
            "hardware": conditions.hardware,
            "model": conditions.model,
            "precision": conditions.precision,
            "baseline": conditions.baseline,
            "software": conditions.software,
            "load": conditions.load,
        },
        "line": claim.line,
        "where": claim.where,
        "complete": claim.complete,
    }


# --------------------------------------------------------------------------- segments


def _segments(text: str) -> Iterator[_Segment]:
    """Statements of a document, with their line numbers and block kind."""
    header: tuple[str, ...] = ()
    in_fence = False
    lines = text.splitlines()
    for index, raw in enumerate(lines):
        number = index + 1
        stripped = raw.strip()
        if stripped.startswith(("```", "~~~")):
            in_fence = not in_fence
            continue
        if in_fence or not stripped:
            continue
        hashes = re.match(r"(#{1,6})\s", stripped)
        if hashes or re.fullmatch(r"\*\*[^*]{2,80}\*\*[:：]?", stripped):
            level = len(hashes.group(1)) if hashes else 7
            yield _Segment(_clean(stripped.lstrip("#")), number, "heading", True, level=level)
            continue
        if stripped.startswith("|"):
            cells = _cells(stripped)
            if all(re.fullmatch(r":?-{2,}:?", c) for c in cells if c):
                continue
            following = lines[index + 1].strip() if index + 1 < len(lines) else ""
            if re.fullmatch(r"\|?\s*:?-{2,}.*", following):
                header = tuple(_clean(c) for c in cells)
                yield _Segment(" ".join(header), number, "prose", True, header=header)
                continue
            yield _Segment(stripped, number, "table", True, header=header)
            continue
        header = ()
        block = "list" if re.match(r"(?:[-*+]|\d{1,2}[.)])\s", stripped) else "prose"
        first = True
        for cell in raw.split("\t"):
            for sentence in _sentences(_clean(cell)):
                yield _Segment(sentence, number, block, first)
                first = False


def _cells(row: str) -> list[str]:
    return [cell.strip() for cell in row.strip().strip("|").split("|")]


def _clean(text: str) -> str:
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = text.replace("**", "").replace("`", "")
    text = re.sub(r"^\s*(?:[-*+]|\d{1,2}[.)])\s+", "", text)
    return re.sub(r"\s+", " ", text).strip()


def _sentences(text: str) -> list[str]:
    parts = re.split(r"(?<=[。；！？;!?])\s*|(?<=[a-z0-9)\]*%])\.\s+(?=[A-Z(*\[])", text)
    return [part.strip() for part in parts if part and part.strip()]


# --------------------------------------------------------------------------- claims


def _claim(
    segment: _Segment,
    cat: Catalog,
    where: str,
    reporter: str,
    line_ctx: _Context,
    block_ctx: _Context,
) -> Claim | None:
    if segment.block == "table":
        text, metrics, own = _table_row(segment, cat)
    else:
        text = segment.text
        own = _conditions(text, cat)
        metrics = _metrics(text, cat, own)
    kind = _kind(text, metrics)
    if kind is None:
        return None
    conditions = line_ctx.fill(own, with_baseline=False)
    if segment.block in ("table", "list"):
        conditions = block_ctx.fill(conditions, with_baseline=True)
    conditions = _tidy(conditions)
    line_ctx.update(own, with_baseline=False)
    return Claim(
        kind=kind,
        text=text,
        metrics=metrics,
        conditions=conditions,
        where=f"{where}#L{segment.line}" if where else "",
        line=segment.line,
        reporter=reporter,
    )


def _kind(text: str, metrics: list[Metric]) -> ClaimKind | None:
    if _NEGATIVE.search(text):
        return ClaimKind.NEGATIVE
    if metrics:
        units = {m.unit for m in metrics}
        named_quality = any(_QUALITY.search(m.name) for m in metrics)
        if (units & _PERF_UNITS) or (_PERF_WORDS.search(text) and not named_quality):
            return ClaimKind.PERFORMANCE
        return (
            ClaimKind.QUALITY if (_QUALITY.search(text) or named_quality) else ClaimKind.PERFORMANCE
        )
    if _CORRECTNESS.search(text):
        return ClaimKind.CORRECTNESS
    if _LIMITATION.search(text):
        return ClaimKind.LIMITATION
    if _STATUS.search(text):
        return ClaimKind.STATUS
    return None


# --------------------------------------------------------------------------- conditions


def _conditions(text: str, cat: Catalog) -> Conditions:
    names = {name: cat.names(name, text) for name in _CONDITION_FIELDS}
    load = _load(text, cat)
    conditions = Conditions(
        hardware=names["hardware"],
        model=names["model"],
        precision=names["precision"],
        software=names["software"],
        baseline=_baselines(text, cat),
        load=load,
        repeats=_repeats(load),
    )
    return _tidy(conditions)


def _tidy(conditions: Conditions) -> Conditions:
    """Drop `MLX` when `MLX 0.32.2` is named too; a bare baseline takes the version."""
    software = conditions.software
    versioned = {name: name.split(" ")[0] for name in software if " " in name}
    kept = [name for name in software if name not in versioned.values()]
    by_base = {base: name for name, base in versioned.items()}
    baseline = list(dict.fromkeys(by_base.get(name, name) for name in conditions.baseline))
    if kept == software and baseline == conditions.baseline:
        return conditions
    return conditions.model_copy(update={"software": kept, "baseline": baseline})


def _load(text: str, cat: Catalog) -> dict[str, str]:
    load: dict[str, str] = {}
    for rule in _LOAD_RULES:
        if rule.key in load:
            continue
        match = rule.regex.search(text)
        if match:
            raw = rule.fixed or next((g for g in match.groups() if g), "")
            if raw:
                load[rule.key] = re.sub(r"[,\s]", "", raw)
    percentiles = dict.fromkeys(f"p{m}" for m in _PERCENTILE.findall(text))
    if percentiles:
        load["percentiles"] = ",".join(percentiles)
    for mention in cat.find("hardware", text):
        count = _COUNT.search(text[max(0, mention.start - 6) : mention.start])
        if count and "gpus" not in load:
            load["gpus"] = count.group(1)
    return load


def _repeats(load: dict[str, str]) -> str | None:
    parts = [f"{key} {load[key]}" for key in _REPEAT_KEYS if key in load]
    return ", ".join(parts) or None


def _baselines(text: str, cat: Catalog) -> list[str]:
    found: list[str] = []
    for match in _CUES.finditer(text):
        left = text[max(0, match.start() - 24) : match.start()]
        word = _BASELINE_WORDS.search(left)
        if word and match.group(0).strip().lower().startswith(("vs", "versus", "对")):
            found.append(word.group(1))
            continue
        target = _target(text[match.end() : match.end() + 48], cat)
        if target:
            found.append(target)
    return list(dict.fromkeys(found))


def _target(after: str, cat: Catalog) -> str:
    """The thing named right after a comparison cue."""
    after = re.sub(r"^[\s*:：]+", "", after)
    after = re.sub(
        r"^(?:(?:the|a|an|about|around|roughly|approximately)\s+|[~约]\s*)", "", after, flags=re.I
    )
    skips = [0] + [m.end() for m in re.finditer(r"[a-z][\w-]*\s", after[:30])][:2]
    for skip in skips:
        for name in ("software", "model", "hardware", "precision"):
            mentions = cat.find(name, after[skip:])
            if mentions and mentions[0].start <= 2:
                return mentions[0].name
    latin = re.match(r"[A-Za-z][\w.+\-/]*(?:\s[A-Za-z][\w.+\-]*){0,2}", after)
    if latin:
        words: list[str] = []
        for word in latin.group(0).split():
            if word.lower() in _STOP_WORDS:
                break
            words.append(word)
        return " ".join(words)
    cjk = re.match(r"[\u4e00-\u9fff]{1,8}", after)
    if cjk:
        head = _CJK_STOP.split(cjk.group(0))[0]
        return head if len(head) >= 2 else ""
    return ""


# --------------------------------------------------------------------------- metrics


def _blocked_spans(text: str, cat: Catalog) -> list[tuple[int, int]]:
    """Spans whose numbers are conditions, not metrics."""
    spans = [(m.start, m.end) for name in _CONDITION_FIELDS for m in cat.find(name, text)]
    for rule in _LOAD_RULES:
        spans.extend(match.span() for match in rule.regex.finditer(text))
    return spans


@dataclass
class _Found:
    """Metrics found so far in one statement, and the number spans they use."""

    blocked: list[tuple[int, int]]
    items: list[tuple[int, Metric]] = field(default_factory=list)
    spans: list[tuple[int, int]] = field(default_factory=list)

    def free(self, span: tuple[int, int]) -> bool:
        return all(span[1] <= a or span[0] >= b for a, b in self.blocked + self.spans)

    def add(self, span: tuple[int, int], metric: Metric) -> None:
        self.items.append((span[0], metric))
        self.spans.append(span)


def _metrics(text: str, cat: Catalog, conditions: Conditions) -> list[Metric]:
    found = _Found(_blocked_spans(text, cat))
    for match in _METRIC.finditer(text):
        if found.free(match.span("num")):
            for span, metric in _unit_metrics(text, match, cat):
                found.add(span, metric)
    for match in _NAMED.finditer(text):
        if found.free(match.span("num")):
            unit = "%" if match.group("pct") else (match.group("den") or "")
            metric = Metric(name=match.group("name"), value=_value(match.group("num")), unit=unit)
            found.add(match.span("num"), metric)
    _fractions(text, found)
    _propagated(text, found)
    found.items.sort(key=lambda item: item[0])
    return [metric for _, metric in found.items]


def _unit_metrics(
    text: str, match: re.Match[str], cat: Catalog
) -> list[tuple[tuple[int, int], Metric]]:
    unit = _canonical_unit(match.group("unit"))
    rest = text[match.end() :]
    if unit == "x" and re.match(r"\s?(?:\d|[A-Za-z])", rest) and _is_count(rest, cat):
        return []
    window = text[max(0, match.start() - 30) : match.end() + 24]
    if unit in _MEMORY_UNITS and not _MEMORY_CONTEXT.search(window):
        return []
    name = _metric_name(text, match.start(), match.end(), unit, match.group("word"))
    groups = ["num"] + (["num2"] if match.group("num2") else [])
    return [
        (match.span(g), Metric(name=name, value=_value(match.group(g)), unit=unit)) for g in groups
    ]


def _fractions(text: str, found: _Found) -> None:
    """`9/20 tasks`, `515/539 drafts accepted`: counts out of a total."""
    if not _FRACTION_CONTEXT.search(text):
        return
    for match in re.finditer(r"(?<![\w./])(\d{1,4})/(\d{1,4})(?![\w/]|\.\d)", text):
        numerator, denominator = int(match.group(1)), int(match.group(2))
        if denominator > 0 and numerator <= denominator and found.free(match.span(1)):
            metric = Metric(name="count", value=float(numerator), unit=f"/{denominator}")
            found.add(match.span(1), metric)


def _is_count(rest: str, cat: Catalog) -> bool:
    """`2× B70` or `16 × 9`: a count or a dimension, not a speed-up."""
    if re.match(r"\s?\d", rest):
        return True
    return any(m.start <= 1 for m in cat.find("hardware", rest[:40]))


def _canonical_unit(raw: str) -> str:
    for pattern, canonical in _UNITS:
        if re.fullmatch(pattern, raw):
            return canonical or raw
    return raw


def _metric_name(text: str, start: int, end: int, unit: str, word: str | None) -> str:
    if word:
        return word.lower()
    before = list(_NAME_WORDS.finditer(text[max(0, start - 40) : start]))
    if before:
        return before[-1].group(0)
    after = _NAME_WORDS.match(text[end : end + 20].lstrip())
    if after:
        return after.group(0)
    if unit.endswith("/s") and unit[0] in "GT":
        return "bandwidth"
    if unit in _MEMORY_UNITS:
        return "memory"
    if "FLOP" in unit:
        return "compute"
    return _DEFAULT_NAMES.get(unit, "value")


def _value(raw: str) -> float:
    return float(raw.replace(",", "").replace("−", "-"))


def _propagated(text: str, found: _Found) -> None:
    """Bare numbers compared with a measured one take its unit (`74 vs 38 tok/s`)."""
    last_unit = ""
    for pattern in (_ARROW, _FROM_TO):
        for match in pattern.finditer(text):
            target = _METRIC.match(text, match.end())
            own = _canonical_unit(match.group("ua")) if match.group("ua") else last_unit
            unit = _canonical_unit(target.group("unit")) if target else own
            if unit:
                last_unit = unit
                _add_bare(text, found, match.span("a"), unit)
                if not target:
                    _add_bare(text, found, _number_at(text, match.end()), unit)
    by_position = dict(found.items)
    for number in re.finditer(_NUM, text):
        if found.free(number.span()):
            _compare(text, found, number, by_position)


def _compare(
    text: str, found: _Found, number: re.Match[str], by_position: dict[int, Metric]
) -> None:
    """Link a bare number to a measured one across `vs` / `对` in either direction."""
    gap = _COMPARE_GAP.match(text, number.end())
    target = _METRIC.match(text, gap.end()) if gap else None
    if target and _canonical_unit(target.group("unit")) in _PERF_UNITS | {"%"}:
        _add_bare(text, found, number.span(), _canonical_unit(target.group("unit")))
        return
    for start, metric in by_position.items():
        back = _COMPARE_GAP.match(text, _end_of_metric(text, start))
        if back and back.end() == number.start() and not _METRIC.match(text, number.start()):
            name = metric.name
            found.add(
                number.span(), Metric(name=name, value=_value(number.group(0)), unit=metric.unit)
            )
            return


def _end_of_metric(text: str, start: int) -> int:
    match = _METRIC.match(text, start) or _NAMED.match(text, start)
    if match:
        return match.end()
    number = re.compile(rf"{_NUM}(?:/\d+)?").match(text, start)
    return number.end() if number else start


def _number_at(text: str, position: int) -> tuple[int, int]:
    number = re.compile(_NUM).match(text, position)
    return number.span() if number else (position, position)


def _add_bare(text: str, found: _Found, span: tuple[int, int], unit: str) -> None:
    if span[1] > span[0] and found.free(span):
        name = _metric_name(text, span[0], span[0], unit, None)
        found.add(span, Metric(name=name, value=_value(text[span[0] : span[1]]), unit=unit))


# --------------------------------------------------------------------------- tables

_HEADER_LOAD = (
    ("context", re.compile(r"context|ctx|上下文|^T$", re.I)),
    ("prompt", re.compile(r"prompt|ISL|input len|T_pp", re.I)),
    ("output", re.compile(r"completion tokens|output tokens|OSL|output len", re.I)),
    ("batch", re.compile(r"^batch|^bs$", re.I)),
    ("concurrency", re.compile(r"concurrency|^conc", re.I)),
    ("runs", re.compile(r"^(?:samples|runs|repeats|n)$", re.I)),
)


def _table_row(segment: _Segment, cat: Catalog) -> tuple[str, list[Metric], Conditions]:
    cells = [_clean(c) for c in _cells(segment.text)]
    header = list(segment.header) + [""] * max(0, len(cells) - len(segment.header))
    text = "; ".join(f"{h}: {c}" if h else c for h, c in zip(header, cells, strict=False) if c)
    own = _conditions(" | ".join(cells), cat)
    load = dict(own.load)
    metrics: list[Metric] = []
    for head, cell in zip(header, cells, strict=False):
        role = next((key for key, rx in _HEADER_LOAD if rx.search(head)), None)
        bare = re.fullmatch(rf"[~≈]?({_NUM}[Kk]?)(?:\s?±.*)?[\s†*]*", cell)
        if role and bare and not _header_unit(head):
            load[role] = bare.group(1).replace(",", "")
            continue
        found = _metrics(cell, cat, own)
        if not found and bare:
            found = _bare_cell(head, bare.group(1).rstrip("Kk"), metrics, cat)
        metrics.extend(found)
    conditions = own.model_copy(update={"load": load, "repeats": _repeats(load)})
    return text, metrics, conditions


def _header_unit(head: str) -> str:
    match = re.search(rf"(?<![A-Za-z])({_UNIT_RE})(?![A-Za-z])", head)
    return _canonical_unit(match.group(1)) if match else ""


def _bare_cell(head: str, raw: str, previous: list[Metric], cat: Catalog) -> list[Metric]:
    unit = _header_unit(head)
    name = re.sub(rf"\(?(?:{_UNIT_RE})\)?", "", head).strip() or "value"
    if unit:
        return [Metric(name=name, value=_value(raw), unit=unit)]
    names_system = bool(cat.names("software", head)) or re.search(r"baseline|基线|ref", head, re.I)
    if names_system and previous and previous[-1].unit:
        return [
            Metric(name=f"{previous[-1].name} ({head})", value=_value(raw), unit=previous[-1].unit)
        ]
    return []


# --------------------------------------------------------------------------- JSON files

_JSON_UNITS = (
    (re.compile(r"request_throughput|req(?:uests)?_per_s"), "req/s"),
    (re.compile(r"throughput|tok(?:en)?s?_per_s(?:ec)?|tps$|tok_s$"), "tok/s"),
    (re.compile(r"_ms$|latency_ms|ttft|tpot|itl"), "ms"),
    (re.compile(r"^duration$|_s$|seconds"), "s"),
    (re.compile(r"speedup"), "x"),
    (re.compile(r"accuracy|wer|cer|ppl|perplexity|score|accept_length|acceptance"), ""),
)
_JSON_LOAD = (
    ("concurrency", re.compile(r"^(?:max_)?concurrency$|^conc$")),
    ("prompt", re.compile(r"input_len|^isl$|prompt_len")),
    ("output", re.compile(r"output_len|^osl$|max_tokens")),
    ("batch", re.compile(r"^batch(?:_size)?$|^bs$")),
    ("request_rate", re.compile(r"^request_rate$")),
    ("seed", re.compile(r"^seed$")),
)
_FILE_LOAD = (
    ("concurrency", re.compile(r"(?:conc|concurrency|c)(\d+)$", re.I)),
    ("prompt", re.compile(r"isl(\d+)$", re.I)),
    ("output", re.compile(r"osl(\d+)$", re.I)),
    ("batch", re.compile(r"(?:bs|batch)(\d+)$", re.I)),
    ("tp", re.compile(r"tp(\d+)$", re.I)),
)


def parse_benchmark_json(
    data: Any, name: str, where: str, reporter: str = "author", *, catalog: Catalog | None = None
) -> list[Claim]:
    """Claims of a decoded benchmark-results JSON document (one per result record).

    Load conditions written in the file name (`conc16_isl1024_osl1024`) count too.
    """
    cat = catalog or default_catalog()
    stem = re.sub(r"\.json$", "", name, flags=re.I)
    file_load = _file_load(stem)
    file_names = {f: cat.names(f, re.sub(r"[_.]", " ", stem)) for f in _CONDITION_FIELDS}
    claims = []
    for record in _records(data):
        claim = _record_claim(record, stem, where, reporter, cat, file_load, file_names)
        if claim is not None:
            claims.append(claim)
    return claims


def _records(data: Any) -> Iterator[dict[str, Any]]:
    if isinstance(data, dict):
        if any(_json_unit(k) is not None and _number(v) for k, v in data.items()):
            yield data
        for value in data.values():
            if isinstance(value, dict | list):
                yield from _records(value)
    elif isinstance(data, list):
        for item in data:
            yield from _records(item)


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _json_unit(key: str) -> str | None:
    lowered = key.lower()
    if lowered.startswith("std_") or lowered.endswith("_std"):
        return None
    return next((unit for rx, unit in _JSON_UNITS if rx.search(lowered)), None)


def _file_load(stem: str) -> dict[str, str]:
    load: dict[str, str] = {}
    for token in re.split(r"[_\-.\s]+", stem):
        for key, rx in _FILE_LOAD:
            match = rx.fullmatch(token) if key != "concurrency" else rx.match(token)
            if match and key not in load and match.end() == len(token):
                load[key] = match.group(1)
    return load


def _record_claim(
    record: dict[str, Any],
    stem: str,
    where: str,
    reporter: str,
    cat: Catalog,
    file_load: dict[str, str],
    file_names: dict[str, list[str]],
) -> Claim | None:
    metrics = [
        Metric(name=key, value=float(value), unit=unit)
        for key, value in record.items()
        if (unit := _json_unit(key)) is not None and _number(value)
    ]
    if not metrics:
        return None
    load = dict(file_load)
    for key, value in record.items():
        role = next((k for k, rx in _JSON_LOAD if rx.search(key.lower())), None)
        if role and (_number(value) or value in (math.inf, -math.inf)) and role not in load:
            load[role] = "inf" if value == math.inf else f"{value:g}"
    words = " ".join(str(v) for k, v in record.items() if isinstance(v, str) and len(v) < 80)
    names = {f: list(dict.fromkeys(file_names[f] + cat.names(f, words))) for f in _CONDITION_FIELDS}
    percentiles = sorted({m.group(1) for k in record for m in [re.match(r"(p\d{2})_", k)] if m})
    if percentiles:
        load["percentiles"] = ",".join(percentiles)
    summary = ", ".join(
        f"{m.name}={m.value:g}{(' ' + m.unit) if m.unit else ''}" for m in metrics[:6]
    )
    return Claim(
        kind=ClaimKind.PERFORMANCE,
        text=f"{stem}: {summary}",
        metrics=metrics,
        conditions=Conditions(**names, load=load, repeats=_repeats(load)),
        where=where,
        line=None,
        reporter=reporter,
    )
