"""Lint and verify any house-style report: the rules of CONVENTIONS.md as stable rule ids.

`review_report` reads a report (GitHub Markdown or the tab-separated export; a file with
many dated reports is reviewed report by report, the earlier ones serving as history for
the later ones) and returns a `Review`: what was verified and found true, and findings
with Where / Problem / Conditions / Impact / Fix. Pure: the only I/O goes through the
`Verifier` the caller passes in (see verify.py). It never raises on malformed text.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined
from pydantic import BaseModel, Field

from .models import Finding, Snapshot
from .reportparse import ParsedEntry, ParsedReport, split_reports
from .verify import Check, Verifier, verify_report

__all__ = [
    "RULES",
    "Review",
    "ReviewFinding",
    "Severity",
    "build_findings",
    "family_of",
    "project_key",
    "render_review",
    "review_report",
]


class Severity(StrEnum):
    BLOCKING = "blocking"
    WARNING = "warning"
    INFO = "info"


RULES = (
    "header-cutoff-missing",
    "header-sha-missing",
    "dimension-missing",
    "host-mapping-generic",
    "family-not-differentiated",
    "already-reported",
    "version-unpinned",
    "conditions-missing",
    "author-number-unmarked",
    "cross-condition-ranking",
    "stacked-percentages",
    "proposal-incomplete",
    "novelty-label-missing",
    "public-only",
    "bare-cross-repo-ref",
    "claim-unverified",
    "claim-false",
)
"""Stable rule ids (JSON output, exports, tests)."""


class ReviewFinding(BaseModel):
    """One problem found in a report."""

    rule: str
    entry: str | None = None
    """The project name as the report writes it; None for report-wide findings."""
    dimension: str | None = None
    """DESIGN.md dimension id for dimension-missing."""
    severity: Severity
    where: str
    problem: str
    conditions: str = ""
    """What the check looked at and under which policy."""
    impact: str = ""
    fix: str = ""


class Review(BaseModel):
    """The review of one report file."""

    verified: list[str] = Field(default_factory=list)
    findings: list[ReviewFinding] = Field(default_factory=list)
    reviewed: str = ""
    """Reports reviewed: date / title and content hash."""
    coverage: list[str] = Field(default_factory=list)
    host_sha: str | None = None
    reviewed_at: datetime | None = None

    @property
    def blocking(self) -> bool:
        return any(item.severity is Severity.BLOCKING for item in self.findings)

    def to_json(self) -> dict[str, Any]:
        """`{"verified": [...], "findings": [...]}`: the shape of `radar review --json`."""
        keys = (
            "rule",
            "entry",
            "dimension",
            "severity",
            "where",
            "problem",
            "conditions",
            "impact",
            "fix",
        )
        return {
            "verified": list(self.verified),
            "findings": [item.model_dump(mode="json", include=set(keys)) for item in self.findings],
        }


# -- vocabulary ---------------------------------------------------------------------------

_MODEL_NAMES = (
    r"DeepSeek|Qwen|GLM|MiniMax|Llama|Kimi|Mistral|Gemma|gpt-oss|Nanbeige|Woof|Nemotron|"
    r"Mamba|Phi-?\d"
)
_WORKLOAD = {
    "llm-agentic": rf"LLM|Agentic|语言模型|{_MODEL_NAMES}|\bMoE\b|\b\d+(?:\.\d+)?B\b",
    "diffusion": r"Diffusion|diffusion|扩散|\bDiT\b|FLUX|stable-diffusion|图像|视频生成",
    "loop-recurrent": r"Loop(?:/| Transformer)|Recurrent|recurrent|自适应(?:计算)?深度|adaptive depth",
    "decision-policy": r"Decision|Action|Policy|World Model|\bVLA|具身|机器人|π0|SmolVLA",
    "crossmodal-streaming": r"语音|Speech|speech|\bASR\b|\bTTS\b|跨模态|多模态|multimodal|流式交互",
}
_MECHANISM = {
    "schedule": r"[Ss]chedul|调度|batch|批处理|排队|deadline|队列",
    "cache": r"[Cc]ache|缓存|\bKV\b|驻留|offload|预取|prefetch",
    "parallel-pipeline": r"[Pp]arallel|[Pp]ipeline|并行|流水|重叠|overlap|\bTP\d|\bEP\d",
    "kernel-compiler-fusion": r"[Kk]ernel|[Cc]ompil|编译|[Ff]usion|融合|算子|Triton|CUDA|Metal|graph",
    "quant-sparsity-speculation": (
        r"[Qq]uantiz|量化|[Ss]parsi|稀疏|[Ss]peculat|投机|draft|草稿|\bMTP|INT8|FP8|FP4|\bQ\d|bit\b"
    ),
    "compute-quality-budget": r"[Bb]udget|预算|early exit|早退|自适应|质量.{0,4}成本",
}
_SYSTEM_LEVEL = {
    "operator": r"单算子|算子|operator|[Kk]ernel",
    "model-execution": r"模型执行|[Mm]odel execution|[Mm]odel-specific|engine|Engine|引擎|runtime|运行时",
    "serving": r"[Ss]erving|服务|单机|分布式|distributed",
    "end-to-end": r"端到端|\bE2E\b|end-to-end|闭环|交互",
    "controller": r"控制器|控制层|controller|知识反馈|评测|[Bb]ench",
}
_RSI_STAGE = {
    "diagnosis": r"瓶颈诊断|诊断|diagnos|profil",
    "candidate-generation": r"候选|candidate|提议|propos",
    "constrained-search": r"搜索|[Ss]earch|sweep|调优|tun(?:e|ing)",
    "verification": r"独立验证|verif|oracle|验收|门禁|门槛|gate|契约|contract|对照|正确性",
    "selection": r"成本/质量选择|选择|selection|筛选|淘汰|预筛",
    "reusable-experience": r"可复用经验|经验|知识|knowledge|skill|沉淀|归档|反例库",
}
_RSI_NOT_APPLICABLE = re.compile(r"RSI[：:]\s*(?:不适用|n/?a\b|not applicable)", re.IGNORECASE)
"""An entry may say the RSI stage does not apply (an engine with no improvement loop)."""
_MATURITY = (
    r"Idea|idea|Paper|paper|论文|Code available|代码|源码|开源|Integrated|集成|合并|合入|merged|"
    r"Beta|beta|研究型|[Ll]ocally validated|本地验证|release|发布物|实现|博客|blog"
)
_RELATION_KIND = (
    r"已有能力|existing[- ]capability|已有|现有|既有|在途|open|Draft|可扩展缺口|缺口|gap|extensible|暂不|"
    r"不建议|not[- ]recommended|补|新增|扩展|借鉴|复用"
)
_CONCRETE_REF = re.compile(
    r"`[^`\n]+`|(?<![\w&])#\d+|[\w.-]+/[\w.-]+#\d+|"
    r"\b(?:docs|src|methods|skills|repositories|tests|scripts|benchmarks)/[\w./-]+|"
    r"[\w-]+/[\w./-]*\.(?:md|py|json|toml|ya?ml|cpp|cu|hpp?|rs)\b|SKILL\.md|"
    r"\b[a-z][a-z0-9]*(?:-[a-z0-9]+){2,}\b|"
    r"\b[a-z][a-z0-9]*-(?:policy|guide|design|launcher|workbench|eval|evaluation|index|matrix|"
    r"library|runner|contract|owner)\b"
)
_NOT_NOW = re.compile(r"暂不建议|暂不推荐|not recommended", re.I)
_GENERIC = re.compile(
    r"(?:复用|沿用|reuse)(?:现有|既有|已有|the existing|existing)?\s*\S{0,12}?"
    r"(?:harness|runner|Harness|评测|门禁|能力|设施|控制器|evaluation)"
)
_SHA = r"(?<![0-9A-Za-z])(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{7,40}(?![0-9A-Za-z])"
_PIN = re.compile(rf"{_SHA}|(?<![\w.])v?\d+\.\d+\.\d+(?:\.\d+)?\b|(?<![A-Za-z])v\d+(?:\.\d+)*\b")
_DATED = re.compile(r"(?:20\d\d-)?\d{1,2}-\d{1,2}|\d{1,2}/\d{1,2}|\d+\s*月\s*\d+\s*日")
_PERF = re.compile(
    r"(?<![\w.])(?P<num>\d+(?:\.\d+)?)(?:\s*[–~-]\s*\d+(?:\.\d+)?)?\s*"
    r"(?P<unit>tok/s|tokens?/s|TPS|ms\b|s/it|it/s|×(?!\d)|x(?![A-Za-z0-9])|倍|%|pp\b|fps|GB/s|RTF)"
)
_HARDWARE = re.compile(
    r"RTX ?\d{4}|\b[ABHLV]\d{2,3}\b|\bB200|\bGB\d{2,3}|\bH\d{3}|\bMI\d{3}|\bM\d\s*(?:Max|Pro|Ultra)|"
    r"\bArc\b|R9700|RX ?\d{4}|Xeon|Ryzen|i[3579]-\d+|Hopper|sm_?\d+|\d+\s*GB|"
    r"\b(?:3090|4060|4070|4090|5060|5070|5090)\b|\bA40\b|TPU|NPU|Ascend|Laptop|Apple|Intel|AMD"
)
_MODEL = re.compile(
    rf"{_MODEL_NAMES}|\b\d+(?:\.\d+)?B\b|Parakeet|CosyVoice|SmolVLA|π0|pi0|FLUX|Wan\d|OpenVLA|"
    r"GPT-SoVITS"
)
_PRECISION = re.compile(
    r"FP\d+|BF16|bf16|fp16|f16|NVFP4|MXFP4|INT\d|int\d|\bQ\d(?:_K)?|IQ\d|GGUF|\d(?:\.\d+)?[- ]?bit|"
    r"bpw|AWQ|GPTQ|EXL\d|\bq\d_|\bw8|量化|精度|precision"
)
_BASELINE = re.compile(
    r"\bvs\.?|VS|对比|对照|相对|相比|baseline|基线|→|->|较|比|关闭值|\boff\b|over|than|从.{1,20}到"
)
_AUTHOR = re.compile(r"作者|author|Author|AUTHOR|自报|社区|community|官方|vendor|README|维护者")
_VALIDATED = re.compile(r"(?<!未)(?:本地验证|已独立复现|locally validated|我们复现)")
_GLOBAL_AUTHOR = re.compile(
    r"(?:所有|全部|以下|均为作者)[^。\n]{0,10}(?:作者|author)|all (?:performance )?numbers are author"
)
_NOVELTY = re.compile(
    r"新发布|新进展|基础参考|历史补发现|历史新发现|补发现|新发现|经典基线|基线参考|首次发现|首次出现|首发|"
    r"实质增量|实质更新|实质变化|实质记录|本轮.{0,4}增量|不是今日|非今日|不算今日|补录|复核|"
    r"new release|new progress|baseline reference|historical"
)
_HEADER_NOVELTY = re.compile(
    _NOVELTY.pattern.replace("|复核", "")
    + r"|基线|不是把旧|不把旧|旧论文|新发现不等于新发布|新发现≠新发布|不是首次发布"
)
_RANKING = re.compile(
    r"最快|最高|最佳|第一|排名|总榜|领先|击败|胜出|优于|fastest|\bbest\b|beats?\b|outperform|榜首"
)
_NO_RANKING = re.compile(
    r"不跨条件|不排名|不做总榜|不能跨|非同条件|不同条件|不是同一|不直接排名|no ranking|not rank"
)
_STACKING = re.compile(
    r"叠加|合计|累计|相加|加总|共计|总计|总共|combined|stacked|in total|\d%\s*[+＋×]\s*\d"
)
_NO_STACKING = re.compile(r"不叠加|不能.{0,10}归|不可叠加|避免叠加|不相加|not (?:add|stack)")
_PROPOSAL_SECTION = re.compile(
    r"^(?:#{1,6}\s*)?\**.{0,14}(?:验证建议|建议验证|验证方向|validation)", re.I
)
_PROPOSAL_ITEM = re.compile(r"^\s*(?:\*\*)?(?:建议\s*\d|最小验证建议|小验证建议)")
_BUDGET = re.compile(
    r"预算|budget|GPU\s*小时|工程小时|小时|最多|至多|上限|每格|"
    r"\d+\s*(?:次|个|条|项|配置|请求|重复|seeds?|runs?|reps)"
)
_STOP = re.compile(r"停止|即停|停|stop|淘汰|INCONCLUSIVE|不晋级|终止|abort|放弃|不推广")
_POLICY_SWITCH = re.compile(r"只报告首次发现|report only first[- ]discovered")
_RECHECK = re.compile(r"复核|核验|核对|重新核|re-?check|未变|发布前")
_BEIJING = re.compile(r"北京|Beijing|UTC\+8|\+08:00|CST")
_HOST_WORDS = re.compile(r"(?:InferRSI|宿主|host|main|本仓|我们)\W{0,3}$", re.I)
_BARE_REF = re.compile(r"(?<![\w#&])#(\d{1,6})(?!\d)")
_NAMED_REF = re.compile(
    r"(?<![\w/.-])([A-Za-z][\w.+-]*(?:\s[A-Z][\w.+-]*)*)\s?(?:PR|pull|issue)?\s?(?<![\w/])#(\d{1,6})(?!\d)"
)
_SECRETS = re.compile(
    r"\b(?:ghp_[A-Za-z0-9]{20,}|gho_\w{20,}|github_pat_\w{20,}|sk-[A-Za-z0-9_-]{16,}|"
    r"xox[abp]-[\w-]{10,}|AKIA[0-9A-Z]{16})"
)
_LOCAL_PATH = re.compile(r"(?<![\w/.:])(?:/home/|/Users/|/root/|~/|[A-Za-z]:\\)")
_PRIVATE_HOST = re.compile(
    r"https?://(?:localhost|127\.0\.0\.1|10\.\d+\.\d+\.\d+|192\.168\.|[^/\s]*\.(?:internal|corp|lan)\b)"
)
_ACCESS_CONTROLLED = re.compile(
    r"https?://(?:docs\.google\.com|drive\.google\.com|[\w.-]*notion\.so|[\w.-]*feishu\.cn|"
    r"[\w.-]*larksuite\.com|[\w.-]*slack\.com|[\w.-]*dropbox\.com)\S*"
)

# Mechanism families, most specific first (CONVENTIONS §8: dedup by mechanism family too).
_FAMILIES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("rsi-benchmark", (r"[Bb]ench|评测", r"RSI|[Aa]gent")),
    ("kernel-agent-loop", (r"[Kk]ernel|算子", r"[Aa]gent|自主|搜索|search|优化循环|autotun|提议")),
    ("serving-config-search", (r"[Ss]erving|服务", r"配置|config", r"搜索|search|tun|sweep")),
    ("moe-expert-offload", (r"专家|expert", r"offload|VRAM|RAM|SSD|NVMe|缓存|cache|分层|驻留")),
    (
        "recurrent-state-rollback",
        (r"GDN|Gated DeltaNet|DeltaNet|recurrent|状态回滚|rollback|重放|SSM",),
    ),
    ("diffusion-cache", (r"Diffusion|diffusion|DiT|扩散", r"[Cc]ache|缓存|offload|预取")),
    ("vla-runtime", (r"\bVLA|动作|action chunk|具身",)),
    ("speech-streaming", (r"语音|[Ss]peech|\bASR\b|\bTTS\b",)),
)
_DIFFERS = re.compile(
    r"同族|相对(?:于)?\s*[A-Za-z]|相比\s*[A-Za-z]|与已报|相对此前|relative to [A-Z]"
)


# -- names and history ----------------------------------------------------------------------


def _slug(text: str) -> str:
    return re.sub(r"[^0-9a-z]+", "", text.lower())


def _base_name(name: str) -> str:
    """A written name without trailing versions or PR numbers: "Strata 0.2.8" -> "Strata"."""
    name = re.sub(r"\s+(?:v?\d+(?:\.\d+)+|#\d+)\s*$", "", name.strip())
    return re.sub(r"^project\s+", "", name, flags=re.I).strip() or name


def project_key(
    name: str, repo: str | None = None, aliases: Mapping[str, str] | None = None
) -> str:
    """The canonical key of a written project: `gh:owner/name` or `name:<slug>`, alias-resolved."""
    aliases = aliases or {}
    candidates = [f"gh:{repo.lower()}", repo, repo.lower()] if repo else []
    candidates += [
        name,
        _base_name(name),
        _base_name(name).lower(),
        f"name:{_slug(_base_name(name))}",
    ]
    for candidate in candidates:
        if candidate and candidate in aliases:
            return aliases[candidate]
    return f"gh:{repo.lower()}" if repo else f"name:{_slug(_base_name(name))}"


def _same_project(entry: ParsedEntry, past: Finding, aliases: Mapping[str, str]) -> bool:
    key = project_key(entry.name, entry.repo, aliases)
    past_key = aliases.get(past.project_key, past.project_key)
    if key == past_key:
        return True
    if key.startswith("gh:") and past_key.startswith("gh:"):
        return False
    mine, theirs = _slug(_base_name(entry.name)), _slug(_base_name(past.name))
    if len(mine) < 4 or len(theirs) < 4:
        return mine == theirs
    return (
        mine.startswith(theirs)
        or theirs.startswith(mine)
        or mine.endswith(theirs)
        or theirs.endswith(mine)
    )


def family_of(text: str) -> str | None:
    """The mechanism family of an entry's text (keyword families, most specific first)."""
    for family, patterns in _FAMILIES:
        if all(re.search(pattern, text) for pattern in patterns):
            return family
    return None


