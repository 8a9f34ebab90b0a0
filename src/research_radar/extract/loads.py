"""The load of one statement: how it is run (batch, lengths, concurrency, rate, GPUs,
parallelism) and how often (runs, percentiles), read with `extract.loadrules`.

Pure. A building block of `research_radar.extract.conditions`; callers outside this
package use `research_radar.extract.claims` instead. Values are the strings written in
the text, with thousands separators and spaces removed. The rules' matches also tell
`extract.metrics` which numbers are conditions rather than measurements.
"""

from __future__ import annotations

import re
from functools import lru_cache
from itertools import compress

from research_radar.extract.catalogue import Catalog, Mention
from research_radar.extract.loadrules import LOAD_RULES
from research_radar.extract.prefilter import NeedleIndex, Probe, probe_of
from research_radar.extract.screened import Family, alive_finditer, finditer, search

__all__ = ["load_rule_matches", "read_load", "several_values"]


_LOAD_INDEX = NeedleIndex(rule.needles for rule in LOAD_RULES)
_PERCENTILE = re.compile(r"(?<![A-Za-z])[Pp](50|90|95|99(?:\.9)?)(?![\d])")
_COUNT = re.compile(
    r"(\d{1,3})\s?(?:[×xX*]|个|张|块|台|卡)\s?$|\b(?:[Oo]n|[Ww]ith|[Uu]sing|[Aa]cross)\s(\d{1,3})\s$|"
    r"^\W{0,3}(\d{1,3})\s$|[:：]\s?(\d{1,3})\s$"
)
"""`8x H100`, `4 个 A100`, `on 8 H100`, `Using 16 H800`, `Hardware: 8 A100`: how many of a
part."""
_WORD_COUNT = re.compile(
    r"(?:\b(two|three|four|six|eight|sixteen|single|one|dual)|(双|两)(?:张|块|卡|个)?|"
    r"(二|四|八|十六)(?:张|块|卡|个|台)|(单|一)(?:张|块|卡|个))"
    r"\s?(?:\d{2,3}\s?GB?\s)?(?:(?:NVIDIA|AMD|GeForce|Tesla|Intel|Ascend)[\s-]?)?$",
    re.I,
)
"""`two H100`, `a single NVIDIA A100`, `dual RTX 3090`, `a single 80GB A100`, `one H800`,
`两张 A100`, `八卡 H800`, `单卡 RTX 4090`; a bare `四` or `单` needs its measure word
(`单卡吞吐` alone is read by the rules of `extract.loadrules`, after any count of GPUs the
statement writes)."""
_WORDS = {
    "single": "1",
    "one": "1",
    "单": "1",
    "一": "1",
    "two": "2",
    "dual": "2",
    "three": "3",
    "six": "6",
    "four": "4",
    "eight": "8",
    "sixteen": "16",
    "双": "2",
    "两": "2",
    "二": "2",
    "四": "4",
    "八": "8",
    "十六": "16",
}
_COUNT_AFTER = re.compile(
    r"\s?(?:(?:HBM\w*|PCIe|SXM\d?)\s?)?[×xX*]\s?(\d{1,3})(?![\d.]|\s?(?!GPUs?\b|cards?\b)[A-Za-z])"
)
"""`H100 80GB HBM3 * 8`, `A100 x 2`: the count after the part."""
_COUNT_BRACKETED = re.compile(
    r"\s?(?:GPUs?\s?)?[(（]\s?(?:[×xX*]\s?(\d{1,3})|(\d{1,3})\s?[×xX*]|(\d{1,3})\s?(?:GPUs|cards))\s?[)）]"
)
"""`MI300X GPU(4x)`, `A100 (x8)`, `H100 (8 GPUs)`: the count in brackets after the part."""
_COUNT_NAMED = re.compile(
    r"(?<![\w.,$])(?!(?:19|20)\d\d\s)(\d{1,4})\s?(?:个|张|块|台)?\s(?:(?:NVIDIA|AMD|Intel|Ascend|Huawei)\s)?$"
)
_GPUS_AFTER = re.compile(
    r"\s?(?:\d+\s?GB\s)?(?:(?:SXM\d?|PCIe|HBM\w*)\s)?(?:GPUs|NPUs|accelerators|cards|GPU|NPU|卡|显卡)\b",
    re.I,
)
"""`8 H800 GPUs`, `64 NVIDIA A100 80GB GPUs`: a count written before the part, and the word
for the device after it."""


