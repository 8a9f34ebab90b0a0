"""History import, the pure core: earlier house-style reports → a HistoryPlan.

`build_import` turns parsed reports into findings, projects, aliases, linked sources and
corrections, ready to save; `history_store.import_reports` is the edge that reads the files
and writes the plan. Re-exported from `history`.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date

from research_radar.history.reading import EntryFacts, entry_facts, plausible, written_name
from research_radar.history.traits import FindingTraits, finding_traits
from research_radar.models import (
    Claim,
    ClaimKind,
    Correction,
    Finding,
    Novelty,
    Project,
    Snapshot,
    Source,
    SourceKind,
)
from research_radar.report.parse import ParsedEntry, ParsedReport
from research_radar.resolve.families import FamilyIndex
from research_radar.resolve.keys import (
    NameIndex,
    name_key,
    repo_name,
)

__all__ = ["HistoryPlan", "build_history", "build_import"]


@dataclass
class HistoryPlan:
    """What a set of earlier reports says, ready to save."""

    findings: list[Finding] = field(default_factory=list)
    origins: list[str] = field(default_factory=list)
    """The origin of each finding (`import:<file name>`), in the same order."""
    projects: dict[str, Project] = field(default_factory=dict)
    aliases: dict[str, tuple[str, str, str]] = field(default_factory=dict)
    """alias → (project key, kind, evidence)."""
    sources: dict[str, Source] = field(default_factory=dict)
    links: dict[tuple[str, str], tuple[str, str]] = field(default_factory=dict)
    """(project key, source key) → (relation, evidence)."""
    corrections: list[tuple[date, Correction]] = field(default_factory=list)
    reports: int = 0
    entries: int = 0
    skipped: list[str] = field(default_factory=list)


@dataclass
class _Raw:
    """One entry read from a report, before identities are resolved."""

    names: list[str]
    report: ParsedReport
    origin: str
    entry: ParsedEntry | None
    key: str | None = None
    links: list[str] = field(default_factory=list)
    former: list[str] = field(default_factory=list)
    context: str = ""
    """A prose description, for an entry read from prose rather than a table."""
    traits: FindingTraits | None = None
    """Its traits, if read before (`reading.read_reports`)."""
    facts: EntryFacts | None = None
    """Its facts, if read before: the aliases and written name of their key."""


_OWNER_REPO = re.compile(r"[\w.-]+/[\w.-]+")
_NOT_DISPLAYED = re.compile(r"[（(][^（）()]*[）)]|(?:[\w.-]+/[\w.-]+)?#\d+|\*\*|`")
_VERSION_WORD = re.compile(r"v?\d+(?:\.\d+)+\S*")
_TITLE_NAME = re.compile(r"[｜|]\s*(?P<name>[A-Za-z][\w.\-]*(?: [A-Z][\w.\-]*)*)\s*(?:[：:]|$)")
_CORRECTION_TITLE = re.compile(r"纠偏|更正|correction", re.IGNORECASE)


def _read_entries(
    reports: Sequence[tuple[str, ParsedReport, Sequence[EntryFacts] | None]], plan: HistoryPlan
) -> list[_Raw]:
    raws: list[_Raw] = []
    for origin, report, facts in reports:
        if report.date is None:
            plan.skipped.append(f"{origin}:{report.line}: no date ({report.title[:40]!r})")
            continue
        plan.reports += 1
        if facts is None:
            facts = [entry_facts(entry, report) for entry in report.entries]
        for entry, fact in zip(report.entries, facts, strict=True):
            plan.entries += 1
            raw = _Raw(fact.names, report, origin, entry, fact.key, fact.links, fact.former)
            raw.traits, raw.facts = fact.traits, fact
            raws.append(raw)
        title = _TITLE_NAME.search(report.title)
        if not report.entries and title and not _CORRECTION_TITLE.search(report.title):
            plan.entries += 1
            raws.append(_Raw([title.group("name")], report, origin, None))
    return raws


def _resolve_raws(raws: list[_Raw], index: NameIndex) -> None:
    for raw in raws:
        if raw.key is None:
            continue
        index.add_repo(raw.key)
        for name in _aliases(raw, raw.key):
            index.add(name, raw.key)
    for raw in raws:
        if raw.key is not None:
            continue
        found = next((k for k in (index.lookup(n) for n in raw.names + raw.former) if k), None)
        raw.key = found or name_key(raw.names[0]) or "name:unknown"
        for name in raw.names + raw.former:
            index.add(name, raw.key)


@functools.lru_cache(maxsize=1 << 16)
def _display(name: str) -> str:
    """A name as a project shows it (markup, parentheses, PR numbers and versions left out).
    Cached: an import asks it twice of each entry's names, and of a project's every entry."""
    text = _NOT_DISPLAYED.sub(" ", name)
    words = [w for w in text.split() if not _VERSION_WORD.fullmatch(w)]
    return " ".join(words).strip() or name.strip()


def _finding(raw: _Raw, key: str, name: str, seen_before: bool) -> Finding:
    traits = raw.traits if raw.traits is not None else finding_traits(raw.entry, raw.report)
    if traits.novelty is not None:
        novelty = traits.novelty
    else:
        novelty = Novelty.NEW_PROGRESS if seen_before else Novelty.HISTORICAL
    version = traits.version
    return Finding(
        project_key=key,
        name=name,
        date=raw.report.date or date.min,
        url=traits.url or (f"https://github.com/{key[3:]}" if key.startswith("gh:") else ""),
        snapshot=None
        if version is None
        else Snapshot(source_key=key, version=version, tag=traits.tag),
        novelty=novelty,
        mechanism=traits.mechanism,
        claims=[Claim(kind=ClaimKind.STATUS, text=text) for text in traits.claims],
        maturity=traits.maturity,
        flags=["unverified"] if traits.unverified else [],
        recommendation=traits.recommendation,
        priority=traits.priority,
        horizon=traits.horizon,
        evidence_id=traits.evidence_id,
    )


_LISTED = re.compile(
    r"(?P<names>[^。\n]*?)(?P<verb>不再作为当前推荐|不再推荐|不再作为|均是今日首次出现|是今日首次出现|首次出现)"
)
_ASCII_NAME = re.compile(r"(?<![\w.])[A-Za-z][\w.\-]*(?: [A-Z][\w.\-]*)*")
_NOT_NAMES = {"repo", "pr", "main", "inferrsi", "skill-index", "issue", "comment"}


def _correction_raws(
    raws: list[_Raw],
    reports: Sequence[tuple[str, ParsedReport]],
    plan: HistoryPlan,
    index: NameIndex,
) -> list[_Raw]:
    """Read correction comments: names no longer recommended become Corrections; names said to
    appear first today are the same project as today's entries (or a new prose-only entry)."""
    added: list[_Raw] = []
    for origin, report in reports:
        if report.date is None or not _CORRECTION_TITLE.search(report.title):
            continue
        for line in report.text.splitlines()[1:]:
            for match in _LISTED.finditer(line):
                for name in _ASCII_NAME.findall(match.group("names")):
                    if name.lower() in _NOT_NAMES:
                        continue
                    key = index.lookup(name)
                    sentence = match.group(0).strip()
                    if match.group("verb").startswith("不再") and key:
                        correction = Correction(
                            project_key=key,
                            name=name,
                            text=sentence,
                            supersedes=report.date.isoformat(),
                        )
                        plan.corrections.append((report.date, correction))
                        index.add(name, key)
                    elif not match.group("verb").startswith("不再"):
                        raw = _Raw([name], report, origin, None, key or name_key(name))
                        raw.context = _context(name, reports, report)
                        added.append(raw)
                        index.add(name, raw.key or "")
    return added


