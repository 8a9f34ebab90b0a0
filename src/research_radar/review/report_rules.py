"""The report-wide review rules: header, comparisons, proposals, public sources, references.

Each `check_*` reads the whole report text in a `ReviewContext` and adds findings to it.
Pure.
"""

from __future__ import annotations

import bisect
import re

from research_radar.report.parse import ParsedReport
from research_radar.review.entries import base_name, header_text, name_slug, relation_column
from research_radar.review.findings import ReviewContext, Severity
from research_radar.review.vocab import (
    ACCESS_CONTROLLED,
    BARE_REF,
    BUDGET,
    HARDWARE,
    HOST_WORDS,
    LOCAL_PATH,
    NAMED_REF,
    NO_RANKING,
    NO_STACKING,
    PRIVATE_HOST,
    PROPOSAL_ITEM,
    PROPOSAL_SECTION,
    RANKING,
    RECHECK,
    SECRETS,
    STACKING,
    STOP,
)

__all__ = [
    "check_comparisons",
    "check_header",
    "check_proposals",
    "check_public",
    "check_refs",
]


# -- header ---------------------------------------------------------------------------------


def check_header(ctx: ReviewContext) -> None:
    """Evidence cut-off in Beijing time, and the host SHA re-checked before publishing."""
    report, head = ctx.report, header_text(ctx.report)
    if report.cutoff is None:
        ctx.add(
            "header-cutoff-missing",
            Severity.BLOCKING,
            1,
            "the header states no evidence cut-off time",
            conditions="first 25 lines searched for 证据截止/研究截止/截至 + a time",
            impact="readers cannot tell which evidence the conclusions rest on",
            fix="add 证据截止：北京时间 YYYY-MM-DD HH:MM to the header",
        )
    elif not report.cutoff_beijing:
        ctx.add(
            "header-cutoff-missing",
            Severity.WARNING,
            1,
            f"the cut-off {report.cutoff} does not say it is Beijing time",
            conditions="house rule: the cut-off is written in Beijing time",
            impact="the window is ambiguous by up to 8 hours",
            fix="write 北京时间 before the cut-off time",
            detail={"variant": "not_beijing", "cutoff": str(report.cutoff)},
        )
    if report.host_sha is None and _NO_HOST.search(head):
        ctx.add(
            "header-sha-missing",
            Severity.INFO,
            1,
            "the header states that no host project is configured",
            conditions="a radar without a host has no default-branch SHA to give",
            impact="the relation column cannot name host paths or PRs",
            fix="configure host_path / host_repo to map findings onto your code base",
            detail={"variant": "no_host"},
        )
    elif report.host_sha is None:
        ctx.add(
            "header-sha-missing",
            Severity.BLOCKING,
            1,
            "the header gives no host default-branch SHA",
            conditions="first 25 lines searched for main/默认分支/宿主 + a SHA; a project's own "
            "SHA does not count",
            impact="the host touch points cannot be checked against the code base they describe",
            fix="add the host default-branch SHA, re-checked before publishing",
        )
    elif not RECHECK.search(head):
        ctx.add(
            "header-sha-missing",
            Severity.INFO,
            1,
            f"host SHA {report.host_sha} is given but no re-check before publishing is stated",
            conditions="house rule: re-verify the code baseline before publishing",
            impact="the SHA may be stale at publication",
            fix="state the re-check, e.g. 发布前复核 main <sha> 未变",
            detail={"variant": "not_rechecked", "sha": report.host_sha},
        )


_NO_HOST = re.compile(r"未配置宿主项目|no host configured", re.IGNORECASE)


# -- comparisons ----------------------------------------------------------------------------


def _sentences(text: str) -> list[tuple[int, str]]:
    result = []
    for number, line in enumerate(text.splitlines(), start=1):
        for part in re.split(r"(?<=[。；;!?！？])", line):
            if part.strip():
                result.append((number, part))
    return result


