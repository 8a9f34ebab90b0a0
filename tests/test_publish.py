from __future__ import annotations

import json
import logging
import re
import threading
from collections.abc import Iterator
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from datetime import date
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt
from sqlalchemy import select

import research_radar.publish.index_issue as publish_module
from research_radar.errors import PublishError
from research_radar.github import GitHubClient, open_github_client
from research_radar.models import Source, SourceKind
from research_radar.publish.comments import GITHUB_COMMENT_LIMIT, build_parts
from research_radar.publish.gate import allowed_hosts, check_public, neutralise
from research_radar.publish.index_issue import parse_target, publish_report
from research_radar.replay.server import Fault, ReplayServer, serve_replay
from research_radar.sources.http import RetryPolicy
from research_radar.store.schema import publications
from research_radar.store.store import Store

DAY = date(2026, 11, 30)
TARGET = "example-org/inferhost#177"
TOKEN = "ghp_" + "T0kenForTests" * 3
REPORT = """<!-- research-radar:report 2026-11-30 zh -->
## 2026-11-30｜Research Radar 日报

证据截止：北京时间 2026-11-30 08:30:00。本轮 1 项值得验证。

### 值得验证
| 分类 / 项目 | 机制 | 来源 |
|---|---|---|
| **NInfer**<br>负载：LLM | Cache；作者 @neroued 报告 | https://github.com/Neroued/ninfer |
"""


# -- targets ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("target", "expected"),
    [
        pytest.param("owner/repo#12", ("owner", "repo", 12), id="plain"),
        pytest.param(
            " Example-Org/infer.host_2#177 ", ("Example-Org", "infer.host_2", 177), id="dots"
        ),
    ],
)
def test_parse_target(target: str, expected: tuple[str, str, int]) -> None:
    assert parse_target(target) == expected


@pytest.mark.parametrize(
    "target",
    ["owner/repo", "owner#12", "owner/repo#0", "owner/repo#x", "https://github.com/o/r/issues/1"],
)
def test_parse_target_refuses_with_a_hint(target: str) -> None:
    with pytest.raises(PublishError, match="OWNER/REPO#N"):
        parse_target(target)


# -- servers ----------------------------------------------------------------------------


@pytest.fixture
def replay() -> Iterator[ReplayServer]:
    with serve_replay() as server:
        yield server


def _policy(retries: int = 3) -> RetryPolicy:
    """Retries and rate-limit waits without sleeping."""
    return RetryPolicy(retries=retries, backoff=0.0, timeout=5.0, sleep=lambda _: None)


def _client(
    url: str, token: str | None = TOKEN, retries: int = 3
) -> AbstractContextManager[GitHubClient]:
    return open_github_client(url, token, policy=_policy(retries))


def _posts(server: ReplayServer) -> int:
    return sum(1 for r in server.requests if r.method == "POST")


@dataclass
class _Issue:
    """A tiny GitHub issue-comments API: pagination, scripted error answers."""

    comments: list[dict[str, Any]] = field(default_factory=list)
    page_size: int = 2
    answers: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    """Scripted (status, body) answers for the next requests, used first."""
    create_then_fail: int = 0
    """POSTs that store the comment and then answer 502 anyway."""
    log: list[tuple[str, str]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)