def _context(name: str, reports: Sequence[tuple[str, ParsedReport]], within: ParsedReport) -> str:
    """The first paragraph about a name in the reports of the same date (its description)."""
    for _origin, report in reports:
        if report.date != within.date or report is within:
            continue
        for line in report.text.splitlines():
            if line.strip().startswith(name) or f"{name} " in line[:40]:
                return line.strip()
    return ""


def _aliases(raw: _Raw, key: str) -> list[str]:
    """The raw's names that can be aliases of `key` (`plausible`)."""
    if raw.facts is not None and raw.facts.key == key and key.startswith("gh:"):
        return list(raw.facts.aliases)  # read with the facts (#19)
    return [name for name in raw.names if plausible(name, key)]


def _add_project(plan: HistoryPlan, raw: _Raw, key: str, evidence: str) -> str:
    names = _aliases(raw, key) if key.startswith("gh:") else list(raw.names)
    project = plan.projects.get(key)
    if project is None:
        name = _display(names[0]) if names else (repo_name(key) or key)
        name = name.split("/", 1)[1] if _OWNER_REPO.fullmatch(name) else name
        project = plan.projects[key] = Project(
            key=key, name=name, sources=[key] if ":" in key and not key.startswith("name:") else []
        )
    for name in names + [_display(n) for n in names]:
        if name and name != key and name not in plan.aliases:
            plan.aliases[name] = (key, "name", evidence)
            if name not in project.aliases and name != project.name:
                project.aliases = [*project.aliases, name]
    for former in raw.former:
        plan.aliases.setdefault(former, (key, "former-name", evidence))
    if key.startswith("gh:"):
        written = _written_name(raw, key)
        if written and written not in plan.aliases:
            plan.aliases[written] = (key, "repo", evidence)
        if key not in plan.sources:  # (a Source is built once a key, not once an entry)
            plan.sources[key] = Source(
                key=key,
                kind=SourceKind.REPO,
                url=f"https://github.com/{key[3:]}",
                title=project.name,
            )
        plan.links[(key, key)] = ("primary", evidence)
    for link in raw.links:
        if link not in plan.sources:
            kind = SourceKind.PAPER if link.startswith(("arxiv:", "doi:")) else SourceKind.BLOG
            plan.sources[link] = Source(key=link, kind=kind, url=_url_of(link))
        plan.links.setdefault((key, link), ("part-of", evidence))
        if link not in project.sources:
            project.sources = [*project.sources, link]
    return project.name


