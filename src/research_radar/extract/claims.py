"""Prose, tables and benchmark files -> Claims (metrics, conditions, limits).

Pure: `extract_claims` reads only its arguments (and the bundled catalogue, read once).
A claim is one statement: a sentence of prose, a list item, a table row or one record of
a benchmark JSON file. Its conditions use canonical catalogue names; a condition missing
from the statement itself is inherited from earlier sentences of the same line, list
item or wrapped paragraph, and, for list items and table rows, from the headings above
them, the table header and the paragraph that introduces them (not earlier paragraphs).
Numbers are only ever taken from the input: a metric value is a number written there,
or the seconds of a compound duration written there (`2m23s` -> 143 s, `1分23秒` -> 83 s,
`extract.durations.duration_seconds`).
In `A vs B` the compared system's number B keeps its value but is named `<metric>
(baseline)`; `own_metrics` leaves it out. A hedged statement (`reportedly`, `据称`) is
reported by "community" and carries `load["hedged"] = "yes"`.

This module holds the public API, the claim kind and the inheritance of conditions; the
rest lives beside it: `extract.markdown` (document -> segments, table rows),
`extract.conditions` (hardware, model, precision, software, baseline, load),
`extract.metrics` (numbers with units), `extract.benchmark_json` (benchmark JSON files) and
`extract.documents` (a file or a document read: benchmark JSON or text).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from research_radar.extract.alternatives import the_other
from research_radar.extract.baselines import names_reference
from research_radar.extract.catalogue import Catalog
from research_radar.extract.cataloguefiles import default_catalog
from research_radar.extract.clauses import split_by_clause
from research_radar.extract.compared import is_baseline_metric, without_self_comparison
from research_radar.extract.conditions import (
    find_conditions,
    single_valued,
    tidy_conditions,
)
from research_radar.extract.context import (
    LEAD_FIELDS,
    SURVEY,
    Context,
    add_to_lead,
    defines,
    enter_section,
    hosted,
    project_of,
    sized,
    unlisted,
)
from research_radar.extract.documentscope import with_document_scopes
from research_radar.extract.framing import frames_comparison
from research_radar.extract.headlines import headline_claims
from research_radar.extract.kinds import is_hedged, kind_of
from research_radar.extract.legends import with_legends
from research_radar.extract.markdown import Segment, parse_segments
from research_radar.extract.metrics import find_metrics
from research_radar.extract.prefilter import probe_of
from research_radar.extract.projectnames import project_aliases
from research_radar.extract.ratiobase import with_section_ratio_baseline
from research_radar.extract.reader import (
    NumberReader,
    default_reader,
    read_sentence,
    read_table_cells,
)
from research_radar.extract.rstview import is_rst, markdown_view
from research_radar.extract.screened import match, search
from research_radar.extract.tables import TableClaim, read_table
from research_radar.extract.units import RATIO_UNITS
from research_radar.models import Claim, ClaimKind, Conditions, Metric

__all__ = ["extract_claims"]


# --------------------------------------------------------------------------- public API


def extract_claims(
    text: str,
    where: str = "",
    reporter: str = "author",
    *,
    catalog: Catalog | None = None,
    reader: NumberReader | None = None,
    rst: bool | None = None,
    files: Mapping[str, str] | None = None,
) -> list[Claim]:
    """Claims of a text (Chinese or English prose, Markdown, reStructuredText,
    tab-separated tables).

    Args:
        text: the document.
        where: `owner/repo@sha:path` or a URL; each claim gets `#L<line>` appended.
        reporter: author, community or us.
        catalog: the catalogue to name conditions with (the bundled one by default).
        reader: what reads the numbers the rules left (the bundled learned reader by
            default; see `extract.reader`).
        rst: whether the text is reStructuredText (None: when `where` names a `.rst`
            file, or names none and the text writes a reStructuredText table); it is
            read as the Markdown it is rewritten into (`extract.rstview`).
        files: the text of the CSV files a reStructuredText document's csv-tables name
            (`:file: data.csv`), by the name written (`extract.documents.load_included`).
    """
    if rst or (rst is None and is_rst(text, where)):
        text = markdown_view(text, files)
    cat = catalog or default_catalog()
    numbers = reader or default_reader()
    project = project_of(where, owner=True)
    aliases = project_aliases(project, text, cat) if project else ()
    own_names = (project.rpartition("/")[2], *aliases) if project else ()
    claims: list[Claim] = []
    line_ctx, block_ctx = Context(), Context()
    sections: list[tuple[int, Context]] = [(0, Context())]
    """The document (level 0) and the headings above the current line, with their set-up."""
    lead = True
    """No claim yet since the last heading: what is said now sets up the whole section."""
    lead_ctx, lead_names = Context(), dict[str, set[str]]()
    caption_ctx = Context()
    captioned = 0
    """The line of the caption being read (its sentences after the first continue it)."""
    sublead: dict[int, dict[str, list[str]]] = {}
    """Per section depth: what its lead set up for its subsections."""
    survey_list = False
    """The list being read is introduced by a survey (`Featuring:`): it sets nothing up."""
    table: list[Segment] = []
    intro: list[str] = []
    """The sentences of the paragraph just read: the set-up of a table right below it."""
    introduced = Context()
    """What a paragraph that introduces the next table (`...对比如下：`) sets up: it holds
    across the captions and notes between them, up to that table's end or the first
    number read after it (a list of results it introduced)."""
    header: tuple[str, ...] = ()
    labelled: dict[int, str] = {}
    """Claims (by index) of rows whose `Model` column writes an uncatalogued model: theirs
    when nothing else in scope names one."""
    parts: list[str] = []
    """The hardware the statements of the block being read name (`- GPU: 1x RTX 4090`)."""
    compared: dict[str, None] = {}
    """The systems the prose's claims so far compare with: a table's row or column of one
    of them holds the compared system's own numbers."""

    def end_lead() -> None:
        """The section's first number: the load its lead set up holds for all of it (`150
        requests at concurrency 8` above Table 4 holds for Table 5 too)."""
        nonlocal lead
        if lead:
            section = sections[-1][1]
            section.load = {**lead_ctx.load, **section.load}
            for name, values in lead_ctx.names.items():
                if len(values) == 1 and name in _SECTION_FIELDS:
                    section.names.setdefault(name, list(values))
            # `Benchmarks run on an 8xA100-80GB` above the first table: the hardware of
            # the section's later paragraphs (above) and of its subsections too
            sublead[len(sections) - 1] = {
                name: list(lead_ctx.names[name])
                for name in LEAD_FIELDS
                if len(lead_ctx.names.get(name, [])) == 1
            }
        lead = False

    def end_table() -> None:
        if not table:
            return  # no rows: no claims (and no header cells to clean for nothing)
        known = tuple(dict.fromkeys([*compared, *block_ctx.baseline]))  # `## Versus vLLM` too
        cells = read_table(header, table, cat, known, project, aliases=aliases)

        def claims_of(cell: TableClaim) -> list[Claim]:
            return _table_claims(cell, where, reporter, block_ctx, cat)

        made = [(c, cell.label_model) for cell in cells for c in claims_of(cell)]
        if made:
            end_lead()  # the reader's numbers never change how the rules read what follows
        if read := read_table_cells(header, table, cells, cat, numbers):
            # read again with them: each number, whoever read it, takes the table's conditions
            cells = read_table(header, table, cat, known, project, read, bool(cells), aliases)
            made = [(c, one.label_model) for one in cells for c in claims_of(one)]
        for claim, label in made:
            if label:
                labelled[len(claims)] = label
            claims.append(claim)
        table.clear()
        introduced.names, introduced.load = {}, {}

    segments = with_legends(list(parse_segments(text)), cat)
    for segment in segments:
        if segment.block == "table":
            if segment.header != header:
                end_table()
                header = segment.header
            table.append(segment)
            continue
        end_table()
        if segment.header:
            header = segment.header  # a table's header row: read with its rows
            if intro:
                # `On H100 with Llama-3-8B at batch 16, ours is 2.1x faster:` right above
                # the table: its set-up, though it states a number of its own (issue #14)
                opening = " ".join(intro)
                block_ctx.update(
                    single_valued(find_conditions(opening, cat), opening, cat),
                    with_baseline=False,
                )
            intro = []
            continue
        if segment.block == "heading":
            if lead and segment.level > sections[-1][0]:
                # `## Performance` / `We test ... on H800 with NVCC 12.8` / `### Dense`:
                # what a section says before its first number and its first subsection
                # sets up its subsections (issue #14)
                sections[-1][1].merge(lead_ctx)
            if segment.level > sections[-1][0]:
                # `Results on 8x H100:` / `**Prefill**` / table / `**Decode**` / table: what
                # introduces the subsections below it holds in each of them
                sections[-1][1].merge(introduced)
            section = enter_section(sections, segment, cat, own_names)
            depth = len(sections) - 1
            for name, values in sublead.get(depth - 1, {}).items():
                section.names.setdefault(name, values)
            for stale in [d for d in sublead if d >= depth]:
                del sublead[stale]
            block_ctx = section.copy()
            line_ctx, lead, lead_ctx, lead_names = Context(), True, Context(), {}
            parts = []
            intro, introduced = [], Context()
            caption_ctx, captioned = Context(), 0
            if probe_of(segment.text).has_digit:  # `## 2.15x faster`: a heading's result
                own = find_conditions(segment.text, cat)
                said = _claims(segment, own, cat, where, reporter, Context(), block_ctx)
                claims.extend(headline_claims(said))
            continue
        if segment.new_line:
            line_ctx = Context()
        intro = [*intro, segment.text] if segment.block == "prose" else []
        if segment.block == "prose" and segment.new_paragraph:
            intro = [segment.text]
            # a new paragraph is the set-up of what follows it, not the one before it
            block_ctx = sections[-1][1].copy()
            if lead:
                block_ctx.merge(lead_ctx)  # `* data_type = FP16` / `TP means ...` / a table
            block_ctx.merge(caption_ctx)
            block_ctx.merge(introduced)
            parts = []
        probe = probe_of(segment.text)  # the rules below run only where they could match
        own = find_conditions(segment.text, cat)  # read once: every use below only reads it
        introduces = segment.block == "prose" and search(_INTRODUCES, probe) is not None
        if introduces:
            introduced = Context()
            introduced.update(own, with_baseline=False)
        if segment.block == "prose" and match(_CAPTION, probe):
            # `Figure 6: Concurrent requests throughput (Llama-3.2-1B, NVIDIA H100, ...)`:
            # the set-up of the paragraphs that discuss the figure, below it
            caption_ctx = Context()
            caption_ctx.update(own, with_baseline=True)
            captioned = segment.line
        elif segment.block == "prose" and captioned and not segment.new_paragraph:
            caption_ctx.update(own, with_baseline=True)  # `Figure 3.` `Decode on 8xA100.`
        else:
            captioned = 0
        made = _claims(segment, own, cat, where, reporter, line_ctx, block_ctx)
        read = read_sentence(segment, [m for one in made for m in one.metrics], numbers)
        if read and made and made[-1].metrics:
            made[-1] = made[-1].model_copy(update={"metrics": [*made[-1].metrics, *read]})
        elif read:
            # the reader's numbers never change how the rules read what follows
            claims.append(
                _read_claim(segment, own, read, cat, where, reporter, line_ctx, block_ctx)
            )
        claim = made[0] if made else None
        if claim is not None and claim.metrics and not names_reference(made):
            claims.extend(made)
            for one in made:
                compared.update(dict.fromkeys(one.conditions.baseline))
            if lead and introduces and not defines(segment.text, cat):
                # `The results below ran on a single L20 (about 170 s of audio):` opens the
                # section: its set-up holds there, though it holds a number of its own
                add_to_lead(lead_ctx, own, lead_names, with_baseline=False)
            end_lead()
            if not introduces:
                introduced = Context()  # what the introduction introduced has been read
            if segment.text.rstrip().endswith((":", "：")):
                # `7B 模型的千卡训练可以达到 >180 TFLOPS：` over a table: a number of its
                # own, and the set-up of the table it introduces (issue #14)
                block_ctx.update(own, with_baseline=False)
            continue
        if claim is not None:
            # `power limited to 330W`, `only tested on H100`: a statement without a number
            # still sets up what follows it (issue #14)
            claims.append(claim)
            if claim.kind == ClaimKind.STATUS:
                end_lead()  # `v0.5 released: 1-bit models on ARM`: news, not a set-up
                continue
        surveyed = segment.block == "list" and survey_list
        if search(SURVEY, probe):
            own = unlisted(own)
            # `Featuring:` / `Supported models:` above a list: its items are a survey too
            survey_list = segment.block != "list" and segment.text.rstrip().endswith((":", "："))
        elif segment.block != "list":
            survey_list = False
        if segment.block == "prose" and claim is None and _SENTENCE_END.search(segment.text):
            # `Benchmarking our kernels, comparing against cuBLASLt.` above the tables:
            # a row or column of a table named after it holds the compared system's numbers
            # (a title, `Transfer Time vs KV Size` over a plot, names axes, not systems)
            compared.update(dict.fromkeys(own.baseline))
        own = hosted(own, segment.text, bool(parts or lead_ctx.names.get("hardware")))
        own = single_valued(own, segment.text, cat)
        parts.extend(own.hardware)
        line_ctx.update(own, with_baseline=True)
        if _DATED.match(segment.text) or _ABOVE.match(segment.text):
            continue  # `[24/04/22] ... on a free T4 GPU`: a news entry is its own, no set-up
        block_ctx.update(own, with_baseline=segment.block == "prose")
        if lead and not surveyed and not defines(segment.text, cat):
            add_to_lead(lead_ctx, own, lead_names, with_baseline=segment.block == "prose")
    end_table()
    scoped = with_document_scopes(claims, segments, cat, labelled, text, project)
    return without_self_comparison(with_section_ratio_baseline(scoped, segments))