class _Handler(BaseHTTPRequestHandler):
    server: _IssueServer
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        pass

    def _reply(self, status: int, data: Any, headers: dict[str, str] | None = None) -> None:
        body = json.dumps(data).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:
        issue = self.server.issue
        parts = urlsplit(self.path)
        with issue.lock:
            issue.log.append(("GET", self.path))
            if issue.answers:
                self._reply(*issue.answers.pop(0))
                return
            page = int(parse_qs(parts.query).get("page", ["1"])[0])
            size = issue.page_size
            chunk = issue.comments[(page - 1) * size : page * size]
            headers = {}
            if page * size < len(issue.comments):
                base = f"http://127.0.0.1:{self.server.server_port}{parts.path}"
                headers["Link"] = f'<{base}?per_page={size}&page={page + 1}>; rel="next"'
        self._reply(200, chunk, headers)

    def do_POST(self) -> None:
        issue = self.server.issue
        length = int(self.headers.get("Content-Length") or 0)
        payload = json.loads(self.rfile.read(length))
        with issue.lock:
            issue.log.append(("POST", self.path))
            if issue.answers:
                self._reply(*issue.answers.pop(0))
                return
            number = 500 + len(issue.comments)
            comment = {"id": number, "body": payload["body"], "html_url": f"https://x/#c{number}"}
            issue.comments.append(comment)
            if issue.create_then_fail:
                issue.create_then_fail -= 1
                self._reply(502, {"message": "Bad Gateway"})
                return
        self._reply(201, comment)


class _IssueServer(ThreadingHTTPServer):
    daemon_threads = True
    issue: _Issue


@pytest.fixture
def issue_server() -> Iterator[tuple[str, _Issue]]:
    server = _IssueServer(("127.0.0.1", 0), _Handler)
    server.issue = _Issue()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}", server.issue
    server.shutdown()
    server.server_close()


def _publish(
    url: str, markdown: str = REPORT, retries: int = 3, **options: Any
) -> publish_module.PublishResult:
    with _client(url, retries=retries) as github:
        return publish_report(
            github,
            target=TARGET,
            markdown=markdown,
            report_date=DAY,
            dry_run=options.pop("dry_run", False),
            **options,
        )


# -- publishing -------------------------------------------------------------------------


def test_dry_run_sends_nothing(replay: ReplayServer) -> None:
    result = _publish(replay.url, dry_run=True)
    assert result.dry_run
    assert [p.status for p in result.parts] == ["would-post"]
    assert result.parts[0].marker.startswith(
        "<!-- research-radar:report 2026-11-30 part 1/1 sha256:"
    )
    assert result.parts[0].body.startswith(result.parts[0].marker)
    assert replay.requests == []


def test_publishing_twice_posts_once(replay: ReplayServer, store: Store) -> None:
    first = _publish(replay.url, store=store)
    second = _publish(replay.url, store=store)
    assert [p.status for p in first.parts] == ["posted"]
    assert [p.status for p in second.parts] == ["already-posted"]
    assert _posts(replay) == 1
    posted = replay.comments("example-org/inferhost", 177)
    assert len(posted) == 1
    assert "@\u200bneroued" in posted[0]["body"]
    with store.engine.connect() as conn:
        rows = conn.execute(select(publications)).mappings().all()
    assert [(r["target"], r["report_date"], r["part"]) for r in rows] == [(TARGET, DAY, 1)]
    assert rows[0]["url"] == first.parts[0].url
    assert _publish(replay.url, store=store, dry_run=True).parts[0].status == "already-posted"


def test_never_edits_a_comment(replay: ReplayServer) -> None:
    _publish(replay.url)
    _publish(replay.url, markdown=REPORT + "\n更正：…\n", allow_new_version=True)
    assert {r.method for r in replay.requests} == {"GET", "POST"}
    assert _posts(replay) == 2


def test_existing_markers_are_found_on_later_pages(issue_server: tuple[str, _Issue]) -> None:
    url, issue = issue_server
    marker = build_parts(neutralise(REPORT), DAY)[0].marker
    issue.comments = [{"id": n, "body": f"note {n}"} for n in range(4)]
    issue.comments.append({"id": 9, "body": f"{marker}\nold", "html_url": "https://x/#c9"})
    result = _publish(url)
    assert [p.status for p in result.parts] == ["already-posted"]
    assert result.parts[0].url == "https://x/#c9"
    assert [method for method, _ in issue.log] == ["GET", "GET", "GET"]
    assert "per_page=100" in issue.log[0][1]


