"""Fenced blocks that hold a benchmark tool's printed result -> lines the Markdown reader
reads (issue #14).

Pure. A building block of `research_radar.extract.markdown`; callers outside this package
use `research_radar.extract.claims` instead.

Fenced code is skipped, which is right for code; but a block can be what a benchmark tool
printed, the author's measurements:

- `label (unit): number` lines (vLLM/SGLang `benchmark_serving`: `Mean TTFT (ms): 85.2`,
  `Output token throughput (tok/s): 1234.56`) or `label: number unit` lines (`Avg
  latency: 1.23 seconds`), with settings lines among them (`Maximum request concurrency:
  64`), which are the load of the numbers, not claims;
- a pipe table (llama.cpp `llama-bench`: `| model | size | ... | test | t/s |`);
- a box-drawn table (`genai-perf`, `rich`, `tabulate`: `┃ Statistic ┃ avg ┃`, `+---+`).

- what a script logged while it ran: a tqdm progress bar (`100%|████| 50/50 [00:17<00:00,
  2.93it/s]`, whose rate is the run's unless the bar times loading), a logger's line
  (`2023-12-06 01:44:46,095 - INFO - Baseline: 17.52 seconds`, read without its prefix),
  a line of several pieces (`MACs: 1.2T, Latency: 0.35s`).

A block is read by its shape: most of its lines are such lines, two or more of them
measurements with a unit. Its measurement lines become list items and its tables pipe
tables, line for line (line numbers kept); everything else in it (the command, log
lines, dividers, totals) is blanked. A block tagged with a programming language is code.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator

from research_radar.extract.units import RATE_UNITS, UNIT_PATTERN, canonical_unit

__all__ = ["fenced_blocks", "unfence_tool_output"]


_FENCE = re.compile(r"\s*(`{3,}|~{3,})\s*([\w+#.-]*)")
_CODE_LANGUAGES = frozenset(
    [
        "python",
        "py",
        "python3",
        "ipython",
        "pycon",
        "cpp",
        "c",
        "c++",
        "cc",
        "cxx",
        "cuda",
        "cu",
        "h",
        "hpp",
        "rust",
        "rs",
        "go",
        "java",
        "kotlin",
        "scala",
        "js",
        "javascript",
        "ts",
        "typescript",
        "jsx",
        "tsx",
        "json",
        "jsonc",
        "json5",
        "yaml",
        "yml",
        "toml",
        "ini",
        "cfg",
        "conf",
        "dockerfile",
        "makefile",
        "make",
        "cmake",
        "sql",
        "html",
        "xml",
        "css",
        "diff",
        "patch",
        "jinja",
        "jinja2",
        "j2",
        "lua",
        "ruby",
        "rb",
        "php",
        "swift",
        "r",
        "julia",
        "proto",
        "protobuf",
        "graphql",
        "mermaid",
        "dot",
        "latex",
        "tex",
    ]
)
"""Fence tags of code: its `key = 8` lines are settings of a program, never results."""

_LABEL = r"(?:\d{1,2}(?:\.\d+)?\s?%\s)?[A-Za-z\u4e00-\u9fff][\w\u4e00-\u9fff .%/@'-]{0,70}?(?:\s?[(（][^()（）\n]{1,24}[)）])?"
_NUMBER = r"[-+]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?"
_KEY_VALUE = re.compile(
    rf"(?P<label>{_LABEL})\s*[:：=]\s*(?P<value>{_NUMBER})"
    rf"(?P<tail>(?:\s*(?:{UNIT_PATTERN})|\s+[A-Za-z/ ]{{1,30}})?"
    rf"(?:\s*,\s*{_NUMBER}\s*[A-Za-z][A-Za-z/ ]{{0,30}})*)\s*"
)
"""`Mean TTFT (ms): 85.2`, `Avg latency: 1.23 seconds`, `Throughput: 12.3 requests/s, 4567.8
tokens/s`, `Successful requests: 500`."""
_LABEL_UNIT = re.compile(
    rf"[(（]\s*(?:{UNIT_PATTERN})\s*[)）]|\b(?:TPS|QPS|RPS)\b|"
    r"\s(?:[Tt]ok(?:en)?s?|req(?:uest)?s?|it|iters?|img|images?|samples?|frames?)\s?/\s?s(?:ec)?$"
)
"""`Mean TTFT (ms)`, `Output QPS`, `Decode tokens/s`: a label that carries its unit."""
_SCORE_LABEL = re.compile(
    r"(?:(?:mean|average|avg)\s)?(?:accuracy|acc|accept(?:ance)?\s(?:length|len|rate)|"
    r"perplexity|ppl|WER|CER|RTF|BLEU|ROUGE-?(?:\d|L|Lsum)|pass@\d+|"
    r"平均接受长度|接受长度|准确率|困惑度|"
    r"(?:avg|average|mean|min|max|median|p\d{2}(?:\.\d)?|total)\s(?:latency|time|TTFT|TPOT|ITL))",
    re.I,
)
"""`Accuracy: 0.950`, `Mean accept length: 2.50`, `rouge1 : 15.36`, `Avg Latency: 81.99`: a
score or a timing statistic, a measurement even where the tool prints no unit."""
_TAIL_UNIT = re.compile(rf"\s*(?:total\s|output\s|input\s)?(?:{UNIT_PATTERN})\b", re.I)
_SETTING = re.compile(
    r"concurrency|batch[ _-]?size|\bbs\b|request[ _]rate|input[ _-]?(?:len|length|tokens per)|"
    r"output[ _-]?(?:len|length|tokens per)|prompt[ _-]?(?:len|length)|tensor[ _-]?parallel|"
    r"(?:prefill|decode)[ _-]?(?:len|length)\b|"
    r"\btp\b|num(?:ber of)?[ _-]?gpus|并发|批大小",
    re.I,
)
"""A settings line worth keeping: it names the load of the block's numbers (not `Successful
requests: 500` or `Total input tokens: 217393`, which are counts of the run)."""
_PERCENT_LABEL = re.compile(r"\d\s?%")
_TOTAL = re.compile(r"^\s*(?:total|successful|failed|peak concurrent)\b", re.I)
_DIVIDER = re.compile(r"\s*[=\-─━_*#~+]{3,}.*|\s*[=\-─━_*#~]*\s*")
"""`====== Serving Benchmark Result ======`, `-----Time to First Token-----`."""
_BOX_ROW = re.compile(r"\s*[│┃|║]")
_BOX_BORDER = re.compile(r"\s*[┏┡┢┗└├┌╞╟╔╠╚+|][━─═┳┻╇╈┼┬┴╋╤╧╪+\-:= |│┃┏┓┗┛┡┩└┘├┤┌┐╞╡╔╗╚╝╠╣]*")
_BOX_BAR = re.compile(r"[│┃║]")
_PIPE_SEPARATOR = re.compile(r"\s*\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)+\|?\s*")


def fenced_blocks(lines: list[str]) -> Iterator[tuple[int, int, str]]:
    """Each fenced block of `lines`: the indexes of its opening and closing fence lines and
    its tag, lower-cased (`bash`, or empty). An unclosed fence is code to the end, as the
    Markdown reader takes it: its closing index is `len(lines)`, and it is the last."""
    # only the lines that can be fences are looked at (a README is mostly prose)
    fences = [i for i, line in enumerate(lines) if ("```" in line or "~~~" in line)]
    position = 0
    while position < len(fences):
        index = fences[position]
        opening = _FENCE.match(lines[index])
        position += 1
        if opening is None:
            continue
        marker = opening.group(1)
        closing = next(
            (
                p
                for p in range(position, len(fences))
                if lines[fences[p]].strip().startswith(marker)
            ),
            None,
        )
        if closing is None:
            yield index, len(lines), opening.group(2).lower()
            return
        yield index, fences[closing], opening.group(2).lower()
        position = closing + 1