# --------------------------------------------------------------------------- claims


_SENTENCE_END = re.compile(r"[.:。：]\s*$")
"""The end of a sentence, not of a title or a caption's label."""


def _claims(
    segment: Segment,
    own: Conditions,
    cat: Catalog,
    where: str,
    reporter: str,
    line_ctx: Context,
    block_ctx: Context,
) -> list[Claim]:
    """The claim of one statement, or one per clause when its clauses name different
    models or hardware for their numbers (`11x on Falcon 40B and 3x on Llama 2 70B`);
    `own` is what the statement itself writes (`find_conditions`)."""
    text = segment.text
    metrics = find_metrics(text, cat, own)
    kind = kind_of(text, metrics)
    if kind is None:
        return []
    parts = split_by_clause(text, cat, own, metrics) or [(own, metrics)]
    made = []
    for stated, found in parts:
        # a list item takes its list's set-up and compared system; a sentence of prose
        # takes its section's and paragraph's set-up, but names its own comparison, unless
        # all it gives are ratios to what was named before (`DMA beats the custom kernel.
        # The gain starts at 5.5%`) or pairs it compares (`1.36 rps vs 0.67 rps`), in
        # its line or list item first (`Latency compared to full attention. It achieves
        # up to 2.45x memory reduction`)
        ratios = all(m.unit in RATIO_UNITS for m in found) and bool(found)
        ratios = ratios or any(is_baseline_metric(m) for m in found)
        conditions = line_ctx.fill(stated, with_baseline=ratios)
        # a list item of absolute numbers (`- TRT EP: 29.1 ms`) is compared with the list's
        # system only where it frames a comparison itself (`21 GB (vs 30 GB)`), issue #14
        listed = segment.block == "list" and frames_comparison(text)
        conditions = block_ctx.fill(conditions, with_baseline=listed or ratios)
        if not (conditions.baseline or stated.software) and frames_comparison(text):
            # `in BF16 and FP8. FP8 shows 14.9% higher throughput`: a ratio to the other one
            other = the_other(stated, found, (line_ctx, block_ctx))
            conditions = conditions.model_copy(update={"baseline": other})
        conditions = sized(conditions, stated, text, cat)
        made.append(
            _made(kind, text, found, tidy_conditions(conditions), where, segment.line, reporter)
        )
    # `at 512 context (1.94x), … at 2K (4.47x)`: neither value sets up the line's next sentence
    line_ctx.update(single_valued(own, text, cat), with_baseline=True)
    return made


