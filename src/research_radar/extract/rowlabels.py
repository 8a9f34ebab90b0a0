"""A table's label column that names its rows' models, whether or not the catalogue knows
them (`| 模型 | 骁龙 865 |` over `| MobileNetV3_large_x1_0 | 14.46 |`).

Pure. A building block of `research_radar.extract.tables`; callers outside this package
use `research_radar.extract.claims` instead. Edge runtimes benchmark vision, speech and
in-house networks no catalogue lists (`HRNet_w18`, `humanseg`, `Inception v3`); a column
headed `Model` (`模型`, `Network`) says what each row label is, so the label is the row's
model as written (issue #14); unless the catalogue knows one of the column's models, only
when nothing else in scope names a model. These are the only model names that are not
canonical catalogue names.

A column headed `Device` (`设备`, `测试平台`, `SoC`) likewise names each row's part as written,
when the catalogue knows none in the row (`Samsung S24 (Ultra)`, `SE9-8`).
"""

from __future__ import annotations

import re

from research_radar.extract.catalogue import Catalog
from research_radar.extract.metrics import metric_words
from research_radar.extract.references import Row
from research_radar.models import Conditions

__all__ = ["device_labels", "group_model", "model_labels", "table_wide"]


_MODEL_HEAD = re.compile(
    r"(?:benchmark\s|base\s|test\s)?(?:models?|networks?|nets?)(?:\s?(?:names?|ids?))?|"
    r"(?:测试)?(?:模型|网络)(?:名称?|结构)?",
    re.I,
)
_NAME = re.compile(r"(?=[^|]*[A-Za-z])[A-Za-z\u4e00-\u9fff][\w.+\-/ ]{0,47}")
"""A name: starts with a letter, holds a Latin letter, at most 48 characters."""
_MODEL_WORD = re.compile(r"[\s_-]?(?:model|模型)$", re.I)
_NOT_A_NAME = re.compile(
    r"^(?:ours?|baseline|average|avg|mean|total|overall|geomean|all|none|n/?a|others?|"
    r"speed-?up|improvement|original|default|平均|合计|总计)$",
    re.I,
)

_PHRASE = re.compile(r"[a-z]+(?: [a-z]+)+")
"""`ctc prefix beam search`, `attention rescoring`: words of a method in lower case, not a
model's name (a name is spelled as one: `humanseg`, `lite_transformer`, `Inception v3`)."""


def _model_column(head: list[str], metric_columns: list[int]) -> int | None:
    """The column whose header says its cells name models, if one holds no numbers."""
    for column, name in enumerate(head):
        if column not in metric_columns and _MODEL_HEAD.fullmatch(name.strip()):
            return column
    return None


def _catalogued(column: int, rows: list[Conditions], labels: list[list[str]]) -> bool:
    """True when the catalogue knows the model of a row labelled in `column`: the column
    names models for sure. A `Models` column of decoding methods (`EAGLE`, `Medusa`)
    names none, and its labels are models only when nothing else names one."""
    return any(
        own.model and column < len(cells) and cells[column]
        for own, cells in zip(rows, labels, strict=True)
    )


def named_model(own: Conditions, cell: str, cat: Catalog, *, stated: bool = False) -> Conditions:
    """A row's conditions with the label of its model column as its model, when no
    catalogue name of a model stands in the row and the label reads as a name (not a
    number, a metric word, or, unless the label `stated` it is a model, a precision or a
    system the catalogue knows)."""
    if own.model:
        return own
    label = _MODEL_WORD.sub("", " ".join(cell.split())).strip()
    if not _NAME.fullmatch(label) or len(label.split()) > 4 or _NOT_A_NAME.match(label):
        return own
    if (
        _PHRASE.fullmatch(label)
        or metric_words(label)
        or (not stated and any(cat.find(f, label) for f in ("software", "precision", "hardware")))
    ):
        return own
    return own.model_copy(update={"model": [label]})


def group_model(own: Conditions, cell: str, cat: Catalog) -> Conditions:
    """`| **OpenNMT-tf WMT14 model** | | |` over the rows it groups: a group label that
    calls itself a model names the model of those rows."""
    if own.model or not _MODEL_WORD.search(cell.strip()):
        return own
    return named_model(own, cell, cat, stated=True)