_IO_PAIR = re.compile(
    r"(?:ISL\s?/\s?OSL|input\s?/\s?output|in\s?/\s?out|prompt\s?/\s?(?:output|generation|completion)|"
    r"输入(?:长度)?\s?(?:/|和|与|、)?\s?输出(?:长度)?)(?:\s(?:sequence\s)?(?:lengths?|tokens|len))?"
    r"(?:\s?(?:长度|of|=|[:：]|为|是|are|is))?\s?"
    r"(\d[\d,]*[Kk]?)\s?/\s?(\d[\d,]*[Kk]?)(?!\d|\.\d)",
    re.I,
)
"""`ISL/OSL 1k/1k`, `input/output lengths of 1024/128`, `输入输出长度 1024/256`: a prompt and
an output length."""
_IO_SEQUENCE = re.compile(
    r"(?<![A-Za-z])(?:input|prompt|输入)\s?[=:：]?\s?(\d[\d,]*[Kk]?)(?:\s?tokens?)?\s?[,，;；、]?\s?"
    r"(?:and\s)?(?:output|generate|gen|decode|输出|生成)\s?[=:：]?\s?(\d[\d,]*[Kk]?)"
    r"(?!\d|\.\d|\s?(?:tok(?:en)?s?\s?/|tok/s))",
    re.I,
)
"""`input 2048, output 128`, `prompt 256, generate 256`, `输入 1024，输出 256`: a prompt
and an output length."""
_IN_OUT = re.compile(
    r"(?<![A-Za-z])in\s?[=:]?\s?(\d[\d,]*[Kk]?)\s?[,/;]?\s?out\s?[=:]?\s?(\d[\d,]*[Kk]?)(?!\d|\.\d|\s?of\b)|"
    r"(?<![\w.])(\d[\d,]*[Kk]?)\s?in\s?[,/;]\s?(\d[\d,]*[Kk]?)\s?out\b|"
    r"(?<![\w.])(\d[\d,]*[Kk]?)-in\b[\s,/;]{1,3}(\d[\d,]*[Kk]?)-out\b|"
    r"(?<![\w.])(\d[\d,]*[Kk]?)\stokens\sin\s?[,/;]?\s(\d[\d,]*[Kk]?)\stokens\sout\b",
    re.I,
)
"""`in 2k out 256`, `2K-in 256-out`: the short form of a prompt and an output length."""
_IO_BOTH = re.compile(
    r"(?<![A-Za-z])(?:input|prompt)\s(?:and|&)\s(?:output|generation)\s(?:sequence\s)?"
    r"(?:lengths|tokens)\s(?:of|are|were|=)\s(\d[\d,]*[Kk]?)\s(?:and|&)\s(\d[\d,]*[Kk]?)"
    r"(?!\d|\.\d)|"
    r"输入(?:和|与|、)?输出(?:的)?(?:序列)?(?:长度|token\s?数)\s?(?:分别)?(?:为|是)\s?"
    r"(\d[\d,]*[Kk]?)\s?(?:和|与|、|,|，)\s?(\d[\d,]*[Kk]?)(?!\d|\.\d)",
    re.I,
)
"""`input and output lengths of 1024 and 512`, `输入输出长度分别为 1024 和 512`: the two
lengths, in that order."""
_IO_TUPLE = re.compile(
    r"\(\s?(?:ISL|input|prompt|输入)(?:\s?(?:len\w*|tokens|长度))?\s?[,，]\s?"
    r"(?:OSL|output|gen\w*|completion|输出)(?:\s?(?:len\w*|tokens|长度))?\s?\)"
    r"\s?(?:=|of|:|：|为|是|are|is)?\s?\(\s?(\d[\d,]*[Kk]?)\s?[,，]\s?(\d[\d,]*[Kk]?)\s?\)",
    re.I,
)
"""`(input, output) = (128, 2048)`, `(ISL, OSL) of (1024, 128)`: a pair written as a tuple."""
_BY_TOKENS = re.compile(
    r"(?<![\w.×])(\d{3,}|\d+[Kk])\s?[×xX]\s?(\d[\d,]*[Kk]?)\s?tokens?\b(?!\s?(?:/|per\b|每))"
)
"""`Long prompts (2048×2048 tokens)`, `(512 x 128 tokens)`: a prompt length by an output
length, as a resolution is written (not `8 x 4096 tokens`, a batch of sequences, nor `1024 *
10 tokens`, a product)."""
_K_PAIR = re.compile(
    r"(?<![\w./])(\d+(?:\.\d+)?[Kk])\s?/\s?(\d+(?:\.\d+)?[Kk]|\d{2,5})(?![\w/]|\.\d)"
)
"""`1k/1k`, `2k/128`: a prompt length over an output length, as ISL/OSL columns write them."""