def _read_claim(
    segment: Segment,
    own: Conditions,
    metrics: list[Metric],
    cat: Catalog,
    where: str,
    reporter: str,
    line_ctx: Context,
    block_ctx: Context,
) -> Claim:
    """The claim of the numbers the reader took in a statement the rules read no number
    of: with the conditions the rules' claim would have had."""
    text = segment.text
    kind = kind_of(text, metrics) or ClaimKind.PERFORMANCE
    conditions = line_ctx.fill(own, with_baseline=False)
    ratios = all(m.unit in RATIO_UNITS for m in metrics)
    conditions = block_ctx.fill(conditions, with_baseline=segment.block == "list" or ratios)
    conditions = tidy_conditions(sized(conditions, own, text, cat))
    return _made(kind, text, metrics, conditions, where, segment.line, reporter)


def _table_claims(
    cell: TableClaim, where: str, reporter: str, block_ctx: Context, cat: Catalog
) -> list[Claim]:
    """One row's cells with their conditions; a compared system named above the table
    is the baseline of the row's numbers, its ratios (`2.7x`) and the absolute numbers
    beside them (`206 TFLOPS`) alike: a row that gives a speedup over CUTLASS measures
    its TFLOPS against CUTLASS too (issue #14's baseline convention)."""
    kind = kind_of(cell.text, cell.metrics)
    if kind is None:
        return []
    conditions = block_ctx.fill(cell.conditions, with_baseline=not cell.reference)
    conditions = tidy_conditions(sized(conditions, cell.conditions, cell.text, cat))
    return [_made(kind, cell.text, cell.metrics, conditions, where, cell.line, reporter)]