def unfence_tool_output(lines: list[str]) -> list[str]:
    """`lines` with each fenced block of tool output made readable and its fence removed;
    other fenced blocks left as they are. As many lines as given."""
    out = lines
    for index, end, tag in fenced_blocks(lines):
        if end == len(lines):
            break  # an unclosed fence: code to the end
        if tag not in _CODE_LANGUAGES and _may_be_output(lines, index, end):
            readable = _tool_lines(lines[index + 1 : end])
            if readable is not None:
                out = out if out is not lines else list(lines)
                out[index : end + 1] = ["", *readable, ""]
    return out


def _may_be_output(lines: list[str], start: int, end: int) -> bool:
    """A cheap first look: two or more lines of the block hold a `:`, `=`, a table bar or an
    arrow between columns (`128 tokens  →  160.0ms  →  30.2ms`)."""
    marked = 0
    for index in range(start + 1, end):
        line = lines[index]
        if ":" in line or "=" in line or "|" in line or "│" in line or "：" in line or "→" in line:
            marked += 1
            if marked >= 2:
                return True
    return False


def _tool_lines(body: list[str]) -> list[str] | None:
    """The block's lines as the reader should see them, or None when it is not tool output."""
    if any(_BOX_ROW.match(line) for line in body):
        table = _table_lines(body)
        if table is not None:
            return table
    statistics = _statistics_lines(body)
    if statistics is not None:
        return statistics
    if "," in "".join(body):
        rows = _csv_lines(body)
        if rows is not None:
            return rows
    measured, kept, content = 0, 0, 0
    readable: list[str] = []
    before: list[int] = []
    """The measurements counted before each line."""
    for line in body:
        before.append(measured)
        if _DIVIDER.fullmatch(line):
            readable.append("")
            continue
        content += 1
        text = _LOG_PREFIX.sub("", line.strip())  # `2023-12-06 01:44:46,095 - INFO - `
        text = _TAG_PREFIX.sub("", text)  # `llama_print_timings:  load time = 12.3 ms`
        logged = len(text) < len(line.strip())
        bar = _PROGRESS.search(text)
        if bar:
            kept += 1  # a progress bar is output, whether or not it times the run
            if bar.group("rate") and not _SETUP_BAR.search(text[: bar.start()]):
                measured += 1
                readable.append(f"- {text[: bar.start()].strip(' :')} {bar.group('rate')}")
            else:
                readable.append("")  # `Loading pipeline components: 100%|...`: set-up
            continue
        pair = _KEY_VALUE.fullmatch(text)
        printed = "" if pair else ("log" if _is_log_line(text) else _printed_measure(text))
        if printed:
            # `MACs: 1.2T, Latency: 0.35s`; `Generated 256 tokens in 3.2 s (80.0 tokens/s)`;
            # `step took 2.06 seconds`; a timing of the set-up (`model loaded in 3.2 s`) is
            # read but does not make the block output
            kept += 1
            measured += printed != "timing" or not _SETUP_BAR.search(text)
            readable.append(f"- {_PROGRESS_COUNT.sub('', text)}")
            continue
        if pair is None and _is_parameters(text):
            kept += 1
            readable.append(f"- {text}")  # `qlen=1 kvlen=512 nh=32`: the next lines' load
            continue
        if pair is None and _is_load_caption(text):
            kept += 1
            readable.append(f"- {text}")  # `2 parallel requests:`: the load of the lines below
            continue
        if pair is None:
            kept += logged  # `[INFO] Running baseline...`: a logger's line, output too
            readable.append("")
            continue
        kept += 1
        label, tail = pair.group("label"), pair.group("tail")
        if _PERCENT_LABEL.search(label):
            readable.append("")  # `10% percentile latency: 1.10 seconds`: not a 10 % change
        elif (
            _LABEL_UNIT.search(label)
            or (tail and _TAIL_UNIT.match(tail))
            or _SCORE_LABEL.fullmatch(label.strip())
        ):
            measured += 1
            readable.append(f"- {text}")
        elif _SETTING.search(label) and not _TOTAL.match(label):
            readable.append(f"- {text}")
        else:
            readable.append("")
    if measured < 2 or (kept * 5 < content * 3 and _longest_run([*before, measured]) < _OUTPUT_RUN):
        return None
    return readable


