"""Prose, tables and benchmark files -> Claims (metrics, conditions, limits).

Pure: `extract_claims` reads only its arguments (and the bundled catalogue, read once).
A claim is one statement: a sentence of prose, a list item, a table row or one record of
a benchmark JSON file. Its conditions use canonical catalogue names; a condition missing
from the statement itself is inherited from earlier sentences of the same line, list
item or wrapped paragraph, and, for list items and table rows, from the headings above
them, the table header and the paragraph that introduces them (not earlier paragraphs).
Numbers are only ever taken from the input: a metric value is a number written there.
In `A vs B` the compared system's number B keeps its value but is named `<metric>
(baseline)`; `own_metrics` leaves it out. A hedged statement (`reportedly`, `据称`) is
reported by "community" and carries `load["hedged"] = "yes"`.

This module holds the public API, the claim kind and the inheritance of conditions; the
rest lives beside it: `extract.markdown` (document -> segments, table rows),
`extract.conditions` (hardware, model, precision, software, baseline, load),
`extract.metrics` (numbers with units) and `extract.benchmark_json` (benchmark JSON files).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from research_radar.extract.benchmark_json import parse_benchmark_json
from research_radar.extract.catalogue import Catalog, default_catalog
from research_radar.extract.clauses import split_by_clause
from research_radar.extract.conditions import (
    CONDITION_FIELDS,
    find_conditions,
    format_repeats,
    tidy_conditions,
)
from research_radar.extract.markdown import Segment, parse_segments
from research_radar.extract.metrics import find_metrics, is_baseline_metric
from research_radar.extract.prefilter import probe_of, search
from research_radar.extract.scopes import find_scopes, with_scopes
from research_radar.extract.tables import TableClaim, read_table
from research_radar.extract.units import PERF_UNITS
from research_radar.models import Claim, ClaimKind, Conditions, Metric

__all__ = ["claim_to_json", "extract_claims", "extract_document", "extract_file", "own_metrics"]


_NEGATIVE = re.compile(
    r"regress|revert|withdr[ae]wn?|retract|(?<!zero )(?<!no )fail|crash|broken|known issue|"
    r"unsupported|not supported|does(?: not|n't) support|slower|worse|degrad|mismatch|incorrect|"
    r"wrong output|\bNaN\b|不支持|回退|撤回|撤销|失败|质量下降|变慢|倒退|退化|反例|负例|负结果|"
    r"错误|漂移|崩溃|更慢|无收益|未合并|落后|(?:成功率|准确率|质量|精度|性能|吞吐|速度)(?:明显)?下降",
    re.I,
)
_ONLY = (
    # "only" limits when it restricts what works, not in "CPU-only is supported" or
    # "retrieving only the keys that matter"
    r"^(?:[^:：]{0,20}[:：]\s*)?only\b|"
    r"(?<![-\w])only\b[^.;,]{0,60}?\b(?:is|are)\s+(?:supported|covered|tested|available|"
    r"accepted|implemented|validated|verified|compatible)\b|"
    r"(?<![-\w])only\s+(?:supports?|supported|works?|runs?|available|tested|targets?|on|for)\b|"
    r"\b(?:supports?|supported|works?|runs?|available|accepted|tested|valid)\s+only\b|"
    r"\bthe only supported\b"
)
_LIMITATION = re.compile(
    _ONLY + r"|limited to|limitation|does(?: not|n't) include|not (?:a |an )?(?:serving|end-to-end|"
    r"E2E|lossless)|experimental(?!\s(?:settings?|set-?ups?|results?|environments?|configurations?))|not yet|caveat|仅|只(?:在|支持|能|适用)|不含|不包含|非(?:无损|serving|E2E|通用|"
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
_HEDGE = re.compile(
    r"据称|据说|据传|传闻|听说|\breportedly\b|\ballegedly\b|\bsupposedly\b|\bpurportedly\b|"
    r"\brumou?red\b|\bclaimed to\b|\b(?:is|are|was|were) said to\b",
    re.I,
)
"""Hearsay: the statement relays someone else's claim, so it is not a firm fact."""
_STATUS = re.compile(r"\bmerged\b|\breleased?\b|\bshipped\b|已合入|已合并|合并|发布", re.I)
_PERF_WORDS = re.compile(
    r"faster|speed|throughput|latency|prefill|decode|tok/s|加速|吞吐|延迟|提升|更快", re.I
)