def check_comparisons(ctx: ReviewContext) -> None:
    """No ranking across conditions, no adding up of percentages."""
    names = {entry.name for entry in ctx.report.entries} | {
        base_name(entry.name) for entry in ctx.report.entries
    }
    for line, sentence in _sentences(ctx.report.text):
        ranking = RANKING.search(sentence)
        if (
            ranking
            and not NO_RANKING.search(sentence)
            and not re.search(r"(?:不|非|未|no|not|无)\S{0,3}$", sentence[: ranking.start()])
        ):
            mentioned = [name for name in names if len(name) > 2 and name in sentence]
            if len(set(mentioned)) >= 2 or len(set(HARDWARE.findall(sentence))) >= 2:
                ctx.add(
                    "cross-condition-ranking",
                    Severity.WARNING,
                    line,
                    f"{ranking.group(0)!r} ranks results that stand under different conditions",
                    conditions=f"sentence: {sentence.strip()[:120]}",
                    impact="a ranking across hardware / model / precision misleads the reader",
                    fix="compare only under the same conditions, or write 不跨条件排名",
                    detail={"word": ranking.group(0), "sentence": _clip(sentence)},
                )
        percents = re.findall(r"\d+(?:\.\d+)?\s*%", sentence)
        if len(percents) >= 2 and STACKING.search(sentence) and not NO_STACKING.search(sentence):
            ctx.add(
                "stacked-percentages",
                Severity.WARNING,
                line,
                f"percentages ({', '.join(percents[:4])}) are added or combined",
                conditions=f"sentence: {sentence.strip()[:120]}",
                impact="gains from different sources or baselines do not add up",
                fix="report each percentage with its own baseline; do not add or multiply them",
                detail={"percents": "、".join(percents[:4]), "sentence": _clip(sentence)},
            )


# -- proposals ------------------------------------------------------------------------------


_ITEM_MARK = re.compile(r"(?:建议\s*\d|\d+\s*[.．、)）]?\s|[-*]\s|Now|Next|Watch|\*\*)")


def _proposals(lines: list[str]) -> list[tuple[int, str]]:
    """Validation proposals: numbered items under a proposal heading, 建议N / 最小验证建议 lines."""
    items: list[tuple[int, str]] = []
    inside = False
    for number, line in enumerate(lines, start=1):
        stripped = line.strip()
        if PROPOSAL_SECTION.match(stripped) and len(stripped) <= 60:
            inside = True
        elif PROPOSAL_ITEM.match(stripped):
            items.append((number, stripped))
        elif inside and stripped and "\t" not in stripped:
            inside = bool(_ITEM_MARK.match(stripped)) and not re.match(r"\**(证据|覆盖)", stripped)
            if inside:
                items.append((number, stripped))
    return items


def check_proposals(ctx: ReviewContext) -> None:
    """A daily report proposes validation, each proposal with a budget and a stop condition."""
    items = _proposals(ctx.report.text.splitlines())
    if not items and ctx.kind == "daily" and ctx.report.entries:
        ctx.add(
            "proposal-incomplete",
            Severity.INFO,
            1,
            "the report has no validation proposal",
            conditions="house rule: 1–3 validation directions with budget and stop condition",
            impact="readers get findings but no bounded next step",
            fix="add 建议验证（仅建议，不执行） with hypothesis, baseline, metrics, budget, stop",
            detail={"variant": "none"},
        )
    for line, item in items:
        lacks = [
            name
            for name, pattern in (("budget", BUDGET), ("stop condition", STOP))
            if not pattern.search(item)
        ]
        if lacks:
            ctx.add(
                "proposal-incomplete",
                Severity.WARNING,
                line,
                f"validation proposal lacks {' and '.join(lacks)}",
                conditions=f"proposal: {item[:100]}",
                impact="an unbounded experiment cannot be authorised or stopped",
                fix="add a budget (GPU hours, configurations, repeats) and a stop condition",
                detail={
                    "lacks": ",".join(
                        "stop" if name == "stop condition" else name for name in lacks
                    ),
                    "proposal": _clip(item),
                },
            )


# -- public sources, references -------------------------------------------------------------