def build_findings(report: ParsedReport, aliases: Mapping[str, str] | None = None) -> list[Finding]:
    """History findings from a parsed report: one per entry, keyed by project and family.

    Used to import earlier reports (written by people) as history for later reviews.
    """
    if report.date is None:
        return []
    findings = []
    for entry in report.entries:
        sha = re.search(_SHA, _entry_text(report, entry))
        repo = entry.repo
        snapshot = None
        if sha and repo:
            snapshot = Snapshot(source_key=f"gh:{repo.lower()}", version=sha.group(0))
        findings.append(
            Finding(
                project_key=project_key(entry.name, repo, aliases),
                name=entry.name,
                date=report.date,
                url=entry.urls[0] if entry.urls else "",
                snapshot=snapshot,
                mechanism=_family_text(entry)[:2000],
                family=family_of(_family_text(entry)),
                evidence_id=entry.evidence_ids[0] if entry.evidence_ids else "",
            )
        )
    return findings


# -- the review context ------------------------------------------------------------------------


@dataclass
class _Context:
    report: ParsedReport
    kind: str
    history: list[Finding]
    aliases: Mapping[str, str]
    policy: str
    findings: list[ReviewFinding] = field(default_factory=list)

    @property
    def label(self) -> str:
        return self.report.date.isoformat() if self.report.date else "undated text"

    def where(self, line: int, entry: str | None = None, column: str | None = None) -> str:
        parts = [f"line {self.report.line + line - 1} ({self.label})"]
        if entry:
            parts.append(f"entry {entry}")
        if column:
            parts.append(f"column {column}")
        return ", ".join(parts)

    def add(
        self, rule: str, severity: Severity, where: str, problem: str, **more: str | None
    ) -> None:
        self.findings.append(
            ReviewFinding(rule=rule, severity=severity, where=where, problem=problem, **more)  # type: ignore[arg-type]
        )


