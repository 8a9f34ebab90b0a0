"""The replay server answers in the GitHub / arXiv shapes and injects faults."""

from __future__ import annotations

import base64
import email.utils
import json
import os
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from research_radar.replay import server as replay
from research_radar.replay.process import serve_replay_process
from research_radar.replay.server import Fault, ReplayServer, serve_replay


@pytest.fixture(scope="module")
def server() -> Iterator[ReplayServer]:
    with serve_replay() as running:
        yield running


@pytest.fixture
def client(server: ReplayServer) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.url, timeout=5) as http:
        yield http


def test_exported_members() -> None:
    assert sorted(replay.__all__) == [
        "FAULT_KINDS",
        "Fault",
        "RecordedRequest",
        "ReplayServer",
        "sample_root",
        "serve_replay",
    ]


def test_repo_json_has_real_facts(client: httpx.Client) -> None:
    repo = client.get("/repos/neroued/NINFER").json()
    assert repo["full_name"] == "Neroued/ninfer"
    assert repo["default_branch"] == "master"
    assert repo["created_at"] == "2026-06-25T13:37:10Z"
    assert repo["pushed_at"] == "2026-07-24T08:12:02Z"


def test_readme_base64_and_raw(client: httpx.Client) -> None:
    data = client.get("/repos/Neroued/ninfer/readme").json()
    text = base64.b64decode(data["content"]).decode()
    assert "RTX 5090" in text
    raw = client.get(
        "/repos/Neroued/ninfer/readme", headers={"Accept": "application/vnd.github.raw"}
    )
    assert raw.text == text


def test_etag_gives_304(client: httpx.Client) -> None:
    first = client.get("/repos/AMD-AGI/Infera")
    again = client.get("/repos/AMD-AGI/Infera", headers={"If-None-Match": first.headers["ETag"]})
    assert (first.status_code, again.status_code, again.content) == (200, 304, b"")


def test_link_pagination(client: httpx.Client) -> None:
    page = client.get("/repos/AMD-AGI/Infera/commits", params={"per_page": 10})
    assert len(page.json()) == 10
    assert page.links["next"]["url"].endswith("page=2")
    last = client.get(page.links["last"]["url"])
    assert len(last.json()) == 10 and "next" not in last.links


def test_copies_share_list_answers_but_not_links_and_edits_are_seen(tmp_path: Path) -> None:
    from research_radar.replay.copies import copy_sample_repos

    copies = copy_sample_repos(tmp_path / "replay", 40)
    stem = copies[0].rsplit("-", 1)[0].split("/")[1]
    first, second = [name for name in copies if name.split("/")[1].startswith(f"{stem}-")][:2]
    with serve_replay(tmp_path / "replay") as running, httpx.Client(base_url=running.url) as http:
        pages = [
            http.get(f"/repos/{name}/commits", params={"per_page": 3}) for name in (first, second)
        ]
        recorded = json.loads((running.data.repo_dir(first) / "commits.json").read_text("utf-8"))
        assert pages[0].content == pages[1].content
        assert pages[0].content == json.dumps(recorded[:3], ensure_ascii=False).encode()
        assert [
            f"/repos/{name}/commits" in page.links["next"]["url"]
            for name, page in zip((first, second), pages, strict=True)
        ] == [True, True]
        (running.data.repo_dir(second) / "commits.json").write_text(
            json.dumps(recorded[1:]), encoding="utf-8"
        )
        edited = http.get(f"/repos/{second}/commits", params={"per_page": 3}).json()
        assert edited == recorded[1:4]


def test_commits_since_filter(client: httpx.Client) -> None:
    commits = client.get(
        "/repos/Neroued/ninfer/commits", params={"since": "2026-07-24T08:00:00Z"}
    ).json()
    assert commits and all(c["commit"]["committer"]["date"] >= "2026-07-24T16" for c in commits)


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        pytest.param("ninfer", {"Neroued/ninfer"}, id="forks-left-out"),
        pytest.param(
            "ninfer fork:true",
            {"Neroued/ninfer", "kvtinker/ninfer", "zhongpei/ninfer-4090"},
            id="forks",
        ),
        pytest.param(
            "diffusion created:<2024-01-01", {"leejet/stable-diffusion.cpp"}, id="created-before"
        ),
        pytest.param(
            "inference pushed:2026-08-19..2026-08-19",
            {"leejet/stable-diffusion.cpp"},
            id="pushed-day",
        ),
        pytest.param(
            "speech OR vla -repo:NVIDIA/NeMo-Speech.cpp -user:example-org",
            {"SEU-PAISys/Embodied.cpp"},
            id="or-and-not",
        ),
    ],
)
def test_search(client: httpx.Client, query: str, expected: set[str]) -> None:
    found = client.get("/search/repositories", params={"q": query}).json()
    assert {item["full_name"] for item in found["items"]} == expected
    assert found["total_count"] == len(expected)


def test_renamed_repository_redirects(client: httpx.Client) -> None:
    moved = client.get("/repos/Red-Weasel/mach-x")
    assert moved.status_code == 301
    followed = client.get("/repos/Red-Weasel/mach-x", follow_redirects=True)
    assert followed.json()["full_name"] == "Red-Weasel/machx-inference-engine"


def test_pulls_state_filter(client: httpx.Client) -> None:
    pulls = client.get("/repos/example-org/inferhost/pulls", params={"state": "all"}).json()
    assert [p["number"] for p in pulls] == [115, 112, 108, 104]
    assert [p["number"] for p in client.get("/repos/example-org/inferhost/pulls").json()] == [
        112,
        104,
    ]