def check_public(ctx: ReviewContext) -> None:
    """No secrets, local paths, private hosts or access-controlled links."""
    for number, line in enumerate(ctx.report.text.splitlines(), start=1):
        hits: list[tuple[str, str, Severity]] = []
        if SECRETS.search(line):
            hits.append(("secret", "a token-like secret", Severity.BLOCKING))
        if LOCAL_PATH.search(_URL_RE.sub("", line)):
            hits.append(("local-path", "a local file-system path", Severity.BLOCKING))
        if PRIVATE_HOST.search(line):
            hits.append(("private-host", "a link to a private or local host", Severity.BLOCKING))
        access = ACCESS_CONTROLLED.search(line)
        if access:
            hits.append(
                (
                    "access-link",
                    f"an access-controlled document link ({access.group(0)[:40]}…)",
                    Severity.WARNING,
                )
            )
        for code, what, severity in hits:
            ctx.add(
                "public-only",
                severity,
                number,
                f"the report contains {what}",
                conditions="public sources only: no private links, local paths or credentials",
                impact="publishing would leak private material or credentials",
                fix="remove it (revoke the credential if one was pasted) or link a public source",
                detail={"what": code},
            )


_URL_RE = re.compile(r"https?://\S+")


def _clip(text: str, limit: int = 80) -> str:
    """A sentence shown in a finding: one line, cut with an ellipsis when longer."""
    text = re.sub(r"\s+", " ", text).strip()
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _is_project_name(name: str, known: set[str]) -> bool:
    if re.fullmatch(r"InferRSI|main|PR|issue|Draft|host", name, re.I):
        return False
    slug = name_slug(base_name(name))
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
        for match in NAMED_REF.finditer(text):
            if _is_project_name(match.group(1), known):
                found.append(f"{match.group(1)} #{match.group(2)}")
        return found
    for match in BARE_REF.finditer(text):
        if not HOST_WORDS.search(text[max(0, match.start() - 12) : match.start()]):
            found.append(f"#{match.group(1)}")
    return found


def check_refs(ctx: ReviewContext) -> None:
    """Other repositories' PRs and issues are written owner/repo#N."""
    known = {name_slug(base_name(entry.name)) for entry in ctx.report.entries}
    known |= {name_slug(base_name(past.name)) for past in ctx.history}
    known.discard("")
    claimed: set[int] = set()
    for entry in ctx.report.entries:
        if entry.kind == "prose":
            continue
        relation = relation_column(entry)
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
    # The evidence blocks' line spans, merged and sorted once per report and searched by
    # bisection: scanning every block for every line was quadratic (issue #19).
    cached = _EVIDENCE_SPANS.get("spans")
    if cached is None or cached[0] is not report or cached[1] != len(report.evidence):
        spans: list[list[int]] = []
        for start, end in sorted(
            (block.line, block.line + block.text.count("\n")) for block in report.evidence.values()
        ):
            if spans and start <= spans[-1][1] + 1:
                spans[-1][1] = max(spans[-1][1], end)
            else:
                spans.append([start, end])
        cached = (report, len(report.evidence), [a for a, _ in spans], [b for _, b in spans])
        _EVIDENCE_SPANS["spans"] = cached
    _, _, starts, ends = cached
    position = bisect.bisect_right(starts, number) - 1
    return position >= 0 and number <= ends[position]


_EVIDENCE_SPANS: dict[str, tuple[ParsedReport, int, list[int], list[int]]] = {}
"""The spans of the report `_in_evidence` last looked at."""


def _add_ref_finding(ctx: ReviewContext, line: int, entry: str | None, refs: list[str]) -> None:
    shown = ", ".join(dict.fromkeys(refs[:6])) + (" …" if len(refs) > 6 else "")
    ctx.add(
        "bare-cross-repo-ref",
        Severity.WARNING,
        line,
        f"bare PR/issue numbers of another repository: {shown}",
        entry=entry,
        conditions="a bare #N on GitHub links to the host repository's issue N",
        impact="the links point at unrelated host issues and notify their subscribers",
        fix="write other repositories' references as owner/repo#N",
        detail={"refs": shown},
    )
