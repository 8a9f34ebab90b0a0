"""How the replay server reads a query: does a recorded item match, and which page is it on.

GitHub search terms and qualifiers (`created:`, `pushed:`, `fork:`, `repo:`, `a OR b`),
date ranges, the filters of list endpoints (`since`/`until`, `state`), pagination with a
`Link` header, and arXiv `search_query` clauses. Pure, except that a repository's README
is read from the recorded folder when its text is searched.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

__all__ = [
    "ATOM",
    "arxiv_match",
    "entry_text",
    "filter_items",
    "page_of",
    "paginate",
    "search_match",
    "search_terms",
]

ATOM = "{http://www.w3.org/2005/Atom}"
"""The Atom namespace, as ElementTree spells it in tags."""

# -- pagination and filters -----------------------------------------------------------


def paginate(items: list[Any], query: dict[str, str], url: str) -> tuple[list[Any], dict[str, str]]:
    """The page `query` asks for (`per_page`, `page`) and its `Link` header."""
    where, headers = page_of(len(items), query, url)
    return items[where], headers


def page_of(count: int, query: dict[str, str], url: str) -> tuple[slice, dict[str, str]]:
    """Which of `count` items are on the page `query` asks for, and its `Link` header."""
    per_page = max(1, min(100, int(query.get("per_page", "30") or 30)))
    page = max(1, int(query.get("page", "1") or 1))
    last = max(1, -(-count // per_page))
    links = []
    for rel, number in (("next", page + 1), ("last", last), ("first", 1), ("prev", page - 1)):
        if (rel in ("next", "last") and page < last) or (rel in ("first", "prev") and page > 1):
            params = dict(query, per_page=str(per_page), page=str(number))
            links.append(f'<{url}?{urlencode(params)}>; rel="{rel}"')
    where = slice((page - 1) * per_page, page * per_page)
    return where, ({"Link": ", ".join(links)} if links else {})


def _parse_date(text: str) -> datetime:
    text = text.strip().replace("Z", "+00:00")
    value = datetime.fromisoformat(text if "T" in text or len(text) > 10 else text + "T00:00:00")
    return value if value.tzinfo else value.replace(tzinfo=UTC)


def _in_range(value: str | None, spec: str) -> bool:
    """GitHub search range syntax: a..b, >=a, >a, <=a, <a, or a day."""
    if not value:
        return False
    when = _parse_date(value)
    if ".." in spec:
        low, high = spec.split("..", 1)
        upper_day = len(high) <= 10
        ok_low = low in ("", "*") or when >= _parse_date(low)
        ok_high = high in ("", "*") or (
            when.date() <= _parse_date(high).date() if upper_day else when <= _parse_date(high)
        )
        return ok_low and ok_high
    for op in (">=", "<=", ">", "<"):
        if spec.startswith(op):
            other = _parse_date(spec[len(op) :])
            return bool(
                {">=": when >= other, "<=": when <= other, ">": when > other, "<": when < other}[op]
            )
    return when.date() == _parse_date(spec).date()


def _repo_text(repo: dict[str, Any]) -> str:
    parts = [repo["full_name"], repo.get("description") or "", " ".join(repo.get("topics") or [])]
    readme = Path(repo["_dir"]) / "readme.md"
    if readme.is_file():
        parts.append(readme.read_text(encoding="utf-8"))
    return " ".join(parts).lower()


def search_match(repo: dict[str, Any], terms: list[str]) -> bool:
    """All terms must hold; forks are left out unless `fork:true` or `fork:only` (as GitHub)."""
    if repo.get("fork") and not any(t.startswith("fork:") for t in terms):
        return False
    text = _repo_text(repo)
    for term in terms:
        negate = term.startswith("-")
        name, _, value = term.lstrip("-").partition(":")
        if value and name in ("created", "pushed", "updated"):
            hit = _in_range(repo.get(f"{name}_at"), value)
        elif value and name == "repo":
            hit = repo["full_name"].lower() == value.lower()
        elif value and name in ("user", "org"):
            hit = repo["owner"]["login"].lower() == value.lower()
        elif value and name == "fork":
            hit = value in ("true", "only") if repo.get("fork") else value != "only"
        elif value and name in ("in", "sort", "language", "stars", "archived", "is"):
            hit = True
        else:
            hit = any(alt.strip('"').lower() in text for alt in term.lstrip("-").split("|"))
        if hit == negate:
            return False
    return True


def search_terms(q: str) -> list[str]:
    """Split a search query into terms; `a OR b` becomes one term `a|b`."""
    tokens = re.findall(r'-?\w+:"[^"]*"|-?\w+:\S+|"[^"]*"|\S+', q)
    terms: list[str] = []
    joining = False
    for token in tokens:
        if token == "OR" and terms:
            joining = True
        elif token in ("AND", "NOT"):
            continue
        elif joining:
            terms[-1] += "|" + token
            joining = False
        else:
            terms.append(token.replace('"', "") if ":" in token else token)
    return terms


# -- arXiv ----------------------------------------------------------------------------


def entry_text(entry: ET.Element, tag: str) -> str:
    """The text of an Atom entry's child `tag` ("" when missing)."""
    found = entry.find(f"{ATOM}{tag}")
    return (found.text or "") if found is not None else ""