def read_load(text: str, cat: Catalog, *, counts: bool = True) -> dict[str, str]:
    """The load a statement writes (none inherited). Without `counts`, not how many of
    each part it names it runs on (`8x H100`): a caller that wants only the request's
    shape spares the catalogue a read of the text (issue #19)."""
    text = _uncoded(text)
    probe = probe_of(text)
    matched = load_rule_matches(text)  # (the rules' own look-up: `_LOAD_INDEX`)
    # no rule matched and no pair or percentile could match: most statements, one
    # look-up (issue #19)
    load = _request_load(text, probe, cat, matched) if any(matched) or _PAIRS.alive(probe) else {}
    if not counts:
        return load
    if "gpus" not in load:
        parts = (_part_count(text, m) for m in cat.find("hardware", text))
        if (first := next((n for n in parts if n is not None), None)) is not None:
            load["gpus"] = first
    return load


def _request_load(
    text: str, probe: Probe, cat: Catalog, matched: tuple[tuple[re.Match[str], ...], ...]
) -> dict[str, str]:
    """What `read_load` reads of the load rules' `matched` and the prompt/output pairs."""
    load: dict[str, str] = {}
    # the pairs' patterns run only where their needles are (#19)
    pair = search(_IO_PAIR, probe) if "/" in text else None
    if not pair and ("nput" in text or "NPUT" in text or "rompt" in text or "输入" in text):
        pair = search(_IO_SEQUENCE, probe)
    if not pair and ("out" in text or "OUT" in text or "Out" in text):
        pair = search(_IN_OUT, probe) or search(_IO_BOTH, probe)
    if not pair and "输出" in text:
        pair = search(_IO_BOTH, probe)
    if not pair and "/" in text:
        pair = search(_K_PAIR, probe)
    if not pair and "token" in text:
        pair = search(_BY_TOKENS, probe)
    if not pair and "(" in text and ("," in text or "，" in text):
        pair = search(_IO_TUPLE, probe)
    if pair:
        load["prompt"], load["output"] = (re.sub(r"[,\s]", "", g) for g in pair.groups() if g)
    # only the rules that matched (a statement matches few of them, issue #19)
    for rule, matches in zip(compress(LOAD_RULES, matched), filter(None, matched), strict=True):
        if rule.key in load:
            continue
        if rule.key != "rate":
            # `at 32K context 30 tok/s`, `64 并发 1200 tokens/s`: the number after the key
            # is the measurement; the load is written before the key (a later rule's)
            matches = tuple(m for m in matches if not _measured(text, m))
            if not matches:
                continue
        match = matches[0]
        if rule.key in ("gpus", "context"):
            # `the RTX 4090 GPU`, `i7-13700K`: a part's name, not a count of GPUs or a context
            named = [(m.start, m.end) for m in cat.find("hardware", text)]
            found = (m for m in matches if not any(a <= _start(m) < b for a, b in named))
            if (counted := next(found, None)) is None:
                continue
            match = counted
        if _listed(text, match):
            continue  # `64 & 128 concurrent requests`: alternatives, neither the load
        if rule.key in _COUNTS and match.re.groups and _swept(text, match):
            continue  # `concurrency 1/8/32`: a sweep of the key
        raw = rule.fixed or next((g for g in match.groups() if g), "")
        if raw:
            load[rule.key] = re.sub(r"[,\s]", "", raw)
    if "context" in load and load["context"] in (load.get("prompt"), load.get("output")):
        del load["context"]  # `1k/1k`, `Prompt length: 2.8k` read as a context too
    percentiles = dict.fromkeys(f"p{m.group(1)}" for m in finditer(_PERCENTILE, probe))
    if percentiles:
        load["percentiles"] = ",".join(percentiles)
    return load