def _report_kind(report: ParsedReport) -> str:
    """charter (undated issue body), correction, supplement, baseline or daily."""
    if report.date is None:
        return "charter"
    head = report.title + "\n" + "\n".join(report.text.splitlines()[:4])
    if re.search(r"纠偏|更正|correction", report.title, re.I):
        return "correction"
    if re.search(r"补录|补充|supplement", report.title, re.I):
        return "supplement"
    if re.search(r"基线|baseline", head, re.I) and not report.evidence:
        return "baseline"
    return "daily"


def _entry_text(report: ParsedReport, entry: ParsedEntry, *, header: bool = False) -> str:
    """An entry's row plus its evidence blocks.

    With `header`, a one-entry supplement's header counts too (it pins the project there),
    without the host SHA.
    """
    blocks = [report.evidence[ref].text for ref in entry.evidence_ids if ref in report.evidence]
    if header and len(report.entries) == 1:
        head = _header(report)
        blocks.append(head.replace(report.host_sha, "") if report.host_sha else head)
    return "\n".join([entry.text, *blocks])


def _family_text(entry: ParsedEntry) -> str:
    """The name cell and the mechanism cell: where a family shows (not the evidence)."""
    return "\n".join(list(entry.cells.values())[:2])


def _header(report: ParsedReport) -> str:
    return "\n".join(report.text.splitlines()[:10])