def test_a_different_report_for_the_same_day_needs_new_version(replay: ReplayServer) -> None:
    _publish(replay.url)
    with pytest.raises(PublishError, match="--new-version"):
        _publish(replay.url, markdown=REPORT.replace("08:30:00", "08:45:00"))
    assert _posts(replay) == 1
    _publish(replay.url, markdown=REPORT.replace("08:30:00", "08:45:00"), allow_new_version=True)
    assert _posts(replay) == 2


def test_token_is_never_logged(replay: ReplayServer, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.DEBUG):
        _publish(replay.url)
    assert caplog.records
    assert TOKEN not in caplog.text
    assert all(r.headers.get("Authorization") is None for r in replay.requests)


def test_private_repository_from_the_store_is_refused(replay: ReplayServer, store: Store) -> None:
    secret = Source(
        key="gh:neroued/ninfer",
        kind=SourceKind.REPO,
        url="https://github.com/Neroued/ninfer",
        meta={"private": True},
    )
    with store.transaction() as conn:
        store.save_source(conn, secret)
    with pytest.raises(PublishError, match="private repository neroued/ninfer"):
        _publish(replay.url, store=store)
    assert replay.requests == []


# -- splitting ----------------------------------------------------------------------------


def _long_report(size: int) -> tuple[str, list[str]]:
    head = "| 分类 | 机制 | 来源 |\n|---|---|---|"
    rows = [f"| **P{n}**<br>负载：LLM | {'机制说明 ' * 60}{n} | [S{n}] |" for n in range(400)]
    text = [REPORT.split("### 值得验证")[0].rstrip(), ""]
    for section in range(4):
        text += [f"### 节 {section}", head, *rows[section * 100 : section * 100 + 100], ""]
    markdown = "\n".join(text)
    while len(markdown) < size:
        markdown += "\n来源说明 " + "x" * 200
    return markdown[:size].rsplit("\n", 1)[0], rows


def test_a_long_report_is_split_at_row_boundaries() -> None:
    markdown, rows = _long_report(150_000)
    assert len(markdown) > 145_000
    parts = build_parts(markdown, DAY)
    assert len(parts) == 3
    for part in parts:
        assert len(part.body) <= GITHUB_COMMENT_LIMIT
        assert part.body.startswith(part.marker + "\n")
        assert f"（{part.part}/3）" in part.body
        lines = part.body.split("\n")
        for index, line in enumerate(lines):
            if line.startswith("| **P"):
                assert line in rows
                header = max(i for i in range(index) if lines[i].startswith("| 分类"))
                assert lines[header + 1] == "|---|---|---|"
    bodies = "\n".join(part.body for part in parts)
    assert all(bodies.count(row) == 1 for row in rows if row in markdown)
    assert len({part.marker.rsplit(" ", 2)[1] for part in parts}) == 1


def test_an_english_report_is_split_with_english_words() -> None:
    markdown, _ = _long_report(150_000)
    english = "<!-- research-radar:report 2026-11-30 en -->\n" + markdown
    parts = build_parts(english, DAY)
    assert len(parts) == 3
    assert all(f" ({part.part}/3)" in part.body for part in parts)
    assert "（续）" not in "".join(part.body for part in parts)
    assert any(" (continued)" in part.body for part in parts[1:])
    assert any("（续）" in part.body for part in build_parts(markdown, DAY)[1:])


def test_a_long_report_is_posted_in_order_and_resumed(issue_server: tuple[str, _Issue]) -> None:
    url, issue = issue_server
    markdown, _ = _long_report(150_000)
    issue.page_size = 100
    parts = build_parts(neutralise(markdown), DAY)
    issue.comments.append({"id": 7, "body": parts[0].body, "html_url": "https://x/#c7"})
    result = _publish(url, markdown=markdown)
    assert [p.status for p in result.parts] == ["already-posted", "posted", "posted"]
    assert [c["body"] for c in issue.comments] == [p.body for p in parts]


def test_a_single_overlong_line_is_refused() -> None:
    with pytest.raises(PublishError, match="longer than a GitHub comment"):
        build_parts("| " + "x" * 70_000 + " |", DAY)