def _arxiv_clause(entry: ET.Element, clause: str) -> bool:
    clause = clause.strip().strip("()").strip()
    if clause.startswith("submittedDate:"):
        low, _, high = clause.split(":", 1)[1].strip("[]").partition(" TO ")
        published = _parse_date(entry_text(entry, "published"))
        updated = _parse_date(entry_text(entry, "updated"))
        start, end = (
            datetime.strptime(x.strip(), "%Y%m%d%H%M").replace(tzinfo=UTC) for x in (low, high)
        )
        return start <= published <= end or start <= updated <= end
    field_name, _, value = clause.partition(":") if ":" in clause else ("all", "", clause)
    value = value.strip('"').lower()
    if field_name == "cat":
        cats = [c.get("term", "").lower() for c in entry.iter(f"{ATOM}category")]
        return value in cats
    if field_name == "id":
        return value in entry_text(entry, "id").lower()
    haystack = {"ti": entry_text(entry, "title"), "abs": entry_text(entry, "summary")}.get(
        field_name, entry_text(entry, "title") + " " + entry_text(entry, "summary")
    )
    return value in " ".join(haystack.lower().split())


def arxiv_match(entry: ET.Element, search_query: str) -> bool:
    """Whether an entry matches an arXiv `search_query` (AND of OR-ed field clauses)."""
    query = re.sub(r"\s+", " ", search_query.replace("+", " "))
    query = re.sub(r"\[(\d+) TO (\d+)\]", r"[\1_TO_\2]", query)
    for part in re.split(r"\sAND\s", query):
        alternatives = [
            a.replace("_TO_", " TO ") for a in re.split(r"\sOR\s", part.strip().strip("()"))
        ]
        if not any(_arxiv_clause(entry, alt) for alt in alternatives):
            return False
    return True


# -- list endpoints -------------------------------------------------------------------


def filter_items(
    name: str, items: list[dict[str, Any]], query: dict[str, str]
) -> list[dict[str, Any]]:
    """The items of list endpoint `name` that `since`/`until` and `state` keep."""
    if name == "commits" and (query.get("since") or query.get("until")):
        dated = [(_parse_date(c["commit"]["committer"]["date"]), c) for c in items]
        low = _parse_date(query["since"]) if query.get("since") else None
        high = _parse_date(query["until"]) if query.get("until") else None
        items = [c for d, c in dated if (low is None or d >= low) and (high is None or d <= high)]
    if name in ("pulls", "issues"):
        state = query.get("state", "open")
        items = [i for i in items if state == "all" or i.get("state") == state]
        if name == "issues" and query.get("since"):
            limit = _parse_date(query["since"])
            items = [i for i in items if _parse_date(i["updated_at"]) >= limit]
    return items