_OUTPUT_RUN = 3
"""Measurement lines in a row that make a block tool output whatever else it holds: the
command that ran the program and the text it generated, above its timings (`./main -m
model.gguf -p "Once upon a time"`, then five `llama_print_timings:` lines)."""


def _longest_run(counts: list[int]) -> int:
    """The most lines in a row that each added a measurement, from the running count of
    measurements before each line and after the last."""
    added = (later > earlier for earlier, later in itertools.pairwise(counts))
    return max((len(list(run)) for adds, run in itertools.groupby(added) if adds), default=0)


_PARAMETER = re.compile(r"(?<![\w-])([A-Za-z_][\w-]{0,20})\s?=\s?\d[\d.]*[Kk]?(?![\w.])")


def _is_parameters(line: str) -> bool:
    """`qlen=1 kvlen=512 nh=32 nkvh=8 hd=128 dtype <f32>`, `batch_size=8 seq_len=2048`: the
    parameters a kernel or model was run with, printed above its timings; kept when one
    of them is a load (`_SETTING`, a KV length)."""
    if "=" not in line:
        return False
    keys = _PARAMETER.findall(line)
    return len(keys) >= 2 and any(_SETTING.search(k) or _KV_LENGTH.search(k) for k in keys)


_CAPTION = re.compile(r"[^:：=]{1,60}[:：]")
_COUNTED = re.compile(
    r"\d\s(?:parallel|concurrent|simultaneous)\s(?:requests|users|clients)\b", re.I
)