# -- errors -------------------------------------------------------------------------------


def test_bad_token_says_to_check_github_token(replay: ReplayServer) -> None:
    replay.faults.append(Fault("*/comments", "401"))
    with pytest.raises(PublishError, match="check GITHUB_TOKEN") as info:
        _publish(replay.url)
    assert info.value.status == 401
    assert TOKEN not in str(info.value)


def test_rate_limit_is_told_apart_from_permission(
    replay: ReplayServer, issue_server: tuple[str, _Issue]
) -> None:
    replay.faults.append(Fault("*/comments", "rate-limit"))
    with pytest.raises(PublishError, match="rate limit") as info:
        _publish(replay.url)
    assert info.value.status == 403
    url, issue = issue_server
    issue.answers = [(200, []), (403, {"message": "Resource not accessible by integration"})]
    with pytest.raises(PublishError, match="Issues: write") as info:
        _publish(url)
    assert info.value.status == 403


def test_missing_issue_is_a_404(replay: ReplayServer) -> None:
    with pytest.raises(PublishError, match="not found") as info, _client(replay.url) as github:
        publish_report(
            github, target="nobody/nothing#1", markdown=REPORT, report_date=DAY, dry_run=False
        )
    assert info.value.status == 404


def test_validation_failure_is_a_422(issue_server: tuple[str, _Issue]) -> None:
    url, issue = issue_server
    error = {
        "message": "Validation Failed",
        "errors": [{"message": "body is too long (maximum is 65536 characters)"}],
    }
    issue.answers = [(200, []), (422, error)]
    with pytest.raises(PublishError, match="body is too long") as info:
        _publish(url)
    assert info.value.status == 422


def test_server_errors_are_retried(replay: ReplayServer) -> None:
    replay.faults.append(Fault("*/comments", "5xx", times=2, status=503))
    result = _publish(replay.url)
    assert result.posted == 1
    assert len(replay.comments("example-org/inferhost", 177)) == 1


def test_server_errors_that_persist_end_in_one_error(replay: ReplayServer) -> None:
    replay.faults.append(Fault("*/comments", "5xx", status=500))
    with pytest.raises(PublishError, match="run again later"):
        _publish(replay.url, retries=2)
    assert replay.comments("example-org/inferhost", 177) == []


def test_a_5xx_after_the_comment_was_created_does_not_post_twice(
    issue_server: tuple[str, _Issue],
) -> None:
    url, issue = issue_server
    issue.create_then_fail = 1
    result = _publish(url)
    assert result.parts[0].status == "posted"
    assert len(issue.comments) == 1
    assert [m for m, _ in issue.log].count("POST") == 1