@dataclass
class _Context:
    """Conditions in scope: names per field plus load."""

    names: dict[str, list[str]] = field(default_factory=dict)
    baseline: list[str] = field(default_factory=list)
    load: dict[str, str] = field(default_factory=dict)

    def update(self, conditions: Conditions, *, with_baseline: bool) -> None:
        for name in CONDITION_FIELDS:
            values = getattr(conditions, name)
            if values and name == "software":
                self.names[name] = list(dict.fromkeys([*self.names.get(name, []), *values]))
            elif values:
                self.names[name] = list(values)
        if with_baseline and conditions.baseline:
            self.baseline = list(conditions.baseline)
        self.load.update(conditions.load)

    def merge(self, other: _Context) -> None:
        self.names.update({k: list(v) for k, v in other.names.items() if v})
        self.baseline = list(other.baseline) or self.baseline
        self.load.update(other.load)

    def copy(self) -> _Context:
        return _Context(
            {k: list(v) for k, v in self.names.items()}, list(self.baseline), dict(self.load)
        )

    def fill(self, conditions: Conditions, *, with_baseline: bool) -> Conditions:
        data = conditions.model_dump()
        for name in CONDITION_FIELDS:
            inherited = self.names.get(name, [])
            if not data[name]:
                data[name] = list(inherited)
            elif name == "software":
                # software versions describe the whole set-up: keep both
                data[name] = list(dict.fromkeys([*data[name], *inherited]))
        if with_baseline and not data["baseline"]:
            data["baseline"] = list(self.baseline)
        data["load"] = {**self.load, **data["load"]}
        data["repeats"] = format_repeats(data["load"])
        return Conditions(**data)


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
    project = _project(where)
    claims: list[Claim] = []
    line_ctx, block_ctx = _Context(), _Context()
    sections: list[tuple[int, _Context]] = [(0, _Context())]
    """The document (level 0) and the headings above the current line, with their set-up."""
    lead = True
    """No claim yet since the last heading: what is said now sets up the whole section."""
    lead_ctx, lead_names = _Context(), dict[str, set[str]]()
    caption_ctx = _Context()
    sublead: dict[int, dict[str, list[str]]] = {}
    """Per section depth: what its lead set up for its subsections."""
    survey_list = False
    """The list being read is introduced by a survey (`Featuring:`): it sets nothing up."""
    table: list[Segment] = []
    header: tuple[str, ...] = ()
    compared: dict[str, None] = {}
    """The systems the prose's claims so far compare with: a table's row or column of one
    of them holds the compared system's own numbers."""

    def end_lead() -> None:
        """The section's first number: the load its lead set up holds for all of it (`150
        requests at concurrency 8` above Table 4 holds for Table 5 too)."""
        nonlocal lead
        if lead:
            section = sections[-1][1]
            section.load = {**lead_ctx.load, **section.load}
            # `Benchmarks run on an 8xA100-80GB` above the first table: the hardware of
            # the section's subsections too (not of its later paragraphs)
            sublead[len(sections) - 1] = {
                name: list(lead_ctx.names[name])
                for name in _LEAD_FIELDS
                if len(lead_ctx.names.get(name, [])) == 1
            }
        lead = False

    def end_table() -> None:
        if not table:
            return  # no rows: no claims (and no header cells to clean for nothing)
        for cell in read_table(header, table, cat, tuple(compared), project):
            found = _table_claims(cell, where, reporter, block_ctx)
            if found:
                end_lead()
            claims.extend(found)
        table.clear()

    segments = list(parse_segments(text))
    for segment in segments:
        if segment.block == "table":
            if segment.header != header:
                end_table()
                header = segment.header
            table.append(segment)
            continue
        end_table()
        if segment.header:
            header = segment.header  # a table's header row: read with its rows
            continue
        if segment.block == "heading":
            if lead and segment.level > sections[-1][0]:
                # `## Performance` / `We test ... on H800 with NVCC 12.8` / `### Dense`:
                # what a section says before its first number and its first subsection
                # sets up its subsections (issue #14)
                sections[-1][1].merge(lead_ctx)
            section = _section(sections, segment, cat)
            depth = len(sections) - 1
            for name, values in sublead.get(depth - 1, {}).items():
                section.names.setdefault(name, values)
            for stale in [d for d in sublead if d >= depth]:
                del sublead[stale]
            block_ctx = section.copy()
            line_ctx, lead, lead_ctx, lead_names = _Context(), True, _Context(), {}
            caption_ctx = _Context()
            continue
        if segment.new_line:
            line_ctx = _Context()
        if segment.block == "prose" and segment.new_paragraph:
            # a new paragraph is the set-up of what follows it, not the one before it
            block_ctx = sections[-1][1].copy()
            if lead:
                block_ctx.merge(lead_ctx)  # `* data_type = FP16` / `TP means ...` / a table
            block_ctx.merge(caption_ctx)
        if segment.block == "prose" and _CAPTION.match(segment.text):
            # `Figure 6: Concurrent requests throughput (Llama-3.2-1B, NVIDIA H100, ...)`:
            # the set-up of the paragraphs that discuss the figure, below it
            caption_ctx = _Context()
            caption_ctx.update(find_conditions(segment.text, cat), with_baseline=True)
        made = _claims(segment, cat, where, reporter, line_ctx, block_ctx)
        claim = made[0] if made else None
        if claim is not None and claim.metrics:
            claims.extend(made)
            for one in made:
                compared.update(dict.fromkeys(one.conditions.baseline))
            end_lead()
            continue
        if claim is not None:
            # `power limited to 330W`, `only tested on H100`: a statement without a number
            # still sets up what follows it (issue #14)
            claims.append(claim)
            if claim.kind == ClaimKind.STATUS:
                end_lead()  # `v0.5 released: 1-bit models on ARM`: news, not a set-up
                continue
        own = find_conditions(segment.text, cat)
        surveyed = segment.block == "list" and survey_list
        if _SURVEY.search(segment.text):
            own = _unlisted(own)
            # `Featuring:` / `Supported models:` above a list: its items are a survey too
            survey_list = segment.block != "list" and segment.text.rstrip().endswith((":", "："))
        elif segment.block != "list":
            survey_list = False
        line_ctx.update(own, with_baseline=False)
        block_ctx.update(own, with_baseline=segment.block == "prose")
        if lead and not surveyed and not _defines(segment.text, cat):
            _lead(lead_ctx, own, lead_names, with_baseline=segment.block == "prose")
    end_table()
    scopes = find_scopes(segments, cat)
    if not scopes:
        return claims
    return [
        c.model_copy(update={"conditions": with_scopes(c.conditions, c.line or 0, scopes)})
        for c in claims
    ]


