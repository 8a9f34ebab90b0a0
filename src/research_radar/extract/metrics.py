"""Metrics of one statement: numbers with units, named scores, fractions and comparisons.

Pure. A building block of `research_radar.extract.claims`, which callers outside this
package use instead. A metric value is always a number written in the statement, or the
seconds of a compound duration written there (`2m23s` -> 143 s, `extract.durations`);
numbers inside catalogue names and load conditions are not metrics.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from research_radar.extract.catalogue import Catalog
from research_radar.extract.compared import (
    ARROW,
    FROM_TO,
    baseline_values,
)
from research_radar.extract.conditions import CONDITION_FIELDS
from research_radar.extract.durations import in_seconds
from research_radar.extract.intended import intended_spans
from research_radar.extract.loads import load_rule_matches
from research_radar.extract.prefilter import RECENT_TEXTS, probe_of
from research_radar.extract.screened import finditer, search
from research_radar.extract.sharedunits import labelled_rates, per_second_before, slashed_before
from research_radar.extract.spanset import SpanSet
from research_radar.extract.units import (
    DEFAULT_METRIC_NAMES,
    NUMBER_BODY,
    NUMBER_PATTERN,
    PERF_UNITS,
    RATIO_UNITS,
    UNIT_PATTERN,
    canonical_unit,
    number_start,
    parse_number,
    part_number,
)
from research_radar.models import Conditions, Metric

__all__ = ["find_metrics", "metric_words"]


_RATE_WORD = r"(?:prefill|decode|generation|output|input|total|prompt|eval|gen)"
_METRIC = re.compile(
    rf"(?P<num>{NUMBER_PATTERN})(?:\s?[–—~-]\s?(?P<num2>{NUMBER_PATTERN}))?"
    rf"(?:\s?±\s?{NUMBER_PATTERN})?(?:\+(?=\s?[A-Za-z\u4e00-\u9fff]))?"
    rf"(?:\s?(?P<word>{_RATE_WORD})(?=\s?(?:tok|t/s|TPS)))?\s?(?P<unit>{UNIT_PATTERN})"
    r"(?![A-Za-z0-9]|/\s?[A-Za-z\u4e00-\u9fff])",
)
_PREFIXED = re.compile(
    rf"(?<![\w$])(?P<sign>X|\$\s?)(?P<num>{NUMBER_BODY})"
    rf"(?:\s?[–—-]\s?(?:X|\$\s?)?(?P<num2>{NUMBER_BODY}))?(?![\w%])"
)
"""A unit written before its number: `by X2-X22`, `up to X9`, `$132`."""
_BEFORE_X = re.compile(
    r"(?:\b(?:by|to|of|about|around|over|nearly|approximately|and)|~|\*\*)\s*(?:\*\*)?$", re.I
)
"""What stands before `X9` when it is a ratio, not a name (`X11 server`)."""
_RATIO_WORD = re.compile(
    rf"(?:speed-?up|加速比)\s?(?:of|is|为|是|达到|达|[:：=])\s?(?P<num>{NUMBER_PATTERN})"
    rf"(?:\s?[–—~-]\s?(?P<num2>{NUMBER_PATTERN}))?(?!\s?(?:[%x×倍]|{UNIT_PATTERN})|[\d.])",
    re.I,
)
"""`加速比为 3.2`, `speedup of 1.8`, `speedup of 1.2-1.5`: a ratio (or its range) named, not
written with its unit."""
_RATIO_BETWEEN = re.compile(
    rf"(?:speed-?up|加速比)\s?(?:在|介于)\s?(?P<num>{NUMBER_PATTERN})\s?[–—~-]\s?"
    rf"(?P<num2>{NUMBER_PATTERN})\s?之间",
    re.I,
)
"""`加速比在 1.18-2.74 之间`: the range of a ratio named; both ends are the author's."""
_RATE_BEFORE = re.compile(
    rf"(?<![A-Za-z])(?P<unit>QPS|RPS|TPS)\s?(?:达到|可达|高达|提升[至到]|reach(?:es|ed)?|achieves?|"
    rf"of up to)\s?(?P<num>{NUMBER_PATTERN})(?!\s?(?:[%x×倍]|{UNIT_PATTERN})|[\d.])",
    re.I,
)
"""`QPS 达到 15`, `TPS reaches 1200`: a rate named before the number it reached (not
`QPS=4`, a load)."""
_TOKEN_THROUGHPUT = re.compile(
    r"\btoken(?:\s(?:output|input|generation))?\sthroughput\b"
    r"(?:(?!batch|concurren|request|length|GPU|user|client|input|prompt|and\b)[^\d.;:()\n]){0,40}?"
    r"\b(?:of|is|was|at|reach(?:es|ed)?|peaks?)\s(?:(?:about|around|roughly|nearly|approximately|"
    rf"~)\s?)?(?P<num>{NUMBER_PATTERN})(?!\s?(?:[%x×]|{UNIT_PATTERN})|\.?\d|\s?[KkMB]\b)",
    re.I,
)
"""`total token throughput of roughly 3000`: a token throughput said without its unit is
tokens per second (not `at concurrency of 64`, a load)."""
_BARE_FASTER = re.compile(
    rf"(?<![\w.])(?P<num>{NUMBER_PATTERN})(?:\*\*)?\s(?:faster|slower)\s(?:than|over)\b", re.I
)
"""`**5.6** faster than vanilla decoding`: a ratio written without its `x`."""
_UNIT_THEN_NUMBER = re.compile(
    rf"[(（]\s?(?P<unit>{UNIT_PATTERN})\s?[)）]\s?(?:为|是|约为|达到|[:：=])\s?(?P<num>{NUMBER_PATTERN})"
    rf"(?!\s?(?:[%x×倍]|{UNIT_PATTERN})|[\d.])"
)
"""`最大推理速度(token / s)为 120`: the unit in parentheses, then its number."""
_CURRENCY_AFTER = re.compile(rf"(?P<num>{NUMBER_PATTERN})\s?(?:美元|USD|dollars)")
_MEMORY_UNITS = {"GB", "GiB", "MiB", "MB", "TB"}
_SIZE_LETTERS = {"M": "MB"}
"""`38 M 内存`, `660M的额外内存`: a bare M, which the unit pattern takes only before a
memory word (elsewhere `M` is a million, a matrix dimension or a model size)."""
_MEMORY_CONTEXT = re.compile(
    r"memory|VRAM|RAM usage|footprint|peak|resident|显存|内存|交换空间|占用|uses|saves?|节省|"
    r"KV[ -]?(?:cache )?size|"
    r"需要|仅需|消耗|takes|file size|model size|size on disk|\bmem\b|模型大小|文件大小",
    re.I,
)
_POWER = re.compile(r"功耗|功率|power|energy|watts?", re.I)
_POWER_SPEC = re.compile(r"TDP|limit|cap\b|限制|上限|额定", re.I)
_SPEC_AFTER = re.compile(
    r"\s?(?:of\s)?(?:(?:unified|system|GPU|device|host|HBM)\s)?(?:memory|VRAM|RAM)\b"
    r"(?!\s(?:usage|use|footprint|consumption)\b)",
    re.I,
)
"""`24GB VRAM`: a part's size; not `3.4GB VRAM usage`, what a run used."""
_MINIMUM_AFTER = re.compile(r"\+(?![\d.])")
"""`24GB+`: the least a run needs, a requirement rather than a measurement."""
_SPEC_AFTER_ZH = re.compile(r"\s?(?:显存|内存)的")
_STOPS = frozenset(",，;；。、")
_AT_LEAST = re.compile(
    r"(?:最低|至少|最少|不低于|at least|minimum(?: of)?)\s?(?:需要|要求)?\s?[~约]?$", re.I
)
"""What stands right before the least a run needs (a requirement, not a measurement)."""
_USE_VERB = re.compile(
    r"uses?|using|takes?|consum|peak|usage|footprint|需要|仅需|消耗|占用|峰值", re.I
)