def model_labels(
    head: list[str], metric_columns: list[int], rows: list[Row], cat: Catalog
) -> list[str]:
    """Each row's model as its `Model` column writes it (`extract.rowlabels`): set on the
    row when the column is sure to name models, else returned for the row's claims to
    take when nothing else names a model ('' for none)."""
    column = _model_column(head, metric_columns)
    if column is None:
        return [""] * len(rows)
    sure = _catalogued(column, [r.own for r in rows], [r.cells for r in rows])
    found: list[str] = []
    for row in rows:
        cell = row.cells[column] if column < len(row.cells) else ""
        named = named_model(row.own, cell, cat).model
        if sure:
            row.own = row.own.model_copy(update={"model": named})
        found.append("" if sure or row.own.model else "".join(named))
    return found


def table_wide(columns: list[Conditions]) -> Conditions:
    """`| Wan2.1 t2v 1.3B | TeaCache (0.05) | TeaCache (0.07) |`: the one model (hardware)
    the column headers name, when no other header names another, is the whole table's:
    the other columns compare systems or settings on it."""
    found: dict[str, list[str]] = {}
    for name in ("model", "hardware"):
        named = {tuple(getattr(c, name)) for c in columns if getattr(c, name)}
        if len(named) == 1 and len(next(iter(named))) == 1:
            found[name] = list(next(iter(named)))
    return Conditions(model=found.get("model", []), hardware=found.get("hardware", []))


_DEVICE_HEAD = re.compile(
    r"(?:test\s|hardware\s)?(?:devices?|hardware|phones?|soc|chips?|boards?|machines?|instances?|"
    r"gpus?|npus?|accelerators?)(?:\s?(?:names?|models?|types?))?|(?:test|hardware)\splatforms?|"
    r"(?:测试)?(?:设备|硬件|硬件平台|机型|手机|芯片|开发板|显卡|加速卡|卡型|GPU|NPU)(?:名称|型号)?|测试平台",
    re.I,
)
"""A column of parts; not a bare `Platform` (as often `onnx` / `trt` as a device)."""
_GENERIC_DEVICE = re.compile(
    r"^(?:cpus?|gpus?|npus?|tpus?|dsp|apu|xpu|cuda|metal|opencl|vulkan|auto|all|mobile|"
    r"desktop|server|cloud|edge|android|ios|linux|windows|macos|arm|x86|yes|no|true|false|"
    r"nvidia|amd|intel|apple|none|n/?a|mps|rocm|only|mode)$",
    re.I,
)
"""A backend or a class of device (`| Device | CPU |`, `GPU (CUDA)`), not the part itself."""
_BRACKETS = re.compile(r"[()（）]")
"""`Samsung S24 (Ultra)`: read as `Samsung S24 Ultra`."""


def device_labels(
    head: list[str], metric_columns: list[int], rows: list[Row], cat: Catalog
) -> None:
    """`| Gemma3-1B | Samsung S24 (Ultra) | CPU | 243.24 |` under `| Model | Device | ...`:
    a column headed `Device` (`设备`, `测试平台`, `SoC`) that holds no numbers names each
    row's part, as written, when the catalogue knows none in the row (issue #14: phones,
    boards and cloud instances no catalogue lists)."""
    column = next(
        (
            c
            for c, name in enumerate(head)
            if c not in metric_columns and _DEVICE_HEAD.fullmatch(name.strip())
        ),
        None,
    )
    if column is None:
        return
    for row in rows:
        if row.own.hardware or column >= len(row.cells):
            continue
        label = " ".join(_BRACKETS.sub(" ", row.cells[column]).split())
        if (
            not _NAME.fullmatch(label)
            or len(label.split()) > 5
            or all(_GENERIC_DEVICE.match(word) for word in label.split())
            or _NOT_A_NAME.match(label)
            or metric_words(label)
            or any(cat.find(f, label) for f in ("software", "precision", "model"))
        ):
            continue
        row.own = row.own.model_copy(update={"hardware": [label]})
