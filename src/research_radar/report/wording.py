"""Structured facts as words in the report's language (pure).

The stages return facts: recommendation ids, exclusions with a reason id, a validation
proposal with its setup, budget and stop condition, gate reasons with their facts. These
functions turn them into sentences from `strings.toml`; nothing outside `report/` writes
wording (issue #12). Text that comes from a source or a person (names, summaries, a
written proposal) is quoted as it is, in any language.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable, Sequence
from functools import cache
from importlib import resources

from research_radar.language import spaced
from research_radar.models import (
    Claim,
    ClaimKind,
    Derivation,
    Difference,
    Exclusion,
    Finding,
    GateReason,
    Metric,
    Novelty,
    PriorWork,
    Recommendation,
    ValidationProposal,
    WrittenProposal,
)
from research_radar.resolve.keys import key_name

__all__ = [
    "derivation_text",
    "difference_text",
    "differs_text",
    "exclusion_text",
    "format_conditions",
    "format_load",
    "gate_reason_text",
    "join_or",
    "labelled",
    "novelty_label",
    "prior_art_text",
    "prior_work_text",
    "proposal_parts",
    "recommendation_label",
    "strings",
]

_LOAD_WORDS = {
    "batch": "batch {}",
    "concurrency": "C={}",
    "context": "ctx {}",
    "prompt": "ISL {}",
    "output": "OSL {}",
    "gpus": "{} GPUs",
    "runs": "{} runs",
    "seed": "seed {}",
    "sampling": "{}",
    "percentiles": "{}",
}
_PRIOR_ART_QUOTE = 80
"""A gate reason quotes this many characters of the prior art."""


@cache
def strings(language: str) -> dict[str, str]:
    """The fixed words of one language (Chinese when the language is unknown)."""
    text = resources.files(__package__).joinpath("strings.toml").read_text(encoding="utf-8")
    table: dict[str, dict[str, str]] = tomllib.loads(text)
    return table.get(language, table["zh"])


def novelty_label(novelty: Novelty, language: str = "zh") -> str:
    return strings(language)[f"novelty_{novelty.value}"]


def recommendation_label(recommendation: Recommendation, language: str = "zh") -> str:
    return strings(language)[f"rec_{recommendation.value}"]


def join_or(items: Sequence[str], language: str = "zh") -> str:
    """`A、B或C` / `A, B or C`."""
    t = strings(language)
    if len(items) < 2:
        return "".join(items)
    return t["list_sep"].join(items[:-1]) + t["or"] + items[-1]


def format_load(load: dict[str, str]) -> list[str]:
    """The load conditions a reader needs, in a fixed order: `batch 1`, `C=8`, `2 GPUs`."""
    return [_LOAD_WORDS[key].format(load[key]) for key in _LOAD_WORDS if key in load]


def format_conditions(claim: Claim, language: str = "zh") -> str:
    """`RTX 4090 24 GB · Qwen3-8B · Q4_K_M · batch 1 · vs llama.cpp · 作者报告`."""
    t = strings(language)
    c = claim.conditions
    parts = [*c.hardware, *c.model, *c.precision, *format_load(c.load), *c.software]
    if c.baseline:
        parts.append("vs " + " / ".join(c.baseline))
    missing = c.missing() if claim.kind is ClaimKind.PERFORMANCE else []
    if missing:
        parts.append(t["lacks"].format(missing="/".join(missing)))
    label = t.get(f"reporter_{claim.reporter}", claim.reporter)
    parts.append(t["validated"].format(reporter=label) if claim.validated else label)
    return " · ".join(parts)


def exclusion_text(exclusion: Exclusion, language: str = "zh") -> str:
    """`kvtinker/ninfer（neroued/ninfer 的普通 fork）`: why a candidate was left out."""
    t = strings(language)
    when = (
        t["reported_on"].format(date=exclusion.last_reported.isoformat())
        if exclusion.last_reported
        else t["reported_earlier"]
    )
    parent = key_name(exclusion.parent or "")
    return t[f"excluded_{exclusion.reason.value}"].format(
        name=exclusion.name, parent=parent, when=when
    )


def derivation_text(derivation: Derivation, language: str = "zh") -> str:
    t = strings(language)
    return t["derived_from"].format(
        parent=key_name(derivation.parent),
        evidence=t["clause_sep"].join(derivation.evidence),
    )


Label = Callable[[str, str], str]
"""(dimension, value id) -> the profile's label in the report's language."""


def _raw(_dimension: str, value: str) -> str:
    return value


def prior_work_text(work: PriorWork, language: str = "zh") -> str:
    """`NInfer（2026-08-22 已报）`, `RetrievalAttention（arXiv，2024-09-16）`."""
    when = work.when.isoformat() if work.when else "—"
    return strings(language)[f"prior_work_{work.origin}"].format(name=work.name, date=when)


def prior_art_text(finding: Finding, language: str = "zh") -> str:
    """The nearest prior work as named by the source (or the project it derives from),
    then the nearest earlier works the search found; what was searched when none is near."""
    t = strings(language)
    named = finding.prior_art
    if not named and finding.derived_from is not None:
        named = derivation_text(finding.derived_from, language)
    search = finding.prior_search
    if search is None:
        return named
    parent = finding.derived_from.parent if finding.derived_from else None
    works = [prior_work_text(w, language) for w in finding.prior_works if w.key != parent]
    parts = [part for part in [named, t["list_sep"].join(works)] if part]
    if not parts:
        counts = {
            origin: search.searched.get(origin, 0) for origin in ("history", "arxiv", "today")
        }
        parts.append(t["prior_art_none"].format(**counts))
    text = t["clause_sep"].join(parts)
    if search.down:
        text += t["prior_art_down"].format(sources=t["list_sep"].join(search.down))
    return text


def difference_text(diff: Difference, language: str = "zh", label: Label = _raw) -> str:
    """`新增 机制 X；目标扩到 RTX 4090、Q4_K_M`, or that nothing structural is new."""
    t = strings(language)
    sep = t["list_sep"]
    names = sep.join(w.name for w in diff.against)
    if diff.empty:
        return t["differs_nothing"].format(names=names or t["none"])
    clauses = []
    if diff.mechanisms:
        values = sep.join(label("mechanism", v) for v in diff.mechanisms)
        clauses.append(
            t["differs_added"].format(items=t["differs_mechanisms"].format(values=values))
        )
    if diff.levels:
        values = sep.join(label("system_level", v) for v in diff.levels)
        clauses.append(t["differs_levels"].format(values=values))
    if diff.workloads:
        values = sep.join(label("workload", v) for v in diff.workloads)
        clauses.append(t["differs_workloads"].format(values=values))
    targets = [*diff.hardware, *diff.models, *diff.precisions]
    if targets:
        clauses.append(t["differs_targets"].format(values=sep.join(targets)))
    if diff.evidence:
        values = sep.join(t[f"evidence_{kind}"] for kind in diff.evidence)
        clauses.append(t["differs_evidence"].format(values=values))
    return spaced(t["clause_sep"].join(clauses))


def differs_text(finding: Finding, language: str = "zh", label: Label = _raw) -> str:
    """What differs from the related findings: as written, else from structure, else a
    to-do naming them."""
    if finding.differs:
        return finding.differs
    if finding.difference is not None:
        return difference_text(finding.difference, language, label)
    pending = finding.differs_pending
    if pending is None:
        return ""
    t = strings(language)
    names = t["list_sep"].join(pending.names)
    text = t["differs_pending_family" if pending.family else "differs_pending"].format(names=names)
    if pending.words:
        text += t["differs_words"].format(words=t["list_sep"].join(pending.words))
    return text


def _stop_text(proposal: ValidationProposal, language: str) -> str:
    t = strings(language)
    stop = proposal.stop
    what = join_or([t[f"stop_on_{item}"] for item in stop.halt_on], language)
    halt = (
        t["stop_halt_tolerance"].format(what=what, tolerance=f"{stop.tolerance:g}")
        if stop.tolerance
        else t["stop_halt"].format(what=what)
    )
    when = join_or([t[f"inconclusive_{item}"] for item in stop.inconclusive_on], language)
    return t["stop_sentence"].format(
        halt=halt, inconclusive=t["stop_inconclusive"].format(when=when), note=t["proposal_only"]
    )


def labelled(metric: Metric) -> str:
    """`prefill 963 tok/s`: a number with its metric name (the compared system's without
    its `(baseline)` tag, which the `vs` beside it already says)."""
    name = re.sub(r"\s*\([^()]*baseline\)$", "", metric.name).strip()
    return " ".join(part for part in (name, f"{metric.value:g}", metric.unit) if part)


def proposal_parts(
    name: str, proposal: ValidationProposal | WrittenProposal, language: str = "zh"
) -> tuple[str, str, list[str], str, str]:
    """Hypothesis, baseline, metrics, budget and stop condition of a proposal, as words."""
    if isinstance(proposal, WrittenProposal):
        p = proposal
        return p.hypothesis, p.baseline, p.metrics, p.budget, p.stop_condition
    t = strings(language)
    c = proposal.setup
    setup = " · ".join([*c.hardware, *c.model, *c.precision, *format_load(c.load)])
    baseline = " / ".join(c.baseline)
    claimed = t["metric_sep"].join(labelled(m) for m in proposal.claimed)
    budget = t["proposal_budget"].format(
        hours=f"{proposal.gpu_hours:g}",
        hardware=c.hardware[0] if c.hardware else t["same_hardware"],
        repeats=proposal.repeats,
    )
    return (
        t["proposal_hypothesis"].format(name=name, setup=setup, claimed=claimed, baseline=baseline),
        t["proposal_baseline"].format(baseline=baseline, setup=setup),
        [*proposal.metrics, *(t[f"guard_{guard}"] for guard in proposal.guards)],
        budget,
        _stop_text(proposal, language),
    )


def _prior_art_fact(facts: dict[str, object], language: str) -> str:
    derived = facts.get("derived_from")
    if derived is not None:
        return derivation_text(Derivation.model_validate(derived), language)
    return str(facts.get("prior_art", ""))


def gate_reason_text(reason: GateReason, language: str = "zh") -> str:
    """One gate reason as a sentence; a `note` is its text as written."""
    if reason.id == "note":
        return str(reason.facts.get("text", ""))
    facts = {
        key: ", ".join(str(v) for v in value) if isinstance(value, list) else value
        for key, value in reason.facts.items()
    }
    if reason.id == "prior-art-named":
        facts = {"prior_art": _prior_art_fact(reason.facts, language)[:_PRIOR_ART_QUOTE]}
    if reason.id == "prior-art-nearest":
        works = reason.facts.get("works") or []
        facts = {
            "works": ", ".join(
                f"{w.get('name', '')} ({w.get('origin', '')}, {w.get('date') or '-'})"
                for w in works
                if isinstance(w, dict)
            )
        }
    return strings(language)[f"reason_{reason.id}"].format(**facts)