def _is_spec(text: str, match: re.Match[str]) -> bool:
    """`(30GB memory)`, `16GB 内存的 MacBook`, `6GB 显存的显卡`, `24GB+ unified memory`: a
    part's size or the least a run needs, a condition;
    `内存要求：至少2G，`, `最低3G内存`, `at least 8 GB`: what a run needs (`显存占用 9.6G，` is
    read)."""
    if _SPEC_AFTER_ZH.match(text, match.end()):
        return True
    before = text[max(0, match.start() - 30) : match.start()]
    if _AT_LEAST.search(before[-12:]):
        return True
    if match.group("unit") == "G" and text[match.end() : match.end() + 1] in _STOPS:
        return not _USE_VERB.search(before[-20:])
    after = _SPEC_AFTER.match(text, match.end()) or _MINIMUM_AFTER.match(text, match.end())
    return bool(after) and not _USE_VERB.search(before)


_NAMED = re.compile(
    r"(?P<name>WER|CER|PPL|perplexity|KL(?:D| divergence)?|NLL|RTF|accuracy|acc|success rate|"
    r"BLEU|FID|(?:dir)?CLIP(?: score)?|pass@1|成功率|准确率|均分|得分|"
    r"(?:(?:mean|average|avg) )?accept(?:ance)? (?:length|len)|接受长度|平均)"
    r"\s*(?:of|=|:|：|is|was|为|约为|达到|达|低至|仅为|只有|(?:上升|下降|升|降|增加|增|减少)[至到]|"
    r"[(（](?=\s?[\d.]+\s?[)）]))?\s*"
    r"(?:about|around|roughly|approximately|nearly|大约|约|~|≈)?\s*(?:\*\*)?"
    rf"(?P<num>{NUMBER_PATTERN})(?P<pct>\s?%)?(?P<den>/\d+(?![.\d]))?(?!\s?tokens?\b)",
    re.I,
)
_NAME_WORDS = re.compile(
    r"prefill|decode|TTFT|TPOT|ITL|E2E|latency|throughput|speed-?up|acceptance|bandwidth|"
    r"memory|VRAM|goodput|tokens/round|step time|success rate|accuracy|WER|CER|"
    r"加速|吞吐|延迟|显存|首字|速度|接受率|成功率|准确率",
    re.I,
)
_SCORE_WORDS = re.compile(
    r"acceptance(?: rate)?|accuracy|scores?|AIME(?: ?\d{4})?|pass@\d+|GPQA(?:-Diamond)?|"
    r"MMLU(?:-Pro)?|GSM8K|HumanEval|SWE-bench(?: Verified)?|success rate|win rate|hit rate|"
    r"occupancy|utili[sz]ation|接受率|准确率|成功率|命中率|得分|利用率",
    re.I,
)
"""What a percentage measures, when named next to it (`83% draft acceptance`)."""
_CLAUSE_BREAK = re.compile(r"[,;，；。:：()（）/]|\s(?:and|or|but|vs\.?|versus)\s|和|与")
_FRACTION_CONTEXT = re.compile(
    r"success|task|episode|pass|accept|correct|成功|任务|通过|接受|正确", re.I
)
_COMPARE_GAP = re.compile(
    r"\s*(?:[(（][^()（）]{0,20}[)）]\s*)?(?:vs\.?|versus|对比?|compared (?:with|to))\s?[^\n]{0,30}?"
    rf"(?={NUMBER_PATTERN})",
    re.I,
)


