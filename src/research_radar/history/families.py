"""The mechanism-family index of the history kept in the store."""

from __future__ import annotations

from datetime import date

from research_radar.resolve.families import FamilyIndex
from research_radar.store.store import Store

__all__ = ["load_family_index"]


def load_family_index(store: Store, *, before: date) -> FamilyIndex:
    """A family index of the findings before a day (exclusive)."""
    index = FamilyIndex()
    for finding in store.load_findings(before=before):
        index.add(finding)
    return index