_PAIRS = Family(
    (_IO_PAIR, _IO_SEQUENCE, _IN_OUT, _IO_BOTH, _K_PAIR, _BY_TOKENS, _IO_TUPLE, _PERCENTILE)
)
"""The patterns `_request_load` runs besides the rules: where none could match and no rule
matched, it reads nothing."""


def _part_count(text: str, mention: Mention) -> str | None:
    """How many of a named part a text writes it runs on (`8x H100`, `8 H800 GPUs`, `A100 x
    2`, `two H100`), or None."""
    if (product := _times_machines(text, mention.start)) is not None:
        return product
    count = _count_before(text, mention.start)
    if count:
        return next(g for g in count.groups() if g)
    if _GPUS_AFTER.match(text, mention.end) and (
        before := _COUNT_NAMED.search(text, max(0, mention.start - 16), mention.start)
    ):
        return before.group(1)  # `each node holds 8 H800 GPUs`
    after = _COUNT_AFTER.match(text, mention.end) or _COUNT_BRACKETED.match(text, mention.end)
    if after:
        return next(g for g in after.groups() if g)
    word = _WORD_COUNT.search(text, max(0, mention.start - 14), mention.start)
    if word and not _MACHINE_AFTER.match(text, mention.end):
        # `two H100`, `两张 A100`; not `a single H100 node` (eight of them)
        return _WORDS[next(g for g in word.groups() if g).lower()]
    return None


_MACHINES_TIMES = re.compile(
    r"(?<![\w.,])(\d{1,3})\s?(?:(?:nodes?|machines?|servers?|hosts?)\s?)?[x×*]\s?"
    r"(\d{1,3})\s?(?:[x×*]\s?)?$",
    re.I,
)
"""`2 x 8xH100 nodes`, `2 nodes × 8 H100`, `2x8 A100`: machines times the parts in each."""


def _times_machines(text: str, at: int) -> str | None:
    """The count of parts written as machines times the parts in each right before `at`
    (`2 nodes × 8 H100`: 16), or None."""
    product = _MACHINES_TIMES.search(text, max(0, at - 24), at)
    return str(int(product.group(1)) * int(product.group(2))) if product else None


def _counted_parts(text: str, cat: Catalog) -> set[str]:
    """Each count of a named part a text writes (`on one A100 GPU ... on eight A100 GPUs`:
    {1, 8}): a set-up that counts its parts twice counts none of its numbers' (issue #14)."""
    return {n for m in cat.find("hardware", text) if (n := _part_count(text, m)) is not None}


