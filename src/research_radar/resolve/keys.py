"""Identity: canonical keys, references and same-as statements in prose, and name matching.

Pure: no network, no database, no clock (the only file read is `load_aliases_file`, an edge
helper kept here beside the format it reads). Keys follow DESIGN.md: `gh:owner/name`
(lower-case), `arxiv:2409.10516` (version stripped), `doi:10....` (lower-case) and
`url:host/path` (scheme dropped so http and https are one identity). A project known only
by a name in a report gets the provisional key `name:<normalised name>`.

Part-of links, forks and joining sources into Projects live in `resolve.projects`.
"""

from __future__ import annotations

import functools
import re
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit

from rapidfuzz import fuzz

from research_radar.errors import ConfigError

__all__ = [
    "Key",
    "NameIndex",
    "arxiv_version",
    "canonical_key",
    "find_keys",
    "find_same_as",
    "github_key",
    "github_pr_ref",
    "github_repo",
    "key_name",
    "load_aliases_file",
    "name_key",
    "normalise_name",
    "plausible_alias",
    "repo_name",
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
_SPACE = re.compile(r"\s")
"""Any white space (`str.isspace`): a key has none."""
_DOI = re.compile(
    r"^(?:doi:\s*|https?://(?:dx\.)?doi\.org/)?(?P<doi>10\.\d{4,9}/\S+)$", re.IGNORECASE
)
_TRACKING = re.compile(
    r"^(?:utm_\w*|fbclid|gclid|dclid|msclkid|yclid|mc_cid|mc_eid|igshid|ref|ref_src|ref_url|"
    r"_hsenc|_hsmi|spm|share_source|vd_source|si|source|from)$",
    re.IGNORECASE,
)


@dataclass(frozen=True, order=True)
class Key:
    """A canonical key, `scheme:name`, parsed: `gh:owner/name` (lower-case, `#N` for a PR
    or issue), `arxiv:2409.10516`, `doi:…`, `url:host/path`, `name:…`, `inbox:path`.

    Keys travel as strings (in the store, in models); this type is how code makes and
    reads them, so no module slices `key[3:]` or writes `f"gh:{…}"` by hand.
    """

    scheme: str
    name: str

    @classmethod
    def parse(cls, text: str) -> Key:
        """The parts of a key; ValueError when `text` has no scheme."""
        scheme, colon, name = text.partition(":")
        if not colon or not scheme or not name:
            raise ValueError(f"{text!r} is not a key: it needs a scheme such as gh: or arxiv:")
        return cls(scheme, name)

    @classmethod
    def github(cls, full_name: str) -> Key:
        """The key of a GitHub repository `owner/name` (or `owner/name#N`)."""
        return cls("gh", full_name.strip().strip("/").lower())

    def __str__(self) -> str:
        return f"{self.scheme}:{self.name}"

    @property
    def repo(self) -> str | None:
        """`owner/name` of a `gh:` key (its PR or issue number dropped); None otherwise."""
        return self.name.split("#", 1)[0] if self.scheme == "gh" else None


def github_key(full_name: str) -> str:
    """`gh:owner/name`, lower-case: the key of a GitHub repository, as a string."""
    return str(Key.github(full_name))


def key_name(key: str) -> str:
    """What follows the scheme: `owner/name` of `gh:owner/name`, the id of `arxiv:…`."""
    return key.partition(":")[2] or key


def github_repo(key: str) -> str | None:
    """`owner/name` when `key` is a GitHub key, else None."""
    return Key.parse(key).repo if ":" in key else None


@functools.lru_cache(maxsize=1 << 16)
def canonical_key(ref: str) -> str | None:
    """The canonical key of a reference (URL, id, `owner/repo`, key), or None if it is none.

    Never raises. `canonical_key(canonical_key(x)) == canonical_key(x)` for every x.
    Cached: an import resolves each entry's references several times (#19).
    """
    text = ref.strip().strip("<>\"'`").rstrip(".,;:，。；、）)]")
    if not text or _SPACE.search(text):
        return None
    lowered = text.lower()
    if lowered.startswith("name:"):
        name = normalise_name(text[5:])
        return f"name:{name}" if name else None
    return _arxiv_key(text) or _doi_key(text) or _github_key(text) or _url_key(text)


_DOI_PREFIX = re.compile(r"^(?:doi:|https?://(?:dx\.)?doi\.org/)", re.I)
_DOT_GIT = re.compile(r"\.git$")


def _arxiv_key(text: str) -> str | None:
    body = text
    if body.lower().startswith("arxiv:"):
        body = body[6:].strip()
    else:
        url = _ARXIV_URL.match(body)
        doi = _ARXIV_DOI.match(_DOI_PREFIX.sub("", body))
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
    repo = _DOT_GIT.sub("", repo)
    if owner in _GH_RESERVED or not repo or repo in {".", ".."}:
        return None
    return github_key(f"{owner}/{repo}")


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
    if "." in host.removeprefix("www."):  # www.example.org and example.org are one site
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


_MAY_REFER = re.compile(r"://|@|canonical|arxiv|paper|论文", re.I)
"""What every reference `find_keys` reads contains (each of its patterns needs one): most
lines of a README have none, and one search rules them out (#19)."""


def find_keys(text: str) -> list[str]:
    """Canonical keys of every reference in prose: URLs, `owner/repo@sha`, `canonical owner/repo`,
    `arXiv:NNNN.NNNNN` and "论文 NNNN.NNNNN". In order of first appearance, no duplicates."""
    if _MAY_REFER.search(text) is None:
        return []
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


_SAME_AS_WORDS: list[tuple[str, ...]] = [
    ("formerly", "previously"),
    (),
    ("formerly",),
    ("renamed", "moved", "transferred"),
    ("名",),
    ("原",),
]
"""Words one of which each `_SAME_AS` pattern needs (lower case; none: always searched).
Most texts have none of them, and looking for words is cheaper than the patterns (#19)."""
_FOLDS_TO_ASCII = re.compile("[\u0130\u0131\u212a\u017f]")
"""The letters `re.I` matches to ASCII ones (İ ı K ſ): a text with one is searched in full."""


def find_same_as(text: str) -> list[str]:
    """Former names stated in prose ("formerly X", "renamed from X", "原名 X", "X（原 Y）"...)."""
    names: dict[str, None] = {}
    lower = None if _FOLDS_TO_ASCII.search(text) else text.lower()
    for pattern, words in zip(_SAME_AS, _SAME_AS_WORDS, strict=True):
        if lower is not None and words and not any(word in lower for word in words):
            continue
        for match in pattern.finditer(text):
            name = match.group("name").strip().rstrip(".,;:)").strip("`\"'”’")
            if name and name.lower() not in {"the", "a", "an", "it", "this"}:
                names.setdefault(name, None)
    return list(names)


# -- names ------------------------------------------------------------------------------

_VERSION_TOKEN = re.compile(r"^v?\d+(?:\.\d+)+[a-z0-9.+-]*$|^v\d+$", re.IGNORECASE)
_GENERIC_LEAD = {"project", "the"}


@functools.lru_cache(maxsize=1 << 16)
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
