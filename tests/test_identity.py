"""Identity: canonical keys, same-as statements, part-of links, forks, resolve, aliases file."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import research_radar.resolve.keys as identity
from research_radar.errors import ConfigError
from research_radar.models import Project, Source, SourceKind
from research_radar.resolve.keys import (
    Key,
    NameIndex,
    arxiv_version,
    canonical_key,
    find_same_as,
    github_key,
    github_pr_ref,
    github_repo,
    key_name,
    load_aliases_file,
    normalise_name,
    same_name,
)
from research_radar.resolve.projects import classify_fork, find_part_of, resolve


def test_public_api_is_listed() -> None:
    assert len(set(identity.__all__)) == len(identity.__all__)
    for name in identity.__all__:
        assert hasattr(identity, name)


@pytest.mark.parametrize(
    ("ref", "key"),
    [
        pytest.param("https://github.com/Neroued/ninfer", "gh:neroued/ninfer", id="plain"),
        pytest.param("https://GitHub.com/Neroued/NInfer/", "gh:neroued/ninfer", id="case-slash"),
        pytest.param("http://www.github.com/a/b.git", "gh:a/b", id="www-git"),
        pytest.param("git@github.com:A/B.git", "gh:a/b", id="ssh"),
        pytest.param("https://github.com/a/b/tree/1882c6ad/docs?x=1#top", "gh:a/b", id="tree"),
        pytest.param("https://github.com/a/b/blob/main/README.md", "gh:a/b", id="blob"),
        pytest.param("https://github.com/a/b/commit/d602894a", "gh:a/b", id="commit"),
        pytest.param("https://github.com/a/b/issues/394", "gh:a/b", id="issue"),
        pytest.param("https://github.com/a/b/pull/56/files", "gh:a/b", id="pull"),
        pytest.param("https://github.com/a/b/releases/tag/v1.0", "gh:a/b", id="release"),
        pytest.param(
            "Red-Weasel/machx-inference-engine@d91c08e1",
            "gh:red-weasel/machx-inference-engine",
            id="at-sha",
        ),
        pytest.param("L-Forster/open-jet#24", "gh:l-forster/open-jet", id="hash-ref"),
        pytest.param("kindlingai/gr8", "gh:kindlingai/gr8", id="bare"),
        pytest.param("gh:A/B", "gh:a/b", id="key"),
        pytest.param("arXiv:2409.10516v2", "arxiv:2409.10516", id="arxiv-prefix"),
        pytest.param("https://arxiv.org/abs/2409.10516v3", "arxiv:2409.10516", id="abs"),
        pytest.param("https://arxiv.org/pdf/2409.10516v1.pdf", "arxiv:2409.10516", id="pdf"),
        pytest.param("https://arxiv.org/html/2605.26118v1", "arxiv:2605.26118", id="html"),
        pytest.param("2409.10516", "arxiv:2409.10516", id="bare-new"),
        pytest.param("cs/0112017", "arxiv:cs/0112017", id="old-style"),
        pytest.param("math.GT/0309136v2", "arxiv:math/0309136", id="old-subject"),
        pytest.param(
            "https://arxiv.org/abs/hep-th/9901001v1", "arxiv:hep-th/9901001", id="old-url"
        ),
        pytest.param(
            "https://doi.org/10.48550/arXiv.2409.10516", "arxiv:2409.10516", id="arxiv-doi"
        ),
        pytest.param("10.1145/3600006.3613165", "doi:10.1145/3600006.3613165", id="doi"),
        pytest.param("https://dx.doi.org/10.1145/ABC.1", "doi:10.1145/abc.1", id="doi-url"),
        pytest.param("doi:10.1000/XYZ", "doi:10.1000/xyz", id="doi-prefix"),
        pytest.param(
            "HTTPS://WWW.Example.com/Blog/Post/?utm_source=x&b=2&a=1#top",
            "url:example.com/Blog/Post?a=1&b=2",
            id="url-tracking",
        ),
        pytest.param("http://example.com:80/x/", "url:example.com/x", id="url-port"),
        pytest.param("https://example.com:8443/x", "url:example.com:8443/x", id="url-odd-port"),
        pytest.param("https://github.com/orgs/foo", "url:github.com/orgs/foo", id="gh-reserved"),
    ],
)
def test_canonical_key(ref: str, key: str) -> None:
    assert canonical_key(ref) == key
    assert canonical_key(key) == key


@pytest.mark.parametrize(
    "ref", ["", "   ", "Maya", "vla.cpp", "stable-diffusion.cpp", "hello world"]
)
def test_canonical_key_of_non_references_is_none(ref: str) -> None:
    assert canonical_key(ref) is None


@given(st.text(max_size=80))
def test_canonical_key_never_crashes_and_is_idempotent(text: str) -> None:
    key = canonical_key(text)
    if key is not None:
        assert ":" in key
        assert canonical_key(key) == key


@given(
    st.from_regex(
        r"https?://(www\.)?[a-z]{1,8}\.(com|org)(/[a-zA-Z0-9_-]{1,6}){0,3}/?(\?[a-z]{1,4}=[a-z0-9]{0,4})?",
        fullmatch=True,
    )
)
def test_url_keys_are_stable(url: str) -> None:
    key = canonical_key(url)
    assert key is not None and canonical_key(key) == key


def test_arxiv_version_and_pr_ref() -> None:
    assert arxiv_version("arXiv:2409.10516v2") == 2
    assert arxiv_version("https://arxiv.org/pdf/2409.10516v12.pdf") == 12
    assert arxiv_version("2409.10516") is None
    assert arxiv_version("https://github.com/a/b") is None
    assert github_pr_ref("https://github.com/IntelLabs/Xe-Forge/pull/56") == (
        "IntelLabs/Xe-Forge",
        56,
    )
    assert github_pr_ref("leejet/stable-diffusion.cpp#2240") == (
        "leejet/stable-diffusion.cpp",
        2240,
    )
    assert github_pr_ref("https://github.com/a/b/issues/3") is None


@pytest.mark.parametrize(
    ("text", "names"),
    [
        pytest.param("NewName (formerly OldName) does X.", ["OldName"], id="paren-formerly"),
        pytest.param(
            "This repo was renamed from acme/old-engine last week.",
            ["acme/old-engine"],
            id="renamed",
        ),
        pytest.param(
            "Previously known as Fast Engine, now Turbo.", ["Fast Engine"], id="previously-known"
        ),
        pytest.param("Formerly `zed-infer`.", ["zed-infer"], id="formerly-code"),
        pytest.param(
            "We previously reported this. He was formerly at Google.", [], id="no-false-positive"
        ),
        pytest.param("本项目原名 maya-engine，现已更名。", ["maya-engine"], id="yuanming"),
        pytest.param("NInfer（原 ninfer-lite）是模型专属引擎", ["ninfer-lite"], id="paren-yuan"),
        pytest.param("旧名：Strata-Lite", ["Strata-Lite"], id="jiuming"),
        pytest.param("原文/源码均可读（原论文为准）", [], id="not-a-rename"),
        # a letter that re.I matches to an ASCII one (long s): the words are not skipped
        pytest.param("Previou\u017fly known as Fast Engine.", ["Fast Engine"], id="long-s"),
        pytest.param("TRANSFERRED FROM acme/old", ["acme/old"], id="upper-case"),
    ],
)
def test_find_same_as(text: str, names: list[str]) -> None:
    assert find_same_as(text) == names


@pytest.mark.parametrize(
    ("text", "keys"),
    [
        pytest.param(
            "Code: https://github.com/acme/engine, paper arXiv:2401.12345",
            ["gh:acme/engine", "arxiv:2401.12345"],
            id="url-and-arxiv",
        ),
        pytest.param("pinned acme/engine@abcdef1 here", ["gh:acme/engine"], id="at-sha"),
        pytest.param("CANONICAL repo: acme/engine", ["gh:acme/engine"], id="canonical"),
        pytest.param("论文 2401.12345", ["arxiv:2401.12345"], id="lunwen"),
        pytest.param("Paper 2401.12345", ["arxiv:2401.12345"], id="paper"),
        pytest.param("no reference at all, only words", [], id="none"),
    ],
)
def test_find_keys(text: str, keys: list[str]) -> None:
    assert identity.find_keys(text) == keys


def test_find_part_of_readme_paper_and_blog() -> None:
    readme = Source(
        key="gh:l-forster/open-jet", kind=SourceKind.REPO, url="https://github.com/L-Forster/open-jet",
        text="Official implementation of our paper https://arxiv.org/abs/2607.02501v3\n"
        "Related: https://arxiv.org/abs/2401.00001 https://arxiv.org/abs/2402.00002\n"
        "Blog post: https://www.openjet.dev/engineering/openjet-engine\n"
        "Docs: https://example.com/docs",
    )  # fmt: skip
    keys = [key for key, _ in find_part_of(readme)]
    assert keys == ["arxiv:2607.02501", "url:openjet.dev/engineering/openjet-engine"]
    paper = Source(
        key="arxiv:2608.27384", kind=SourceKind.PAPER, url="https://arxiv.org/abs/2608.27384",
        summary="We propose X. Code: https://github.com/z-lab/flashvla", meta={"comment": "8 pages"},
    )  # fmt: skip
    assert [key for key, _ in find_part_of(paper)] == ["gh:z-lab/flashvla"]
    blog = Source(key="url:openjet.dev/eng", kind=SourceKind.BLOG, url="https://openjet.dev/eng",
                  text="Source at https://github.com/L-Forster/open-jet")  # fmt: skip
    assert [key for key, _ in find_part_of(blog)] == ["gh:l-forster/open-jet"]


def test_names_alike_stay_apart() -> None:
    assert normalise_name("Maya 1.1.39") == "maya"
    assert normalise_name("Project Maya") == "maya"
    assert normalise_name("stable-diffusion.cpp #2240") == "stable-diffusion.cpp"
    assert normalise_name("Mach X（Intel Arc）") == "mach x"
    assert same_name("Atrex", "Atrex Kernel Agent #125")
    assert same_name("Xe-Forge", "XeForge")
    assert not same_name("SpecSpeech", "SpeechSpec")
    assert not same_name("InferenceBench", "RSI-Inference Bench")
    assert not same_name("KernelAgent", "Atrex Kernel Agent")
    assert not same_name("vla.cpp", "Embodied.cpp")
    assert not same_name("ds4", "ds3")
    index = NameIndex()
    index.add("Strata", "name:strata")
    index.add_repo("gh:leejet/stable-diffusion.cpp")
    assert index.lookup("Strata 0.2.8") == "name:strata"
    assert index.lookup("stable-diffusion.cpp #2240") == "gh:leejet/stable-diffusion.cpp"
    assert index.lookup("Stratum") is None


def _ninfer() -> Source:
    return Source(
        key="gh:neroued/ninfer", kind=SourceKind.REPO, url="https://github.com/Neroued/ninfer",
        text="# NInfer\nA model-specific inference engine for Qwen and GLM hybrid models.",
        meta={"id": 1001, "root_commits": [{"sha": "410b9f6c2890d2d935c7abb503e13a6fd233fff3"}]},
    )  # fmt: skip


def _ninfer_4090() -> Source:
    return Source(
        key="gh:zhongpei/ninfer-4090", kind=SourceKind.REPO, url="https://github.com/zhongpei/ninfer-4090",
        text="# ninfer-4090\n基于 Neroued/ninfer，移植到 RTX 4090 (sm89)，新增 FP8 KV 与自有调度。\n"
        "Based on Neroued/ninfer; ported to the RTX 4090 with its own kernels.",
        meta={"fork": True, "parent": {"full_name": "Neroued/ninfer"}, "id": 2002,
              "root_commits": ["410b9f6c2890d2d935c7abb503e13a6fd233fff3"], "commits_ahead": 57, "releases": 2},
    )  # fmt: skip


def test_derivative_fork_of_ninfer() -> None:
    derived = _ninfer_4090()
    decision = classify_fork(
        derived, _ninfer(), commits_ahead=57, own_releases=2, readme=derived.text
    )
    assert decision.derivative
    assert decision.fork_of == "gh:neroued/ninfer"
    joined = " | ".join(decision.evidence)
    for fact in (
        "fork flag",
        "shares root commit",
        "57 commits ahead",
        "2 release",
        "based on Neroued/ninfer",
    ):
        assert fact in joined


def test_ordinary_fork_of_ninfer() -> None:
    plain = Source(
        key="gh:someone/ninfer", kind=SourceKind.REPO, url="https://github.com/someone/ninfer",
        text=_ninfer().text, meta={"fork": True, "parent": "Neroued/ninfer",
                                   "root_commits": ["410b9f6c2890d2d935c7abb503e13a6fd233fff3"]},
    )  # fmt: skip
    decision = classify_fork(plain, _ninfer(), commits_ahead=0, own_releases=0, readme=plain.text)
    assert not decision.derivative
    assert decision.fork_of == "gh:neroued/ninfer"
    assert any("ordinary fork" in item for item in decision.evidence)


def test_based_on_without_fork_is_its_own_project() -> None:
    repo = Source(key="gh:x/turbo", kind=SourceKind.REPO, url="https://github.com/x/turbo",
                  text="Built on Neroued/ninfer, adds a new scheduler.")  # fmt: skip
    decision = classify_fork(repo, None, commits_ahead=None, own_releases=0, readme=repo.text)
    assert decision.derivative and decision.fork_of == "gh:neroued/ninfer"


def test_resolve_joins_renames_ids_statements_and_papers_but_not_forks() -> None:
    renamed = Source(key="gh:acme/turbo-infer", kind=SourceKind.REPO, url="https://github.com/acme/turbo-infer",
                     text="turbo-infer (formerly acme/fast-infer). Paper: https://arxiv.org/abs/2409.10516",
                     meta={"id": 7, "renamed_from": "acme/fast-infer"})  # fmt: skip
    old = Source(key="gh:acme/old-name", kind=SourceKind.REPO, url="https://github.com/acme/old-name",
                 meta={"id": 7, "renamed_to": "acme/turbo-infer"})  # fmt: skip
    paper = Source(
        key="arxiv:2409.10516", kind=SourceKind.PAPER, url="https://arxiv.org/abs/2409.10516"
    )
    projects = resolve([renamed, old, paper, _ninfer(), _ninfer_4090()], {}, {})
    by_key = {p.key: p for p in projects}
    assert set(by_key) == {"gh:acme/turbo-infer", "gh:neroued/ninfer", "gh:zhongpei/ninfer-4090"}
    turbo = by_key["gh:acme/turbo-infer"]
    assert {"gh:acme/old-name", "arxiv:2409.10516"} <= set(turbo.sources)
    assert "acme/fast-infer" in turbo.aliases
    fork = by_key["gh:zhongpei/ninfer-4090"]
    assert fork.fork_of == "gh:neroued/ninfer" and fork.derivative and fork.derivative_evidence


def test_resolve_keeps_known_project_and_uses_aliases() -> None:
    known = {"name:maya": Project(key="name:maya", name="Maya", aliases=["Project Maya"])}
    repo = Source(key="gh:example/maya-engine", kind=SourceKind.REPO, url="https://github.com/example/maya-engine",
                  title="maya-engine")  # fmt: skip
    projects = resolve([repo], {"gh:example/maya-engine": "name:maya"}, known)
    assert [p.key for p in projects] == ["name:maya"]
    assert "gh:example/maya-engine" in projects[0].sources


def test_load_aliases_file(tmp_path: Path) -> None:
    path = tmp_path / "aliases.toml"
    path.write_text(
        '[aliases]\n"Project Maya" = "name:maya"\n"sd.cpp" = "https://github.com/leejet/stable-diffusion.cpp"\n'
        '[projects."gh:neroued/ninfer"]\naliases = ["NInfer", "ninfer engine"]\n',
        encoding="utf-8",
    )
    assert load_aliases_file(path) == {
        "Project Maya": "name:maya",
        "sd.cpp": "gh:leejet/stable-diffusion.cpp",
        "NInfer": "gh:neroued/ninfer",
        "ninfer engine": "gh:neroued/ninfer",
    }


def test_bundled_aliases_file_loads() -> None:
    bundled = Path(str(resources.files("research_radar") / "data" / "aliases.toml"))
    assert load_aliases_file(bundled) == {}


@pytest.mark.parametrize(
    ("content", "line"),
    [
        pytest.param('[aliases]\n"a" = "gh:x/y"\n"b" = \n', 3, id="syntax"),
        pytest.param('[aliases]\n"a" = "gh:x/y"\n"b" = 3\n', 3, id="not-string"),
        pytest.param('[aliases]\n"ok" = "gh:x/y"\n"bad" = "  "\n', 3, id="empty-key"),
        pytest.param("[stuff]\nx = 1\n", 1, id="unknown-table"),
    ],
)
def test_aliases_file_errors_name_file_and_line(tmp_path: Path, content: str, line: int) -> None:
    path = tmp_path / "aliases.toml"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load_aliases_file(path)
    assert caught.value.path == str(path)
    assert caught.value.line == line


@pytest.mark.parametrize(
    ("text", "scheme", "name", "repo"),
    [
        pytest.param("gh:neroued/ninfer", "gh", "neroued/ninfer", "neroued/ninfer", id="repo"),
        pytest.param("gh:org/x#12", "gh", "org/x#12", "org/x", id="pull"),
        pytest.param("arxiv:2409.10516", "arxiv", "2409.10516", None, id="arxiv"),
        pytest.param("url:example.org/a:b", "url", "example.org/a:b", None, id="url-with-colon"),
    ],
)
def test_key_parse_and_format(text: str, scheme: str, name: str, repo: str | None) -> None:
    key = Key.parse(text)
    assert (key.scheme, key.name, key.repo) == (scheme, name, repo)
    assert str(key) == text and github_repo(text) == repo and key_name(text) == name


@pytest.mark.parametrize("text", ["neroued/ninfer", ":x", "gh:", ""])
def test_key_without_scheme_is_refused(text: str) -> None:
    with pytest.raises(ValueError, match="needs a scheme"):
        Key.parse(text)


def test_github_key_is_lower_case_and_trimmed() -> None:
    assert github_key(" Neroued/NInfer/ ") == "gh:neroued/ninfer"
    assert str(Key.github("Org/X#3")) == "gh:org/x#3"


def test_a_www_host_without_another_dot_keeps_its_www() -> None:
    """`www.com` is not `com`: the key must read back as itself (found by hypothesis)."""
    key = canonical_key("http://www.com")
    assert key == "url:www.com" and canonical_key(key) == key