_MACHINE_AFTER = re.compile(
    r"\s?(?:\d+\s?GB\s)?(?:GPU\s)?(?:nodes?|servers?|machines?|boxes|box|instances?|systems?|"
    r"clusters?|节点|服务器|机器|整机|集群)",
    re.I,
)
"""`one H100 node`, `单台 A800 服务器`: a count of machines, not of GPUs."""


_LISTED = re.compile(r"(?<![\w.])\d+[Kk]?\s?(?:&|\band|\bor|和|或|、)\s?$")
"""`64 & 128`, `2 and 4`, `8 或 16`: the last of a list of values."""


_COUNTS = frozenset({"batch", "concurrency", "gpus", "tp", "ep", "rate"})
"""Keys whose value is never written as a pair (`1k/1k` is a prompt over an output)."""
_SWEEP = re.compile(r"\s?/\s?\d")


def _swept(text: str, match: re.Match[str]) -> bool:
    """`concurrency 1/8/32`, `TP 2/4`: a slash after the value lists the values swept."""
    end = next((match.end(g) for g in range(match.re.groups, 0, -1) if match.end(g) >= 0), -1)
    return end > 0 and _SWEEP.match(text, end) is not None


def _listed(text: str, match: re.Match[str]) -> bool:
    """Whether a rule's value is the last of a list of bare values (`64 & 128 concurrent
    requests`); `TP 8 and 64 concurrent requests` lists two keys' values, not one key's."""
    start = next((match.start(g) for g in range(1, match.re.groups + 1) if match.start(g) >= 0), -1)
    if start <= 0:
        return False
    before = _LISTED.search(text, max(0, start - 12), start)
    if before is None:
        return False
    end = before.start() + len(before.group(0).split()[0].rstrip("&、和或"))
    for matches in load_rule_matches(text):
        for other in matches:
            groups = range(1, other.re.groups + 1)
            if any(other.start(g) >= 0 and other.end(g) == end for g in groups):
                return False  # that number is another key's value
    return True


_VENDOR_BEFORE = re.compile(
    r"(?<![\w-])(?:NVIDIA|AMD|Intel|Ascend|Huawei|GeForce|Tesla)[\s-]$", re.I
)


def _count_before(text: str, at: int) -> re.Match[str] | None:
    """`8x H100`, `on 8 H100` right before a part; not the tail of `4,000 个 A100` (the
    window cuts the number); a vendor's name may stand between (`8 × NVIDIA H20`)."""
    vendor = _VENDOR_BEFORE.search(text, max(0, at - 10), at)
    at = vendor.start() if vendor else at
    start = max(0, at - 10)
    count = _COUNT.search(text[start:at])
    if count is None:
        return None
    first = start + next(count.start(g) for g in range(1, 5) if count.start(g) >= 0)
    return None if first and text[first - 1] in "0123456789,." else count


_MEASURED = re.compile(
    r"\s?(?:tok(?:en)?s?\s?/\s?s|tokens?\s?(?:per|/)\s?s(?:ec(?:ond)?)?\b|t/s|ms\b|s\b|sec\b|"
    r"seconds?\b|%|秒|毫秒|TFLOPS|GB/s|it/s|FPS\b|img/s|images?/s)",
    re.I,
)
"""A unit that makes a number a measurement, never a load value."""


def _measured(text: str, match: re.Match[str]) -> bool:
    """Whether a rule's value is followed by a measurement's unit (`context 30 tok/s`)."""
    if not match.re.groups:
        return False  # a flag rule (`greedy`): no value
    end = next((match.end(g) for g in range(match.re.groups, 0, -1) if match.end(g) >= 0), -1)
    return end > 0 and _MEASURED.match(text, end) is not None


def _start(match: re.Match[str]) -> int:
    """Where a load rule's value starts (its group, or the whole match of a flag rule)."""
    return match.start(1) if match.re.groups else match.start()