def _is_load_caption(line: str) -> bool:
    """`2 parallel requests:`, `Batch size 8:` over the lines they were printed with: a
    caption that names the load of the numbers below it, no measurement of its own."""
    return (
        _CAPTION.fullmatch(line) is not None
        and any(c.isdigit() for c in line)
        and (_SETTING.search(line) is not None or _COUNTED.search(line) is not None)
    )


_KV_LENGTH = re.compile(r"^(?:kv_?(?:seq)?_?len|seqlen_?kv?|cache_len|seq_?len)$", re.I)


def _printed_measure(line: str) -> str:
    """What a line a program printed measures, read from the units of its numbers: `rate`
    when it gives one (`Generated 256 tokens in 3.2 s (80.0 tokens/s)`, `eval time = 5.1 ms
    / 64 runs (0.08 ms per token, 12549.0 tokens per second)`); `timing` when it times what
    it ran or gives its compute rate (`forward took 2.06 seconds to execute`, `kernel_v2   :
    46.6 ms,  2.95 TFLOPS`, `Model (total latency: 2.51 sec)`), unless it is a command,
    whose durations are its options (`bench --timeout 30s`); else ``. Either is a
    measurement whatever else the line says."""
    units = {canonical_unit(match.group(1)) for match in _NUMBER_UNIT.finditer(line)}
    if not units.isdisjoint(_RATES):
        return "rate"
    if not units.isdisjoint(_TIMINGS) and not _OPTION.search(line):
        return "timing"
    return ""


_OPTION = re.compile(r"(?:^|\s)--?[A-Za-z]")
"""`--timeout`, `-n`: an option of a command."""
_TIMINGS = frozenset({"ms", "us", "s", "TFLOPS", "GFLOPS", "PFLOPS"})
"""Units of how long a run took and of how fast it computed."""

_NUMBER_UNIT = re.compile(rf"\d\s?({UNIT_PATTERN})(?![A-Za-z])")
_RATES = RATE_UNITS | {"s/it", "ms/token", "s/image", "ms/image"}
"""Units of a rate: a number in one is the speed of what the program ran."""
_PROGRESS_COUNT = re.compile(r"\b\d{1,3}(?:\.\d+)?\s?%\s?\(\s?\d+\s?/\s?\d+[^()]{0,20}\)")
"""`100.0% (106850/106850 tokens)`: how far a run got, not what it measured."""
_TAG_PREFIX = re.compile(r"^[a-z][a-z0-9]*_[\w.]*:\s+(?=[A-Za-z])")
"""`llama_print_timings: `, `ggml_metal_init: `: the function a line was printed by."""


def _is_log_line(line: str) -> bool:
    """A line of several `label: number unit` pieces, one or more of them a measurement
    (`MACs: 1.2T, Params: 860M, Latency: 0.35s`, `[INFO] step 100 | 1234.5 tokens/s |
    3.2 it/s`): what a script printed while it ran."""
    pieces = [
        piece.strip()
        for piece in _PIECE_BREAK.split(_ALIGNED.sub(r"\1 ", _LOG_PREFIX.sub("", line.strip())))
        if piece.strip()
    ]
    if len(pieces) > 2 and _ROW_NAME.fullmatch(pieces[0]):
        pieces = pieces[1:]  # `resnet50  min = 814.42 ms  max = ...`: the row's name first
    if len(pieces) < 2:
        return False
    matches = [_PIECE.fullmatch(piece) for piece in pieces]
    if not all(matches):
        return False
    return any(
        m.group("unit") or (m.group("label") and _LABEL_UNIT.search(m.group("label")))
        for m in matches
        if m is not None
    )