_SPEEDUP_WORDS = re.compile(
    r"faster|slower|higher|lower|more|less|fewer|better|worse|speed-?ups?|improvements?|increase|"
    r"reduction|reduced|boost|gains?|throughput|latency|over|vs\.?|versus|than|on|in|at|for|with|"
    r"from|when|smaller|larger|bigger|cheaper|the|as|TTFT|TPOT|E2E|acceleration|efficiency",
    re.I,
)
_PART_WORDS = re.compile(
    r"NVIDIA|AMD|Intel|Apple|Huawei|Ascend|GPUs?|NPUs?|CPUs?|nodes?|cards?|NICs?|cores?|"
    r"chips?|devices?|servers?|machines?|experts?|replicas?|instances?|SSDs?|links?",
    re.I,
)


def _blocked_spans(text: str, cat: Catalog) -> list[tuple[int, int]]:
    """Spans whose numbers are conditions, not metrics."""
    spans = [(m.start, m.end) for name in CONDITION_FIELDS for m in cat.find(name, text)]
    spans.extend(match.span() for matches in load_rule_matches(text) for match in matches)
    spans.extend(intended_spans(text))  # `Target: 2x`, `预计提升30%`: no measurement
    return spans


@dataclass
class _Found:
    """Metrics found so far in one statement, and the number spans they use."""

    text: str
    cat: Catalog
    items: list[tuple[int, Metric]] = field(default_factory=list)
    spans: list[tuple[int, int]] = field(default_factory=list)
    _taken: SpanSet | None = None
    """`_blocked_spans` of the text and `spans`, read when a rule first finds a number:
    most table cells and many statements have none to ask about (issue #19)."""

    def free(self, span: tuple[int, int]) -> bool:
        if self._taken is None:
            self._taken = SpanSet([*_blocked_spans(self.text, self.cat), *self.spans])
        return not self._taken.overlaps(span)

    def unread(self, span: tuple[int, int]) -> bool:
        """No metric is read at `span` yet (a condition may be: see `free`)."""
        return not any(start < span[1] and span[0] < end for start, end in self.spans)

    def add(self, span: tuple[int, int], metric: Metric) -> None:
        self.items.append((span[0], metric))
        self.spans.append(span)
        if self._taken is not None:
            self._taken.add(span)