_REPOSITORY = re.compile(r"(?:github\.com/|^)[\w.-]+/([\w.-]+?)(?:\.git)?(?:@|/|#|$)")


def _project(where: str) -> str:
    """The repository's name in `owner/repo@sha:path` or a GitHub URL, else ''."""
    if "@" not in where and "github.com/" not in where:
        return ""
    match = _REPOSITORY.search(where)
    return match.group(1) if match else ""


_LEAD_NAMES = 2
"""A section's lead naming more things of one field than this is a survey, not a set-up."""
_LEAD_FIELDS = ("hardware",)
"""The fields a section's lead sets up for the whole section, its subsections included."""


def _lead(
    section: _Context, own: Conditions, seen: dict[str, set[str]], *, with_baseline: bool
) -> None:
    """Add the conditions of a statement before a section's first number to its lead.

    A field the lead names more than `_LEAD_NAMES` things of, in one statement or over
    several (`* Decoder-only: GPT-2, OPT` then `* Encoder-only: BERT`), is a survey of
    what is supported: it is dropped from the set-up, and stays dropped.
    """
    crowded: dict[str, list[str]] = {}
    for name in (*CONDITION_FIELDS, "baseline"):
        values = getattr(own, name)
        if not values:
            continue
        found = seen.setdefault(name, set())
        found.update(values)
        if len(found) > _LEAD_NAMES:
            crowded[name] = []
            if name == "baseline":
                section.baseline = []
            else:
                section.names.pop(name, None)
    section.update(own.model_copy(update=crowded), with_baseline=with_baseline)


