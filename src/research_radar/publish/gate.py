"""The public-only gate and neutralising: what may be posted where anyone can read it.

`check_public` refuses private repository links, links to hosts that are not public
code/paper hosts (unless allowed), local paths and token-like strings;
`neutralise` defuses @-mentions and raw HTML quoted from sources so a posted report
pings nobody and renders no markup but ours. Both are pure; `load_private_repos` reads
the store and the settings, `allowed_hosts` normalises the configured hosts.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable

from markdown_it import MarkdownIt

from research_radar.resolve.keys import github_repo
from research_radar.store.store import Store

__all__ = ["allowed_hosts", "check_public", "load_private_repos", "neutralise"]

# -- the public-only gate --------------------------------------------------------------

_GH_LINK = re.compile(
    r"(?:https?://)?(?:www\.)?github\.com/([A-Za-z0-9-]{1,39})/([A-Za-z0-9._-]{1,100})", re.I
)
_GH_REF = re.compile(
    r"(?<![\w./-])([A-Za-z0-9-]{1,39})/([A-Za-z0-9._-]{1,100}?)(?:#\d+|@[0-9a-f]{7,40})", re.I
)
_LOCAL_PATH = re.compile(
    r"file://\S*"
    r"|(?<![A-Za-z0-9_./:~-])/(?:home|Users|root)/[^\s`|)\]>\"']*"
    r"|(?<![A-Za-z0-9])[A-Za-z]:\\[^\s`|)\]>\"']*"
    r"|(?<![\w./~-])~/[^\s`|)\]>\"']*"
)
# Any other absolute POSIX path, looked for outside URLs and code spans: one under a
# filesystem root (/tmp/x, /work/..., /github/workspace/...) or one naming a file (…/x.log).
# "tok/s", "P50/P95", "3/5", dates and owner/repo have no leading "/" and never match;
# an API route such as /v1/chat/completions names no root and no file.
_FS_ROOTS = (
    "bin|boot|builds|data|dev|etc|export|github|gpfs|lib|lib64|Library|lustre|media|mnt|nfs"
    "|opt|private|proc|run|sbin|scratch|srv|sys|tmp|usr|var|Volumes|work|workspace|workspaces"
)
_POSIX_PATH = re.compile(
    rf"(?<![A-Za-z0-9_./:~@-])/(?:(?:{_FS_ROOTS})/[\w.@+=,-]"
    r"|[\w.-]+(?:/[\w.@+=,-]+)*/[\w@+=,-]+\.[A-Za-z][A-Za-z0-9]{0,9}\b)"
    r"[^\s`|)\]>\"']*"
)
_URL = re.compile(r"\b[A-Za-z][A-Za-z0-9+.-]{1,31}://[^\s<>`\"']*|\]\([^)\s]*\)?")
_CODE_SPAN = re.compile(r"(`+)(?!`).*?(?<!`)\1(?!`)")
_LINK = re.compile(
    r"(?:\bhttps?://|(?<![\w./@-])(?=www\.))(?:[^\s/?#@<>`\"'|]*@)?"
    r"(?P<host>[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])",
    re.I,
)
_PUBLIC_HOSTS = (
    "github.com",
    "arxiv.org",
    "doi.org",
    "huggingface.co",
    "openreview.net",
    "aclanthology.org",
)
_SECRET = re.compile(
    r"\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|sk-[A-Za-z0-9_-]{20,}"
    r"|(?:AKIA|ASIA)[0-9A-Z]{16}|xox[abpors]-[A-Za-z0-9-]{10,})"
    r"|-----BEGIN [A-Z0-9 ]*KEY-----"
)


def _repo_id(owner: str, name: str) -> str:
    return f"{owner}/{name.removesuffix('.git')}".lower()


def _host_allowed(host: str, allowed: Collection[str]) -> bool:
    """A public code/paper host, a proceedings.* site, or one of `allowed` (subdomains too)."""
    if host.startswith("proceedings."):
        return True
    return any(host == known or host.endswith("." + known) for known in allowed)


def _blank(pattern: re.Pattern[str], text: str) -> str:
    return pattern.sub(lambda match: " " * len(match.group(0)), text)


def _local_paths(line: str) -> list[str]:
    """Local paths in a line: the well-known homes anywhere, other paths outside URLs/code."""
    found = [(match.start(), match.group(0)) for match in _LOCAL_PATH.finditer(line)]
    taken = [range(start, start + len(text)) for start, text in found]
    prose = _blank(_URL, _blank(_CODE_SPAN, line))
    for match in _POSIX_PATH.finditer(prose):
        if not any(match.start() in span for span in taken):
            found.append((match.start(), match.group(0)))
    return [text for _, text in sorted(found)]


def check_public(
    markdown: str, *, private_repos: Collection[str] = (), allowed_hosts: Collection[str] = ()
) -> list[str]:
    """Reasons the text must not be published; empty when it is public-safe.

    Refused:
    - a link or `owner/repo#N` / `owner/repo@sha` reference to a private repository
      (`private_repos` holds `owner/name`);
    - a link to a host that is not a public code/paper host (github.com, arxiv.org,
      doi.org, huggingface.co, openreview.net, aclanthology.org, proceedings.*, and their
      subdomains) nor in `allowed_hosts` (settings `[publish] allowed_hosts`);
    - a local path: /home, /Users, /root, C:\\, file://, ~/ anywhere, and outside URLs and
      code spans any absolute path under a filesystem root (/tmp, /var, /opt, /srv,
      /work, /github/workspace, ...) or naming a file;
    - a token-like string (GitHub, OpenAI-style, AWS, Slack tokens, PEM keys), never echoed
      back whole.
    """
    private = {(github_repo(repo) or repo).lower() for repo in private_repos}
    hosts = {*_PUBLIC_HOSTS, *(host.lower().removeprefix("www.") for host in allowed_hosts)}
    problems: list[str] = []
    for number, line in enumerate(markdown.splitlines(), start=1):
        for match in [*_GH_LINK.finditer(line), *_GH_REF.finditer(line)]:
            repo = _repo_id(match.group(1), match.group(2))
            if repo in private:
                problems.append(f"line {number}: link to private repository {repo}")
        for match in _LINK.finditer(line):
            host = match.group("host").lower().rstrip(".").removeprefix("www.")
            if not _host_allowed(host, hosts):
                problems.append(
                    f"line {number}: link to {host}, not a public code/paper host; remove it "
                    "or add the host to [publish] allowed_hosts"
                )
        for path in _local_paths(line):
            problems.append(f"line {number}: local path '{path[:60]}'")
        for match in _SECRET.finditer(line):
            problems.append(f"line {number}: token-like string {match.group(0)[:6]}…")
    return list(dict.fromkeys(problems))


def load_private_repos(store: Store | None = None, configured: Iterable[str] = ()) -> set[str]:
    """`owner/name` of repositories known to be private.

    From the store (sources whose meta["private"] is true) and from the settings file's
    `[publish] private_repos = ["owner/name", ...]` (pass `settings.publish.private_repos`).
    """
    found: set[str] = set()
    if store is not None:
        for source in store.load_sources():
            if source.meta.get("private") is True:
                match = _GH_LINK.search(source.url)
                if match:
                    found.add(_repo_id(match.group(1), match.group(2)))
                if repo := github_repo(source.key):
                    found.add(repo)
    found.update(repo.lower() for repo in configured)
    return found


def allowed_hosts(configured: Iterable[str]) -> set[str]:
    """Hosts the settings file allows links to (`[publish] allowed_hosts`), normalised."""
    return {host.strip().lower() for host in configured if host.strip()}


# -- neutralise -----------------------------------------------------------------------

_OUR_MARKER_LINE = re.compile(r"^<!-- research-radar:[^<>\n]* -->$")
_BR = re.compile(r"<br\s*/?>", re.I)
_AUTOLINK = re.compile(r"<(?:[A-Za-z][A-Za-z0-9.+-]{1,31}:[^\s<>]*|[\w.+-]+@[\w-]+(?:\.[\w-]+)+)>")
_BARE_URL = re.compile(r"https?://[^\s<>`|\\]*", re.I)
_MENTION = re.compile(r"(?<![A-Za-z0-9_])@(?=[A-Za-z0-9])")
_TAG_START = re.compile(r"<(?=[A-Za-z/!?])")
_BACKTICKS = re.compile(r"`+")


def neutralise(text: str) -> str:
    """Defuse @-mentions (`@` + zero-width space) and raw HTML (`<` -> `&lt;`).

    Kept as they are: code spans, URLs, autolinks, `<br>` inside table rows and our own
    `<!-- research-radar:... -->` marker lines. The result is checked with a CommonMark
    parser; where the parser reads code spans differently (one spanning lines, say),
    code spans are defused too. Idempotent.
    """
    result = _neutralise_text(text, skip_code=True)
    return result if _is_inert(result) else _neutralise_text(text, skip_code=False)


def _neutralise_text(text: str, *, skip_code: bool) -> str:
    lines = []
    for line in text.split("\n"):
        if _OUR_MARKER_LINE.match(line):
            lines.append(line)
        else:
            row = line.lstrip().startswith("|")
            lines.append(_neutralise_line(line, table_row=row, skip_code=skip_code))
    return "\n".join(lines)


_CHECKER = MarkdownIt("commonmark", {"html": True}).enable("table")
_ALLOWED_HTML = re.compile(r"<br\s*/?>|<!-- research-radar:[^<>\n]* -->", re.I)


def _is_inert(text: str) -> bool:
    """No raw HTML but ours and no live @-mention, as a CommonMark parser reads it."""
    for block in _CHECKER.parse(text):
        depth = 0
        for token in [block, *(block.children or [])]:
            depth += {"link_open": 1, "link_close": -1}.get(token.type, 0)
            html = token.type in ("html_inline", "html_block")
            if html and _TAG_START.search(_ALLOWED_HTML.sub("", token.content)):
                return False
            plain = token.type == "text" and depth == 0
            if plain and _MENTION.search(_BARE_URL.sub("", token.content)):
                return False
    return True


def _code_span_end(line: str, start: int, run: int) -> int | None:
    """End of the code span opened by `run` backticks at `start` (cells end it too)."""
    pos = start + run
    while True:
        match = _BACKTICKS.search(line, pos)
        stop = line.find("|", pos)
        if match is None or (stop != -1 and stop < match.start()):
            return None
        if len(match.group(0)) == run:
            return match.end()
        pos = match.end()


def _neutralise_line(line: str, *, table_row: bool, skip_code: bool) -> str:
    """One left-to-right pass mirroring CommonMark's inline precedence."""
    out: list[str] = []
    i = 0
    while i < len(line):
        char = line[i]
        if char == "\\":  # an escaped "@" still mentions on GitHub: look at it again
            step = 1 if line[i + 1 : i + 2] == "@" else 2
            out.append(line[i : i + step])
            i += step
            continue
        if char == "`" and skip_code:
            run = len(_BACKTICKS.match(line, i).group(0))  # type: ignore[union-attr]
            end = _code_span_end(line, i, run)
            out.append(line[i : end or i + run])
            i = end or i + run
            continue
        if char == "<":
            kept = _BR.match(line, i) if table_row else None
            kept = kept or _AUTOLINK.match(line, i)
            if kept:
                out.append(kept.group(0))
                i = kept.end()
                continue
            out.append("&lt;" if _TAG_START.match(line, i) else "<")
            i += 1
            continue
        url = _BARE_URL.match(line, i) if char in "hH" else None
        if url and (i == 0 or not line[i - 1].isalnum()):
            out.append(url.group(0))
            i = url.end()
            continue
        if char == "@" and _MENTION.match(line, i):
            out.append("@\u200b")
        else:
            out.append(char)
        i += 1
    return "".join(out)