def find_metrics(
    text: str, cat: Catalog, conditions: Conditions, context: str = ""
) -> list[Metric]:
    """The metrics of one statement, in the order they are written.

    `context` (a table cell's column header) tells what a bare memory size measures.
    """
    if not probe_of(text).has_digit:
        return []  # every metric is a number written in the statement
    key = (text, context)  # all the metrics depend on (besides the catalogue)
    known = _FOUND.get(key)
    if known is None or known[0] is not cat:
        if len(_FOUND) > RECENT_TEXTS:
            _FOUND.clear()
        # `2m23s`, `1分23秒`: read as the seconds they span (extract.durations)
        known = (cat, _find_metrics(in_seconds(text), cat, context))
        _FOUND[key] = known
    return [metric.model_copy() for metric in known[1]]  # callers own what they get


_FOUND: dict[tuple[str, str], tuple[Catalog, list[Metric]]] = {}
"""The metrics of the statements and cells read lately: table cells and set-up lines
repeat within a document (issue #19)."""


def _find_metrics(text: str, cat: Catalog, context: str) -> list[Metric]:
    probe = probe_of(text)  # the rules run only where their needles are (issue #19)
    found = _Found(text, cat)
    for match in _METRIC.finditer(text):
        if found.free(match.span("num")):
            for span, metric in _unit_metrics(text, match, cat, context):
                found.add(span, metric)
                for shared, bare in slashed_before(text, span[0], metric):
                    if found.free(shared):  # `45.4 / 74.8 ms`: one unit for both
                        found.add(shared, bare)
    for span, metric in labelled_rates(text):  # `tok/s: 45.2`, `每秒回复token数量: 78.11`
        if found.free(span):
            found.add(span, metric)
    for match in finditer(_NAMED, probe):
        if found.free(match.span("num")):
            unit = "%" if match.group("pct") else (match.group("den") or "")
            metric = Metric(
                name=match.group("name"), value=parse_number(match.group("num")), unit=unit
            )
            found.add(match.span("num"), metric)
    for span, unit, (start, end) in per_second_before(probe):  # `每秒7个token`
        if found.unread(span):  # a count said per second is a rate, never a load
            value = parse_number(text[span[0] : span[1]])
            found.add(
                span,
                Metric(name=_metric_name(text, start, end, unit, None), value=value, unit=unit),
            )
    _prefixed(text, found)
    for rule in (_RATIO_WORD, _RATIO_BETWEEN):
        for match in finditer(rule, probe):
            for group in ("num", "num2"):
                if match.group(group) and found.free(match.span(group)):
                    value = parse_number(match.group(group))
                    found.add(match.span(group), Metric(name="speedup", value=value, unit="x"))
    for match in finditer(_UNIT_THEN_NUMBER, probe):
        if found.free(match.span("num")):
            unit = canonical_unit(match.group("unit"))
            name = _metric_name(text, match.start(), match.end(), unit, None)
            found.add(
                match.span("num"),
                Metric(name=name, value=parse_number(match.group("num")), unit=unit),
            )
    for match in finditer(_BARE_FASTER, probe):
        if found.free(match.span("num")):
            value = parse_number(match.group("num"))
            found.add(match.span("num"), Metric(name="speedup", value=value, unit="x"))
    for match in finditer(_TOKEN_THROUGHPUT, probe):
        if found.free(match.span("num")):
            value = parse_number(match.group("num"))
            found.add(match.span("num"), Metric(name="throughput", value=value, unit="tok/s"))
    for match in finditer(_RATE_BEFORE, probe):
        if found.free(match.span("num")):
            value = parse_number(match.group("num"))
            unit = canonical_unit(match.group("unit"))
            found.add(match.span("num"), Metric(name="throughput", value=value, unit=unit))
    _fractions(text, found)
    _propagated(text, found)
    found.items.sort(key=lambda item: item[0])
    _bare_pairs(text, found)
    return baseline_values(text, found.items, cat)