def _relation_column(entry: ParsedEntry) -> str | None:
    matches = [
        col for col in entry.cells if re.search(r"InferRSI|宿主|host|接点|借鉴|价值", col, re.I)
    ]
    return matches[-1] if matches else None


def _first_cell(entry: ParsedEntry) -> str:
    return next(iter(entry.cells.values()), "")


# -- header rules -------------------------------------------------------------------------------


def _check_header(ctx: _Context) -> None:
    report, head = ctx.report, _header(ctx.report)
    if report.cutoff is None:
        ctx.add(
            "header-cutoff-missing",
            Severity.BLOCKING,
            ctx.where(1),
            "the header states no evidence cut-off time",
            conditions="first 25 lines searched for 证据截止/研究截止/截至 + a time",
            impact="readers cannot tell which evidence the conclusions rest on",
            fix="add 证据截止：北京时间 YYYY-MM-DD HH:MM to the header",
        )
    elif not report.cutoff_beijing:
        ctx.add(
            "header-cutoff-missing",
            Severity.WARNING,
            ctx.where(1),
            f"the cut-off {report.cutoff} does not say it is Beijing time",
            conditions="house rule: the cut-off is written in Beijing time",
            impact="the window is ambiguous by up to 8 hours",
            fix="write 北京时间 before the cut-off time",
        )
    if report.host_sha is None:
        ctx.add(
            "header-sha-missing",
            Severity.BLOCKING,
            ctx.where(1),
            "the header gives no host default-branch SHA",
            conditions="first 25 lines searched for main/默认分支/宿主 + a SHA; a project's own "
            "SHA does not count",
            impact="the host touch points cannot be checked against the code base they describe",
            fix="add the host default-branch SHA, re-checked before publishing",
        )
    elif not _RECHECK.search(head):
        ctx.add(
            "header-sha-missing",
            Severity.INFO,
            ctx.where(1),
            f"host SHA {report.host_sha} is given but no re-check before publishing is stated",
            conditions="house rule: re-verify the code baseline before publishing",
            impact="the SHA may be stale at publication",
            fix="state the re-check, e.g. 发布前复核 main <sha> 未变",
        )


# -- per-entry rules -------------------------------------------------------------------------


def _values(table: Mapping[str, str], text: str) -> list[str]:
    return [value for value, pattern in table.items() if re.search(pattern, text)]


