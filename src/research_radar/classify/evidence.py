"""The part of an item's text that is evidence of its own work (pure).

Words in an organisation or owner name ("kvcache-lab/fastserve"), in a credits,
acknowledgements, citation or related-work section, in links and in badges say nothing
about what the item itself does, so the classifier never reads them.
"""

from __future__ import annotations

import re

__all__ = ["evidence_text", "evidence_title"]

_NOT_EVIDENCE = re.compile(
    r"acknowledge?ments?|credits?|thanks|related\s+(?:work|projects?|papers?)|see\s+also"
    r"|citation|cite|bibtex|references?|license|licen[cs]ing|contributors?|contributing"
    r"|star\s+history|sponsors?|community|contact|致谢|鸣谢|相关工作|引用|参考|许可|贡献",
    re.IGNORECASE,
)
_HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
_HTML_HEADING = re.compile(r"^\s*<h([1-6])[^>]*>(.*?)</h\1>", re.IGNORECASE)
_CREDITS_LINE = re.compile(
    r"^\s*(?:[-*]\s*)?(?:we\s+(?:thank|acknowledge|are\s+grateful)|thanks\s+to|built\s+(?:on|upon)"
    r"|based\s+on\s+(?:the\s+)?(?:work|code)|inspired\s+by|credits?\b|acknowledg|this\s+project\s+"
    r"(?:uses|builds)|powered\s+by|special\s+thanks)",
    re.IGNORECASE,
)
_IMAGE = re.compile(r"!\[[^\]]*\]\([^)]*\)|<img[^>]*>")
_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
_URL = re.compile(r"https?://\S+|www\.\S+")
_OWNER_PATH = re.compile(r"(?<![\w/.-])[\w.-]+/([\w.-]+)")
_CODE_FENCE = re.compile(r"^\s*(```|~~~)")


def evidence_title(title: str) -> str:
    """The title without an owner: `kvcache-lab/fastserve` -> `fastserve`."""
    text = title.strip()
    if re.fullmatch(r"[\w.-]+/[\w.-]+", text):
        return text.split("/", 1)[1]
    return text


def evidence_text(text: str) -> str:
    """The text less credits/related-work/citation sections, code, links and owner names.

    A section ends at the next heading of the same or a higher level. A line that opens
    with thanks or credits ("Built on ...", "We thank ...") is dropped too.
    """
    if not text:
        return ""
    kept: list[str] = []
    skip_level = 0
    in_code = False
    for line in text.splitlines():
        # each pattern is tried only on a line holding what every match of it holds: a
        # README's lines mostly hold none, and trying them was half of this function (#19)
        if ("```" in line or "~~~" in line) and _CODE_FENCE.match(line):
            in_code = not in_code
            continue
        if in_code:
            continue
        heading = ("#" in line and _HEADING.match(line)) or (
            "<" in line and _HTML_HEADING.match(line)
        )
        if heading:
            level = (
                len(heading.group(1)) if heading.group(1).startswith("#") else int(heading.group(1))
            )
            if skip_level and level > skip_level:
                continue
            skip_level = level if _NOT_EVIDENCE.search(heading.group(2)) else 0
            if not skip_level:
                kept.append(heading.group(2))
            continue
        if skip_level or _CREDITS_LINE.match(line):
            continue
        kept.append(line)
    body = "\n".join(kept)
    if "![" in body or "<img" in body:
        body = _IMAGE.sub(" ", body)
    body = _LINK.sub(lambda match: match.group(1), body)
    if "http" in body or "www." in body:
        body = _URL.sub(" ", body)
    # no match spans a line break, and one needs a slash: only lines with one are read
    return "\n".join(
        _OWNER_PATH.sub(_after_owner, line) if "/" in line else line for line in body.split("\n")
    )


def _after_owner(match: re.Match[str]) -> str:
    return match.group(1)