def _unit_metrics(
    text: str, match: re.Match[str], cat: Catalog, context: str = ""
) -> list[tuple[tuple[int, int], Metric]]:
    unit = _SIZE_LETTERS.get(match.group("unit")) or canonical_unit(match.group("unit"))
    counted = (
        unit == "x" and match.group("unit") != "倍"
    )  # `11倍 GPU 显存`: a ratio, never `11x GPU`
    if counted and _COUNTED.match(text, match.end()) and _is_count(text[match.end() :], cat):
        return []
    if counted and part_number(text[: match.start()], match["num"], text[match.end("num") :]):
        return []  # `Xeon W-3175X`: a part's model number
    window = text[max(0, match.start() - 30) : match.end() + 24] + " " + context
    if unit in _MEMORY_UNITS and (not _MEMORY_CONTEXT.search(window) or _is_spec(text, match)):
        return []
    if unit == "W" and (not _POWER.search(window) or _POWER_SPEC.search(window)):
        return []  # `power limited to 330W`, `TDP：400W`: a part's rating, not a measurement
    name = _metric_name(text, match.start(), match.end(), unit, match.group("word"))
    groups = ["num"] + (["num2"] if match.group("num2") else [])
    spans = [match.span(g) for g in groups]
    spans[0] = (number_start(text, spans[0][0]), spans[0][1])  # `5%-30%`: 30, not -30
    return [
        (span, Metric(name=name, value=parse_number(text[span[0] : span[1]]), unit=unit))
        for span in spans
    ]


def _prefixed(text: str, found: _Found) -> None:
    """`X9` and `$132`: a ratio or a cost written with its unit first; `300 美元`."""
    if "X" in text or "$" in text:
        for match in _PREFIXED.finditer(text):
            unit = "x" if match.group("sign") == "X" else "$"
            if unit == "x" and not _BEFORE_X.search(
                text[max(0, match.start() - 16) : match.start()]
            ):
                continue
            for group in ("num", "num2"):
                span = match.span(group)
                if match.group(group) and found.free(span):
                    name = _metric_name(text, match.start(), match.end(), unit, None)
                    value = parse_number(match.group(group))
                    found.add(span, Metric(name=name, value=value, unit=unit))
    if "美元" in text or "USD" in text or "dollars" in text:
        for match in _CURRENCY_AFTER.finditer(text):
            if found.free(match.span("num")):
                metric = Metric(name="cost", value=parse_number(match.group("num")), unit="$")
                found.add(match.span("num"), metric)


def _fractions(text: str, found: _Found) -> None:
    """`9/20 tasks`, `515/539 drafts accepted`: counts out of a total."""
    if not search(_FRACTION_CONTEXT, probe_of(text)):
        return
    for match in _FRACTION.finditer(text):
        numerator, denominator = int(match.group(1)), int(match.group(2))
        if denominator > 0 and numerator <= denominator and found.free(match.span(1)):
            metric = Metric(name="count", value=float(numerator), unit=f"/{denominator}")
            found.add(match.span(1), metric)


_COUNTED = re.compile(r"\s?(?:\d|[A-Za-z])")
_FRACTION = re.compile(r"(?<![\w./])(\d{1,4})/(\d{1,4})(?![\w/]|\.\d)")


