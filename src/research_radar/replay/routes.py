"""Route handlers of the replay server: one request in, one recorded answer out.

GitHub REST (repositories, renames, search, commits and other lists, README, contents,
issue comments), the arXiv API and feeds, answered in the real shapes from the recorded
payloads in `ReplayData`. No sockets here: `replay.py` reads the request, injects faults,
adds the ETag and sends the `Reply`.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import threading
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

from research_radar.replay.query import (
    ATOM,
    arxiv_match,
    entry_text,
    filter_items,
    page_of,
    paginate,
    search_match,
    search_terms,
)

__all__ = ["ReplayData", "Reply", "json_reply", "route"]

_ARXIV = "{http://arxiv.org/schemas/atom}"


@dataclass
class Reply:
    """One answer: status, body, extra headers and content type."""

    status: int
    body: bytes = b""
    headers: dict[str, str] = field(default_factory=dict)
    content_type: str = "application/json; charset=utf-8"


class ReplayData:
    """The recorded payloads, loaded once."""

    def __init__(self, root: Path):
        self.root = root
        self.repos: dict[str, dict[str, Any]] = {}
        for path in sorted((root / "github" / "repos").glob("*/*.json")):
            repo = json.loads(path.read_text(encoding="utf-8"))
            repo["_dir"] = str(path.with_suffix(""))
            repo["_file"] = str(path)
            self.repos[str(repo["full_name"]).lower()] = repo
        renames = root / "github" / "renames.json"
        raw = json.loads(renames.read_text(encoding="utf-8")) if renames.is_file() else {}
        self.renames = {old.lower(): new for old, new in raw.items()}
        self.by_id = {int(repo["id"]): repo for repo in self.repos.values()}
        self.papers = _load_papers(root / "arxiv")
        self.comments: dict[str, list[dict[str, Any]]] = {}
        self.next_comment_id = 1_000_001
        self.lock = threading.Lock()

    def repo_dir(self, full_name: str) -> Path:
        return Path(self.repos[full_name.lower()]["_dir"])


def _load_papers(folder: Path) -> list[ET.Element]:
    entries: list[ET.Element] = []
    for path in sorted(folder.glob("*.xml")) if folder.is_dir() else []:
        entries.extend(ET.parse(path).getroot().iter(f"{ATOM}entry"))
    return entries


def json_reply(status: int, data: Any, headers: dict[str, str] | None = None) -> Reply:
    """A JSON answer (UTF-8) with optional extra headers.

    Not indented: json's C encoder writes only unindented JSON, and the indented Python
    one was most of the server's time per answer (#19)."""
    body = json.dumps(data, ensure_ascii=False).encode("utf-8")
    return Reply(status, body, dict(headers or {}))


def _not_found(what: str) -> Reply:
    return json_reply(
        404,
        {"message": "Not Found", "documentation_url": "https://docs.github.com/rest", "what": what},
    )


def _public_repo(repo: dict[str, Any]) -> dict[str, Any]:
    """The repository JSON as recorded (URLs in bodies stay as recorded, so ETags are stable)."""
    return {k: v for k, v in repo.items() if not k.startswith("_")}


def _arxiv_feed(entries: list[ET.Element], total: int, start: int, query: str) -> bytes:
    ET.register_namespace("", ATOM.strip("{}"))
    ET.register_namespace("arxiv", _ARXIV.strip("{}"))
    ET.register_namespace("opensearch", "http://a9.com/-/spec/opensearch/1.1/")
    feed = ET.Element(f"{ATOM}feed")
    ET.SubElement(feed, f"{ATOM}id").text = (
        "https://arxiv.org/api/" + hashlib.sha1(query.encode()).hexdigest()
    )
    ET.SubElement(feed, f"{ATOM}title").text = f"arXiv Query: {query}"
    ET.SubElement(feed, f"{ATOM}updated").text = "2026-11-30T00:00:00Z"
    for tag, value in (
        ("totalResults", total),
        ("startIndex", start),
        ("itemsPerPage", len(entries)),
    ):
        ET.SubElement(feed, f"{{http://a9.com/-/spec/opensearch/1.1/}}{tag}").text = str(value)
    feed.extend(entries)
    return bytes(ET.tostring(feed, encoding="utf-8", xml_declaration=True))


# -- routing ------------------------------------------------------------------------