def _check_dimensions(ctx: _Context, entry: ParsedEntry) -> None:
    first, text = _first_cell(entry), _entry_text(ctx.report, entry)
    relation_col = _relation_column(entry)
    relation = entry.cells.get(relation_col, "") if relation_col else ""
    if entry.kind == "prose":
        first = entry.cells.get("分类", "") or text
        relation = text
    plain = re.sub(r"值得验证|验证建议|建议验证", "", text)
    first = re.sub(r"[（(](?:engine|harness)[）)]", "", first)
    checks = {
        "workload": _workload_problem(first, text),
        "mechanism": None if _values(_MECHANISM, text) else "no optimisation mechanism stated",
        "system_level": None
        if _values(_SYSTEM_LEVEL, first) or re.search(r"层级|system level", plain)
        else "no system level (operator / model execution / serving / end-to-end / controller)",
        "rsi_stage": None
        if _values(_RSI_STAGE, re.sub(r"值得验证", "", first + "\n" + relation))
        or _RSI_NOT_APPLICABLE.search(first)
        else "no RSI stage (diagnosis → candidates → search → verification → selection → experience)",
        "maturity": None if re.search(_MATURITY, text) else "no evidence maturity stated",
        "relation": None
        if relation.strip()
        else "no relation to the host (existing capability / open issue-PR / gap / not now)",
    }
    severity = Severity.INFO if ctx.kind == "baseline" else Severity.WARNING
    for dimension, problem in checks.items():
        if problem:
            ctx.add(
                "dimension-missing",
                severity,
                ctx.where(entry.line, entry.name),
                problem,
                entry=entry.name,
                dimension=dimension,
                conditions="every finding carries all six dimensions (DESIGN.md); the first cell "
                "and the relation column were read, the whole row for mechanism and maturity",
                impact="the entry cannot be filed or compared with the others on this dimension",
                fix=f"state the {dimension.replace('_', ' ')} explicitly in the entry",
            )


def _misplaced(head: str) -> str | None:
    """Which other dimension a workload slot's value belongs to ("RSI / kernel" -> rsi_stage)."""
    if re.search(r"RSI", head):
        return "rsi_stage"
    if re.search(r"[Mm]odel-specific", head):
        return None
    if _values(_MECHANISM, head):
        return "mechanism"
    return "system_level" if _values(_SYSTEM_LEVEL, head) else None


def _workload_problem(first: str, text: str) -> str | None:
    head = re.split(r"[｜|·：:]| / ", first, maxsplit=1)[0].strip()
    other = None if _values(_WORKLOAD, first) else _misplaced(head)
    if other:
        return (
            f"the workload slot holds {head!r}, a value of another dimension ({other}); "
            "name the target model or task"
        )
    if _values(_WORKLOAD, first) or _values(_WORKLOAD, text):
        return None
    return "no workload (LLM & agentic / diffusion / loop / decision-policy / cross-modal) stated"


def _check_host_mapping(ctx: _Context, entry: ParsedEntry) -> None:
    column = _relation_column(entry)
    cell = entry.cells.get(column, "") if column else ""
    if entry.kind == "prose":
        cell, column = entry.text, None
    if not cell.strip() or _CONCRETE_REF.search(cell) or _NOT_NOW.search(cell):
        return
    generic = _GENERIC.search(cell)
    phrase = f" ({generic.group(0)!r} is generic)" if generic else ""
    if not re.search(_RELATION_KIND, cell):
        phrase += "; nor does it say existing capability vs extensible gap"
    ctx.add(
        "host-mapping-generic",
        Severity.WARNING,
        ctx.where(entry.line, entry.name, column),
        f"the host relation names no module path, skill or PR/issue{phrase}",
        entry=entry.name,
        conditions="looked for `paths`, docs/…, methods/…/SKILL.md, skill ids and #N / owner/repo#N",
        impact="nobody can tell which part of the host the finding touches or who owns it",
        fix="name the actual module path, skill or PR/issue, and say whether it is an existing "
        "capability or an extensible gap",
    )


def _check_family(ctx: _Context, entry: ParsedEntry) -> None:
    text = _entry_text(ctx.report, entry)
    family = family_of(_family_text(entry))
    if family is None or any(_same_project(entry, past, ctx.aliases) for past in ctx.history):
        return  # an update of a known project: already-reported judges it
    earlier = [
        past
        for past in ctx.history
        if family in (past.family, family_of(past.mechanism))
        and not _same_project(entry, past, ctx.aliases)
    ]
    if not earlier or _DIFFERS.search(text):
        return
    names = list(dict.fromkeys(past.name for past in earlier))
    if any(_slug(_base_name(name)) in _slug(text) for name in names):
        return
    listed = ", ".join(names[:5]) + (" …" if len(names) > 5 else "")
    ctx.add(
        "family-not-differentiated",
        Severity.WARNING,
        ctx.where(entry.line, entry.name),
        f"mechanism family {family} was reported before ({listed}) and the entry does not say "
        "what is new relative to those entries",
        entry=entry.name,
        conditions=f"{len(earlier)} earlier finding(s) of the family in the history",
        impact="readers re-read a known mechanism as news",
        fix=f"add 同族：{names[0]} … 差异：… (what this entry adds)",
    )


def _check_already_reported(ctx: _Context, entry: ParsedEntry) -> None:
    earlier = [past for past in ctx.history if _same_project(entry, past, ctx.aliases)]
    if not earlier or re.search(r"纠偏|更正|correction", entry.section):
        return
    text = _entry_text(ctx.report, entry)
    dates = ", ".join(sorted({past.date.isoformat() for past in earlier}))
    if ctx.policy == "first-discovered":
        problem = (
            f"{entry.name} was reported before ({dates}); from the first-discovered policy on, "
        )
        problem += "old projects are not reported again"
    else:
        if re.search(r"不算今日新项目|不是新项目|非新发现|复核|不重复|重新核验", text):
            return
        versions = {past.snapshot.version[:7] for past in earlier if past.snapshot}
        pins = {match.group(0)[:7] for match in re.finditer(_SHA, text)}
        changed = re.search(r"新增|实质|新版本|更新|发布|release|合并|merged|撤回|恢复|v\d", text)
        if changed and (pins - versions or not versions):
            return
        problem = f"{entry.name} was reported before ({dates}) and no substantive change is stated"
    ctx.add(
        "already-reported",
        Severity.WARNING,
        ctx.where(entry.line, entry.name),
        problem,
        entry=entry.name,
        conditions=f"policy {ctx.policy}; history matched by canonical key, name and aliases",
        impact="a known project is presented as a new finding",
        fix="drop the entry, or move it to 更正 / state the substantive change and its version",
    )