def test_comments_store(server: ReplayServer, client: httpx.Client) -> None:
    url = "/repos/example-org/inferhost/issues/126/comments"
    made = client.post(url, json={"body": "report"})
    assert made.status_code == 201
    comment = made.json()
    assert comment["html_url"].endswith(f"/issues/126#issuecomment-{comment['id']}")
    edited = client.patch(
        f"/repos/example-org/inferhost/issues/comments/{comment['id']}", json={"body": "v2"}
    )
    assert edited.json()["body"] == "v2"
    assert [c["body"] for c in client.get(url).json()] == ["v2"]
    assert server.comments("example-org/inferhost", 126)[0]["id"] == comment["id"]
    assert client.post(url, json={}).status_code == 422


def test_arxiv_window_and_id_list(server: ReplayServer, client: httpx.Client) -> None:
    query = "all:inference AND submittedDate:[202607010000 TO 202609010000]"
    feed = client.get(server.arxiv_url, params={"search_query": query}).text
    assert "2607.02501" in feed and "2409.10516" not in feed
    by_id = client.get(server.arxiv_url, params={"id_list": "2409.10516v1"}).text
    assert "<opensearch:totalResults>1<" in by_id


def test_feed_served(server: ReplayServer, client: httpx.Client) -> None:
    assert server.feed_names() == ["inference-notes.xml"]
    assert "Inference Engineering Notes" in client.get(server.feed_url("inference-notes.xml")).text


def test_request_log_drops_authorization(server: ReplayServer, client: httpx.Client) -> None:
    client.get("/rate_limit", headers={"Authorization": "Bearer secret-token"})
    last = server.requests[-1]
    assert last.path == "/rate_limit" and "secret-token" not in json.dumps(last.headers)


def test_request_headers_are_read_in_any_case_and_logged_as_sent(
    server: ReplayServer, client: httpx.Client
) -> None:
    etag = client.get("/repos/AMD-AGI/Infera").headers["ETag"]
    again = client.get(
        "/repos/Neroued/ninfer/readme",
        headers=[
            ("if-none-match", "other"),
            ("ACCEPT", "application/vnd.github.raw"),
            ("X-a", "1"),
        ],
    )
    assert again.status_code == 200 and again.headers["Content-Type"].startswith("text/plain")
    logged = server.requests[-1].headers
    assert logged["ACCEPT"] == "application/vnd.github.raw" and logged["X-a"] == "1"
    same = client.get("/repos/AMD-AGI/Infera", headers=[("IF-NONE-MATCH", etag)])
    assert same.status_code == 304
    sent = email.utils.parsedate_to_datetime(same.headers["Date"])
    assert sent.tzinfo is not None and abs(sent.timestamp() - time.time()) < 60


@pytest.mark.parametrize(
    ("kind", "status", "header"),
    [
        pytest.param("5xx", 502, None, id="5xx"),
        pytest.param("rate-limit", 403, "X-RateLimit-Reset", id="rate-limit"),
        pytest.param("429", 429, "Retry-After", id="429"),
        pytest.param("401", 401, None, id="401"),
    ],
)
def test_status_faults_count_down(kind: str, status: int, header: str | None) -> None:
    with serve_replay(faults=[Fault("/repos/*", kind, times=1)]) as server, httpx.Client() as http:
        first = http.get(f"{server.url}/repos/AMD-AGI/Infera")
        assert first.status_code == status
        assert header is None or header in first.headers
        assert http.get(f"{server.url}/repos/AMD-AGI/Infera").status_code == 200


def test_body_faults() -> None:
    faults = [Fault("/repos/*/Infera", "malformed"), Fault("/repos/*/ninfer", "truncated")]
    with serve_replay(faults=faults) as server, httpx.Client() as http:
        with pytest.raises(json.JSONDecodeError):
            http.get(f"{server.url}/repos/AMD-AGI/Infera").json()
        with pytest.raises(httpx.RemoteProtocolError):
            http.get(f"{server.url}/repos/Neroued/ninfer")


def test_timeout_fault() -> None:
    fault = Fault("/rate_limit", "timeout", times=1, delay=0.5)
    with (
        serve_replay(faults=[fault]) as server,
        httpx.Client(timeout=0.1) as http,
        pytest.raises(httpx.TimeoutException),
    ):
        http.get(f"{server.url}/rate_limit")


def test_unknown_fault_kind() -> None:
    with pytest.raises(ValueError, match="unknown fault kind"):
        Fault("/x", "explode")


def test_server_in_a_child_process_answers_as_the_thread_does(server: ReplayServer) -> None:
    paths = ["/repos/AMD-AGI/Infera", "/repos/Neroued/ninfer/readme", "/rate_limit"]
    with serve_replay_process() as child, httpx.Client(timeout=5) as http:
        assert child.pid != os.getpid()
        for path in paths:
            mine, theirs = http.get(server.url + path), http.get(child.url + path)
            assert (theirs.status_code, theirs.content) == (mine.status_code, mine.content)
        feed = http.get(child.arxiv_url, params={"id_list": "2409.10516v1"}).text
        assert "<opensearch:totalResults>1<" in feed
        url = child.url
    with httpx.Client(timeout=1) as http, pytest.raises(httpx.ConnectError):
        http.get(url + "/rate_limit")  # closed with the block


def test_server_process_that_cannot_start_says_so(tmp_path: Path) -> None:
    (tmp_path / "github" / "repos" / "o").mkdir(parents=True)
    (tmp_path / "github" / "repos" / "o" / "broken.json").write_text("{", encoding="utf-8")
    with pytest.raises(RuntimeError, match="did not start"):
        serve_replay_process(tmp_path)
