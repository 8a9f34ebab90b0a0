"""A replay server: recorded GitHub REST, arXiv API and feed responses on loopback.

`serve_replay(root)` starts a stdlib `ThreadingHTTPServer` on 127.0.0.1, port 0, in a
thread, and answers in the real API shapes from a folder of recorded payloads::

    github/repos/{owner}/{name}.json          GET /repos/{owner}/{name}
    github/repos/{owner}/{name}/commits.json  GET .../commits (since/until/sha filters)
    github/repos/{owner}/{name}/readme.md     GET .../readme (base64 JSON, or raw on Accept)
    github/repos/{owner}/{name}/{pulls,issues,releases,tags}.json
    github/repos/{owner}/{name}/contents/...  GET .../contents/{path}?ref=
    github/renames.json                       {"old/name": "new/name"}: 301 like GitHub
    arxiv/*.xml                               GET /arxiv/api/query (search_query, id_list)
    feeds/*                                   GET /feeds/{file}

`GET /search/repositories` filters the recorded repositories by the query's words and
`created:`/`pushed:`/`fork:`/`repo:`/`-repo:` qualifiers. Every 200 answer carries an ETag
(a hash of the body) and `If-None-Match` gives 304; list endpoints paginate with
`per_page`/`page` and a `Link` header. `issues/{n}/comments` is an in-memory store
(GET, POST, and PATCH of `issues/comments/{id}`). `Fault`s inject timeouts, 5xx, rate
limits, 429, truncated or malformed bodies and 401 on paths matching a pattern.
"""

from __future__ import annotations

import base64
import fnmatch
import hashlib
import json
import re
import threading
import time
import xml.etree.ElementTree as ET
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import TracebackType
from typing import Any
from urllib.parse import parse_qs, quote, urlencode, urlsplit

__all__ = ["FAULT_KINDS", "Fault", "RecordedRequest", "ReplayServer", "sample_root", "serve_replay"]

FAULT_KINDS = ("timeout", "5xx", "rate-limit", "429", "truncated", "malformed", "401")

_ATOM = "{http://www.w3.org/2005/Atom}"
_ARXIV = "{http://arxiv.org/schemas/atom}"


def sample_root() -> Path:
    """The bundled sample's recorded responses."""
    return Path(__file__).parent / "sample" / "replay"


@dataclass
class Fault:
    """Misbehave on requests whose path matches `pattern` (fnmatch, without the query).

    Args:
        pattern: e.g. "/repos/*/ninfer*" or "/arxiv/*".
        kind: one of FAULT_KINDS.
        times: misbehave on the first `times` matching requests only (None: always).
        delay: seconds to stall for "timeout".
        status: the status of "5xx".
        retry_after: seconds in Retry-After ("429") or until X-RateLimit-Reset ("rate-limit").
    """

    pattern: str
    kind: str
    times: int | None = None
    delay: float = 2.0
    status: int = 502
    retry_after: int = 1
    hits: int = 0

    def __post_init__(self) -> None:
        if self.kind not in FAULT_KINDS:
            raise ValueError(
                f"unknown fault kind {self.kind!r}; use one of {', '.join(FAULT_KINDS)}"
            )

    def take(self, path: str) -> bool:
        """True when this request should fail (and count it)."""
        if not fnmatch.fnmatchcase(path, self.pattern):
            return False
        if self.times is not None and self.hits >= self.times:
            return False
        self.hits += 1
        return True


@dataclass(frozen=True)
class RecordedRequest:
    """One request the server saw (the Authorization header is never kept)."""

    method: str
    path: str
    query: str
    headers: dict[str, str]
    status: int


@dataclass
class _Reply:
    status: int
    body: bytes = b""
    headers: dict[str, str] = field(default_factory=dict)
    content_type: str = "application/json; charset=utf-8"


class _Data:
    """The recorded payloads, loaded once."""

    def __init__(self, root: Path):
        self.root = root
        self.repos: dict[str, dict[str, Any]] = {}
        for path in sorted((root / "github" / "repos").glob("*/*.json")):
            repo = json.loads(path.read_text(encoding="utf-8"))
            repo["_dir"] = str(path.with_suffix(""))
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
        entries.extend(ET.parse(path).getroot().iter(f"{_ATOM}entry"))
    return entries


