"""A set-up scope: lines of a document and the conditions stated once for them.

Pure. A building block of `research_radar.extract.claims`, which callers outside this
package use instead. `extract.scopes` and `extract.setupnotes` find the scopes; a claim
takes from the scopes around its line, innermost first, only the fields it has none of.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from research_radar.extract.conditions import format_repeats
from research_radar.models import Conditions

__all__ = ["FIELDS", "Scope", "with_scopes"]

FIELDS = ("hardware", "model", "precision")
"""The named fields a scope sets up."""


@dataclass
class Scope:
    """Lines `first..last` of a document and the conditions stated for them."""

    first: int
    last: int
    names: dict[str, list[str]] = field(default_factory=dict)
    load: dict[str, str] = field(default_factory=dict)
    several: set[str] = field(default_factory=set)
    """Load keys the set-up gives different values of (a list of datasets: `32000 input
    tokens`, `4000 input tokens`): alternatives, none of them the set-up (issue #14)."""

    def add(self, conditions: Conditions) -> None:
        for name in FIELDS:
            for value in getattr(conditions, name):
                found = self.names.setdefault(name, [])
                if value not in found:
                    found.append(value)
        for key, value in conditions.load.items():
            if self.load.setdefault(key, value) != value or key in self.several:
                self.several.add(key)
                self.load.pop(key)


def with_scopes(conditions: Conditions, line: int, scopes: list[Scope]) -> Conditions:
    """Conditions completed from the set-up scopes around `line`: only fields left empty."""
    data = conditions.model_dump()
    load = dict(data["load"])
    changed = False
    for scope in scopes:
        if not scope.first <= line <= scope.last:
            continue
        for name in FIELDS:
            if not data[name] and scope.names.get(name):
                data[name] = list(scope.names[name])
                changed = True
        for key, value in scope.load.items():
            if key not in load:
                load[key] = value
                changed = True
    if not changed:
        return conditions
    data["load"] = load
    data["repeats"] = format_repeats(load)
    return Conditions(**data)
