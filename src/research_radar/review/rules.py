"""The per-entry review rules: six dimensions, host mapping, family, history, version, numbers.

Each `check_*` reads one entry of the report in a `ReviewContext` and adds findings to it.
Pure.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from research_radar.report.parse import ParsedEntry
from research_radar.review.entries import (
    base_name,
    entry_text,
    family_of,
    family_text,
    first_cell,
    name_slug,
    relation_column,
    same_project,
)
from research_radar.review.findings import ReviewContext, Severity
from research_radar.review.vocab import (
    AUTHOR,
    BASELINE,
    CONCRETE_REF,
    DATED,
    DIFFERS,
    GENERIC,
    HARDWARE,
    MATURITY,
    MECHANISM,
    MODEL,
    NOT_NOW,
    NOVELTY,
    PERF,
    PIN,
    PRECISION,
    RELATION_KIND,
    RSI_NOT_APPLICABLE,
    RSI_STAGE,
    SHA,
    SYSTEM_LEVEL,
    VALIDATED,
    WORKLOAD,
)

__all__ = [
    "check_already_reported",
    "check_dimensions",
    "check_family",
    "check_host_mapping",
    "check_novelty",
    "check_numbers",
    "check_version",
]


# -- per-entry rules ------------------------------------------------------------------------


def _values(table: Mapping[str, str], text: str) -> list[str]:
    return [value for value, pattern in table.items() if re.search(pattern, text)]


def _workload_text(entry: ParsedEntry, first: str) -> str:
    """The first cell plus columns that name the target ("特化对象与机制", "模型与当前能力")."""
    extra = [
        cell
        for column, cell in list(entry.cells.items())[1:]
        if re.search(r"对象|目标模型|模型与|工作负载|workload|target model", column, re.I)
    ]
    return "\n".join([first, *extra])


def _level_text(entry: ParsedEntry, first: str) -> str:
    """Where a system level is stated: the first cell, a level column, a `层级：` label."""
    columns = [cell for column, cell in entry.cells.items() if _LEVEL_FIELD.search(column)]
    labelled = [m.group(1) for m in _LEVEL_LABEL.finditer(entry.text)]
    return "\n".join([first, *columns, *labelled])


_LEVEL_FIELD = re.compile(r"层级|system[ _-]?level", re.I)
_LEVEL_LABEL = re.compile(r"(?:层级|system[ _-]?level|\blevel)\s*[：:]\s*([^；;|\t\n]{1,40})", re.I)
_NEGATED = re.compile(r"(?:非|不是|不含|并非|not|no)\s*\S{0,2}$", re.I)


def _stated_levels(text: str) -> list[str]:
    """System levels stated (not negated) in `text`, read strictly (refs #17)."""
    found = []
    for value, pattern in SYSTEM_LEVEL.items():
        for match in re.finditer(pattern, text):
            if not _NEGATED.search(text[max(0, match.start() - 6) : match.start()]):
                found.append(value)
                break
    return found


def _has_level_field(entries: list[ParsedEntry]) -> bool:
    """Whether the report's table gives system levels a field (a column or a `层级：` label)."""
    return any(
        any(_LEVEL_FIELD.search(column) for column in entry.cells)
        or _LEVEL_LABEL.search(entry.text)
        for entry in entries
        if entry.kind == "row"
    )


def _dimension_problems(
    ctx: ReviewContext, entry: ParsedEntry
) -> tuple[str, dict[str, str | None]]:
    """The entry's classification text and, per dimension, what is missing (None: stated)."""
    first, text = first_cell(entry), entry_text(ctx.report, entry)
    relation_col = relation_column(entry)
    relation = entry.cells.get(relation_col, "") if relation_col else ""
    if entry.kind == "prose":
        first = entry.cells.get("分类", "") or text
        relation = text
    first = re.sub(r"[（(](?:engine|harness)[）)]", "", first)
    checks = {
        "workload": _workload_problem(_workload_text(entry, first)),
        "mechanism": None if _values(MECHANISM, text) else "no optimisation mechanism stated",
        "system_level": None
        if _stated_levels(_level_text(entry, first))
        else "no system level (operator / model execution / serving / end-to-end / controller)",
        "rsi_stage": None
        if _values(RSI_STAGE, re.sub(r"值得验证", "", first + "\n" + relation))
        or RSI_NOT_APPLICABLE.search(first)
        else "no RSI stage (diagnosis → candidates → search → verification → selection → experience)",
        "maturity": None if re.search(MATURITY, text) else "no evidence maturity stated",
        "relation": None
        if relation.strip()
        else "no relation to the host (existing capability / open issue-PR / gap / not now)",
    }
    return first, checks


def check_dimensions(ctx: ReviewContext, entries: list[ParsedEntry]) -> None:
    """Every entry carries all six dimensions, read strictly (refs #17).

    A workload is a value of the workload dimension in the classification cell ("RSI /
    kernel" is a stage and a mechanism); a system level counts only as one of its values.
    A table with no system-level field at all gets one report-wide finding instead of one
    per row.
    """
    severity = Severity.INFO if ctx.kind == "baseline" else Severity.WARNING
    table_has_level = _has_level_field(entries)
    rows = [entry for entry in entries if entry.kind == "row"]
    for entry in entries:
        first, checks = _dimension_problems(ctx, entry)
        if entry.kind == "row" and not table_has_level:
            checks["system_level"] = None  # one report-wide finding below
        for dimension, problem in checks.items():
            if problem:
                ctx.add(
                    "dimension-missing",
                    severity,
                    entry.line,
                    problem,
                    entry=entry.name,
                    column=next(iter(entry.cells), None),
                    dimension=dimension,
                    conditions="every finding carries all six dimensions; the classification "
                    "cell and the relation column were read, the whole row for mechanism and "
                    "maturity",
                    impact="the entry cannot be filed or compared with the others on this dimension",
                    fix=f"state the {dimension.replace('_', ' ')} explicitly in the entry",
                    detail={"cell": _short(first)},
                )
    if rows and not table_has_level:
        ctx.add(
            "dimension-missing",
            severity,
            rows[0].line,
            f"the table has no system-level field and none of its {len(rows)} entries states "
            "a system level",
            dimension="system_level",
            column=next(iter(rows[0].cells), None),
            conditions="every finding carries all six dimensions",
            impact="no entry of the report can be filed by system level",
            fix="add a system-level column with one value per row",
            detail={"variant": "report", "count": str(len(rows))},
        )


def _short(text: str, limit: int = 60) -> str:
    """One line of a cell, cut at a character boundary with an ellipsis when longer."""
    text = re.sub(r"\s+", " ", re.sub(r"\*\*|__|<br\s*/?>", " ", text)).strip()
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _misplaced(head: str) -> str | None:
    """Which other dimension a workload slot's value belongs to ("RSI / kernel" -> rsi_stage)."""
    if re.search(r"RSI", head):
        return "rsi_stage"
    if re.search(r"[Mm]odel-specific", head):
        return None
    if _values(MECHANISM, head):
        return "mechanism"
    return "system_level" if _values(SYSTEM_LEVEL, head) else None


def _workload_problem(first: str) -> str | None:
    head = re.split(r"[｜|·：:]| / ", first, maxsplit=1)[0].strip()
    other = None if _values(WORKLOAD, first) else _misplaced(head)
    if other:
        return (
            f"the workload slot holds {head!r}, a value of another dimension ({other}); "
            "name the target model or task"
        )
    if _values(WORKLOAD, first):
        return None
    return "no workload (LLM & agentic / diffusion / loop / decision-policy / cross-modal) stated"


def check_host_mapping(ctx: ReviewContext, entry: ParsedEntry) -> None:
    """The host relation names a concrete module path, skill or PR/issue."""
    column = relation_column(entry)
    cell = entry.cells.get(column, "") if column else ""
    if entry.kind == "prose":
        cell, column = entry.text, None
    if not cell.strip() or CONCRETE_REF.search(cell) or NOT_NOW.search(cell):
        return
    generic = GENERIC.search(cell)
    phrase = f" ({generic.group(0)!r} is generic)" if generic else ""
    if not re.search(RELATION_KIND, cell):
        phrase += "; nor does it say existing capability vs extensible gap"
    ctx.add(
        "host-mapping-generic",
        Severity.WARNING,
        entry.line,
        f"the host relation names no module path, skill or PR/issue{phrase}",
        entry=entry.name,
        column=column,
        conditions="looked for `paths`, docs/…, methods/…/SKILL.md, skill ids and #N / owner/repo#N",
        impact="nobody can tell which part of the host the finding touches or who owns it",
        fix="name the actual module path, skill or PR/issue, and say whether it is an existing "
        "capability or an extensible gap",
        detail={"cell": _short(cell, 80)},
    )


def check_family(ctx: ReviewContext, entry: ParsedEntry) -> None:
    """A new project of a known mechanism family says how it differs."""
    text = entry_text(ctx.report, entry)
    family = family_of(family_text(entry))
    if family is None or any(same_project(entry, past, ctx.aliases) for past in ctx.history):
        return  # an update of a known project: already-reported judges it
    earlier = [
        past
        for past in ctx.history
        if family in (past.family, family_of(past.mechanism))
        and not same_project(entry, past, ctx.aliases)
    ]
    if not earlier or DIFFERS.search(text):
        return
    names = list(dict.fromkeys(past.name for past in earlier))
    if any(name_slug(base_name(name)) in name_slug(text) for name in names):
        return
    listed = ", ".join(names[:5]) + (" …" if len(names) > 5 else "")
    ctx.add(
        "family-not-differentiated",
        Severity.WARNING,
        entry.line,
        f"mechanism family {family} was reported before ({listed}) and the entry does not say "
        "what is new relative to those entries",
        entry=entry.name,
        conditions=f"{len(earlier)} earlier finding(s) of the family in the history",
        impact="readers re-read a known mechanism as news",
        fix=f"add 同族：{names[0]} … 差异：… (what this entry adds)",
        detail={"family": family, "earlier": listed, "earlier_first": names[0]},
    )


def check_already_reported(ctx: ReviewContext, entry: ParsedEntry) -> None:
    """A project reported before is not presented as a new finding."""
    earlier = [past for past in ctx.history if same_project(entry, past, ctx.aliases)]
    if not earlier or re.search(r"纠偏|更正|correction", entry.section):
        return
    text = entry_text(ctx.report, entry)
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
        pins = {match.group(0)[:7] for match in re.finditer(SHA, text)}
        changed = re.search(r"新增|实质|新版本|更新|发布|release|合并|merged|撤回|恢复|v\d", text)
        if changed and (pins - versions or not versions):
            return
        problem = f"{entry.name} was reported before ({dates}) and no substantive change is stated"
    ctx.add(
        "already-reported",
        Severity.WARNING,
        entry.line,
        problem,
        entry=entry.name,
        conditions=f"policy {ctx.policy}; history matched by canonical key, name and aliases",
        impact="a known project is presented as a new finding",
        fix="drop the entry, or move it to 更正 / state the substantive change and its version",
        detail={"dates": dates},
    )


def check_version(ctx: ReviewContext, entry: ParsedEntry) -> None:
    """The entry pins a version: commit SHA, release tag, arXiv vN or dated post."""
    text = entry_text(ctx.report, entry, header=True)
    if PIN.search(text):
        return
    if DATED.search(text) and re.search(r"博客|blog|论文|paper|arXiv|官方", text):
        return
    ctx.add(
        "version-unpinned",
        Severity.INFO if ctx.kind == "baseline" else Severity.WARNING,
        entry.line,
        "no pinned version (commit SHA, release tag or arXiv vN) for the entry",
        entry=entry.name,
        conditions="row and its evidence blocks searched; blog/paper entries may pin by date",
        impact="the numbers and claims cannot be tied to the code or paper they came from",
        fix="add the full SHA in the evidence index and 8+ characters in the table",
    )


# -- numbers --------------------------------------------------------------------------------


def _claims_extractor() -> Callable[[str], Sequence[Any]] | None:
    """`research_radar.extract.claims.extract_claims` when that stage is installed."""
    import importlib

    try:
        module = importlib.import_module("research_radar.extract.claims")
    except ImportError:
        return None
    found = getattr(module, "extract_claims", None)
    return found if callable(found) else None


def _missing_conditions(row: str, context: str) -> list[str]:
    """Which of hardware / model / precision / baseline the row's numbers lack."""
    vocabulary = {
        "hardware": HARDWARE,
        "model": MODEL,
        "precision": PRECISION,
        "baseline": BASELINE,
    }
    missing = [name for name, pattern in vocabulary.items() if not pattern.search(context)]
    ratio = any(m.group("unit") in _RATIO_UNITS for m in PERF.finditer(row))
    if not ratio and "baseline" in missing:
        missing.remove("baseline")  # an absolute number (93 tok/s) is not a comparison
    extract = _claims_extractor()
    if extract is None:
        return missing
    try:
        claims = list(extract(context))
    except (TypeError, ValueError):
        return missing
    row_numbers = {match.group("num") for match in PERF.finditer(row)}
    for claim in claims:
        metrics = getattr(claim, "metrics", [])
        if str(getattr(claim, "kind", "")) != "performance":
            continue
        if not any(f"{metric.value:g}" in row_numbers for metric in metrics):
            continue
        for name in claim.conditions.missing():
            if name == "baseline" and not ratio:
                continue
            if name not in missing and not vocabulary[name].search(context):
                missing.append(name)
    return missing


_RATIO_UNITS = {"×", "x", "倍", "%", "pp"}
_QUALITY_METRIC = re.compile(r"(?:WER|CER|错误率|准确率|accuracy|成功率)\s*[:：]?\s*$", re.I)


def check_numbers(ctx: ReviewContext, entry: ParsedEntry, global_author: bool) -> None:
    """Numbers keep their conditions and say whose measurement they are.

    Quality metrics (WER 15–22%) are not performance numbers; an absolute number needs no
    baseline, a ratio does.
    """
    row = entry.text
    numbers = [
        match.group(0).strip()
        for match in PERF.finditer(row)
        if not _QUALITY_METRIC.search(row[max(0, match.start() - 12) : match.start()])
    ]
    if not numbers:
        return
    context = entry_text(ctx.report, entry)
    shown = ", ".join(dict.fromkeys(numbers[:4]))
    missing = _missing_conditions(row, context)
    if missing:
        ctx.add(
            "conditions-missing",
            Severity.WARNING,
            entry.line,
            f"numbers ({shown}) are given without {', '.join(missing)}",
            entry=entry.name,
            conditions="row and its evidence blocks searched for hardware, model, precision and "
            "baseline",
            impact="the numbers cannot be compared or reproduced; readers may generalise them",
            fix=f"keep {', '.join(missing)} next to the number (or in the evidence index)",
            detail={"numbers": shown, "missing": ",".join(missing)},
        )
    if global_author or AUTHOR.search(context) or VALIDATED.search(context):
        return
    ctx.add(
        "author-number-unmarked",
        Severity.WARNING,
        entry.line,
        f"numbers ({shown}) are not marked as author-reported and not stated as validated",
        entry=entry.name,
        conditions="no 作者报告 / author marker in the row, its evidence or a report-wide statement",
        impact="an author's claim reads as our own measurement",
        fix="write 作者报告 with the number, or state once that all numbers are author-reported",
        detail={"numbers": shown},
    )


# -- novelty --------------------------------------------------------------------------------


def check_novelty(ctx: ReviewContext, entry: ParsedEntry, report_wide: bool) -> None:
    """The entry is labelled new release / new progress / historical / baseline."""
    if report_wide or NOVELTY.search(entry_text(ctx.report, entry)):
        return
    ctx.add(
        "novelty-label-missing",
        Severity.WARNING,
        entry.line,
        "no 新发布 / 新进展 / 历史补发现 / 基础参考 label",
        entry=entry.name,
        conditions="row, evidence blocks and the report header searched for novelty labels",
        impact="an old paper or repo may read as today's news",
        fix="label the entry and give creation, last substantive update and experiment dates",
    )