# -- the public-only gate -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        pytest.param(
            "see https://github.com/Acme/Secret/tree/abc",
            "private repository acme/secret",
            id="link",
        ),
        pytest.param("fixed in acme/secret#12", "private repository acme/secret", id="ref"),
        pytest.param(
            "at `acme/secret@0123abcd:src/x.py`", "private repository acme/secret", id="pin"
        ),
        pytest.param("log in /home/alice/runs/x.log", "local path", id="home"),
        pytest.param("see /Users/bob/notes.md", "local path", id="mac"),
        pytest.param(r"C:\Users\bob\x.txt", "local path", id="windows"),
        pytest.param("file:///etc/passwd", "local path", id="file-url"),
        pytest.param("cd ~/work/radar", "local path", id="tilde"),
        pytest.param("log in /tmp/run-3/x.log", "local path '/tmp/run-3/x.log'", id="tmp"),
        pytest.param("cache at /var/cache/radar", "local path", id="var"),
        pytest.param("weights in /opt/models", "local path", id="opt"),
        pytest.param("served from /srv/llm/qwen", "local path", id="srv"),
        pytest.param("checkout /work/build/src", "local path", id="work"),
        pytest.param("CI wrote /github/workspace/out.json", "local path", id="ci-workspace"),
        pytest.param("see /data2/exp/result.csv", "local path", id="file-name"),
        pytest.param("日志见/tmp/x.log", "local path", id="after-cjk"),
        pytest.param(
            "code at https://gitlab.corp.example/team/secret-engine",
            "link to gitlab.corp.example, not a public code/paper host",
            id="private-host",
        ),
        pytest.param("<http://10.0.0.7:8000/v1>", "link to 10.0.0.7", id="ip-autolink"),
        pytest.param("[wiki](https://wiki.corp.example/x)", "link to wiki.corp.example", id="md"),
        pytest.param("see www.corp.example/x", "link to corp.example", id="www"),
        pytest.param("token ghp_abcdefghijklmnopqrstuvwxyz0123456789", "token-like", id="ghp"),
        pytest.param("github_pat_11ABCDEFG0123456789_abcdefghijkl", "token-like", id="pat"),
        pytest.param("key sk-proj-abcdefghijklmnopqrstuvwx", "token-like", id="sk"),
        pytest.param("AKIAABCDEFGHIJKLMNOP", "token-like", id="aws"),
        pytest.param("-----BEGIN OPENSSH PRIVATE KEY-----", "token-like", id="pem"),
    ],
)
def test_check_public_refuses(text: str, reason: str) -> None:
    problems = check_public(f"intro\n{text}\n", private_repos={"Acme/Secret"})
    assert any(reason in p and p.startswith("line 2:") for p in problems), problems


@pytest.mark.parametrize(
    "text",
    [
        "https://github.com/acme/public/tree/abc and acme/public#3",
        "https://github.com/home/alice and https://arxiv.org/~/y",
        "the sk-learn package, ~~struck~~, AKIA short, ghp_short",
        "owner/repo@abcdef1 and acme/public",
        "922 tok/s, 1.3 s/it, P50/P95 TTFT/TPOT, an A/B test, 3/5 runs, 2026/08/29, and/or",
        "`/tmp/x` and ``cd /work/build`` in code spans",
        "an OpenAI-compatible /v1/chat/completions endpoint",
        "https://github.com/a/b/blob/main/tmp/x.py and [doc](/acme/public/blob/main/x.md)",
        "https://www.arxiv.org/abs/2601.00001 https://export.arxiv.org/abs/1 "
        "https://doi.org/10.1/x https://huggingface.co/org/m https://gist.github.com/x",
        "https://openreview.net/forum?id=x https://aclanthology.org/2024.acl-long.1 "
        "https://proceedings.mlr.press/v1/x.pdf https://proceedings.neurips.cc/paper",
    ],
)
def test_check_public_lets_public_text_through(text: str) -> None:
    assert check_public(text, private_repos={"acme/secret"}) == []


def test_check_public_allows_hosts_from_the_settings() -> None:
    text = "post https://blog.example.org/2026/08/x and https://docs.example.org/y"
    assert len(check_public(text)) == 2
    assert check_public(text, allowed_hosts=["blog.example.org", "Docs.Example.org"]) == []
    assert allowed_hosts([" Blog.Example.org ", ""]) == {"blog.example.org"}
    assert allowed_hosts([]) == set()


def test_a_token_is_never_echoed() -> None:
    token = "ghp_" + "a1" * 18
    problems = check_public(f"x {token}")
    assert problems and token not in "".join(problems)


_WORDS = st.text(st.sampled_from("abc 中文，。-_.:/|`*[]()#\n"), max_size=80)


@given(
    before=_WORDS,
    after=_WORDS,
    body=st.text("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", min_size=36, max_size=40),
)
def test_check_public_finds_a_token_anywhere(before: str, after: str, body: str) -> None:
    assert any("token-like" in p for p in check_public(f"{before} ghp_{body} {after}"))


@given(text=st.text(st.sampled_from("abcxyz 中文，。-_.|`*#@\n0123"), max_size=200))
def test_check_public_has_no_false_alarm_on_plain_text(text: str) -> None:
    assert check_public(text) == []


