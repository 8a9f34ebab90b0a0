"""The site's pre-screen reads runs of findings joined by line breaks: whatever it
flags in one text it flags in any run holding that text, so a run it passes needs no
closer look, and a leak among many safe findings is still withheld."""

from __future__ import annotations

from datetime import date, timedelta
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from research_radar.models import Finding, Project
from research_radar.publish.gate import check_public
from research_radar.site.data import load_site_data, may_be_unsafe
from research_radar.store.store import open_store

PIECES = [
    "https://",
    "http://",
    "github.com",
    "arxiv.org",
    "evil.org",
    "www.",
    "/",
    "/home/",
    "~/",
    "a",
    "\\",
    ":",
    "C:\\",
    "sk-",
    "ghp_",
    "gho_",
    "xoxb-",
    "xox",
    "Sec/X",
    ".md",
    " ",
    "\n",
    "图",
    "Σ",
    "\\u0041",
    '\\"',
]


@settings(max_examples=400)
@given(
    texts=st.lists(
        st.lists(st.sampled_from(PIECES), max_size=8).map("".join), min_size=1, max_size=5
    )
)
def test_a_flagged_text_flags_every_run_holding_it(texts: list[str]) -> None:
    run = "\n".join(texts)
    for text in texts:
        if may_be_unsafe(text, {"sec/x"}):
            assert may_be_unsafe(run, {"sec/x"}), (text, run)


def test_a_leak_among_many_safe_findings_is_withheld(tmp_path: Path) -> None:
    store = open_store(str(tmp_path / "radar.db"))
    day = date(2026, 9, 1)
    leaks = {7: "see /home/alice/notes.txt", 150: "token ghp_" + "a" * 36}
    with store.transaction() as conn:
        for number in range(200):
            key = f"gh:open-org/engine-{number}"
            finding = Finding(
                project_key=key,
                name=f"open-org/engine-{number}",
                date=day + timedelta(days=number % 5),
                url=f"https://github.com/open-org/engine-{number}",
                mechanism=leaks.get(number, f"engine {number}: KV 缓存卸载"),
            )
            store.save_finding(conn, finding)
            store.save_project(conn, Project(key=key, name=finding.name))
    data = load_site_data(store)
    assert data.withheld_findings == 2
    shown = {finding.name for finding in data.findings}
    assert len(shown) == 198
    assert not shown & {"open-org/engine-7", "open-org/engine-150"}


def test_every_token_prefix_the_gate_knows_is_flagged() -> None:
    tokens = [f"gh{c}_" + "A1b2" * 9 for c in "pousr"]
    tokens += [f"xox{c}-" + "1234567890-abcdefghij" for c in "abpors"]
    for token in tokens:
        text = f"config: {token.upper() if token.startswith('gh') else token} here"
        if check_public(text):
            assert may_be_unsafe(text), text
        assert may_be_unsafe(f"token {token}"), token
