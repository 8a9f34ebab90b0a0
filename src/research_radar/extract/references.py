"""The keys that tell a table's columns or rows apart (a system, a precision, a
`baseline` label, the 1.0x ratio, the project's own name), and the choice among them of
the compared systems: a `baseline` label, the 1.0x one, the systems beside the project's
own (`Ours`, the repository's name), the first named system, or the widest precision.
`columnplan` and `rowplan` apply them to columns and rows.

Pure. A building block of `research_radar.extract.tables`; callers outside this package
use `research_radar.extract.claims` instead.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from research_radar.extract.catalogue import Catalog
from research_radar.extract.cells import head_name
from research_radar.extract.markdown import Segment
from research_radar.extract.metrics import metric_words
from research_radar.extract.projectnames import name_parts, names_own
from research_radar.models import Conditions, Metric

__all__ = [
    "Key",
    "Plan",
    "Row",
    "WIDE_PRECISIONS",
    "add_others",
    "choose",
    "compared_stems",
    "compared_with",
    "OURS",
    "named_positions",
    "new_systems",
    "own_key",
    "owner_unless_named",
    "system_key",
    "systems_not_precisions",
]


_BASE_OPENS = re.compile(
    r"^\W*(base)\s+(?=[\w(（])(?!(?:config(?:uration)?s?|settings?|scenarios?|cases?|"
    r"workloads?|shapes?)\b)",
    re.I,
)
"""A label that opens with `Base` before what it measures (`Base TPOT(ms)`, `Base mAP`,
`Base (bfloat16)`): the unchanged system's; a bare `base` is a model size (whisper's
`tiny`, `base`, `small`), and `Base Configuration (32,256,32)` above `Long Input
(1,2048,32)` the default workload, not a system (issue #14)."""


_REFERENCE_WORD = re.compile(
    r"baseline|基线|基准|reference|\bref\b|\bbefore\b|\boriginal\b|原始|原版|优化前|改进前|"
    + _BASE_OPENS.pattern,
    re.I,
)
"""A column or row label naming the compared system (`Baseline`, `Before PR #12`, `原始`,
`Base mAP`)."""


_OLDER = re.compile(r"\b(?:legacy|old|older|previous|prior)\b|旧版|老版|上一?版", re.I)
"""A label of an older version of a system (`TinyChat (Legacy)`, `旧版`)."""


WIDE_PRECISIONS = ("FP32", "TF32", "BF16", "FP16")
"""The precisions a lower one is compared with, widest first."""
_WIDTH = {"FP32": 32, "TF32": 32, "BF16": 16, "FP16": 16}


@dataclass
class Row:
    segment: Segment
    cells: list[str]
    metrics: list[list[Metric]]
    """Per column."""
    load: dict[str, str]
    own: Conditions
    bits: list[str] = field(default_factory=list)
    """The precision a `bits` column gives the row (`8` -> `8-bit`)."""
    versus: list[str] = field(default_factory=list)
    """The system a pair cell's compared number is of (`FFPA / SDPA`: SDPA)."""

    @property
    def has_metrics(self) -> bool:
        return any(self.metrics)


@dataclass
class Key:
    """What makes one column or row a different system: its software or precision."""

    kind: str
    value: str
    reference_word: bool = False
    ratio: float | None = None
    older: bool = False
    """The label calls it an older version (`TinyChat (Legacy)`, `v1`): beside the newer
    one it is compared with, though a variant of the same system."""


@dataclass
class Plan:
    keys: dict[int, Key] = field(default_factory=dict)
    references: list[int] = field(default_factory=list)

    @property
    def baselines(self) -> list[str]:
        return list(dict.fromkeys(self.keys[i].value for i in self.references))


def system_key(conditions: Conditions, text: str, cat: Catalog | None = None) -> Key | None:
    word = bool(_REFERENCE_WORD.search(text))
    if len(set(conditions.software)) == 1:
        return Key("software", conditions.software[0], word, older=bool(_OLDER.search(text)))
    named = cat.find("software", text) if cat is not None and conditions.software else []
    if named:
        # `OpenNMT-py 3.0.4 (with PyTorch 1.13.1)`: the system is named first
        return Key("software", min(named, key=lambda m: m.start).name, word)
    if len(set(conditions.precision)) == 1:
        return Key("precision", conditions.precision[0], word)
    wide = [p for p in WIDE_PRECISIONS if p in conditions.precision]
    if wide and len(wide) == len(set(conditions.precision)):
        return Key("precision", wide[0], word)  # `bf16 / fp16`: either wide one
    if word and not re.search(r"\d\.\d", text):  # `8.06 (fp32 ref)` is measured, no name
        opening = _BASE_OPENS.match(text)  # `Base mAP` -> `Base`: the words after it measure
        name = opening.group(1) if opening else head_name(text) or text
        return Key("word", name, word)  # `Baseline (tok/s)` -> `Baseline`
    return None


def compared_stems(compared: tuple[str, ...], cat: Catalog) -> list[str]:
    """The systems prose compares with, without their precision: `Hugging Face FP16` ->
    `Hugging Face`."""
    stems: list[str] = []
    for name in compared:
        cut = min((m.start for m in cat.find("precision", name)), default=len(name))
        stem = name[:cut].strip(" -_/(")
        if (
            len(stem) >= 3
            and re.search(r"[A-Z.]", stem)  # a name (`Hugging Face`, `llama.cpp`), not `kv size`
            and not cat.find("model", stem)  # a model's rows are compared by other rules
            and not cat.find("hardware", stem)
            and stem.lower() not in {s.lower() for s in stems}
        ):
            stems.append(stem)
    return stems


def named_positions(labels: dict[int, str], stems: list[str]) -> dict[int, str]:
    """The positions whose label names a system the prose compares with, when some do not."""
    named = {
        i: stem for i, text in labels.items() for stem in stems if stem.lower() in text.lower()
    }
    return named if 0 < len(named) < len(labels) else {}


def choose(
    plan: Plan,
    positions: int,
    named: dict[int, str] | None = None,
    narrower: int | None = None,
    *,
    last_own: bool = True,
) -> Plan:
    """Pick the compared systems among the columns or rows with numbers, when they differ:
    beside the project's own (`ChatGLM3-6B`) and a `Best Baseline`, every other one.

    `narrower`: how many columns name a precision below the wide ones; a column that
    names none (`| cpu time (fp16, ms) | gpu time (ms) |`) is another measurement, not a
    lower precision. Rows leave it None: a row that names no precision is the project's
    own, compared with the wide precision's row.

    `last_own`: whether the last of several systems is the project's own when none is
    named as such. A header puts the new system last (`| vLLM | TGI | Chitu |`); rows
    list systems in any order (a leaderboard, a table of frameworks on one task), so
    rows pass False and compare only beside a row named as the project's own, or a last
    row whose system an earlier row names in an older version (issue #14)."""
    keys = plan.keys
    if positions < 2 or not (keys or named):
        return plan
    marked = [i for i, k in keys.items() if k.reference_word]
    if len(marked) == 1 or _one_reference(keys, marked, positions):
        ours = [i for i, k in keys.items() if k.kind == "software" and k.value == OURS]
        plan.references = [i for i in sorted(keys) if i not in ours] if ours else marked
        return plan
    unit = [i for i, k in keys.items() if k.ratio is not None and abs(k.ratio - 1.0) < 1e-9]
    if len(unit) == 1:
        plan.references = unit
        return plan
    if named:
        # `| vLLM FP16 | ... |` above `| Hugging Face FP16 | ... |`, the prose saying
        # "faster than Hugging Face": the project's own system may come first
        for i, stem in named.items():
            plan.keys[i] = Key("named", stem, ratio=keys[i].ratio if i in keys else None)
        plan.references = sorted(named)
        return plan
    software = {i: k for i, k in keys.items() if k.kind == "software"}
    ours = [i for i, k in software.items() if k.value == OURS]
    others = [i for i, k in keys.items() if k.kind == "other"]
    if ours and others:
        # `| HF | Ours |`: what stands beside the project's own system is compared with it
        plan.references = sorted(others)
        return plan
    methods = [i for i, k in keys.items() if k.kind == "precision"]
    if ours and methods and len(software) == len(ours):
        # `| FP16 |` and `| RTN |` above `| GPTQ |` in GPTQ-for-LLaMa: beside the project's
        # own rows, the precisions and methods it names are what it is compared with
        plan.references = sorted(methods)
        return plan
    distinct = len({k.value for k in software.values()}) >= 2
    last = software.get(max(keys))
    if distinct and (ours or last and (last_own or _newer(last, software.values()))):
        # the project's own system comes last: `| vLLM | ... | Chitu |`, or is called ours
        # wherever it stands; its variants (`FlexLLMGen with Compression`, `Chitu-FP4`)
        # are its own too, never a reference
        own = _stem(software[ours[0] if ours else max(software)].value)
        plan.references = [
            i for i, k in sorted(software.items()) if _stem(k.value) != own or k.older
        ]
        return plan
    precisions = {i: k.value for i, k in keys.items() if k.kind == "precision"}
    wide = [p for p in WIDE_PRECISIONS if p in precisions.values()]
    widest = [i for i, v in precisions.items() if wide and v == wide[0]]
    as_wide = [i for i, v in precisions.items() if wide and _WIDTH.get(v) == _WIDTH[wide[0]]]
    # `| fp16 |` beside `| bf16 |`: as wide as each other, neither is the other's reference
    lower = positions - len(as_wide) if narrower is None else narrower
    if widest and lower > 0 and positions - len(as_wide) >= len(widest):
        # FP16 beside INT4 (or beside our unnamed row): the wide precision is the reference,
        # unless most columns are at it (`| android (f16) | macos (f32) | linux (f32) |`:
        # platforms compared, each at its own precision, none the others' reference)
        plan.references = widest
    return plan


def _newer(last: Key, keys: Iterable[Key]) -> bool:
    """Whether another key names an older version of the last one's system (`TinyChat
    (Legacy)` above `TinyChat 2.0`): the last is the newer, the project's own."""
    return not last.older and any(k.older and _stem(k.value) == _stem(last.value) for k in keys)


def _one_reference(keys: dict[int, Key], marked: list[int], positions: int) -> bool:
    """`| Baseline RTF | Baseline TTFA | CUDA Graphs RTF | ...`: columns of one reference's
    measurements, named by the same word; it is the reference of each (renamed to it)."""
    words = {keys[i].value.split()[0].lower() for i in marked if keys[i].kind == "word"}
    if len(marked) < 2 or len(marked) >= positions or len(words) != 1:
        return False
    if any(keys[i].kind != "word" for i in marked):
        return False
    for i in marked:
        keys[i] = Key("word", keys[i].value.split()[0], reference_word=True)
    return True


def _stem(name: str) -> str:
    """A system's name without its variant: `TRT-LLM-FP16` -> `trt`, `vLLM 0.6` -> `vllm`."""
    return re.split(r"[\s_-]", name.strip().lower(), maxsplit=1)[0]


_OURS = re.compile(
    r"^\W*(?:ours|our\s(?:method|system|engine|implementation)|proposed|本文|我们的?|"
    r"本(?:系统|方案|项目|框架|引擎|方法))\b",
    re.I,
)
"""A column or row of the project's own numbers, named as such."""


OURS = "ours"
"""The key value of the project's own column or row."""


def own_key(
    label: str,
    project: str = "",
    conditions: Conditions | None = None,
    aliases: tuple[str, ...] = (),
) -> Key | None:
    """`Ours`, the repository's own name (`ZhiLight` in zhihu/ZhiLight) however spelt
    (`FastServe` in acme/fast-serve), another name the document gives it (`aliases`,
    `extract.projectnames`), or its owner's (`PaddlePaddle (ms)` in PaddlePaddle/docs, `MLC
    LLM` in mlc-ai/llm-perf-bench) for a label that names no hardware or model (`NVIDIA
    A100` in an NVIDIA repository).

    `project` is the repository's name, or `owner/name`."""
    if _OURS.match(label) or _OURS_LAST.search(label):
        return Key("software", OURS)
    owner, _, project = project.rpartition("/")
    if owner and _owned(label, owner, conditions):
        return Key("software", OURS)
    names = [project] if len(project) >= 4 else []
    for name in (*names, *aliases):
        if names_own(name_parts(name), label):
            # `ZhiLight`, or `Latency (ms) ZhiLight` under a group header
            return Key("software", OURS)
    return None


def owner_unless_named(labels: list[str], project: str, aliases: tuple[str, ...] = ()) -> str:
    """`project` without its owner when a label names the repository itself: in
    OpenNMT/CTranslate2, `CTranslate2` is the own system, `OpenNMT-py` a compared one."""
    _, _, name = project.rpartition("/")
    named = any(own_key(label, name, aliases=aliases) for label in labels)
    return name if named else project


def _owned(label: str, owner: str, conditions: Conditions | None) -> bool:
    """Whether the label's first word is the repository owner's (`mlc` of `mlc-ai`)."""
    if conditions is None or conditions.hardware or conditions.model:
        return False
    stem = re.split(r"[-_]", owner.lower(), maxsplit=1)[0]
    first = re.split(r"[\s\-_(（/]", label.strip().lower(), maxsplit=1)[0]
    return len(stem) >= 3 and first == stem and not _REFERENCE_WORD.search(label)


_OURS_LAST = re.compile(r"\s\W*(?:ours|本文|我们的?|本(?:系统|方案|项目|框架|引擎|方法))\W*$", re.I)
"""`Latency (ms) Ours`: a group header over the project's own column."""


def systems_not_precisions(plan: Plan, first_cells: dict[int, str], cat: Catalog) -> None:
    """Beside the project's own rows, a row keyed by a precision its first cell does not
    name is another system, at that precision: `| NPE (NPU) | llama-2-7b (W4) |` below
    `| T-MAC (CPU) | llama-2-7b (W4) |` is NPE, not 4-bit."""
    if not any(k.kind == "software" and k.value == OURS for k in plan.keys.values()):
        return
    for i, key in plan.keys.items():
        cell = first_cells.get(i, "")
        if key.kind == "precision" and cell and not cat.find("precision", cell):
            plan.keys[i] = Key("other", head_name(cell) or cell.strip())


def add_others(plan: Plan, labels: dict[int, str]) -> None:
    """Beside a column or row of the project's own numbers (`Ours`), the others named by
    a label the catalogue does not know (`HF`) are systems compared with it."""
    if not any(k.kind == "software" and k.value == OURS for k in plan.keys.values()):
        return
    for i, label in labels.items():
        if (
            i not in plan.keys
            and 0 < len(label.split()) <= 3
            and not re.fullmatch(r"[\d.,\sKkMm]+", label)
            and not metric_words(label)
            and not _SUMMARY_ROW.search(label)
        ):
            plan.keys[i] = Key("other", head_name(label) or label.strip())


def new_systems(plan: Plan, labels: dict[int, str], columns: list[Conditions]) -> None:
    """`| PyTorch (ms) | Poros (ms) |`: beside columns named after systems the catalogue
    knows, a column named the same way after a system it does not know holds the new
    system's numbers, the project's own; the known ones are compared with it. The same
    holds for a last row below rows of known systems (`| vLLM |` above `| Quokka |`)."""
    if any(k.kind != "software" or k.value == OURS for k in plan.keys.values()):
        return
    names = _leading_names(labels)
    new = [
        i
        for i, name in names.items()
        if i not in plan.keys
        and re.fullmatch(r"[A-Za-z][\w.+-]{1,30}", name)
        and not metric_words(name)
        and not _SUMMARY_ROW.search(name)
        and not any(getattr(columns[i], f) for f in ("hardware", "model", "precision"))
    ]
    if plan.keys and new and all(i in names and i < min(new) for i in plan.keys):
        for i in new:
            plan.keys[i] = Key("software", OURS)


def _leading_names(labels: dict[int, str]) -> dict[int, str]:
    """Each label without the words all of them end with: `OpenCV 端到端性能(ms)` and
    `FlyCV 端到端性能(ms)` -> `OpenCV`, `FlyCV`."""
    words = {i: label.split() for i, label in labels.items()}
    shared = 0
    while all(len(w) > shared + 1 for w in words.values()) and (
        len({tuple(w[len(w) - shared - 1 :]) for w in words.values()}) == 1
    ):
        shared += 1
    return {i: head_name(" ".join(w[: len(w) - shared])) for i, w in words.items()}


_SUMMARY_ROW = re.compile(r"increase|improvement|gain|ratio|average|mean|total|提升|平均", re.I)


def compared_with(conditions: Conditions, own: Key | None, plan: Plan) -> Conditions:
    """A number compared with the reference: its baseline, and for a speedup the precision."""
    update: dict[str, object] = {"baseline": plan.baselines}
    kinds = {plan.keys[i].kind for i in plan.references}
    if own is None and kinds == {"precision"} and not conditions.precision[1:]:
        others = {
            k.value
            for i, k in plan.keys.items()
            if i not in plan.references and k.kind == "precision"
        }
        if len(others) == 1:
            update["precision"] = sorted(others)
    if own is not None and own.kind == "precision":
        update["precision"] = [own.value]
    return conditions.model_copy(update=update)