_PROGRESS = re.compile(
    r"\d{1,3}%\s?\|[^|]*\|\s*\d+/\d+\s*\[[\d:]+<[\d:?]+"
    rf"(?:,\s*(?P<rate>{_NUMBER}\s?(?:it/s|s/it)))?[^\]]*\]"
)
"""A tqdm progress bar: `100%|████| 50/50 [00:17<00:00,  2.93it/s]`; its rate is the
speed of the loop it timed."""
_SETUP_BAR = re.compile(
    r"load|download|fetch|checkpoint|shards?|safetensors|warm-?\s?up|compil|prepar|加载|下载",
    re.I,
)
"""What a bar times when it times the set-up, not the run (`Loading pipeline components`)."""
_PIECE_BREAK = re.compile(r"[,;]\s|\s[|│]\s|\t|\s{2,}")
_ALIGNED = re.compile(r"\s*([=:：])\s+(?=[-+]?\d)")
"""`min =   89.81 ms`: a label and its number padded into columns, one piece."""
_ROW_NAME = re.compile(r"[A-Za-z][\w.+-]{0,40}")
"""`squeezenet_v1.1`, `googlenet`: what a line of aligned timings names first."""
_LOG_PREFIX = re.compile(
    r"^(?:\[[^\]]{1,40}\]\s*|\d{4}-\d\d-\d\d[ T][\d:.,]+\s*|-\s|"
    r"(?:INFO|DEBUG|WARNING|WARN|ERROR)(?::[\w.]*:|\s?-\s|\s)\s*)+"
)
"""`[INFO] `, `[rank0] `, `2024-05-01 12:00:01,123 - INFO - `, `INFO:root:`: what a logger
writes before its message."""
_PIECE = re.compile(
    rf"(?:(?P<label>{_LABEL})\s*[:：=]?\s*)?{_NUMBER}\s?"
    rf"(?P<unit>{UNIT_PATTERN}|[KMGTB](?![A-Za-z]))?"
)
"""`Latency: 0.35s`, `1234.5 tokens/s`, `step 100`, `MACs: 1.2T`."""


_STATISTIC = r"(?:min|max|avg|mean|median)"
_STATISTICS_ROW = re.compile(
    rf"\s*(?P<name>{_ROW_NAME.pattern})(?P<pairs>(?:\s+{_STATISTIC}\s?=\s*{_NUMBER}){{2,}})\s*"
)
_STATISTIC_PAIR = re.compile(rf"({_STATISTIC})\s?=\s*({_NUMBER})")


def _statistics_lines(body: list[str]) -> list[str] | None:
    """`squeezenet  min =  6.74  max =  8.16  avg =  7.38`, line after line: the timings a
    benchmark tool printed for each network it ran, without a unit (ncnn's `benchncnn`;
    Tengine's prints `ms`, which the log reader reads). Each run of two or more such lines
    is read as a table whose columns are the statistics, its header written on the two
    lines above the run (the tool's command and settings, blanked like every other line of
    the block); None when the block holds no such run, or its rows are not most of it."""
    rows = [_STATISTICS_ROW.fullmatch(line) for line in body]
    readable = [""] * len(body)
    read = 0
    for is_row, group in itertools.groupby(range(len(body)), key=lambda i: rows[i] is not None):
        run = list(group)
        if not is_row or len(run) < 2 or run[0] < 2 or rows[run[0] - 1] or rows[run[0] - 2]:
            continue
        columns = {tuple(pair[0] for pair in _STATISTIC_PAIR.findall(body[i])) for i in run}
        if len(columns) != 1:
            continue
        (names,) = columns
        readable[run[0] - 2] = "|  | " + " | ".join(names) + " |"
        readable[run[0] - 1] = "|---" * (len(names) + 1) + "|"
        for index in run:
            row = rows[index]
            assert row is not None
            values = [pair[1] for pair in _STATISTIC_PAIR.findall(row.group("pairs"))]
            readable[index] = f"| {row.group('name')} | " + " | ".join(values) + " |"
            read += 1
    content = sum(1 for line in body if line.strip())
    return readable if read >= 2 and read * 2 >= content else None