def _written_name(raw: _Raw, key: str) -> str:
    """`owner/name` as the report writes it (its case), for a repository key."""
    if raw.facts is not None and raw.facts.key == key:
        return raw.facts.written  # read with the facts (#19)
    return written_name(raw.entry, raw.report, key)


def _url_of(key: str) -> str:
    scheme, _, rest = key.partition(":")
    return {"arxiv": f"https://arxiv.org/abs/{rest}", "doi": f"https://doi.org/{rest}"}.get(
        scheme, f"https://{rest}"
    )


def build_import(
    reports: Sequence[tuple[str, ParsedReport]],
    *,
    aliases: Mapping[str, str] | None = None,
    known_keys: Iterable[str] = (),
    prior: Sequence[Finding] = (),
    facts: Sequence[Sequence[EntryFacts]] | None = None,
    meanwhile: Callable[[HistoryPlan], object] | None = None,
) -> HistoryPlan:
    """Turn earlier reports, as (origin, parsed report) pairs, into a HistoryPlan.

    `facts`: each report's entries' `EntryFacts`, if read before (`read_reports`).
    `meanwhile`: called once with the plan while its findings' families are matched (in
    part in a forked process, #19); by then the plan's sources, links and aliases are
    final, its projects too but for their families, and it has no findings yet.

    Identities: a repository URL in the entry's source cell (or a plausible one in its
    evidence: URLs, `owner/repo@sha`, "canonical owner/repo") gives the key; otherwise the
    name resolves through aliases, known repository names and careful name matching; else a
    provisional `name:` key. Reports are read in date order so earlier mentions come first.
    """
    plan = HistoryPlan()
    read = [(*pair, None if facts is None else facts[i]) for i, pair in enumerate(reports)]
    ordered = sorted(read, key=lambda item: item[1].date or date.min)
    index = NameIndex()
    for alias, key in (aliases or {}).items():
        index.add(alias, key)
    for key in known_keys:
        index.add_repo(key)
    raws = _read_entries(ordered, plan)
    _resolve_raws(raws, index)
    raws += _correction_raws(raws, [(origin, report) for origin, report, _ in ordered], plan, index)
    raws.sort(key=lambda raw: raw.report.date or date.min)
    seen = {f.project_key: f.date for f in sorted(prior, key=lambda f: f.date, reverse=True)}
    kept: dict[tuple[str, date, str], Finding] = {}
    for raw in raws:
        key, day = raw.key or "name:unknown", raw.report.date or date.min
        where = (
            f"{raw.origin} {day} line {raw.report.line + (raw.entry.line - 1 if raw.entry else 0)}"
        )
        name = _add_project(plan, raw, key, where)
        if (key, day, raw.origin) in kept:
            continue
        finding = _finding(raw, key, name, key in seen and seen[key] < day)
        if raw.context:
            finding.mechanism = raw.context
        kept[(key, day, raw.origin)] = finding
        seen.setdefault(key, day)
    plan.findings = _with_families(
        list(kept.values()), prior, plan, None if meanwhile is None else lambda: meanwhile(plan)
    )
    plan.origins = [origin for (_key, _day, origin) in kept]
    return plan


def _with_families(
    new: list[Finding],
    prior: Sequence[Finding],
    plan: HistoryPlan,
    meanwhile: Callable[[], object] | None,
) -> list[Finding]:
    """Assign families in date order; each finding is compared with the ones before it."""
    index = FamilyIndex()
    stream = [(f.date, 0, i, f) for i, f in enumerate(prior)]
    stream += [(f.date, 1, i, f) for i, f in enumerate(new)]
    stream.sort(key=lambda item: item[:3])
    # Signed and searched in bulk (#19): what a finding's family changes is not in its tokens.
    result = index.assign_stream(
        [f for *_, f in stream],
        [bool(is_new) for _, is_new, *_ in stream],
        meanwhile=meanwhile,
    )
    for key, project in plan.projects.items():
        project.family = index.family_of(key)
    return result


def build_history(
    reports: Sequence[ParsedReport],
    *,
    origin: str = "import",
    aliases: Mapping[str, str] | None = None,
    known_keys: Iterable[str] = (),
) -> list[Finding]:
    """Findings of earlier reports, oldest first, with resolved project keys and families."""
    return build_import(
        [(origin, report) for report in reports], aliases=aliases, known_keys=known_keys
    ).findings
