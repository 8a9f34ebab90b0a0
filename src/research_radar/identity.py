"""Identity: canonical keys, same-as / part-of links, forks, and joining sources into Projects.

Pure: no network, no database, no clock (the only file read is `load_aliases_file`, an edge
helper kept here beside the format it reads). Keys follow DESIGN.md: `gh:owner/name`
(lower-case), `arxiv:2409.10516` (version stripped), `doi:10....` (lower-case) and
`url:host/path` (scheme dropped so http and https are one identity). A project known only
by a name in a report gets the provisional key `name:<normalised name>`.

Source.meta keys read here (as the GitHub collector writes them, all optional): `fork`
(bool), `parent` (full name, URL, key or a {"full_name": ...} dict), `id` (repository id),
`full_name`, `renamed_from` (str or list), `root_commits` / `root_sha`, `commits_ahead`,
`releases` (int), `homepage`, `comment` (arXiv comments).
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit

from rapidfuzz import fuzz

from .errors import ConfigError
from .models import Project, Source, SourceKind

__all__ = [
    "ForkDecision",
    "NameIndex",
    "arxiv_version",
    "canonical_key",
    "classify_fork",
    "find_keys",
    "find_part_of",
    "find_same_as",
    "github_pr_ref",
    "load_aliases_file",
    "name_key",
    "normalise_name",
    "plausible_alias",
    "repo_name",
    "resolve",
    "same_name",
]

_OWNER = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})"
_REPO = r"[A-Za-z0-9._-]{1,100}"
_GH_URL = re.compile(
    rf"^(?:git\+)?(?:https?://|git://|ssh://git@)?(?:www\.)?github\.com[/:](?P<owner>{_OWNER})/(?P<repo>{_REPO})",
    re.IGNORECASE,
)
_GH_SSH = re.compile(rf"^git@github\.com:(?P<owner>{_OWNER})/(?P<repo>{_REPO})", re.IGNORECASE)
_GH_OTHER = re.compile(
    rf"^https?://(?:raw\.githubusercontent\.com|api\.github\.com/repos)/(?P<owner>{_OWNER})/(?P<repo>{_REPO})",
    re.IGNORECASE,
)
_GH_BARE = re.compile(
    rf"^(?:gh:)?(?P<owner>{_OWNER})/(?P<repo>{_REPO}?)(?:[@#].*)?$", re.IGNORECASE
)
_GH_RESERVED = {
    "about", "apps", "collections", "enterprise", "events", "explore", "features", "login",
    "marketplace", "notifications", "orgs", "pricing", "search", "settings", "sponsors",
    "topics", "trending", "users", "site", "security", "customer-stories", "readme",
}  # fmt: skip
_ARXIV_NEW = r"(?P<new>\d{4}\.\d{4,5})"
_ARXIV_ARCHIVES = (
    "acc-phys|adap-org|alg-geom|ao-sci|astro-ph|atom-ph|bayes-an|chao-dyn|chem-ph|cmp-lg|comp-gas|"
    "cond-mat|cs|dg-ga|econ|eess|funct-an|gr-qc|hep-ex|hep-lat|hep-ph|hep-th|math|math-ph|mtrl-th|"
    "nlin|nucl-ex|nucl-th|patt-sol|physics|plasm-ph|q-alg|q-bio|q-fin|quant-ph|solv-int|stat|supr-con"
)
_ARXIV_OLD = rf"(?P<old>(?:{_ARXIV_ARCHIVES})(?:\.[A-Za-z]{{2}})?/\d{{7}})"
_ARXIV_ID = re.compile(rf"^(?:{_ARXIV_NEW}|{_ARXIV_OLD})(?:v(?P<v>\d+))?(?:\.pdf)?$", re.IGNORECASE)
_ARXIV_URL = re.compile(
    r"^https?://(?:www\.|export\.)?arxiv\.org/(?:abs|pdf|html|format|ps)/(?P<id>.+?)/?$",
    re.IGNORECASE,
)
_ARXIV_DOI = re.compile(r"^10\.48550/arxiv\.(?P<id>.+)$", re.IGNORECASE)
_DOI = re.compile(
    r"^(?:doi:\s*|https?://(?:dx\.)?doi\.org/)?(?P<doi>10\.\d{4,9}/\S+)$", re.IGNORECASE
)
_TRACKING = re.compile(
    r"^(?:utm_\w*|fbclid|gclid|dclid|msclkid|yclid|mc_cid|mc_eid|igshid|ref|ref_src|ref_url|"
    r"_hsenc|_hsmi|spm|share_source|vd_source|si|source|from)$",
    re.IGNORECASE,
)
_SCHEMES = ("gh:", "arxiv:", "doi:", "url:", "name:")


def canonical_key(ref: str) -> str | None:
    """The canonical key of a reference (URL, id, `owner/repo`, key), or None if it is none.

    Never raises. `canonical_key(canonical_key(x)) == canonical_key(x)` for every x.
    """
    text = ref.strip().strip("<>\"'`").rstrip(".,;:，。；、）)]")
    if not text or any(ch.isspace() for ch in text):
        return None
    lowered = text.lower()
    if lowered.startswith("name:"):
        name = normalise_name(text[5:])
        return f"name:{name}" if name else None
    return _arxiv_key(text) or _doi_key(text) or _github_key(text) or _url_key(text)


def _arxiv_key(text: str) -> str | None:
    body = text
    if body.lower().startswith("arxiv:"):
        body = body[6:].strip()
    else:
        url = _ARXIV_URL.match(body)
        doi = _ARXIV_DOI.match(
            re.sub(r"^(?:doi:|https?://(?:dx\.)?doi\.org/)", "", body, flags=re.I)
        )
        if url:
            body = url.group("id")
        elif doi:
            body = doi.group("id")
    match = _ARXIV_ID.match(body.split("?")[0].split("#")[0])
    if not match:
        return None
    if match.group("new"):
        return f"arxiv:{match.group('new')}"
    archive, number = match.group("old").split("/")
    return f"arxiv:{archive.split('.')[0].lower()}/{number}"


def arxiv_version(ref: str) -> int | None:
    """The `vN` of an arXiv reference, or None when it names no version."""
    text = ref.strip()
    if not _arxiv_key(text):
        return None
    match = re.search(r"v(\d+)(?:\.pdf)?/?(?:[?#].*)?$", text, re.IGNORECASE)
    return int(match.group(1)) if match else None


def _doi_key(text: str) -> str | None:
    match = _DOI.match(text)
    if not match:
        return None
    doi = match.group("doi").split("#")[0].rstrip("/")
    return f"doi:{doi.lower()}"


def _github_key(text: str) -> str | None:
    match = _GH_URL.match(text) or _GH_SSH.match(text) or _GH_OTHER.match(text)
    if match is None and "://" not in text and "." not in text.split("/")[0]:
        match = _GH_BARE.match(text)
    if match is None:
        return None
    owner, repo = match.group("owner").lower(), match.group("repo").lower()
    repo = re.sub(r"\.git$", "", repo)
    if owner in _GH_RESERVED or not repo or repo in {".", ".."}:
        return None
    return f"gh:{owner}/{repo}"


def _url_key(text: str) -> str | None:
    raw = text[4:] if text.lower().startswith("url:") else text
    if "://" not in raw:
        if not (text.lower().startswith("url:") or raw.lower().startswith("www.")):
            return None
        raw = "https://" + raw
    try:
        parts = urlsplit(raw)
        port = parts.port
    except ValueError:
        return None
    host = (parts.hostname or "").lower()
    if parts.scheme.lower() not in {"http", "https"} or "." not in host:
        return None
    host = host.removeprefix("www.")
    if port and port not in (80, 443):
        host = f"{host}:{port}"
    path = re.sub(r"/{2,}", "/", parts.path).rstrip("/")
    query = [
        (k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True) if not _TRACKING.match(k)
    ]
    key = f"url:{host}{path}"
    if query:
        key += "?" + urlencode(sorted(query))
    return key


def github_pr_ref(url: str) -> tuple[str, int] | None:
    """`("owner/name", number)` for a pull request URL or an `owner/name#N` reference."""
    text = url.strip()
    match = re.match(
        rf"^(?:https?://)?(?:www\.)?github\.com/({_OWNER})/({_REPO})/pulls?/(\d+)", text, re.I
    ) or re.match(rf"^({_OWNER})/({_REPO})#(\d+)$", text)
    if not match:
        return None
    repo = re.sub(r"\.git$", "", match.group(2))
    return f"{match.group(1)}/{repo}", int(match.group(3))


# -- finding references in prose ------------------------------------------------------------

_URL_IN_TEXT = re.compile(r"https?://[^\s，。；、）)\]>\"'`|]+")
_AT_SHA = re.compile(rf"(?<![\w/.-])({_OWNER}/{_REPO})@[0-9a-f]{{7,40}}\b")
_CANONICAL_STATED = re.compile(
    rf"canonical\s*(?:repo(?:sitory)?\s*)?[:：]?\s*`?({_OWNER}/{_REPO})", re.I
)
_ARXIV_IN_TEXT = re.compile(
    r"(?:arxiv[:\s]*|论文\s*|paper\s*)(?P<id>\d{4}\.\d{4,5})(?:\s*v\d+)?(?!\d)", re.IGNORECASE
)


def find_keys(text: str) -> list[str]:
    """Canonical keys of every reference in prose: URLs, `owner/repo@sha`, `canonical owner/repo`,
    `arXiv:NNNN.NNNNN` and "论文 NNNN.NNNNN". In order of first appearance, no duplicates."""
    found: dict[str, int] = {}
    hits: list[tuple[int, str]] = []
    for match in _URL_IN_TEXT.finditer(text):
        hits.append((match.start(), match.group(0).rstrip(".,;:")))
    for pattern in (_AT_SHA, _CANONICAL_STATED):
        hits += [(m.start(1), m.group(1)) for m in pattern.finditer(text)]
    hits += [(m.start(), "arxiv:" + m.group("id")) for m in _ARXIV_IN_TEXT.finditer(text)]
    for position, ref in sorted(hits):
        key = canonical_key(ref)
        if key and key not in found:
            found[key] = position
    return list(found)


_WORD = r"[A-Za-z0-9](?:[\w\-/]|\.(?=\w))*"
_NAME = rf"[`\"'“‘]?(?P<name>{_WORD}(?:[ ](?=(?-i:[A-Z0-9])){_WORD}){{0,2}})"
_ANY_NAME = r"[`\"'“‘「]?(?P<name>[^\s，。；、,;:：（）()`\"'”’」]+)"
_SAME_AS = [
    re.compile(rf"\b(?:formerly|previously)\s+(?:known\s+as|named|called)\s+{_NAME}", re.I),
    re.compile(rf"\(\s*(?:formerly|previously|was|née)\s*:?\s+{_NAME}\s*\)", re.I),
    re.compile(rf"\b(?i:formerly)\s+(?=[`\"'“A-Z0-9])(?!(?:at|in|of|the|a|an)\b){_NAME}"),
    re.compile(rf"\b(?:renamed|moved|transferred)\s+from\s+{_NAME}", re.I),
    re.compile(rf"(?:原名|旧名|曾用名|更名自|改名自)\s*[为是:：]?\s*{_ANY_NAME}"),
    re.compile(rf"[（(]\s*原\s*{_NAME}\s*[）)]"),
]


def find_same_as(text: str) -> list[str]:
    """Former names stated in prose ("formerly X", "renamed from X", "原名 X", "X（原 Y）"...)."""
    names: dict[str, None] = {}
    for pattern in _SAME_AS:
        for match in pattern.finditer(text):
            name = match.group("name").strip().rstrip(".,;:)").strip("`\"'”’")
            if name and name.lower() not in {"the", "a", "an", "it", "this"}:
                names.setdefault(name, None)
    return list(names)


_OFFICIAL = re.compile(
    r"official\s+(?:implementation|code|repo)|our\s+paper|this\s+(?:repo|repository)\s+"
    r"(?:contains|implements|accompanies)|paper\s*[:：]|官方实现|官方代码|论文|本仓库|citation|cite",
    re.IGNORECASE,
)
_CODE_AT = re.compile(r"code|github|implementation|代码|源码", re.IGNORECASE)
_BLOG_WORDS = re.compile(r"blog|post|article|write-?up|博客|文章", re.IGNORECASE)


def find_part_of(source: Source) -> list[tuple[str, str]]:
    """Part-of links a source states: `(canonical key, evidence)` pairs.

    A repository's README: arXiv links on a line that says it is the paper's official code
    (or the only arXiv link in it), blog links on a line that calls them a post. A paper's
    abstract and comments: GitHub links. A blog post: GitHub and arXiv links.
    """
    own = source.key
    if source.kind == SourceKind.PAPER:
        text = "\n".join([source.summary, str(source.meta.get("comment", "")), source.text[:2000]])
        return _links(text, own, lambda key, line: key.startswith("gh:"), "paper links code")
    if source.kind == SourceKind.BLOG:
        return _links(
            source.text or source.summary, own,
            lambda key, line: key.startswith(("gh:", "arxiv:")), "post links",
        )  # fmt: skip
    text = source.text or source.summary
    papers = {key for key in find_keys(text) if key.startswith("arxiv:")}

    def wanted(key: str, line: str) -> bool:
        if key.startswith("arxiv:"):
            return len(papers) == 1 or bool(_OFFICIAL.search(line))
        return key.startswith("url:") and bool(_BLOG_WORDS.search(line))

    links = _links(text, own, wanted, "README links")
    homepage = canonical_key(str(source.meta.get("homepage") or ""))
    if homepage and homepage != own and homepage.startswith(("arxiv:", "url:")):
        links.append((homepage, "repository homepage"))
    return links


def _links(text: str, own: str, wanted: Any, what: str) -> list[tuple[str, str]]:
    found: dict[str, str] = {}
    for line in text.splitlines():
        for key in find_keys(line):
            if key != own and key not in found and wanted(key, line):
                found[key] = f"{what} {key}: {line.strip()[:160]}"
    return list(found.items())


# -- names ------------------------------------------------------------------------------

_VERSION_TOKEN = re.compile(r"^v?\d+(?:\.\d+)+[a-z0-9.+-]*$|^v\d+$", re.IGNORECASE)
_GENERIC_LEAD = {"project", "the"}


def normalise_name(name: str) -> str:
    """A project name without markup, parentheses, versions and PR numbers, lower-case.

    "**Maya 1.1.39**" → "maya"; "stable-diffusion.cpp #2240" → "stable-diffusion.cpp";
    "Project Maya" → "maya"; "Mach X（Intel Arc）" → "mach x".
    """
    text = re.sub(r"\*\*|`|<br\s*/?>", " ", name)
    text = re.sub(r"[（(][^（）()]*[）)]", " ", text)
    text = re.sub(r"(?:[\w.-]+/[\w.-]+)?#\d+", " ", text)
    tokens = [t for t in re.split(r"[\s_]+", text.lower().strip(" .,;:，。；、")) if t]
    tokens = [t.strip(".,;:") for t in tokens if not _VERSION_TOKEN.match(t)]
    while len(tokens) > 1 and tokens[0] in _GENERIC_LEAD:
        tokens = tokens[1:]
    return " ".join(t for t in tokens if t)


def name_key(name: str) -> str | None:
    """The provisional key `name:<normalised>` of a project known only by its name."""
    normal = normalise_name(name)
    return f"name:{normal}" if normal else None


def repo_name(key: str) -> str | None:
    """The repository part of a `gh:` key."""
    return key.split("/", 1)[1] if key.startswith("gh:") and "/" in key else None


def _compact(normal: str) -> str:
    return re.sub(r"[\s._-]+", "", normal)


def same_name(a: str, b: str) -> bool:
    """Whether two names name one project. Careful by design: alike names stay apart.

    Equal after normalisation; or one is a leading-token prefix of the other (≥ 4 letters:
    "Atrex" / "Atrex Kernel Agent"); or near-equal spelling (rapidfuzz ≥ 92, same digits,
    length within 1). "SpecSpeech" / "SpeechSpec" and "InferenceBench" / "RSI-Inference Bench"
    are different projects.
    """
    x, y = normalise_name(a), normalise_name(b)
    if not x or not y:
        return False
    if x == y or _compact(x) == _compact(y):
        return True
    short, long = sorted((x.split(), y.split()), key=len)
    if (
        len(short) < len(long)
        and long[: len(short)] == short
        and len(_compact(" ".join(short))) >= 4
    ):
        return True
    cx, cy = _compact(x), _compact(y)
    if re.findall(r"\d+", cx) != re.findall(r"\d+", cy) or abs(len(cx) - len(cy)) > 1:
        return False
    return min(len(cx), len(cy)) >= 6 and fuzz.ratio(cx, cy) >= 92


@dataclass
class NameIndex:
    """Names and aliases → project keys, for resolving names read in reports."""

    names: dict[str, str] = field(default_factory=dict)
    """Normalised name → project key."""
    repos: dict[str, str] = field(default_factory=dict)
    """Compact repository name → `gh:` key (from known sources)."""

    def add(self, name: str, key: str) -> None:
        normal = normalise_name(name)
        if normal:
            self.names.setdefault(normal, key)

    def add_repo(self, key: str) -> None:
        name = repo_name(key)
        if name:
            self.repos.setdefault(_compact(name.lower()), key)

    def lookup(self, name: str) -> str | None:
        """The key a name resolves to: exact, known repository name, then careful fuzzy match."""
        normal = normalise_name(name)
        if not normal:
            return None
        if normal in self.names:
            return self.names[normal]
        if _compact(normal) in self.repos:
            return self.repos[_compact(normal)]
        matches = {key for known, key in self.names.items() if same_name(known, normal)}
        return matches.pop() if len(matches) == 1 else None


def plausible_alias(name: str, key: str) -> bool:
    """Whether a name in a report can be an alias of a repository key ("Mach X" of machx-...)."""
    repo = repo_name(key)
    if repo is None:
        return False
    normal = _compact(normalise_name(name))
    compact = _compact(repo)
    if len(normal) < 3:
        return False
    return normal in compact or compact in normal or same_name(name, repo)


# -- forks ------------------------------------------------------------------------------

_BASED_ON = re.compile(
    r"(?:based\s+on|built\s+(?:on|upon)|derived\s+from|forked\s+from|fork\s+of|port(?:ed)?\s+(?:of|from)|"
    r"基于|源自|移植自|派生自)\s*[`\"'“]?(?P<ref>[\w./:-]+)",
    re.IGNORECASE,
)
_OWN_WORK = re.compile(
    r"\b(?:adds?|added|ports?|ported|support(?:s|ed)?|optimi[sz]ed?|new\s+features?|our\s+own|"
    r"rewrit\w*|extend(?:s|ed)?)\b|新增|移植|支持|优化|适配|改写",
    re.IGNORECASE,
)
AHEAD_THRESHOLD = 20
"""Commits ahead of the parent from which a fork counts as carrying its own work."""


@dataclass(frozen=True)
class ForkDecision:
    """Ordinary fork or independent derivative, with the evidence for the decision."""

    derivative: bool
    evidence: list[str]
    fork_of: str | None = None


def _parent_key(source: Source, parent: Source | None) -> str | None:
    if parent is not None:
        return parent.key
    raw = source.meta.get("parent")
    if isinstance(raw, dict):
        raw = raw.get("full_name") or raw.get("html_url")
    return canonical_key(str(raw)) if raw else None


def _roots(source: Source) -> set[str]:
    roots = source.meta.get("root_commits") or source.meta.get("root_sha") or []
    items = roots if isinstance(roots, list) else [roots]
    return {str(item.get("sha") if isinstance(item, dict) else item) for item in items if item}


def classify_fork(
    source: Source,
    parent: Source | None,
    *,
    commits_ahead: int | None,
    own_releases: int,
    readme: str,
) -> ForkDecision:
    """Decide whether a fork (or a repository based on another) is an independent derivative.

    A fork is a derivative when it shows at least two kinds of its own work: ≥ 20 commits
    ahead, releases of its own, a README of its own that says what it adds. A repository that
    is not a GitHub fork and shares no history is its own project even when it says "based on".
    """
    parent_key = _parent_key(source, parent)
    evidence: list[str] = []
    flagged = bool(source.meta.get("fork"))
    shared = parent is not None and bool(_roots(source) & _roots(parent))
    if flagged:
        evidence.append(f"GitHub fork flag set (parent {parent_key or 'unknown'})")
    if shared:
        evidence.append(
            "shares root commit(s) with the parent: " + ", ".join(sorted(_roots(source))[:2])
        )
    based = _based_on(readme, parent_key)
    if based:
        evidence.append(f"README says it is based on {based}")
        parent_key = parent_key or canonical_key(based)
    if parent_key is None:
        return ForkDecision(True, evidence + ["no parent: not a fork"], None)
    own = _own_work(commits_ahead, own_releases, readme, parent)
    evidence += own
    if not flagged and not shared:
        return ForkDecision(
            True, evidence + ["not a GitHub fork and no shared history"], parent_key
        )
    derivative = len(own) >= 2
    if not derivative:
        ahead = "unknown" if commits_ahead is None else str(commits_ahead)
        evidence.append(
            f"ordinary fork: {ahead} commits ahead, {own_releases} releases, README adds little"
        )
    return ForkDecision(derivative, evidence, parent_key)


def _based_on(readme: str, parent_key: str | None) -> str | None:
    for match in _BASED_ON.finditer(readme):
        ref = match.group("ref").rstrip(".,;:)")
        key = canonical_key(ref)
        if parent_key is None or key == parent_key or same_name(ref, repo_name(parent_key) or ""):
            return ref
    return None


def _own_work(ahead: int | None, releases: int, readme: str, parent: Source | None) -> list[str]:
    found = []
    if ahead is not None and ahead >= AHEAD_THRESHOLD:
        found.append(f"{ahead} commits ahead of the parent")
    if releases > 0:
        found.append(f"{releases} release(s) of its own")
    similarity = fuzz.ratio(readme[:4000], parent.text[:4000]) if parent and parent.text else 0.0
    claim = _OWN_WORK.search(readme)
    if readme.strip() and similarity < 60 and claim:
        found.append(
            f"README of its own (similarity to parent {similarity:.0f}%) stating new work: {claim.group(0)!r}"
        )
    return found


# -- joining sources into projects ---------------------------------------------------------


class _Union:
    def __init__(self) -> None:
        self.parent: dict[str, str] = {}

    def find(self, key: str) -> str:
        self.parent.setdefault(key, key)
        while self.parent[key] != key:
            self.parent[key] = self.parent[self.parent[key]]
            key = self.parent[key]
        return key

    def join(self, a: str, b: str) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[max(ra, rb)] = min(ra, rb)


def _former_keys(source: Source) -> list[str]:
    raw = source.meta.get("renamed_from") or []
    items = raw if isinstance(raw, list) else [raw]
    return [key for key in (canonical_key(str(item)) for item in items) if key]


def resolve(
    sources: list[Source], aliases: dict[str, str], known: dict[str, Project]
) -> list[Project]:
    """Join sources into Projects by same-as and part-of links; forks stay apart.

    Same-as: GitHub renames (`meta["renamed_from"]`), one repository id under a new full name,
    "formerly X" statements, the aliases file (alias → key). Part-of: `find_part_of`. A known
    project keeps its key and aliases. Forks get `fork_of` and a `classify_fork` decision.
    """
    union = _Union()
    by_key = {source.key: source for source in sources}
    former: dict[str, list[str]] = {}
    owner_of = {
        key: project.key for project in known.values() for key in [project.key, *project.sources]
    }
    names = NameIndex()
    for project in known.values():
        for name in [project.name, *project.aliases]:
            names.add(name, project.key)
    for alias, key in aliases.items():
        names.add(alias, key)
    for source in sources:
        union.find(source.key)
        names.add(source.title or (repo_name(source.key) or ""), source.key)
        names.add_repo(source.key)
    _join_same_as(sources, union, former, names, aliases)
    for source in sources:
        for key, _evidence in find_part_of(source):
            if key in by_key or key in owner_of:
                union.join(source.key, key)
        if source.key in owner_of:
            union.join(source.key, owner_of[source.key])
    return _projects(sources, union, former, known, owner_of)


def _join_same_as(
    sources: list[Source],
    union: _Union,
    former: dict[str, list[str]],
    names: NameIndex,
    aliases: Mapping[str, str],
) -> None:
    by_id: dict[str, str] = {}
    for source in sources:
        olds = _former_keys(source)
        for old in olds:
            union.join(source.key, old)
        repo_id = source.meta.get("id")
        if repo_id is not None and source.kind == SourceKind.REPO:
            if str(repo_id) in by_id:
                union.join(by_id[str(repo_id)], source.key)
            by_id.setdefault(str(repo_id), source.key)
        stated = find_same_as(source.text)
        for name in stated:
            target = canonical_key(name) if "/" in name else names.lookup(name)
            if target and target != source.key:
                union.join(source.key, target)
        former[source.key] = olds + stated
        for alias in (source.key, source.title):
            target = aliases.get(alias) or (aliases.get(normalise_name(alias)) if alias else None)
            if target:
                union.join(source.key, canonical_key(target) or target)


def _projects(
    sources: list[Source],
    union: _Union,
    former: dict[str, list[str]],
    known: dict[str, Project],
    owner_of: dict[str, str],
) -> list[Project]:
    groups: dict[str, list[Source]] = {}
    for source in sources:
        groups.setdefault(union.find(source.key), []).append(source)
    nodes: dict[str, list[str]] = {}
    for node in list(union.parent):
        nodes.setdefault(union.find(node), []).append(node)
    result = []
    for members in groups.values():
        keys = nodes.get(union.find(members[0].key), [])
        members.sort(key=_preference)
        head = members[0]
        known_key = next((owner_of[k] for k in keys if k in owner_of), None)
        base = known.get(known_key) if known_key else None
        project = Project(
            key=base.key if base else head.key,
            name=base.name if base else (head.title or repo_name(head.key) or head.key),
            aliases=sorted(set(base.aliases if base else []) | _aliases(members, former)),
            sources=sorted({*(base.sources if base else []), *(s.key for s in members)}),
            family=base.family if base else None,
        )
        _set_fork(project, head, members)
        result.append(project)
    return sorted(result, key=lambda p: p.key)


def _preference(source: Source) -> tuple[int, int, str]:
    order = {"gh": 0, "arxiv": 1, "doi": 2, "url": 3}
    renamed_away = 1 if source.meta.get("renamed_to") else 0
    return (renamed_away, order.get(source.key.split(":")[0], 4), source.key)


def _aliases(members: list[Source], former: dict[str, list[str]]) -> set[str]:
    names: set[str] = set()
    for source in members:
        names.update(former.get(source.key, []))
        if source.meta.get("full_name"):
            names.add(str(source.meta["full_name"]))
    return names


def _set_fork(project: Project, head: Source, members: list[Source]) -> None:
    forked = next((s for s in members if s.meta.get("fork") or s.meta.get("parent")), None)
    if forked is None:
        return
    decision = classify_fork(
        forked,
        None,
        commits_ahead=_int(forked.meta.get("commits_ahead")),
        own_releases=_count(forked.meta.get("releases")),
        readme=forked.text,
    )
    project.fork_of = decision.fork_of
    project.derivative = decision.derivative
    project.derivative_evidence = decision.evidence


def _count(value: Any) -> int:
    """A count kept either as a number or as the list of things counted."""
    if isinstance(value, list | tuple):
        return len(value)
    return _int(value) or 0


def _int(value: Any) -> int | None:
    try:
        return None if value is None else int(value)
    except (TypeError, ValueError):
        return None


# -- the aliases file ---------------------------------------------------------------------


def load_aliases_file(path: Path) -> dict[str, str]:
    """Read a user-editable aliases file (TOML) into alias → canonical key.

    Two forms, both optional: an `[aliases]` table of `"alias" = "key"`, and
    `[projects."key"]` tables with `aliases = ["name", ...]`. Keys may be written as URLs or
    `owner/repo`; they are normalised. Errors name the file and line.
    """
    try:
        raw = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"cannot read the aliases file: {exc.strerror}", str(path)) from exc
    try:
        data = tomllib.loads(raw)
    except tomllib.TOMLDecodeError as exc:
        line = re.search(r"line (\d+)", str(exc))
        raise ConfigError(
            f"not valid TOML ({exc}); fix the line shown",
            str(path),
            int(line.group(1)) if line else None,
        ) from exc
    result: dict[str, str] = {}
    for alias, target in _alias_pairs(data, raw, path):
        key = canonical_key(target) or name_key(target)
        if key is None or not target.strip():
            raise ConfigError(
                f"alias {alias!r} points at {target!r}, which is no canonical key "
                "(write gh:owner/name, a URL or arxiv:ID)",
                str(path),
                _line_of(raw, alias),
            )
        result[alias] = key
    return result


def _alias_pairs(data: dict[str, Any], raw: str, path: Path) -> Iterable[tuple[str, str]]:
    unknown = set(data) - {"aliases", "projects"}
    if unknown:
        name = sorted(unknown)[0]
        raise ConfigError(
            f'unknown table or key {name!r}; use [aliases] or [projects."KEY"]',
            str(path),
            _line_of(raw, name),
        )
    for alias, target in dict(data.get("aliases", {})).items():
        if not isinstance(target, str):
            raise ConfigError(
                f"alias {alias!r} must map to a string key", str(path), _line_of(raw, alias)
            )
        yield alias, target
    for key, table in dict(data.get("projects", {})).items():
        names = table.get("aliases", []) if isinstance(table, dict) else None
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise ConfigError(
                f'[projects.{key!r}] needs aliases = ["name", ...]', str(path), _line_of(raw, key)
            )
        for name in names:
            yield name, key


def _line_of(raw: str, needle: str) -> int | None:
    for number, line in enumerate(raw.splitlines(), start=1):
        if needle in line:
            return number
    return None
