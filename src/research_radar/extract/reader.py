"""The number reader: a small learned model that reads the numbers the rules left.

The rules (`extract.tables`, `extract.metrics`) were written on the documents they were
tuned on and miss measurements written in ways they never saw (a table whose header
names no unit, a column of timings headed by a model name). For every number they left,
the reader weighs cues (`extract.readercues`: what its column header and row label say,
whether the rules read its neighbours, whether it looks like a year, a batch size or the
size in a model's name) with a logistic model, and takes it as a measurement when the
probability reaches the threshold picked by cross-validation. A number it takes keeps
its value as written, and carries the unit and metric name of its cell or sentence.

The weights were fitted with scikit-learn by `benchmarks/train_reader.py` on the
labelled tune documents and ship as plain arrays in `research_radar/data/reader.npz`,
loaded once, when first needed (issue #14). Reading them and scoring need no numpy (its
import costs a quarter of a second at every start, issue #19); `probabilities`, for
training and checks, imports it.
"""

from __future__ import annotations

import ast
import functools
import io
import math
import sys
import zipfile
import zlib
from array import array
from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from importlib import resources
from typing import TYPE_CHECKING, Protocol

from research_radar.extract.catalogue import Catalog
from research_radar.extract.markdown import Segment, clean_text, split_cells
from research_radar.extract.namedscores import named_scores
from research_radar.extract.prefilter import RECENT_TEXTS
from research_radar.extract.prosecues import prose_candidates
from research_radar.extract.readercues import Candidate, table_candidates
from research_radar.extract.tables import TableClaim
from research_radar.models import Metric

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "BUCKETS",
    "MODEL_FILE",
    "LearnedReader",
    "NumberReader",
    "cue_index",
    "default_reader",
    "load_reader",
    "read_sentence",
    "read_table_cells",
]

MODEL_FILE = "data/reader.npz"
"""The trained weights, inside the `research_radar` package."""
BUCKETS = 1 << 14
"""Cues are hashed into this many weights."""


def cue_index(cue: str) -> int:
    """The weight a cue is hashed to (CRC-32: the same in every process)."""
    index = _INDEX.get(cue)
    if index is None:
        if len(_INDEX) > 65536:
            _INDEX.clear()
        index = _INDEX[cue] = zlib.crc32(cue.encode("utf-8")) & (BUCKETS - 1)
    return index


_INDEX: dict[str, int] = {}
"""Cues seen before: most repeat (`p`, `dec0`, `h:latency`)."""


class NumberReader(Protocol):
    """Decides which candidates are measurements."""

    @property
    def everything(self) -> bool:
        """Whether it wants the numbers the rules read too (a training recorder does)."""
        ...

    def accept(self, candidates: Sequence[Candidate]) -> list[bool]:
        """One decision per candidate."""
        ...


@dataclass(frozen=True)
class LearnedReader:
    """A logistic model over hashed cues."""

    weights: Collection[float]
    """One weight per cue bucket (float32 values)."""
    bias: float
    threshold: float
    """The probability from which a number is read as a measurement."""
    everything: bool = False
    _listed: list[float] = field(init=False, repr=False, compare=False)
    _limit: float = field(init=False, repr=False, compare=False)

    def probabilities(self, candidates: Sequence[Candidate]) -> npt.NDArray[np.float64]:
        import numpy as np  # (training and checks only: reading needs none)

        if not candidates:
            return np.zeros(0)
        sizes = [len(c.cues) for c in candidates]
        columns = np.fromiter(
            (cue_index(cue) for c in candidates for cue in c.cues), dtype=np.int64
        )
        items = np.repeat(np.arange(len(candidates)), sizes)
        weights = np.asarray(self.weights, dtype=np.float32)
        logits = np.bincount(items, weights[columns], minlength=len(candidates)) + self.bias
        probabilities: npt.NDArray[np.float64] = 1.0 / (1.0 + np.exp(-logits))
        return probabilities

    def accept(self, candidates: Sequence[Candidate]) -> list[bool]:
        # summed in Python: a statement has a few numbers, and numpy's set-up per call
        # costs more than the sums (the same decisions as `probabilities`)
        weights, limit = self._listed, self._limit
        return [sum(weights[cue_index(cue)] for cue in c.cues) >= limit for c in candidates]

    def __post_init__(self) -> None:
        threshold = min(max(self.threshold, 1e-9), 1 - 1e-9)
        object.__setattr__(self, "_listed", [float(w) for w in self.weights])
        object.__setattr__(self, "_limit", math.log(threshold / (1 - threshold)) - self.bias)