_SURVEY = re.compile(
    r"\b(?:supported|supports?|support for|including|includes?|such as|e\.g\.|among others|"
    r"compatible with|works with|models? like|featur(?:ing|es))\b|支持|包括|例如|诸如",
    re.I,
)
"""What a project can run (`Supported models include pi0.5, GR00T N1.7, ...`): no set-up."""


def _unlisted(conditions: Conditions) -> Conditions:
    """A survey's conditions without the fields it lists several things of."""
    listed: dict[str, list[str]] = {
        name: [] for name in CONDITION_FIELDS if len(getattr(conditions, name)) > 1
    }
    return conditions.model_copy(update=listed) if listed else conditions


_TERM = re.compile(r"^([^:：=]{1,40})[:：]\s")


def _defines(text: str, cat: Catalog) -> bool:
    """`OPUS-MT: a base Transformer trained with Marian`: a glossary entry, not a set-up
    (`Model: Qwen3-14B` names the set-up after its colon, not before)."""
    term = _TERM.match(text)
    return term is not None and any(cat.find(name, term.group(1)) for name in CONDITION_FIELDS)


def _section(sections: list[tuple[int, _Context]], heading: Segment, cat: Catalog) -> _Context:
    """Enter a heading: its context is its parent section's plus its own text."""
    while len(sections) > 1 and sections[-1][0] >= heading.level:
        sections.pop()
    context = sections[-1][1].copy()
    context.update(find_conditions(heading.text, cat), with_baseline=True)
    sections.append((heading.level, context))
    return context


def extract_file(
    path: Path, where_prefix: str = "", reporter: str = "author", *, catalog: Catalog | None = None
) -> list[Claim]:
    """Claims of a file: JSON benchmark results, or any text (README, docs, notes)."""
    text = path.read_text(encoding="utf-8", errors="replace")
    return extract_document(text, path.name, where_prefix or str(path), reporter, catalog=catalog)


def extract_document(
    text: str,
    name: str,
    where: str,
    reporter: str = "author",
    *,
    catalog: Catalog | None = None,
) -> list[Claim]:
    """Claims of a document already read: benchmark results when `name` ends in .json and
    the text parses, else the claims of the text."""
    if name.lower().endswith(".json"):
        try:
            data = json.loads(text)
        except json.JSONDecodeError:
            return extract_claims(text, where, reporter, catalog=catalog)
        return parse_benchmark_json(data, name, where, reporter, catalog=catalog)
    return extract_claims(text, where, reporter, catalog=catalog)


def own_metrics(claim: Claim) -> list[Metric]:
    """The claim's own numbers: its metrics without the compared system's values.

    In `prefill 963 vs 763 tok/s` the 763 is llama.cpp's, named `prefill (baseline)`
    (a table column names the system: `prefill (llama.cpp baseline)`).
    """
    return [metric for metric in claim.metrics if not is_baseline_metric(metric)]


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


# --------------------------------------------------------------------------- claims


def _claims(
    segment: Segment,
    cat: Catalog,
    where: str,
    reporter: str,
    line_ctx: _Context,
    block_ctx: _Context,
) -> list[Claim]:
    """The claim of one statement, or one per clause when its clauses name different
    models or hardware for their numbers (`11x on Falcon 40B and 3x on Llama 2 70B`)."""
    text = segment.text
    own = find_conditions(text, cat)
    metrics = find_metrics(text, cat, own)
    kind = _kind(text, metrics)
    if kind is None:
        return []
    parts = split_by_clause(text, cat, own, metrics) or [(own, metrics)]
    made = []
    for conditions, found in parts:
        conditions = line_ctx.fill(conditions, with_baseline=False)
        # a list item takes its list's set-up and compared system; a sentence of prose
        # takes its section's and paragraph's set-up, but names its own comparison, unless
        # all it gives are ratios to what was named before (`DMA beats the custom kernel.
        # The gain starts at 5.5%`)
        ratios = all(m.unit in _RATIO_UNITS for m in found) and bool(found)
        conditions = block_ctx.fill(conditions, with_baseline=segment.block == "list" or ratios)
        made.append(
            _made(kind, text, found, tidy_conditions(conditions), where, segment.line, reporter)
        )
    line_ctx.update(own, with_baseline=False)
    return made