def _check_version(ctx: _Context, entry: ParsedEntry) -> None:
    text = _entry_text(ctx.report, entry, header=True)
    if _PIN.search(text):
        return
    if _DATED.search(text) and re.search(r"博客|blog|论文|paper|arXiv|官方", text):
        return
    ctx.add(
        "version-unpinned",
        Severity.INFO if ctx.kind == "baseline" else Severity.WARNING,
        ctx.where(entry.line, entry.name),
        "no pinned version (commit SHA, release tag or arXiv vN) for the entry",
        entry=entry.name,
        conditions="row and its evidence blocks searched; blog/paper entries may pin by date",
        impact="the numbers and claims cannot be tied to the code or paper they came from",
        fix="add the full SHA in the evidence index and 8+ characters in the table",
    )


# -- numbers ----------------------------------------------------------------------------------


def _claims_extractor() -> Callable[[str], Sequence[Any]] | None:
    """`research_radar.extract.extract_claims` when that stage is installed."""
    import importlib

    try:
        module = importlib.import_module("research_radar.extract")
    except ImportError:
        return None
    found = getattr(module, "extract_claims", None)
    return found if callable(found) else None


def _missing_conditions(row: str, context: str) -> list[str]:
    """Which of hardware / model / precision / baseline the row's numbers lack."""
    vocabulary = {
        "hardware": _HARDWARE,
        "model": _MODEL,
        "precision": _PRECISION,
        "baseline": _BASELINE,
    }
    missing = [name for name, pattern in vocabulary.items() if not pattern.search(context)]
    extract = _claims_extractor()
    if extract is None:
        return missing
    try:
        claims = list(extract(context))
    except (TypeError, ValueError):
        return missing
    row_numbers = {match.group("num") for match in _PERF.finditer(row)}
    for claim in claims:
        metrics = getattr(claim, "metrics", [])
        if str(getattr(claim, "kind", "")) != "performance":
            continue
        if not any(f"{metric.value:g}" in row_numbers for metric in metrics):
            continue
        for name in claim.conditions.missing():
            if name not in missing and not vocabulary[name].search(context):
                missing.append(name)
    return missing


def _check_numbers(ctx: _Context, entry: ParsedEntry, global_author: bool) -> None:
    row = entry.text
    numbers = [match.group(0).strip() for match in _PERF.finditer(row)]
    if not numbers:
        return
    context = _entry_text(ctx.report, entry)
    shown = ", ".join(dict.fromkeys(numbers[:4]))
    missing = _missing_conditions(row, context)
    if missing:
        ctx.add(
            "conditions-missing",
            Severity.WARNING,
            ctx.where(entry.line, entry.name),
            f"numbers ({shown}) are given without {', '.join(missing)}",
            entry=entry.name,
            conditions="row and its evidence blocks searched for hardware, model, precision and "
            "baseline",
            impact="the numbers cannot be compared or reproduced; readers may generalise them",
            fix=f"keep {', '.join(missing)} next to the number (or in the evidence index)",
        )
    if global_author or _AUTHOR.search(context) or _VALIDATED.search(context):
        return
    ctx.add(
        "author-number-unmarked",
        Severity.WARNING,
        ctx.where(entry.line, entry.name),
        f"numbers ({shown}) are not marked as author-reported and not stated as validated",
        entry=entry.name,
        conditions="no 作者报告 / author marker in the row, its evidence or a report-wide statement",
        impact="an author's claim reads as our own measurement",
        fix="write 作者报告 with the number, or state once that all numbers are author-reported",
    )


def _sentences(text: str) -> list[tuple[int, str]]:
    result = []
    for number, line in enumerate(text.splitlines(), start=1):
        for part in re.split(r"(?<=[。；;!?！？])", line):
            if part.strip():
                result.append((number, part))
    return result


def _check_comparisons(ctx: _Context) -> None:
    names = {entry.name for entry in ctx.report.entries} | {
        _base_name(entry.name) for entry in ctx.report.entries
    }
    for line, sentence in _sentences(ctx.report.text):
        ranking = _RANKING.search(sentence)
        if (
            ranking
            and not _NO_RANKING.search(sentence)
            and not re.search(r"(?:不|非|未|no|not|无)\S{0,3}$", sentence[: ranking.start()])
        ):
            mentioned = [name for name in names if len(name) > 2 and name in sentence]
            if len(set(mentioned)) >= 2 or len(set(_HARDWARE.findall(sentence))) >= 2:
                ctx.add(
                    "cross-condition-ranking",
                    Severity.WARNING,
                    ctx.where(line),
                    f"{ranking.group(0)!r} ranks results that stand under different conditions",
                    conditions=f"sentence: {sentence.strip()[:120]}",
                    impact="a ranking across hardware / model / precision misleads the reader",
                    fix="compare only under the same conditions, or write 不跨条件排名",
                )
        percents = re.findall(r"\d+(?:\.\d+)?\s*%", sentence)
        if len(percents) >= 2 and _STACKING.search(sentence) and not _NO_STACKING.search(sentence):
            ctx.add(
                "stacked-percentages",
                Severity.WARNING,
                ctx.where(line),
                f"percentages ({', '.join(percents[:4])}) are added or combined",
                conditions=f"sentence: {sentence.strip()[:120]}",
                impact="gains from different sources or baselines do not add up",
                fix="report each percentage with its own baseline; do not add or multiply them",
            )


