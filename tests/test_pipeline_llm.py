"""`radar daily --sample` with the optional LLM writer on, through the CLI, against a
loopback OpenAI-compatible stub (stdlib ThreadingHTTPServer on 127.0.0.1, port 0).

The stub reads the evidence pack from each request and answers with a fixed Chinese
sentence built only from the pack's own facts (the finding's name and mechanism tags), so
every answer is grounded; for one finding it invents a number, and that finding keeps its
template sentence. The `[llm]` section comes from a `--config` radar.toml, as a user's would.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from research_radar.cli import app
from research_radar.sample.demo import SAMPLE_DATE
from research_radar.store.store import open_store

runner = CliRunner()

INVENTED = "AMD-AGI/Infera"
"""The finding the stub answers with a number that is not in its pack."""


def _answer(pack: dict[str, Any]) -> str:
    name = str(pack["name"])
    if name == INVENTED:
        return f"{name} 把吞吐提高到 7777 tok/s。"
    tags = pack.get("tags")
    mechanisms = tags.get("mechanism", []) if isinstance(tags, dict) else []
    if not mechanisms:
        return f"{name} 未标注新增机制，仅记录其工程实现。"
    return f"{name} 的新增机制为 {'、'.join(mechanisms)}，由模型据证据包改写。"


class Stub:
    def __init__(self) -> None:
        self.packs: list[dict[str, Any]] = []


def _handler(stub: Stub) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - the stdlib's name
            length = int(self.headers.get("Content-Length", "0"))
            request = json.loads(self.rfile.read(length))
            prompt = request["messages"][-1]["content"]
            pack = json.loads(prompt[prompt.index("\n") + 1 :])  # the pack follows the task
            stub.packs.append(pack)
            body = json.dumps(
                {
                    "choices": [{"message": {"role": "assistant", "content": _answer(pack)}}],
                    "usage": {"total_tokens": 10},
                }
            ).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
            return

    return Handler


@pytest.fixture(scope="module")
def stub_url() -> Iterator[tuple[str, Stub]]:
    stub = Stub()
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _handler(stub))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/v1", stub
    finally:
        httpd.shutdown()
        httpd.server_close()


def _daily(folder: Path, config: Path, out: Path) -> dict[str, Any]:
    result = runner.invoke(
        app,
        ["daily", "--sample", "--db", str(folder / "radar.db"), "--json"]
        + ["--config", str(config), "--out", str(out)],
    )
    assert result.exit_code == 0, result.output
    summary: dict[str, Any] = json.loads(result.output)
    return summary


@pytest.fixture(scope="module")
def llm_run(
    tmp_path_factory: pytest.TempPathFactory, stub_url: tuple[str, Stub]
) -> tuple[Path, Path, dict[str, Any], str, Stub]:
    url, stub = stub_url
    folder = tmp_path_factory.mktemp("daily-llm")
    config = folder / "radar.toml"
    config.write_text(
        f'[llm]\nbase_url = "{url}"\nmodel = "stub-model"\nmax_requests = 50\ntimeout = 10\n',
        encoding="utf-8",
    )
    out = folder / "report.md"
    summary = _daily(folder, config, out)
    return folder, config, summary, out.read_text(encoding="utf-8"), stub


def test_sample_report_with_the_llm_stub_matches_golden(
    llm_run: tuple[Path, Path, dict[str, Any], str, Stub], golden
) -> None:  # type: ignore[no-untyped-def]
    _, _, summary, text, stub = llm_run
    assert summary["review_blocking"] == 0
    assert len(stub.packs) == len(summary["findings"])
    golden("daily-sample-llm.md", text)


def test_grounded_answers_replace_the_template_and_the_invented_number_does_not(
    llm_run: tuple[Path, Path, dict[str, Any], str, Stub],
) -> None:
    folder, _, summary, text, stub = llm_run
    assert "7777" not in text
    for pack in stub.packs:
        if pack["name"] != INVENTED:
            assert _answer(pack).rstrip("。") in text, pack["name"]
    findings = {
        f.name: f for f in open_store(str(folder / "radar.db")).load_findings(on=SAMPLE_DATE)
    }
    invented = findings[INVENTED].insight
    assert invented is not None and invented.text == ""  # the template sentence stands
    assert "面向 LLM 与 Agentic 的单机/分布式 serving 工作" in text
    run = open_store(str(folder / "radar.db")).load_runs()[0]
    assess = next(stage for stage in run["stages"] if stage["stage"] == "assess")
    counts = assess["counts"]
    requests = len(summary["findings"])
    assert counts["llm_requests"] == requests and counts["llm_cached"] == 0
    assert counts["llm_kept"] == requests - 1 and counts["llm_dropped"] == 1
    assert counts["llm_failures"] == 0 and counts["llm_tokens"] == 10 * requests
    assert (folder / ".radar-cache" / "llm-answers.json").is_file()


def test_a_rerun_answers_from_the_cache_and_writes_the_same_report(
    llm_run: tuple[Path, Path, dict[str, Any], str, Stub],
) -> None:
    folder, config, summary, text, stub = llm_run
    asked = len(stub.packs)
    again = folder / "again.md"
    _daily(folder, config, again)
    assert len(stub.packs) == asked, "a re-run makes no request"
    assert again.read_text(encoding="utf-8") == text
    run = open_store(str(folder / "radar.db")).load_runs()[0]
    counts = next(stage for stage in run["stages"] if stage["stage"] == "assess")["counts"]
    assert counts["llm_requests"] == 0 and counts["llm_cached"] == len(summary["findings"])