def route(
    data: ReplayData,
    method: str,
    path: str,
    query: dict[str, str],
    payload: bytes,
    *,
    base: str,
    accept: str,
) -> Reply:
    """Answer one request; `base` is the server's URL, `accept` the Accept header."""
    if path.startswith("/arxiv/"):
        return _arxiv(data, query)
    if path.startswith("/feeds/"):
        return _feed(data, path.removeprefix("/feeds/"))
    if path == "/search/repositories":
        return _search(data, query, base)
    if path == "/rate_limit":
        return json_reply(200, {"resources": {"core": {"limit": 5000, "remaining": 4999}}})
    match = re.fullmatch(r"/repositories/(\d+)(/.*)?", path)
    if match:
        repo = data.by_id.get(int(match.group(1)))
        if repo is None:
            return _not_found(path)
        return _repo(
            data, method, repo["full_name"], match.group(2) or "", query, payload, base, accept
        )
    match = re.fullmatch(r"/repos/([^/]+)/([^/]+)(/.*)?", path)
    if match:
        return _repo(
            data,
            method,
            f"{match.group(1)}/{match.group(2)}",
            match.group(3) or "",
            query,
            payload,
            base,
            accept,
        )
    return _not_found(path)


def _repo(
    data: ReplayData,
    method: str,
    name: str,
    rest: str,
    query: dict[str, str],
    payload: bytes,
    base: str,
    accept: str,
) -> Reply:
    if name.lower() not in data.repos and name.lower() in data.renames:
        target = data.repos[data.renames[name.lower()].lower()]
        location = f"{base}/repositories/{target['id']}{rest}"
        if query:
            location += "?" + urlencode(query)
        return json_reply(
            301, {"message": "Moved Permanently", "url": location}, {"Location": location}
        )
    if name.lower() not in data.repos:
        return _not_found(name)
    repo = data.repos[name.lower()]
    if rest == "":  # the repository JSON as recorded: encoded once, when it was recorded
        return Reply(200, _recorded(repo["_file"]) or b"")
    return _repo_sub(data, repo, rest, method, query, payload, base, accept)


def _search(data: ReplayData, query: dict[str, str], base: str) -> Reply:
    terms = search_terms(query.get("q", ""))
    repos = [r for r in data.repos.values() if search_match(r, terms)]
    key = (
        "stargazers_count" if query.get("sort") == "stars" else f"{query.get('sort', 'pushed')}_at"
    )
    repos.sort(
        key=lambda r: (str(r.get(key) or ""), r["full_name"]),
        reverse=query.get("order", "desc") == "desc",
    )
    chunk, headers = paginate(repos, query, f"{base}/search/repositories")
    items = [dict(_public_repo(r), score=1.0) for r in chunk]
    return json_reply(
        200, {"total_count": len(repos), "incomplete_results": False, "items": items}, headers
    )


def _arxiv(data: ReplayData, query: dict[str, str]) -> Reply:
    papers = data.papers
    if query.get("id_list"):
        wanted = {i.strip().split("v")[0] for i in query["id_list"].split(",")}
        chosen = [
            e for e in papers if entry_text(e, "id").rsplit("/", 1)[-1].split("v")[0] in wanted
        ]
    else:
        chosen = [e for e in papers if arxiv_match(e, query.get("search_query", "all:*"))]
    chosen.sort(
        key=lambda e: entry_text(e, "published"), reverse=query.get("sortOrder") != "ascending"
    )
    start, count = int(query.get("start", "0") or 0), int(query.get("max_results", "10") or 10)
    body = _arxiv_feed(
        chosen[start : start + count], len(chosen), start, query.get("search_query", "")
    )
    return Reply(200, body, {}, "application/atom+xml; charset=utf-8")


def _feed(data: ReplayData, name: str) -> Reply:
    path = data.root / "feeds" / name
    if "/" in name or ".." in name or not path.is_file():
        return _not_found(name)
    kind = "application/rss+xml" if "rss" in name else "application/atom+xml"
    return Reply(200, path.read_bytes(), {}, f"{kind}; charset=utf-8")


