"""History import, reading: a file's reports parsed, with each entry's identity facts.

`read_reports` parses the reports of a file and reads from each table entry what its
identity rests on (`EntryFacts`: the repository key its source cell or evidence gives, its
other links, its names and former names) and what it says of its finding (`traits`). Both are per report and pure, so for a large
file the second half of the reports is read in a forked process (`cores.map_on_cores`,
#19). `history.plan.build_import` resolves the identities across reports.
"""

from __future__ import annotations

import functools
import re
from typing import NamedTuple

from research_radar.cores import map_on_cores
from research_radar.history.traits import FindingTraits, finding_traits
from research_radar.report.parse import ParsedEntry, ParsedReport, parse_report, report_chunks
from research_radar.resolve.keys import (
    canonical_key,
    find_keys,
    find_same_as,
    normalise_name,
    plausible_alias,
)

__all__ = [
    "FORK_REPORTS",
    "EntryFacts",
    "entry_facts",
    "entry_names",
    "plausible",
    "read_reports",
    "written_name",
]

FORK_REPORTS = 64
"""Reports in a file from which `read_reports` reads the second half in a forked process."""
FORKED_SHARE = 0.48
"""The share of the reports the forked process reads: a little less than half, as it then
pickles what it read and this process unpickles it before going on (#19). On a
20,000-entry file it read half in 3.9-4.1 s of CPU and pickled it in 0.3 s, while this
process read its half in 3.7-4.2 s, waited, then unpickled for 0.15 s."""


class EntryFacts(NamedTuple):
    """What a table entry's identity rests on, read from the entry and its report alone."""

    key: str | None
    """The repository key its source cell (or a plausible one in its evidence) gives, else
    the arXiv id of its only paper; None when neither does."""
    links: list[str]
    """Its other references (papers, DOIs, pages), as keys."""
    names: list[str]
    """Its names (`entry_names`)."""
    former: list[str]
    """Former names its first cell states ("原名 X", "formerly X")."""
    traits: FindingTraits
    """What its text says of the finding (`finding_traits`)."""
    aliases: tuple[str, ...] = ()
    """Its names that can be aliases of its key (`plausible`), in order."""
    written: str = ""
    """Its `gh:` key's `owner/name` as the entry writes it (`written_name`), else ''.

    Both read here, where a large file's second half is read on the other core, not by
    `build_import`, which asked them of every entry on one core (#19)."""


def read_reports(
    text: str, *, fork_min: int = FORK_REPORTS
) -> list[tuple[ParsedReport, list[EntryFacts]]]:
    """The reports of a file (`split_reports`), each with its entries' facts in order."""
    return map_on_cores(_read_report, report_chunks(text), minimum=fork_min, forked=FORKED_SHARE)


def _read_report(chunk: tuple[int, str]) -> tuple[ParsedReport, list[EntryFacts]]:
    line, text = chunk
    report = parse_report(text, line)
    return report, [entry_facts(entry, report) for entry in report.entries]


_PROJECT_COLUMN = re.compile(r"\s*项目\s*/")
_SLASH = re.compile(r"\s+/\s+")
_OWNER_REPO = re.compile(r"[\w.-]+/[\w.-]+")
_SOURCE_COLUMN = re.compile(r"来源|source", re.IGNORECASE)


def entry_names(entry: ParsedEntry) -> list[str]:
    """The names of an entry: its own, and those its "项目 / …" first cell lists."""
    first_column = next(iter(entry.cells), "")
    cell = next(iter(entry.cells.values()), "")
    names = [entry.name]
    if _PROJECT_COLUMN.match(first_column):
        names += [part.strip() for part in _SLASH.split(cell.split("\n")[0]) if part.strip()]
    return list(dict.fromkeys(n for n in names if normalise_name(n)))


@functools.lru_cache(maxsize=1 << 16)
def plausible(name: str, key: str) -> bool:
    """`plausible_alias`, cached: an import asks it thrice of an entry's names (#19)."""
    return plausible_alias(name, key)


def entry_facts(entry: ParsedEntry, report: ParsedReport) -> EntryFacts:
    """An entry's primary key (its source cell, else its evidence), other links and names."""
    names = entry_names(entry)
    former = find_same_as(next(iter(entry.cells.values()), ""))
    cells = [v for k, v in entry.cells.items() if _SOURCE_COLUMN.search(k)] or list(
        entry.cells.values()
    )
    own = [k for k in find_keys("\n".join(cells)) if k.startswith("gh:")]
    evidence = "\n".join(
        report.evidence[i].text for i in entry.evidence_ids if i in report.evidence
    )
    found = find_keys(evidence + "\n" + "\n".join(entry.cells.values()))
    key = own[0] if own else None
    if key is None and _OWNER_REPO.fullmatch(entry.name):
        key = canonical_key(entry.name)
    if key is None:
        repos = [k for k in found if k.startswith("gh:") and any(plausible(n, k) for n in names)]
        key = repos[0] if repos else None
    links = [k for k in found if k.startswith(("arxiv:", "doi:", "url:"))]
    if key is None:
        papers = list(dict.fromkeys(k for k in find_keys(evidence) if k.startswith("arxiv:")))
        if len(papers) == 1:
            key = papers[0]  # a paper with no code: its arXiv id is its key, as the radar's own
            links = [k for k in links if k != key]
    traits = finding_traits(entry, report)
    if key is None or not key.startswith("gh:"):
        return EntryFacts(key, links, names, former, traits)  # no name is a repo's alias
    aliases = tuple(name for name in names if plausible(name, key))
    return EntryFacts(key, links, names, former, traits, aliases, written_name(entry, report, key))


_WRITTEN_REPO = re.compile(
    r"(?<![\w.-])(?:github\.com/)?([\w.-]+/[\w.-]+?)(?:\.git)?(?=[@/#\s）)]|$)"
)
"""Tried only where a name starts: a match cannot start inside a run of name characters
unless it can at its start, and trying each place took time quadratic in its length (#19)."""


def written_name(entry: ParsedEntry | None, report: ParsedReport, key: str) -> str:
    """`owner/name` as an entry (its cells and evidence) writes it (its case), for a
    repository key; '' when it is not written so."""
    ids = entry.evidence_ids if entry else []
    cells = list(entry.cells.values()) if entry else []
    text = "\n".join(cells + [report.evidence[i].text for i in ids if i in report.evidence])
    # A match that is the key holds it, lower-cased (keys are ASCII); no match spans a line,
    # so matching starts on the line where the key first appears (#19).
    lowered = text.lower()
    at = lowered.find(key[3:]) if len(lowered) == len(text) else 0
    if at < 0:
        return ""
    for match in _WRITTEN_REPO.finditer(text, text.rfind("\n", 0, at) + 1):
        if canonical_key(match.group(1)) == key:
            return match.group(1)
    return ""