def _table_lines(body: list[str]) -> list[str] | None:
    """A pipe or box-drawn table printed by a tool, as a Markdown table, or None."""
    rows = [index for index, line in enumerate(body) if _is_row(line)]
    if len(rows) < 2 or not any(re.search(r"\d", body[i]) for i in rows[1:]):
        return None
    readable = [""] * len(body)
    width = len(_cells(body[rows[0]]))
    separated = any(_PIPE_SEPARATOR.fullmatch(body[i]) for i in rows)
    for index in rows:
        if _PIPE_SEPARATOR.fullmatch(body[index]):
            readable[index] = body[index].strip()
            continue
        readable[index] = "| " + " | ".join(_cells(body[index])) + " |"
    if not separated:
        # the border under the header row (`┡━━╇━━┩`, `+===+`) is the table's separator
        border = next(
            (k for k in range(rows[0] + 1, len(body)) if not _is_row(body[k]) and body[k].strip()),
            None,
        )
        if border is None:
            return None
        heading = [index for index in rows if index < border]
        if len(heading) > 1 and not _merge_heading(body, heading, readable):
            return None
        readable[border] = "|" + "---|" * width
    return readable


def _merge_heading(body: list[str], heading: list[int], readable: list[str]) -> bool:
    """A header a tool wrapped over several rows above its border (`┃ Input ┃ Output ┃` over
    `┃ Tokens ┃ Tokens ┃`) as one header row, each column's words joined top to bottom, on
    the last of those rows (the one above the border); False when its rows do not have the
    same columns."""
    cells = [_cells(body[index]) for index in heading]
    if len({len(row) for row in cells}) != 1:
        return False
    joined = (" ".join(part for part in column if part) for column in zip(*cells, strict=True))
    for index in heading[:-1]:
        readable[index] = ""
    readable[heading[-1]] = "| " + " | ".join(joined) + " |"
    return True


def _is_row(line: str) -> bool:
    return (
        bool(_BOX_ROW.match(line))
        and not _BOX_BORDER.fullmatch(line)
        or (bool(_PIPE_SEPARATOR.fullmatch(line)))
    )


def _cells(line: str) -> list[str]:
    return [cell.strip() for cell in _BOX_BAR.sub("|", line).strip().strip("|").split("|")]


_CSV_VALUE = rf"(?:{_NUMBER}(?:[eE][-+]\d{{1,3}})?)"
_CSV_ROW = re.compile(
    rf"\s*{_CSV_VALUE}(?:\s*,\s*{_CSV_VALUE}){{1,}}(?:\s*,\s*[A-Za-z]\w*)?\s*,?\s*"
)
"""`   1,  16,  16.152,9.906e+02`, `4, 64, 1.651, 1.550e+05, Good`: a row a script printed as
comma-separated values."""
_LEGEND = re.compile(r"\s*(?P<key>[A-Za-z]\w{0,7})\s?[:：]\s*(?P<words>[A-Za-z][^:：]{2,60})")
"""`lt: Latency (ms)`: what a short column name stands for."""


def _csv_lines(body: list[str]) -> list[str] | None:
    """Rows of comma-separated numbers under a header line whose names are separated by `|`
    or `,` (`bs|  sl|  lt|  tp`), as a Markdown table: the header on its line, each name
    spelled out where a legend line of the block says what it stands for (`lt: Latency
    (ms)`), the separator on the line below it (a divider or blank line the script printed
    between them), each row on its own line; None when the block holds no such table, two
    or more rows, each with no more values than the header has names."""
    rows = [index for index, line in enumerate(body) if _CSV_ROW.fullmatch(line)]
    if len(rows) < 2:
        return None
    above = [i for i in range(rows[0]) if body[i].strip() and not _DIVIDER.fullmatch(body[i])]
    if not above or above[-1] + 1 >= rows[0]:
        return None
    head = above[-1]
    names = [name.strip() for name in re.split(r"[|,]", body[head].strip().strip("|"))]
    widths = {len(body[i].strip().rstrip(",").split(",")) for i in rows}
    if len(names) < 2 or max(widths) > len(names) or not all(names):
        return None
    legend = {
        match.group("key"): match.group("words").strip()
        for match in map(_LEGEND.fullmatch, body[:head])
        if match is not None
    }
    readable = [""] * len(body)
    readable[head] = "| " + " | ".join(legend.get(name, name) for name in names) + " |"
    readable[head + 1] = "|" + "---|" * len(names)
    for index in rows:
        cells = [cell.strip() for cell in body[index].strip().rstrip(",").split(",")]
        readable[index] = "| " + " | ".join(cells) + " |"
    return readable