# -- proposals, novelty, public sources, references ------------------------------------------


_ITEM_MARK = re.compile(r"(?:建议\s*\d|\d+\s*[.．、)）]?\s|[-*]\s|Now|Next|Watch|\*\*)")


def _proposals(lines: list[str]) -> list[tuple[int, str]]:
    """Validation proposals: numbered items under a proposal heading, 建议N / 最小验证建议 lines."""
    items: list[tuple[int, str]] = []
    inside = False
    for number, line in enumerate(lines, start=1):
        stripped = line.strip()
        if _PROPOSAL_SECTION.match(stripped) and len(stripped) <= 60:
            inside = True
        elif _PROPOSAL_ITEM.match(stripped):
            items.append((number, stripped))
        elif inside and stripped and "\t" not in stripped:
            inside = bool(_ITEM_MARK.match(stripped)) and not re.match(r"\**(证据|覆盖)", stripped)
            if inside:
                items.append((number, stripped))
    return items


def _check_proposals(ctx: _Context) -> None:
    items = _proposals(ctx.report.text.splitlines())
    if not items and ctx.kind == "daily" and ctx.report.entries:
        ctx.add(
            "proposal-incomplete",
            Severity.INFO,
            ctx.where(1),
            "the report has no validation proposal",
            conditions="house rule: 1–3 validation directions with budget and stop condition",
            impact="readers get findings but no bounded next step",
            fix="add 建议验证（仅建议，不执行） with hypothesis, baseline, metrics, budget, stop",
        )
    for line, item in items:
        lacks = [
            name
            for name, pattern in (("budget", _BUDGET), ("stop condition", _STOP))
            if not pattern.search(item)
        ]
        if lacks:
            ctx.add(
                "proposal-incomplete",
                Severity.WARNING,
                ctx.where(line),
                f"validation proposal lacks {' and '.join(lacks)}",
                conditions=f"proposal: {item[:100]}",
                impact="an unbounded experiment cannot be authorised or stopped",
                fix="add a budget (GPU hours, configurations, repeats) and a stop condition",
            )


def _check_novelty(ctx: _Context, entry: ParsedEntry, report_wide: bool) -> None:
    if report_wide or _NOVELTY.search(_entry_text(ctx.report, entry)):
        return
    ctx.add(
        "novelty-label-missing",
        Severity.WARNING,
        ctx.where(entry.line, entry.name),
        "no 新发布 / 新进展 / 历史补发现 / 基础参考 label",
        entry=entry.name,
        conditions="row, evidence blocks and the report header searched for novelty labels",
        impact="an old paper or repo may read as today's news",
        fix="label the entry and give creation, last substantive update and experiment dates",
    )


def _check_public(ctx: _Context) -> None:
    for number, line in enumerate(ctx.report.text.splitlines(), start=1):
        hits: list[tuple[str, Severity]] = []
        if _SECRETS.search(line):
            hits.append(("a token-like secret", Severity.BLOCKING))
        if _LOCAL_PATH.search(_URL_RE.sub("", line)):
            hits.append(("a local file-system path", Severity.BLOCKING))
        if _PRIVATE_HOST.search(line):
            hits.append(("a link to a private or local host", Severity.BLOCKING))
        access = _ACCESS_CONTROLLED.search(line)
        if access:
            hits.append(
                (f"an access-controlled document link ({access.group(0)[:40]}…)", Severity.WARNING)
            )
        for what, severity in hits:
            ctx.add(
                "public-only",
                severity,
                ctx.where(number),
                f"the report contains {what}",
                conditions="public sources only: no private links, local paths or credentials",
                impact="publishing would leak private material or credentials",
                fix="remove it (revoke the credential if one was pasted) or link a public source",
            )


_URL_RE = re.compile(r"https?://\S+")


def _is_project_name(name: str, known: set[str]) -> bool:
    if re.fullmatch(r"InferRSI|main|PR|issue|Draft|host", name, re.I):
        return False
    slug = _slug(_base_name(name))
    if slug and any(slug == item or (len(item) >= 4 and slug.startswith(item)) for item in known):
        return True
    return bool(re.search(r"[a-z][A-Z]|[A-Za-z][.-][A-Za-z]", name))


def _bare_refs(text: str, *, named_only: bool, known: set[str]) -> list[str]:
    """Bare #N that point at another repository (see CONVENTIONS §1: owner/repo#N).

    In a host-relation cell or in prose a bare #N is the host's own unless a project
    name stands right before it ("stable-diffusion.cpp #2240"); elsewhere in an entry's row
    or evidence it is the entry's repository's, unless the host is named before it.
    """
    text = re.sub(r"`[^`]*`", "", _URL_RE.sub(" ", text))
    found = []
    if named_only:
        for match in _NAMED_REF.finditer(text):
            if _is_project_name(match.group(1), known):
                found.append(f"{match.group(1)} #{match.group(2)}")
        return found
    for match in _BARE_REF.finditer(text):
        if not _HOST_WORDS.search(text[max(0, match.start() - 12) : match.start()]):
            found.append(f"#{match.group(1)}")
    return found


def _check_refs(ctx: _Context) -> None:
    known = {_slug(_base_name(entry.name)) for entry in ctx.report.entries}
    known |= {_slug(_base_name(past.name)) for past in ctx.history}
    known.discard("")
    claimed: set[int] = set()
    for entry in ctx.report.entries:
        if entry.kind == "prose":
            continue
        relation = _relation_column(entry)
        refs = []
        for column, cell in entry.cells.items():
            refs += _bare_refs(cell, named_only=column == relation, known=known)
        for ref in entry.evidence_ids:
            block = ctx.report.evidence.get(ref)
            if block:
                refs += _bare_refs(block.text, named_only=False, known=known)
                claimed.update(range(block.line, block.line + block.text.count("\n") + 1))
        claimed.add(entry.line)
        if refs:
            _add_ref_finding(ctx, entry.line, entry.name, refs)
    for number, line in enumerate(ctx.report.text.splitlines(), start=1):
        if number in claimed or "\t" in line:
            continue
        refs = _bare_refs(line, named_only=not _in_evidence(ctx.report, number), known=known)
        if refs:
            _add_ref_finding(ctx, number, None, refs)