def _is_count(rest: str, cat: Catalog) -> bool:
    """`2× B70` or `16 × 9`: a count or a dimension, not a speed-up."""
    if re.match(r"\s?\d", rest):
        return True
    if any(m.start <= 1 for m in cat.find("hardware", rest[:40])):
        return True
    word = re.match(r"\s?([A-Za-z][\w.-]*)", rest)
    if not word or _SPEEDUP_WORDS.fullmatch(word.group(1)):
        return False
    # `8 × mlx5 NICs`, `2 × NVIDIA A10`, `4 x GPUs`: a count of parts
    return bool(re.search(r"\d", word.group(1))) or _PART_WORDS.fullmatch(word.group(1)) is not None


def _metric_name(text: str, start: int, end: int, unit: str, word: str | None) -> str:
    if word:
        return word.lower()
    name = _written_name(text, start, end, unit)
    return _directed(name, text, start, end) if unit in ("%", "pp") else name


_DOWN = (
    r"lower|less|fewer|smaller|shorter|cheaper|reductions?|reduced|decreased?|drops?|"
    r"降低|减少|下降|缩短|节省|减小"
)
_UP = r"higher|more|greater|larger|increased?|improvements?|improved|gains?|提升|提高|增加|增长"
_FASTER = r"faster|quicker|加快|加速"
_DIRECTION_AFTER = re.compile(
    rf"\s?(?:\*\*)?\s?(?:(?P<down>{_DOWN})|(?P<fast>{_FASTER})|(?P<up>{_UP}))(?![A-Za-z])", re.I
)
_DIRECTION_BEFORE = re.compile(
    rf"(?:(?P<down>{_DOWN}|reduc(?:es?|ing)|cut(?:s|ting)?|lowers?|sav(?:es?|ing))|"
    rf"(?P<fast>{_FASTER}|speeds? up)|(?P<up>{_UP}|increas(?:es|ing)|improv(?:es|ing)|"
    r"boost(?:s|ed|ing)?|rais(?:es|ed|ing)))"
    r"(?:了?|\s(?:\w+\s){0,3}by)\s?(?:about|around|up to|nearly|over|~|约|近|超过)?\s?$",
    re.I,
)
_CHANGES = {"down": "reduction", "fast": "speedup", "up": "increase"}
_CHANGES_ZH = {"down": "降低", "fast": "加速", "up": "提升"}


def _directed(name: str, text: str, start: int, end: int) -> str:
    """`latency 0.48 (52% lower)`, `reduces latency by 52%`, `延迟降低了52%`: a percentage
    said to be lower, faster or higher than its baseline is a change of the metric it
    names (`latency reduction 52 %`), not the metric itself; the report shows the name."""
    found = _DIRECTION_AFTER.match(text, end) or _DIRECTION_BEFORE.search(
        text, max(0, start - 40), start
    )
    if found is None:
        return name
    key = next(k for k in _CHANGES if found.group(k))
    if name in ("change", "value"):
        return _CHANGES[key]
    if _RATIO_WORDS.fullmatch(name) or any(
        word in name.lower() for word in (*_CHANGES.values(), *_CHANGES_ZH.values())
    ):
        return name
    if re.search(r"[\u4e00-\u9fff]", name):
        return name + _CHANGES_ZH[key]  # `延迟降低`: a Chinese name takes a Chinese change
    return f"{name} {_CHANGES[key]}"


def _written_name(text: str, start: int, end: int, unit: str) -> str:
    """The metric a number's words or unit name, whatever direction it is said in."""
    if unit in ("%", "pp"):
        named = _nearest_name(text, start, end)
        if named:
            return named
    ratio = unit in RATIO_UNITS
    window = text[max(0, start - 40) : start]
    before = [
        m for m in _NAME_WORDS.finditer(window) if ratio or not _RATIO_WORDS.fullmatch(m.group(0))
    ]
    tail = text[end : end + 40]
    after = _NAME_AFTER.match(tail)
    if after and not ratio and _RATIO_WORDS.fullmatch(after.group("name")):
        after = None  # `2.1x speedup (120 tok/s vs. 57 tok/s)`: the tok/s are no speed-up
    if before and (after is None or _NAME_JOIN.fullmatch(window[before[-1].end() :])):
        return before[-1].group(0)
    if after:
        return after.group("name")
    if unit.endswith("B/s") and unit[0] in "MGT":
        return "bandwidth"
    if unit in _MEMORY_UNITS:
        return "memory"
    if "FLOP" in unit:
        return "compute"
    return DEFAULT_METRIC_NAMES.get(unit, "value")