def load_reader(data: bytes) -> LearnedReader:
    """A reader from the bytes of a `reader.npz` file."""
    with zipfile.ZipFile(io.BytesIO(data)) as arrays:
        shape, weights = _npy(arrays.read("weights.npy"))
        _, scalars = _npy(arrays.read("scalars.npy"))
    if shape != (BUCKETS,):
        raise ValueError(f"reader weights have shape {shape}, expected ({BUCKETS},)")
    bias, threshold = (float(v) for v in scalars)
    return LearnedReader(array("f", weights), bias, threshold)


def _npy(data: bytes) -> tuple[tuple[int, ...], array[float]]:
    """The shape and values of a `.npy` array of little-endian floats (format 1.0-3.0)."""
    if data[:6] != b"\x93NUMPY":
        raise ValueError("not a .npy array")
    start = 10 if data[6] == 1 else 12  # format 2.0 and 3.0 give the header's size in 4 bytes
    size = int.from_bytes(data[8:start], "little")
    header = ast.literal_eval(data[start : start + size].decode("latin1"))
    if header["descr"] not in ("<f4", "<f8") or header["fortran_order"]:
        raise ValueError(f"reader arrays must be little-endian floats, not {header['descr']}")
    values = array("f") if header["descr"] == "<f4" else array("d")
    values.frombytes(data[start + size :])
    if sys.byteorder == "big":
        values.byteswap()
    return tuple(header["shape"]), values


@functools.cache
def default_reader() -> LearnedReader:
    """The bundled reader, read once per process."""
    data = resources.files("research_radar").joinpath(MODEL_FILE).read_bytes()
    return load_reader(data)


# --------------------------------------------------------------------------- reading


def read_table_cells(
    header: Sequence[str],
    rows: Sequence[Segment],
    found: Sequence[TableClaim],
    cat: Catalog,
    reader: NumberReader,
) -> dict[tuple[int, int], list[Metric]]:
    """The measurements of a table's cells that the rules' claims `found` left out, by
    row (its index in `rows`) and column: `extract.tables` reads them with the rules' own,
    so that they take the same conditions, reference and baseline."""
    taken: dict[int, Counter[float]] = {}
    for claim in found:
        taken.setdefault(claim.line, Counter()).update(m.value for m in claim.metrics)
    candidates = table_candidates(header, rows, taken, everything=reader.everything)
    chosen = [c for c, ok in zip(candidates, reader.accept(candidates), strict=True) if ok]
    head = [clean_text(h) for h in header]
    by_cell: dict[tuple[int, int], list[Metric]] = {}
    for candidate in chosen:
        if candidate.taken or _models_both_ways(head, rows[candidate.row], candidate, cat):
            continue
        metric = Metric(name=candidate.name, value=candidate.value, unit=candidate.unit)
        by_cell.setdefault((candidate.row, candidate.column), []).append(metric)
    return by_cell


def _models_both_ways(head: list[str], row: Segment, candidate: Candidate, cat: Catalog) -> bool:
    """`| Draft \\ Target | Llama-3-8B |` over `| Llama-3-1B | 0.7 |`: a cell of a model
    by a model says nothing of what it measures; it is not read."""
    column = head[candidate.column] if candidate.column < len(head) else ""
    label = clean_text(split_cells(row.text)[0])
    return bool(column and cat.names("model", column) and cat.names("model", label))


def read_sentence(
    segment: Segment, metrics: Sequence[Metric], reader: NumberReader
) -> list[Metric]:
    """The measurements of one sentence that the rules' `metrics` left out."""
    taken = tuple(m.value for m in metrics)
    if reader.everything:  # (a recorder: it wants every candidate, each time)
        return _read_sentence(segment, taken, reader)
    key = (segment.text, segment.block, taken)
    known = _READ.get(key)
    if known is None or known[0] is not reader:
        if len(_READ) > RECENT_TEXTS:
            _READ.clear()
        known = _READ[key] = (reader, _read_sentence(segment, taken, reader))
    return [metric.model_copy() for metric in known[1]]  # (callers own what they get)


_READ: dict[tuple[str, str, tuple[float, ...]], tuple[NumberReader, list[Metric]]] = {}
"""What the reader took in the statements read lately: what it takes depends only on the
statement, its block and the numbers the rules took there, and pages say the same
sentence again (a note under each table, a set-up repeated in each section, issue #19)."""


def _read_sentence(
    segment: Segment, taken: tuple[float, ...], reader: NumberReader
) -> list[Metric]:
    candidates = prose_candidates(segment, taken, everything=reader.everything)
    read = [
        Metric(name=c.name, value=c.value, unit=c.unit)
        for c, ok in zip(candidates, reader.accept(candidates), strict=True)
        if ok and not c.taken
    ]
    if reader.everything:
        return read  # (training: the reader learns from its own cues only)
    named = named_scores(segment.text, [*taken, *(m.value for m in read)])
    return [*read, *named]