def _in_evidence(report: ParsedReport, number: int) -> bool:
    return any(
        block.line <= number <= block.line + block.text.count("\n")
        for block in report.evidence.values()
    )


def _add_ref_finding(ctx: _Context, line: int, entry: str | None, refs: list[str]) -> None:
    shown = ", ".join(dict.fromkeys(refs[:6])) + (" …" if len(refs) > 6 else "")
    ctx.add(
        "bare-cross-repo-ref",
        Severity.WARNING,
        ctx.where(line, entry),
        f"bare PR/issue numbers of another repository: {shown}",
        entry=entry,
        conditions="a bare #N on GitHub links to the host repository's issue N",
        impact="the links point at unrelated host issues and notify their subscribers",
        fix="write other repositories' references as owner/repo#N",
    )


# -- verification -----------------------------------------------------------------------------


def _add_checks(ctx: _Context, checks: list[Check], review: Review) -> None:
    unchecked: dict[str | None, list[Check]] = {}
    for check in checks:
        if check.ok is True:
            review.verified.append(f"{ctx.label}: {check.statement}")
        elif check.ok is False:
            ctx.add(
                "claim-false",
                Severity.BLOCKING,
                ctx.where(check.line, check.entry),
                check.statement,
                entry=check.entry,
                conditions="checked against the sources the verifier could reach",
                impact="the report states something its own sources contradict",
                fix=check.fix or "correct the claim or cite the right source",
            )
        else:
            unchecked.setdefault(check.entry, []).append(check)
    for entry, items in unchecked.items():
        shown = "; ".join(item.statement for item in items[:4]) + (" …" if len(items) > 4 else "")
        ctx.add(
            "claim-unverified",
            Severity.INFO,
            ctx.where(items[0].line, entry),
            f"{len(items)} claim(s) could not be checked: {shown}",
            entry=entry,
            conditions="no local checkout, store record or API answer for these sources",
            impact="these claims rest on the report alone",
            fix="pass --repo owner/name=PATH, a store with the sources, or reach the API",
        )


# -- the review ---------------------------------------------------------------------------------


def _review_one(
    report: ParsedReport,
    ctx: _Context,
    host_repo: str | None,
    verifier: Verifier | None,
    review: Review,
) -> None:
    if ctx.kind != "charter":
        _check_header(ctx)
        head = _header(report)
        global_author = bool(_GLOBAL_AUTHOR.search(head))
        report_novelty = bool(_HEADER_NOVELTY.search(head))
        for entry in report.entries:
            _check_dimensions(ctx, entry)
            _check_host_mapping(ctx, entry)
            _check_family(ctx, entry)
            _check_already_reported(ctx, entry)
            _check_version(ctx, entry)
            _check_numbers(ctx, entry, global_author)
            _check_novelty(ctx, entry, report_novelty)
        _check_proposals(ctx)
    _check_comparisons(ctx)
    _check_public(ctx)
    _check_refs(ctx)
    if verifier is not None:
        _add_checks(ctx, verify_report(report, verifier, host_repo=host_repo), review)


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


def review_report(
    text: str,
    *,
    history: Sequence[Finding] = (),
    aliases: Mapping[str, str] | None = None,
    host_repo: str | None = None,
    verifier: Verifier | None = None,
    now: datetime | None = None,
    policy: str = "first-discovered",
) -> Review:
    """Review every report in `text`, earlier ones serving as history for later ones.

    Args:
        history: findings reported before (the store's, or imported from earlier reports).
        aliases: alias -> project key (the store's aliases).
        host_repo: owner/name of the host; enables the host-SHA and host PR checks.
        verifier: where claims are checked (verify.py); None checks rules only.
        now: when the review was made (shown in the output).
        policy: first-discovered (report only new projects) or substantive-updates; a
            report announcing the first-discovered policy switches to it.
    """
    aliases = aliases or {}
    past = list(history)
    review = Review(reviewed_at=now)
    reviewed = []
    for report in split_reports(text):
        if _POLICY_SWITCH.search(report.text):
            policy = "first-discovered"
        earlier = [item for item in past if report.date is None or item.date < report.date]
        ctx = _Context(report, _report_kind(report), earlier, aliases, policy)
        _review_one(report, ctx, host_repo, verifier, review)
        review.findings += ctx.findings
        label = report.date.isoformat() if report.date else "undated"
        reviewed.append(f"{label} {report.title[:60]} (sha256 {_digest(report.text)})")
        review.coverage.append(_coverage_line(ctx, verifier))
        review.host_sha = report.host_sha or review.host_sha
        past += build_findings(report, aliases)
    review.reviewed = "; ".join(reviewed)
    return review


def _coverage_line(ctx: _Context, verifier: Verifier | None) -> str:
    kind = ctx.kind
    checked = "rules only (no verifier)" if verifier is None else "rules + claim verification"
    return (
        f"{ctx.label} [{kind}]: {len(ctx.report.entries)} entries, "
        f"{len(ctx.report.evidence)} evidence blocks, {len(ctx.history)} history findings, "
        f"policy {ctx.policy}; {checked}"
    )


_TEMPLATES = Path(__file__).parent / "render"


def render_review(review: Review) -> str:
    """The review as GitHub Markdown (render/review.md.j2)."""
    env = Environment(
        loader=FileSystemLoader(_TEMPLATES),
        undefined=StrictUndefined,
        keep_trailing_newline=True,
        autoescape=False,
    )
    counts = {severity.value: 0 for severity in Severity}
    for item in review.findings:
        counts[item.severity.value] += 1
    return env.get_template("review.md.j2").render(review=review, counts=counts)