_NAME_AFTER = re.compile(
    rf"\s?(?:\*\*)?\s?(?P<name>{_NAME_WORDS.pattern})(?![A-Za-z])"
    r"(?!\s?(?:\*\*)?\s?(?:[:：=(（]|is\b|of\b|为|是|达到?)?\s?(?:\*\*)?\s?[-+~≈约]?\d)",
    re.I,
)
"""A metric word right after a number (`5x Latency Reduction`, `105.5 tok/s decode`, `1.7×
加速`) names it, unless a number follows it, whose name it is (`prefill 3500 tok/s decode
42 tok/s`)."""
_NAME_JOIN = re.compile(
    r"(?:\*\*)?\s?(?:[:：=(（]|is|was|of|at|reach(?:es|ed)?|to|为|是|约为?|达到?|高达|仅为?)?"
    r"\s?(?:\*\*)?\s?(?:about|around|roughly|up to|~|≈|约)?\s?",
    re.I,
)
"""What joins a metric word to its number (`decode: 42`, `TTFT is 120`): a word before the
number so joined names it, whatever follows the number."""


def _nearest_name(text: str, start: int, end: int) -> str:
    """The metric word nearest a percentage: before it, or after it in the same clause.

    After it, a score word may follow a few words later (`83% draft acceptance`); a
    throughput word only right away (`86% prefill`, `37% of prefill`).
    """
    window = text[max(0, start - 40) : start]
    tail = text[end : end + 30]
    cut = _CLAUSE_BREAK.search(tail)
    tail = tail[: cut.start() if cut else None]
    candidates = [(len(window) - m.end(), 1, m.group(0)) for m in metric_words(window)]
    for m in metric_words(tail):
        close = re.fullmatch(r"\s*(?:of\s+(?:the\s+)?)?", tail[: m.start()]) is not None
        if close or _SCORE_WORDS.fullmatch(m.group(0)):
            candidates.append((m.start(), 2, m.group(0)))
    return min(candidates)[2] if candidates else ""


@lru_cache(maxsize=8192)
def metric_words(text: str) -> tuple[re.Match[str], ...]:
    """Metric words of `text` that are whole words (`WER`, not the end of `lower`).

    Read once per text: a table's header and row labels are asked again for every cell,
    by the rules and by the number reader (its case-insensitive alternations with CJK
    branches cost 10 µs on a ten-letter label, issue #19). Screening them by their
    needles instead cost the real documents more than it saved: most texts asked are the
    short windows before a number, each read once."""
    found = [m for rx in (_NAME_WORDS, _SCORE_WORDS) for m in rx.finditer(text)]
    return tuple(
        m
        for m in found
        if not _LETTER.match(text[m.start() - 1 : m.start()] or " ")
        and not _LETTER.match(text[m.end() : m.end() + 1] or " ")
    )


_LETTER = re.compile(r"[A-Za-z]")
_RATIO_WORDS = re.compile(r"speed-?up|加速", re.I)
"""A speed-up names a ratio: `2.1x speedup (120 tok/s vs. 57 tok/s)` names the 2.1x, while
its tok/s are the two systems' throughputs (the unit's own name)."""


def _propagated(text: str, found: _Found) -> None:
    """Bare numbers compared with a measured one take its unit (`74 vs 38 tok/s`)."""
    last_unit = ""
    probe = probe_of(text)
    last_end = 0
    for pattern in (ARROW, FROM_TO):
        for match in finditer(pattern, probe):
            if _NEW_LABEL.search(text, last_end, match.start()):
                last_unit = ""  # `52.8% → 66.4%，平均接受长度 2.58 → 2.99`: no % carried
            target = _METRIC.match(text, match.end())
            own = canonical_unit(match.group("ua")) if match.group("ua") else last_unit
            unit = canonical_unit(target.group("unit")) if target else own
            if unit:
                last_unit, last_end = unit, match.end()
                _add_bare(text, found, match.span("a"), unit)
                # `from 24GB to 9.8GB`: the far end is read as the near one is
                end = target.span("num") if target else _number_at(text, match.end())
                _add_bare(text, found, end, unit)
    if not found.items and not _COMPARE_CUE.search(text):
        return  # no number to link a bare one to, and no cue to link it across
    by_position = dict(found.items)
    backs: list[tuple[Metric, int]] | None = None
    for number in _NUMBER.finditer(text):
        gap = _COMPARE_GAP.match(text, number.end())
        if not (gap or by_position) or not found.free(number.span()):
            continue  # (`_compare` would link it to nothing)
        if backs is None and by_position:
            backs = _compared_ends(text, by_position)
        _compare(text, found, number, gap, backs or [])