# -- neutralise ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param(
            "thanks @alice and @org/team", "thanks @\u200balice and @\u200borg/team", id="mention"
        ),
        pytest.param("mail a@b.org", "mail a@b.org", id="email"),
        pytest.param("`@alice <b>`", "`@alice <b>`", id="code"),
        pytest.param(
            "https://medium.com/@author/post", "https://medium.com/@author/post", id="url"
        ),
        pytest.param("<script>x</script>", "&lt;script>x&lt;/script>", id="script"),
        pytest.param("<!-- hidden -->", "&lt;!-- hidden -->", id="comment"),
        pytest.param("| a<br>b | c |", "| a<br>b | c |", id="br-in-row"),
        pytest.param("a<br>b", "a&lt;br>b", id="br-outside-table"),
        pytest.param("| `x|<b>` |", "| `x|&lt;b>` |", id="pipe-ends-code"),
        pytest.param("<https://x.org/a>", "<https://x.org/a>", id="autolink"),
        pytest.param(
            "<!-- research-radar:report 2026-11-30 zh -->",
            "<!-- research-radar:report 2026-11-30 zh -->",
            id="marker",
        ),
        pytest.param("a < b and 3<5", "a < b and 3<5", id="less-than"),
    ],
)
def test_neutralise_examples(text: str, expected: str) -> None:
    assert neutralise(text) == expected


_MD = MarkdownIt("commonmark", {"html": True}).enable("table")
_ALLOWED_HTML = re.compile(r"<br\s*/?>|<!-- research-radar:[^<>\n]* -->", re.I)
_LIVE_MENTION = re.compile(r"(?<![A-Za-z0-9_])@[A-Za-z0-9]")
_MARKUP = st.lists(
    st.sampled_from(
        list("ab@<>/!?`|\\-:# \n") + ["<br>", "<b>", "</i>", "<!--", "-->", "https://", "@bob"]
    ),
    max_size=60,
).map("".join)


def _live_html(text: str) -> list[str]:
    found = []
    for token in _MD.parse(text):
        children = token.children or []
        for item in [token, *children]:
            if item.type in ("html_inline", "html_block"):
                rest = _ALLOWED_HTML.sub("", item.content)
                if re.search(r"<[A-Za-z/!?]", rest):
                    found.append(item.content)
    return found


def _live_mentions(text: str) -> list[str]:
    found = []
    for token in _MD.parse(text):
        depth = 0
        for child in token.children or []:
            depth += {"link_open": 1, "link_close": -1}.get(child.type, 0)
            if child.type == "text" and depth == 0:
                plain = re.sub(r"https?://\S*", "", child.content)
                found += _LIVE_MENTION.findall(plain)
    return found


@settings(max_examples=300)
@given(text=_MARKUP)
def test_neutralise_leaves_no_live_html_or_mention(text: str) -> None:
    safe = neutralise(text)
    assert _live_html(safe) == []
    assert _live_mentions(safe) == []
    assert neutralise(safe) == safe


@given(text=st.text(max_size=120))
def test_neutralise_is_idempotent_on_any_text(text: str) -> None:
    once = neutralise(text)
    assert neutralise(once) == once
    assert _live_html(once) == []


# -- the command ---------------------------------------------------------------------------


def _cli(args: list[str], **env: str) -> Any:
    from typer.testing import CliRunner

    from research_radar.cli import app

    environ = {"GITHUB_TOKEN": "", "GH_TOKEN": "", "RADAR_CONFIG": "", **env}
    return CliRunner().invoke(app, args, env=environ)


