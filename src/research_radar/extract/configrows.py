"""Tables of configurations: the conditions a set-up table gives each configuration it
names, for the rows of later tables that name it again (issue #14).

Pure. A building block of `research_radar.extract.claims`; callers outside this package
use `research_radar.extract.claims` instead.

A page compares a few configurations and describes them once, in a table that measures
nothing (`| Single node | 1 GPU | ... |`, `| Replicated | 2 GPUs | ... |`); its result
tables then name each configuration in their first column and nothing else. A result row
whose first cell is such a configuration's name takes the hardware, model, precision and
load of its description, where the row has none of its own. A name described twice, two
ways, describes nothing.
"""

from __future__ import annotations

import re
from collections.abc import Collection

from research_radar.extract.catalogue import Catalog
from research_radar.extract.conditions import find_conditions
from research_radar.extract.markdown import Segment, clean_text, split_cells, table_indices
from research_radar.models import Claim, Conditions

__all__ = ["described_configurations", "with_configurations"]

_FIELDS = ("hardware", "model", "precision")


def described_configurations(
    segments: list[Segment], cat: Catalog, measured: Collection[int]
) -> dict[str, Conditions]:
    """The configurations the document's measuring-nothing tables describe: the casefolded
    first cell of each row -> the conditions its other cells give."""
    found: dict[str, Conditions] = {}
    twice: set[str] = set()
    for indices in table_indices(segments):
        rows = [segments[i] for i in indices if segments[i].block == "table"]
        if len(rows) < 2 or any(row.line in measured for row in rows):
            continue
        for row in rows:
            cells = split_cells(row.text)
            name = _name(cells[0]) if cells else ""
            described = " ; ".join(
                f"{header}: {cell}" for header, cell in zip(row.header[1:], cells[1:], strict=False)
            )
            conditions = find_conditions(described, cat) if name and described else Conditions()
            if not (conditions.load or any(getattr(conditions, f) for f in _FIELDS)):
                continue
            if name in found and found[name] != conditions:
                twice.add(name)
            found[name] = conditions
    return {name: c for name, c in found.items() if name not in twice}


def with_configurations(
    claims: list[Claim], segments: list[Segment], configurations: dict[str, Conditions]
) -> list[Claim]:
    """The claims, each of a table row naming a described configuration completed from it."""
    if not configurations:
        return claims
    rows = {s.line: s for s in segments if s.block == "table"}
    out: list[Claim] = []
    for claim in claims:
        row = rows.get(claim.line or 0)
        cells = split_cells(row.text) if row is not None and claim.metrics else []
        described = configurations.get(_name(cells[0])) if cells else None
        out.append(claim if described is None else _completed(claim, described))
    return out


def _completed(claim: Claim, described: Conditions) -> Claim:
    own = claim.conditions
    update: dict[str, object] = {f: getattr(described, f) for f in _FIELDS if not getattr(own, f)}
    update["load"] = {**described.load, **own.load}
    return claim.model_copy(update={"conditions": own.model_copy(update=update)})


def _name(cell: str) -> str:
    """A configuration's name as a first cell writes it, without a part in brackets after
    it (`Aggregated (GH200)`)."""
    return _BRACKETED.sub("", clean_text(cell)).strip(" *_`").casefold()


_BRACKETED = re.compile(r"\s*[(（][^()（）]*[)）]\s*$")