_INTRODUCES = re.compile(r"[:：]\W*$|如下|\b(?:below|as follows)\b", re.I)
"""A sentence that introduces what follows it (`对比如下：`, `... are shown below.`)."""
_SECTION_FIELDS = ("hardware", "model", "precision")
"""What a section's lead names once holds for its later paragraphs and tables too."""
_DATED = re.compile(
    r"^\W{0,4}(?:(?:19|20)\d{2}[/.-](?:0?[1-9]|1[0-2])(?:[/.-]\d{1,2})?|"
    r"\d{2}/(?:0?[1-9]|1[0-2])/\d{1,2}|(?:0?[1-9]|1[0-2])/\d{1,2}/(?:19|20)?\d{2})(?![\d.])"
)
"""A news entry's date stamp (`[24/04/22]`, `* 08/21/2025 [4.0.0]:`, `[2024/05]`): each
entry of a changelog says what it says for itself, not the set-up of the entries after it."""
_ABOVE = re.compile(
    r"^\W{0,4}(?:上表|上述|以上|上面|(?:the\s)?(?:tables?|results|numbers)\sabove|"
    r"(?:the\s)?above\s(?:tables?|results|numbers))",
    re.I,
)
"""`- 上表测试环境：Tesla T4` between two tables: a note on the table above, not the set-up
of the one below."""
_CAPTION = re.compile(r"(?:Figure|Fig\.|Table|图|表)\s?\d+\s?(?:[:.：]|$)", re.I)
"""`Figure 6: ...`; `Figure 3.` is a sentence of its own, continued by the next one."""


def _made(
    kind: ClaimKind,
    text: str,
    metrics: list[Metric],
    conditions: Conditions,
    where: str,
    line: int,
    reporter: str,
) -> Claim:
    if is_hedged(text):
        # relayed, not measured or stated by the reporter: never an author's firm claim
        conditions = conditions.model_copy(update={"load": {**conditions.load, "hedged": "yes"}})
        reporter = "community"
    return Claim(
        kind=kind,
        text=text,
        metrics=metrics,
        conditions=conditions,
        where=f"{where}#L{line}" if where else "",
        line=line,
        reporter=reporter,
    )