def test_cli_dry_run_prints_parts_and_posts_nothing(
    tmp_path: Any, db_path: Any, replay: ReplayServer
) -> None:
    report = tmp_path / "2026-11-30.md"
    report.write_text(REPORT, encoding="utf-8")
    result = _cli(
        ["publish", str(report), "--issue", TARGET, "--db", str(db_path), "--json"],
        GITHUB_API_URL=replay.url,
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["dry_run"] is True and data["report_date"] == "2026-11-30"
    assert data["parts"][0]["status"] == "would-post" and data["parts"][0]["size"] > 100
    assert replay.requests == []


def test_cli_publishes_with_yes_once(tmp_path: Any, db_path: Any, replay: ReplayServer) -> None:
    report = tmp_path / "r.md"
    report.write_text(REPORT, encoding="utf-8")
    args = ["publish", str(report), "--issue", TARGET, "--db", str(db_path), "--yes"]
    first = _cli(args, GITHUB_API_URL=replay.url, GITHUB_TOKEN=TOKEN)
    second = _cli(args, GITHUB_API_URL=replay.url, GITHUB_TOKEN=TOKEN)
    assert first.exit_code == 0 and second.exit_code == 0, first.output + second.output
    assert "posted" in first.output and "already-posted" in second.output
    assert TOKEN not in first.output + second.output
    assert len(replay.comments("example-org/inferhost", 177)) == 1


def test_cli_refuses_private_content_with_reasons(tmp_path: Any, db_path: Any) -> None:
    report = tmp_path / "r.md"
    report.write_text(REPORT + "\n日志见 /home/alice/run.log\n", encoding="utf-8")
    result = _cli(["publish", str(report), "--issue", TARGET, "--db", str(db_path)])
    assert result.exit_code == 1
    assert "/home/alice/run.log" in result.output and "refusing to publish" in result.output


def test_cli_refuses_a_link_to_a_private_host_with_the_reason(tmp_path: Any, db_path: Any) -> None:
    report = tmp_path / "r.md"
    report.write_text(
        REPORT + "\n代码见 https://gitlab.corp.example/team/secret-engine\n", encoding="utf-8"
    )
    result = _cli(["publish", str(report), "--issue", TARGET, "--db", str(db_path)])
    assert result.exit_code == 1
    assert "link to gitlab.corp.example" in result.output
    assert "[publish] allowed_hosts" in result.output


def test_cli_needs_a_token_to_post(tmp_path: Any, db_path: Any) -> None:
    report = tmp_path / "r.md"
    report.write_text(REPORT, encoding="utf-8")
    result = _cli(
        ["publish", str(report), "--issue", TARGET, "--db", str(db_path), "--yes"], PATH=""
    )
    assert result.exit_code == 1
    assert "GITHUB_TOKEN" in result.output


def test_cli_without_a_stored_report_says_what_to_run(db_path: Any) -> None:
    result = _cli(["publish", "--issue", TARGET, "--date", "2026-11-30", "--db", str(db_path)])
    assert result.exit_code == 1
    assert "radar daily --date 2026-11-30" in result.output


def test_cli_bad_target_and_date(db_path: Any) -> None:
    assert "OWNER/REPO#N" in _cli(["publish", "--issue", "nope", "--db", str(db_path)]).output
    bad = _cli(["publish", "--issue", TARGET, "--date", "someday", "--db", str(db_path)])
    assert bad.exit_code == 2 and "YYYY-MM-DD" in bad.output


def test_a_review_is_not_another_version_of_the_report() -> None:
    """A review posted for a day has its own marker; the day's report still posts."""
    from research_radar.replay.server import serve_replay

    day = date(2026, 8, 29)
    with serve_replay() as server, httpx.Client() as http:
        github = GitHubClient(http, server.url)
        review = publish_report(
            github,
            target="example-org/inferhost#126",
            markdown="## review\n\nok\n",
            report_date=day,
            dry_run=False,
            kind="review",
        )
        report = publish_report(
            github,
            target="example-org/inferhost#126",
            markdown="## 2026-08-29｜日报\n\nx\n",
            report_date=day,
            dry_run=False,
        )
        bodies = [c["body"] for c in server.comments("example-org/inferhost", 126)]
    assert "research-radar:review 2026-08-29" in review.parts[0].marker
    assert report.parts[0].status == "posted"
    assert sum("research-radar:" in body for body in bodies) == 2