def _repo_sub(
    data: ReplayData,
    repo: dict[str, Any],
    rest: str,
    method: str,
    query: dict[str, str],
    payload: bytes,
    server_url: str,
    accept: str,
) -> Reply:
    folder = repo["_dir"]
    base = f"{server_url}/repos/{repo['full_name']}"
    if rest == "/readme":
        return _readme(f"{folder}/readme.md", repo, accept)
    if rest.startswith("/contents/"):
        return _contents(
            Path(folder) / "contents",
            rest.removeprefix("/contents/"),
            repo,
            accept,
        )
    match = re.fullmatch(r"/issues/(\d+)/comments|/issues/comments/(\d+)", rest)
    if match:
        return _comments(data, repo["full_name"], match, method, payload, base)
    name = rest.strip("/").split("/")[0]
    if name not in ("commits", "pulls", "issues", "releases", "tags"):
        return _not_found(rest)
    recorded = _recorded(f"{folder}/{name}.json") or b""
    number = rest.strip("/").split("/")[1:]
    if number:
        items: list[dict[str, Any]] = json.loads(recorded.decode("utf-8")) if recorded else []
        found = [i for i in items if str(i.get("number", i.get("sha"))) == number[0]]
        return json_reply(200, found[0]) if found else _not_found(rest)
    items = json.loads(recorded.decode("utf-8")) if recorded else []
    kept = filter_items(name, items, query)
    where, headers = page_of(len(kept), query, base + rest)
    return json_reply(200, kept[where], headers)


def _recorded(path: str) -> bytes | None:
    """A recorded file's bytes, None when there is none (read with plain `open`: pathlib
    took a tenth of the server's time per answer, #19)."""
    try:
        with open(path, "rb") as file:
            return file.read()
    except (FileNotFoundError, IsADirectoryError):
        return None


def _readme(path: str, repo: dict[str, Any], accept: str) -> Reply:
    raw = _recorded(path)
    if raw is None:
        return _not_found("readme")
    if "raw" in accept:
        return Reply(200, raw, {}, "text/plain; charset=utf-8")
    return json_reply(200, _content_json("README.md", raw, repo))


def _content_json(file: str, raw: bytes, repo: dict[str, Any]) -> dict[str, Any]:
    web = f"https://github.com/{repo['full_name']}/blob/{repo['default_branch']}/{quote(file)}"
    return {
        "type": "file",
        "name": file.rsplit("/", 1)[-1],
        "path": file,
        "sha": hashlib.sha1(b"blob %d\0" % len(raw) + raw).hexdigest(),
        "size": len(raw),
        "encoding": "base64",
        "content": base64.encodebytes(raw).decode("ascii"),
        "html_url": web,
        "download_url": f"https://raw.githubusercontent.com/{repo['full_name']}/{repo['default_branch']}/{file}",
    }


def _contents(folder: Path, file: str, repo: dict[str, Any], accept: str) -> Reply:
    path = (folder / file).resolve()
    if not path.is_file() or folder.resolve() not in path.parents:
        return _not_found(file)
    raw = path.read_bytes()
    if "raw" in accept:
        return Reply(200, raw, {}, "text/plain; charset=utf-8")
    return json_reply(200, _content_json(file, raw, repo))


def _comments(
    data: ReplayData, full_name: str, match: re.Match[str], method: str, payload: bytes, base: str
) -> Reply:
    with data.lock:
        if match.group(2):  # PATCH /issues/comments/{id}
            for items in data.comments.values():
                for comment in items:
                    if str(comment["id"]) == match.group(2) and method == "PATCH":
                        comment["body"] = json.loads(payload or b"{}").get("body", comment["body"])
                        comment["updated_at"] = _now_iso()
                        return json_reply(200, comment)
            return _not_found("comment")
        key = f"{full_name.lower()}#{match.group(1)}"
        items = data.comments.setdefault(key, [])
        if method == "GET":
            return json_reply(200, list(items))
        body = json.loads(payload or b"{}").get("body")
        if not isinstance(body, str) or not body:
            return json_reply(422, {"message": "Validation Failed: body is required"})
        number = data.next_comment_id
        data.next_comment_id += 1
        comment = {
            "id": number,
            "node_id": f"IC_{number}",
            "url": f"{base}/issues/comments/{number}",
            "html_url": f"https://github.com/{full_name}/issues/{match.group(1)}#issuecomment-{number}",
            "body": body,
            "user": {"login": "radar-bot", "id": 4242, "type": "User"},
            "created_at": _now_iso(),
            "updated_at": _now_iso(),
        }
        items.append(comment)
        return json_reply(201, comment)


def _now_iso() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