def _compared_ends(text: str, by_position: dict[int, Metric]) -> list[tuple[Metric, int]]:
    """Each measured number's metric, and where a `vs` / `对` after it ends (or -1)."""
    ends = []
    for start, metric in by_position.items():
        back = _COMPARE_GAP.match(text, _end_of_metric(text, start))
        ends.append((metric, back.end() if back else -1))
    return ends


def _compare(
    text: str,
    found: _Found,
    number: re.Match[str],
    gap: re.Match[str] | None,
    backs: list[tuple[Metric, int]],
) -> None:
    """Link a bare number to a measured one across `vs` / `对` in either direction
    (`gap`: the cue after the number; `backs`: `_compared_ends`)."""
    target = _METRIC.match(text, gap.end()) if gap else None
    unit = canonical_unit(target.group("unit")) if target else ""
    if target and (
        unit in PERF_UNITS | {"%"}
        # `5.31 vs 5.49 GB`: a size shared only where the rules read the far one as used
        or (unit in _MEMORY_UNITS and any(at == target.start("num") for at, _ in found.items))
    ):
        _add_bare(text, found, number.span(), unit)
        return
    for metric, end in backs:
        if end == number.start() and not _METRIC.match(text, number.start()):
            name = metric.name
            found.add(
                number.span(),
                Metric(name=name, value=parse_number(number.group(0)), unit=metric.unit),
            )
            return


def _end_of_metric(text: str, start: int) -> int:
    match = _METRIC.match(text, start) or _NAMED.match(text, start)
    if match:
        return match.end()
    number = _NUMBER_OF.match(text, start)
    return number.end() if number else start


def _number_at(text: str, position: int) -> tuple[int, int]:
    number = _NUMBER.match(text, position)
    return number.span() if number else (position, position)


_NUMBER = re.compile(NUMBER_PATTERN)
_NEW_LABEL = re.compile(r"[,;，；。:：]\s*[^\d\s]*[A-Za-z\u4e00-\u9fff]{2,}")
"""A new clause that names what its numbers are: a unit carried to it would be a guess."""
_COMPARE_CUE = re.compile(r"vs|versus|对|compared (?:with|to)", re.I)
"""What every `_COMPARE_GAP` match holds."""
_NUMBER_OF = re.compile(rf"{NUMBER_PATTERN}(?:/\d+)?")


def _add_bare(text: str, found: _Found, span: tuple[int, int], unit: str) -> None:
    if span[1] > span[0] and found.free(span):
        name = _metric_name(text, span[0], span[0], unit, None)
        found.add(span, Metric(name=name, value=parse_number(text[span[0] : span[1]]), unit=unit))


_PAIR = re.compile(
    rf"({NUMBER_PATTERN})\s?(?:vs\.?|versus)\s?({NUMBER_PATTERN})(?!\s?(?:{UNIT_PATTERN}|[/\d]))",
    re.I,
)


def _bare_pairs(text: str, found: _Found) -> None:
    """`4147 vs 927 at 2K` after `prefill 1795 vs 927 tok/s`: the pair takes that unit."""
    for match in finditer(_PAIR, probe_of(text)):
        if not (found.free(match.span(1)) and found.free(match.span(2))):
            continue
        earlier = [m for at, m in found.items if at < match.start() and m.unit not in RATIO_UNITS]
        if earlier and earlier[-1].unit:
            for group in (1, 2):
                metric = earlier[-1].model_copy(update={"value": parse_number(match.group(group))})
                found.add(match.span(group), metric)
    found.items.sort(key=lambda item: item[0])