def _etag(body: bytes) -> str:
    return '"' + hashlib.sha256(body).hexdigest()[:32] + '"'


def _json(status: int, data: Any, headers: dict[str, str] | None = None) -> _Reply:
    body = json.dumps(data, ensure_ascii=False, indent=1).encode("utf-8")
    return _Reply(status, body, dict(headers or {}))


def _not_found(what: str) -> _Reply:
    return _json(
        404,
        {"message": "Not Found", "documentation_url": "https://docs.github.com/rest", "what": what},
    )


def _public_repo(repo: dict[str, Any]) -> dict[str, Any]:
    """The repository JSON as recorded (URLs in bodies stay as recorded, so ETags are stable)."""
    return {k: v for k, v in repo.items() if not k.startswith("_")}


# -- pagination and filters -----------------------------------------------------------


def _page(items: list[Any], query: dict[str, str], url: str) -> tuple[list[Any], dict[str, str]]:
    per_page = max(1, min(100, int(query.get("per_page", "30") or 30)))
    page = max(1, int(query.get("page", "1") or 1))
    last = max(1, -(-len(items) // per_page))
    chunk = items[(page - 1) * per_page : page * per_page]
    links = []
    for rel, number in (("next", page + 1), ("last", last), ("first", 1), ("prev", page - 1)):
        if (rel in ("next", "last") and page < last) or (rel in ("first", "prev") and page > 1):
            params = dict(query, per_page=str(per_page), page=str(number))
            links.append(f'<{url}?{urlencode(params)}>; rel="{rel}"')
    return chunk, ({"Link": ", ".join(links)} if links else {})


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


def _search_match(repo: dict[str, Any], terms: list[str]) -> bool:
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


def _search_terms(q: str) -> list[str]:
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


def _entry_text(entry: ET.Element, tag: str) -> str:
    found = entry.find(f"{_ATOM}{tag}")
    return (found.text or "") if found is not None else ""


def _arxiv_clause(entry: ET.Element, clause: str) -> bool:
    clause = clause.strip().strip("()").strip()
    if clause.startswith("submittedDate:"):
        low, _, high = clause.split(":", 1)[1].strip("[]").partition(" TO ")
        published = _parse_date(_entry_text(entry, "published"))
        updated = _parse_date(_entry_text(entry, "updated"))
        start, end = (
            datetime.strptime(x.strip(), "%Y%m%d%H%M").replace(tzinfo=UTC) for x in (low, high)
        )
        return start <= published <= end or start <= updated <= end
    field_name, _, value = clause.partition(":") if ":" in clause else ("all", "", clause)
    value = value.strip('"').lower()
    if field_name == "cat":
        cats = [c.get("term", "").lower() for c in entry.iter(f"{_ATOM}category")]
        return value in cats
    if field_name == "id":
        return value in _entry_text(entry, "id").lower()
    haystack = {"ti": _entry_text(entry, "title"), "abs": _entry_text(entry, "summary")}.get(
        field_name, _entry_text(entry, "title") + " " + _entry_text(entry, "summary")
    )
    return value in " ".join(haystack.lower().split())


def _arxiv_match(entry: ET.Element, search_query: str) -> bool:
    query = re.sub(r"\s+", " ", search_query.replace("+", " "))
    query = re.sub(r"\[(\d+) TO (\d+)\]", r"[\1_TO_\2]", query)
    for part in re.split(r"\sAND\s", query):
        alternatives = [
            a.replace("_TO_", " TO ") for a in re.split(r"\sOR\s", part.strip().strip("()"))
        ]
        if not any(_arxiv_clause(entry, alt) for alt in alternatives):
            return False
    return True


def _arxiv_feed(entries: list[ET.Element], total: int, start: int, query: str) -> bytes:
    ET.register_namespace("", _ATOM.strip("{}"))
    ET.register_namespace("arxiv", _ARXIV.strip("{}"))
    ET.register_namespace("opensearch", "http://a9.com/-/spec/opensearch/1.1/")
    feed = ET.Element(f"{_ATOM}feed")
    ET.SubElement(feed, f"{_ATOM}id").text = (
        "https://arxiv.org/api/" + hashlib.sha1(query.encode()).hexdigest()
    )
    ET.SubElement(feed, f"{_ATOM}title").text = f"arXiv Query: {query}"
    ET.SubElement(feed, f"{_ATOM}updated").text = "2026-11-30T00:00:00Z"
    for tag, value in (
        ("totalResults", total),
        ("startIndex", start),
        ("itemsPerPage", len(entries)),
    ):
        ET.SubElement(feed, f"{{http://a9.com/-/spec/opensearch/1.1/}}{tag}").text = str(value)
    feed.extend(entries)
    return bytes(ET.tostring(feed, encoding="utf-8", xml_declaration=True))


# -- the request handler --------------------------------------------------------------


class _Handler(BaseHTTPRequestHandler):
    server: _Server
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - stdlib name
        """Quiet: the server keeps its own request log."""

    def do_GET(self) -> None:
        self._serve("GET")

    def do_POST(self) -> None:
        self._serve("POST")

    def do_PATCH(self) -> None:
        self._serve("PATCH")

    def _serve(self, method: str) -> None:
        parts = urlsplit(self.path)
        path = parts.path.rstrip("/") or "/"
        query = {k: v[-1] for k, v in parse_qs(parts.query, keep_blank_values=True).items()}
        length = int(self.headers.get("Content-Length") or 0)
        payload = self.rfile.read(length) if length else b""
        fault = self.server.replay.take_fault(path)
        reply = self._fault(fault) if fault else self._route(method, path, query, payload)
        if reply.status == 200 and method == "GET" and reply.body:
            reply.headers["ETag"] = _etag(reply.body)
            if self.headers.get("If-None-Match") == reply.headers["ETag"]:
                reply = _Reply(304, b"", {"ETag": reply.headers["ETag"]})
        headers = {k: v for k, v in self.headers.items() if k.lower() != "authorization"}
        self.server.replay.log(RecordedRequest(method, path, parts.query, headers, reply.status))
        self._send(reply, truncate=bool(fault and fault.kind == "truncated"))

    def _send(self, reply: _Reply, *, truncate: bool = False) -> None:
        self.send_response(reply.status)
        self.send_header("Content-Type", reply.content_type)
        self.send_header("Content-Length", str(len(reply.body)))
        self.send_header("X-RateLimit-Limit", "5000")
        reply.headers.setdefault("X-RateLimit-Remaining", "4999")
        reply.headers.setdefault("X-RateLimit-Reset", str(int(time.time()) + 3600))
        for name, value in reply.headers.items():
            self.send_header(name, value)
        if truncate:
            self.send_header("Connection", "close")
            self.close_connection = True
        self.end_headers()
        self.wfile.write(reply.body[: len(reply.body) // 2] if truncate else reply.body)

    def _fault(self, fault: Fault) -> _Reply:
        if fault.kind == "timeout":
            time.sleep(fault.delay)
            return _json(504, {"message": "stalled by the replay server"})
        if fault.kind == "5xx":
            return _json(fault.status, {"message": "Server Error"})
        if fault.kind == "rate-limit":
            reset = str(int(time.time()) + fault.retry_after)
            headers = {"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": reset}
            return _json(403, {"message": "API rate limit exceeded"}, headers)
        if fault.kind == "429":
            return _json(
                429, {"message": "secondary rate limit"}, {"Retry-After": str(fault.retry_after)}
            )
        if fault.kind == "401":
            return _json(
                401,
                {"message": "Bad credentials", "documentation_url": "https://docs.github.com/rest"},
            )
        if fault.kind == "malformed":
            return _Reply(200, b'{"id": 1, "full_name": "broken', {})
        return self._route("GET", urlsplit(self.path).path.rstrip("/"), {}, b"")  # truncated

    def _route(self, method: str, path: str, query: dict[str, str], payload: bytes) -> _Reply:
        base = self.server.replay.url
        if path.startswith("/arxiv/"):
            return self._arxiv(query)
        if path.startswith("/feeds/"):
            return self._feed(path.removeprefix("/feeds/"))
        if path == "/search/repositories":
            return self._search(query, base)
        if path == "/rate_limit":
            return _json(200, {"resources": {"core": {"limit": 5000, "remaining": 4999}}})
        match = re.fullmatch(r"/repositories/(\d+)(/.*)?", path)
        if match:
            repo = self.server.replay.data.by_id.get(int(match.group(1)))
            if repo is None:
                return _not_found(path)
            return self._repo(method, repo["full_name"], match.group(2) or "", query, payload)
        match = re.fullmatch(r"/repos/([^/]+)/([^/]+)(/.*)?", path)
        if match:
            return self._repo(
                method, f"{match.group(1)}/{match.group(2)}", match.group(3) or "", query, payload
            )
        return _not_found(path)

    def _repo(
        self, method: str, name: str, rest: str, query: dict[str, str], payload: bytes
    ) -> _Reply:
        data = self.server.replay.data
        base = self.server.replay.url
        if name.lower() not in data.repos and name.lower() in data.renames:
            target = data.repos[data.renames[name.lower()].lower()]
            location = f"{base}/repositories/{target['id']}{rest}"
            if query:
                location += "?" + urlencode(query)
            return _json(
                301, {"message": "Moved Permanently", "url": location}, {"Location": location}
            )
        if name.lower() not in data.repos:
            return _not_found(name)
        repo = data.repos[name.lower()]
        if rest == "":
            return _json(200, _public_repo(repo))
        return _repo_sub(self, repo, rest, method, query, payload)

    def _search(self, query: dict[str, str], base: str) -> _Reply:
        terms = _search_terms(query.get("q", ""))
        repos = [r for r in self.server.replay.data.repos.values() if _search_match(r, terms)]
        key = (
            "stargazers_count"
            if query.get("sort") == "stars"
            else f"{query.get('sort', 'pushed')}_at"
        )
        repos.sort(
            key=lambda r: (str(r.get(key) or ""), r["full_name"]),
            reverse=query.get("order", "desc") == "desc",
        )
        chunk, headers = _page(repos, query, f"{base}/search/repositories")
        items = [dict(_public_repo(r), score=1.0) for r in chunk]
        return _json(
            200, {"total_count": len(repos), "incomplete_results": False, "items": items}, headers
        )

    def _arxiv(self, query: dict[str, str]) -> _Reply:
        papers = self.server.replay.data.papers
        if query.get("id_list"):
            wanted = {i.strip().split("v")[0] for i in query["id_list"].split(",")}
            chosen = [
                e for e in papers if _entry_text(e, "id").rsplit("/", 1)[-1].split("v")[0] in wanted
            ]
        else:
            chosen = [e for e in papers if _arxiv_match(e, query.get("search_query", "all:*"))]
        chosen.sort(
            key=lambda e: _entry_text(e, "published"), reverse=query.get("sortOrder") != "ascending"
        )
        start, count = int(query.get("start", "0") or 0), int(query.get("max_results", "10") or 10)
        body = _arxiv_feed(
            chosen[start : start + count], len(chosen), start, query.get("search_query", "")
        )
        return _Reply(200, body, {}, "application/atom+xml; charset=utf-8")

    def _feed(self, name: str) -> _Reply:
        path = self.server.replay.root / "feeds" / name
        if "/" in name or ".." in name or not path.is_file():
            return _not_found(name)
        kind = "application/rss+xml" if "rss" in name else "application/atom+xml"
        return _Reply(200, path.read_bytes(), {}, f"{kind}; charset=utf-8")


def _repo_sub(
    handler: _Handler,
    repo: dict[str, Any],
    rest: str,
    method: str,
    query: dict[str, str],
    payload: bytes,
) -> _Reply:
    folder = Path(repo["_dir"])
    base = f"{handler.server.replay.url}/repos/{repo['full_name']}"
    if rest == "/readme":
        return _readme(folder / "readme.md", repo, handler.headers.get("Accept", ""))
    if rest.startswith("/contents/"):
        return _contents(
            folder / "contents",
            rest.removeprefix("/contents/"),
            repo,
            handler.headers.get("Accept", ""),
        )
    match = re.fullmatch(r"/issues/(\d+)/comments|/issues/comments/(\d+)", rest)
    if match:
        return _comments(
            handler.server.replay.data, repo["full_name"], match, method, payload, base
        )
    name = rest.strip("/").split("/")[0]
    if name not in ("commits", "pulls", "issues", "releases", "tags"):
        return _not_found(rest)
    file = folder / f"{name}.json"
    items: list[dict[str, Any]] = (
        json.loads(file.read_text(encoding="utf-8")) if file.is_file() else []
    )
    number = rest.strip("/").split("/")[1:]
    if number:
        found = [i for i in items if str(i.get("number", i.get("sha"))) == number[0]]
        return _json(200, found[0]) if found else _not_found(rest)
    items = _filter_items(name, items, query)
    chunk, headers = _page(items, query, base + rest)
    return _json(200, chunk, headers)


def _filter_items(
    name: str, items: list[dict[str, Any]], query: dict[str, str]
) -> list[dict[str, Any]]:
    if name == "commits":
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


def _readme(path: Path, repo: dict[str, Any], accept: str) -> _Reply:
    if not path.is_file():
        return _not_found("readme")
    raw = path.read_bytes()
    if "raw" in accept:
        return _Reply(200, raw, {}, "text/plain; charset=utf-8")
    return _json(200, _content_json("README.md", raw, repo))


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


def _contents(folder: Path, file: str, repo: dict[str, Any], accept: str) -> _Reply:
    path = (folder / file).resolve()
    if not path.is_file() or folder.resolve() not in path.parents:
        return _not_found(file)
    raw = path.read_bytes()
    if "raw" in accept:
        return _Reply(200, raw, {}, "text/plain; charset=utf-8")
    return _json(200, _content_json(file, raw, repo))


def _comments(
    data: _Data, full_name: str, match: re.Match[str], method: str, payload: bytes, base: str
) -> _Reply:
    with data.lock:
        if match.group(2):  # PATCH /issues/comments/{id}
            for items in data.comments.values():
                for comment in items:
                    if str(comment["id"]) == match.group(2) and method == "PATCH":
                        comment["body"] = json.loads(payload or b"{}").get("body", comment["body"])
                        comment["updated_at"] = _now_iso()
                        return _json(200, comment)
            return _not_found("comment")
        key = f"{full_name.lower()}#{match.group(1)}"
        items = data.comments.setdefault(key, [])
        if method == "GET":
            return _json(200, list(items))
        body = json.loads(payload or b"{}").get("body")
        if not isinstance(body, str) or not body:
            return _json(422, {"message": "Validation Failed: body is required"})
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
        return _json(201, comment)


def _now_iso() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


# -- the server -------------------------------------------------------------------------


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    replay: ReplayServer

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that went away (timeouts, truncation tests) is not an error here."""
        import sys

        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


class ReplayServer:
    """A running replay server. Use as a context manager, or call `close()`.

    Attributes:
        url: base URL, e.g. http://127.0.0.1:54321 (GitHub API base).
        arxiv_url: the arXiv API query URL on this server.
        requests: every request answered, in order.
    """

    def __init__(self, root: Path, faults: Sequence[Fault] = (), port: int = 0):
        self.root = root
        self.data = _Data(root)
        self.faults = list(faults)
        self.requests: list[RecordedRequest] = []
        self._lock = threading.Lock()
        self._server = _Server(("127.0.0.1", port), _Handler)
        self._server.replay = self
        host, bound = self._server.server_address[:2]
        self.url = f"http://{host!s}:{bound}"
        self.arxiv_url = f"{self.url}/arxiv/api/query"
        self._thread = threading.Thread(
            target=self._server.serve_forever, args=(0.05,), name="replay", daemon=True
        )
        self._thread.start()

    def feed_url(self, name: str) -> str:
        return f"{self.url}/feeds/{name}"

    def feed_names(self) -> list[str]:
        folder = self.root / "feeds"
        return sorted(p.name for p in folder.iterdir()) if folder.is_dir() else []

    def take_fault(self, path: str) -> Fault | None:
        with self._lock:
            return next((fault for fault in self.faults if fault.take(path)), None)

    def log(self, request: RecordedRequest) -> None:
        with self._lock:
            self.requests.append(request)

    def comments(self, repo: str, number: int) -> list[dict[str, Any]]:
        """Comments posted to an issue so far (for tests of the publisher)."""
        with self.data.lock:
            return list(self.data.comments.get(f"{repo.lower()}#{number}", []))

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)

    def __enter__(self) -> ReplayServer:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def __iter__(self) -> Iterator[RecordedRequest]:
        return iter(list(self.requests))


def serve_replay(
    root: Path | None = None, *, faults: Sequence[Fault] | None = None, port: int = 0
) -> ReplayServer:
    """Start a replay server on 127.0.0.1 (port 0: any free port) over `root`.

    `root` defaults to the bundled sample (`sample_root()`).
    """
    return ReplayServer(root or sample_root(), faults or (), port)