def _table_claims(cell: TableClaim, where: str, reporter: str, block_ctx: _Context) -> list[Claim]:
    """One row's cells with their conditions; a compared system named above the table
    is the baseline of its ratios (`2.7x`), not of its absolute numbers (`206 TFLOPS`)."""
    kind = _kind(cell.text, cell.metrics)
    if kind is None:
        return []
    inherits = not cell.reference and not cell.conditions.baseline and block_ctx.baseline
    ratios = [m for m in cell.metrics if m.unit in _RATIO_UNITS]
    paired = any(is_baseline_metric(m) for m in cell.metrics)  # its numbers are compared too
    if not inherits or paired or not ratios or len(ratios) == len(cell.metrics):
        conditions = block_ctx.fill(cell.conditions, with_baseline=not cell.reference)
        return [
            _made(
                kind,
                cell.text,
                cell.metrics,
                tidy_conditions(conditions),
                where,
                cell.line,
                reporter,
            )
        ]
    absolute = [m for m in cell.metrics if m.unit not in _RATIO_UNITS]
    plain = tidy_conditions(block_ctx.fill(cell.conditions, with_baseline=False))
    compared = tidy_conditions(block_ctx.fill(cell.conditions, with_baseline=True))
    return [
        _made(kind, cell.text, absolute, plain, where, cell.line, reporter),
        _made(kind, cell.text, ratios, compared, where, cell.line, reporter),
    ]


_RATIO_UNITS = frozenset({"x", "%", "pp"})
_CAPTION = re.compile(r"(?:Figure|Fig\.|Table|图|表)\s?\d+\s?[:.：]", re.I)


def _made(
    kind: ClaimKind,
    text: str,
    metrics: list[Metric],
    conditions: Conditions,
    where: str,
    line: int,
    reporter: str,
) -> Claim:
    if _said(text)[_HEDGE]:
        # relayed, not measured or stated by the reporter: never an author's firm claim
        conditions = conditions.model_copy(update={"load": {**conditions.load, "hedged": "yes"}})
        reporter = "community"
    return Claim(
        kind=kind,
        text=text,
        metrics=metrics,
        conditions=conditions,
        where=f"{where}#L{line}" if where else "",
        line=line,
        reporter=reporter,
    )


def _kind(text: str, metrics: list[Metric]) -> ClaimKind | None:
    said = _said(text)
    if said[_NEGATIVE]:
        return ClaimKind.NEGATIVE
    if metrics:
        units = {m.unit for m in metrics}
        named_quality = any(_QUALITY.search(m.name) for m in metrics)
        if (units & PERF_UNITS) or (said[_PERF_WORDS] and not named_quality):
            return ClaimKind.PERFORMANCE
        return ClaimKind.QUALITY if (said[_QUALITY] or named_quality) else ClaimKind.PERFORMANCE
    if said[_CORRECTNESS]:
        return ClaimKind.CORRECTNESS
    if said[_LIMITATION]:
        return ClaimKind.LIMITATION
    if said[_STATUS]:
        return ClaimKind.STATUS
    return None


@lru_cache(maxsize=16384)
def _said(text: str) -> dict[re.Pattern[str], bool]:
    """Which of the kind patterns a statement matches, read once per statement; each
    pattern runs only where its needles are (issue #19)."""
    probe = probe_of(text)
    kinds = (_NEGATIVE, _PERF_WORDS, _QUALITY, _CORRECTNESS, _LIMITATION, _STATUS, _HEDGE)
    return {pattern: search(pattern, probe) is not None for pattern in kinds}