def several_values(text: str, cat: Catalog | None = None) -> set[str]:
    """The load keys a text gives more than one value of (`4 nodes with 32 GPUs ... 144
    GPUs`): a set-up that names several is no single value's set-up. Given the catalogue,
    counts of a named part count too (`training on one A100 GPU and inference on eight
    A100 GPUs`: the rules read the first count only), issue #14."""
    values: dict[str, set[str]] = {}
    matched = load_rule_matches(text)
    for rule, matches in zip(LOAD_RULES, matched, strict=True):
        for match in matches:
            raw = rule.fixed or next((g for g in match.groups() if g), "")
            values.setdefault(rule.key, set()).add(re.sub(r"[,\s]", "", raw))
    several = {key for key, found in values.items() if len(found) > 1}
    several.update(_listing_keys(text, matched))
    if cat is not None and "gpus" not in several and len(_counted_parts(text, cat)) > 1:
        several.add("gpus")
    if "-" in text:
        # `--batch-size 1 2 4`, `-p 512,1024`: a flag given a list sweeps its key
        for flag in _FLAG_LIST.finditer(text):
            several.update(_flag_keys(flag.group(0)))
    return several


_LIST_AFTER = re.compile(
    r"(?:\s?(?:[,，、&]|\band\b|\bor\b|和|或)\s?\d[\d,]*[Kk]?(?![\d.]))+"
    r"(?=\s?(?:tokens?\b|[.;；。)）]|$))",
    re.I,
)
"""`256 and 2048 tokens`, `1, 4, 8`: more values after a key's first, ending the clause."""


def _listing_keys(text: str, matched: tuple[tuple[re.Match[str], ...], ...]) -> set[str]:
    """The keys whose value starts a list of bare values (`Input lengths: 256 and 2048
    tokens`, `Batch size: 1, 8`): the rules read its first value, and the statement sets
    up neither (issue #14). `matched`: the rules' matches in the text (`load_rule_matches`)."""
    starts = {m.start(g) for ms in matched for m in ms for g in range(1, m.re.groups + 1)}
    listing: set[str] = set()
    for rule, matches in zip(LOAD_RULES, matched, strict=True):
        for match in matches:
            end = next(
                (match.end(g) for g in range(match.re.groups, 0, -1) if match.end(g) >= 0), -1
            )
            after = _LIST_AFTER.match(text, end) if end > 0 else None
            if after and not any(end < start < after.end() for start in starts):
                listing.add(rule.key)  # (a later number that is another key's value is no list)
    return listing


_FLAG_LIST = re.compile(
    r"(?<![\w-])--?[A-Za-z][\w-]*(?:\s+|\s?=\s?)(\d+)(?:\s?,\s?|\s+)\d+(?![\w.>])"
)


def _flag_keys(flag: str) -> set[str]:
    """The load keys a flag with a list of values names (`--batch-size 1 2 4` -> batch)."""
    first = re.sub(r"^(\S+?(?:\s+|\s?=\s?)\d+).*", r"\1", flag)
    return {
        rule.key
        for rule, matches in zip(LOAD_RULES, load_rule_matches(first), strict=True)
        if matches
    }


def _uncoded(text: str) -> str:
    """`a `input_len` of 2048`: a key in code read as a word (a space for each backquote,
    so that every match stands where it stands in the text)."""
    return text.replace("`", " ") if "`" in text else text


@lru_cache(maxsize=16384)
def load_rule_matches(text: str) -> tuple[tuple[re.Match[str], ...], ...]:
    """Each of `LOAD_RULES`' matches in a text, in order; read once per text, for the load
    and for the numbers it blocks from being metrics (issue #19)."""
    text = _uncoded(text)
    found: list[tuple[re.Match[str], ...]] = [()] * len(LOAD_RULES)
    probe = probe_of(text)
    for n in _LOAD_INDEX.known(probe):  # (their needles are in the text: not tested again)
        found[n] = tuple(alive_finditer(LOAD_RULES[n].regex, probe))
    return tuple(found)
