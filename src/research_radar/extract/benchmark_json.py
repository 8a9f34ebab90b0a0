"""Benchmark-results JSON -> Claims, one per result record.

Pure: `parse_benchmark_json` takes the decoded document; `extract.documents.extract_file` reads
the file. A record is any object with a numeric field whose key names a metric
(`throughput`, `ttft_ms`, `accuracy`, ...); load comes from its fields and the file name.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from typing import Any

from research_radar.extract.catalogue import Catalog
from research_radar.extract.cataloguefiles import default_catalog
from research_radar.extract.conditions import CONDITION_FIELDS, format_repeats
from research_radar.models import Claim, ClaimKind, Conditions, Metric

__all__ = ["parse_benchmark_json"]


_JSON_UNITS = (
    (re.compile(r"request_throughput|req(?:uests)?_per_s"), "req/s"),
    (re.compile(r"throughput|tok(?:en)?s?_per_s(?:ec)?|tps$|tok_s$"), "tok/s"),
    (re.compile(r"_ms$|latency_ms|ttft|tpot|itl"), "ms"),
    (re.compile(r"^duration$|_s$|seconds"), "s"),
    (re.compile(r"speedup"), "x"),
    (re.compile(r"accuracy|wer|cer|ppl|perplexity|score|accept_length|acceptance"), ""),
)
_JSON_LOAD = (
    ("concurrency", re.compile(r"^(?:max_)?concurrency$|^conc$")),
    ("prompt", re.compile(r"input_len|^isl$|prompt_len")),
    ("output", re.compile(r"output_len|^osl$|max_tokens")),
    ("batch", re.compile(r"^batch(?:_size)?$|^bs$")),
    ("request_rate", re.compile(r"^request_rate$")),
    ("seed", re.compile(r"^seed$")),
)
_FILE_LOAD = (
    ("concurrency", re.compile(r"(?:conc|concurrency|c)(\d+)$", re.I)),
    ("prompt", re.compile(r"isl(\d+)$", re.I)),
    ("output", re.compile(r"osl(\d+)$", re.I)),
    ("batch", re.compile(r"(?:bs|batch)(\d+)$", re.I)),
    ("tp", re.compile(r"tp(\d+)$", re.I)),
)


def parse_benchmark_json(
    data: Any, name: str, where: str, reporter: str = "author", *, catalog: Catalog | None = None
) -> list[Claim]:
    """Claims of a decoded benchmark-results JSON document (one per result record).

    Load conditions written in the file name (`conc16_isl1024_osl1024`) count too.
    """
    cat = catalog or default_catalog()
    stem = re.sub(r"\.json$", "", name, flags=re.I)
    file_load = _file_load(stem)
    file_names = {f: cat.names(f, re.sub(r"[_.]", " ", stem)) for f in CONDITION_FIELDS}
    claims = []
    for record in _records(data):
        claim = _record_claim(record, stem, where, reporter, cat, file_load, file_names)
        if claim is not None:
            claims.append(claim)
    return claims


def _records(data: Any) -> Iterator[dict[str, Any]]:
    if isinstance(data, dict):
        if any(_json_unit(k) is not None and _number(v) for k, v in data.items()):
            yield data
        for value in data.values():
            if isinstance(value, dict | list):
                yield from _records(value)
    elif isinstance(data, list):
        for item in data:
            yield from _records(item)


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _json_unit(key: str) -> str | None:
    lowered = key.lower()
    if lowered.startswith("std_") or lowered.endswith("_std"):
        return None
    return next((unit for rx, unit in _JSON_UNITS if rx.search(lowered)), None)


def _file_load(stem: str) -> dict[str, str]:
    load: dict[str, str] = {}
    for token in re.split(r"[_\-.\s]+", stem):
        for key, rx in _FILE_LOAD:
            match = rx.fullmatch(token) if key != "concurrency" else rx.match(token)
            if match and key not in load and match.end() == len(token):
                load[key] = match.group(1)
    return load


def _record_claim(
    record: dict[str, Any],
    stem: str,
    where: str,
    reporter: str,
    cat: Catalog,
    file_load: dict[str, str],
    file_names: dict[str, list[str]],
) -> Claim | None:
    metrics = [
        Metric(name=key, value=float(value), unit=unit)
        for key, value in record.items()
        if (unit := _json_unit(key)) is not None and _number(value)
    ]
    if not metrics:
        return None
    load = dict(file_load)
    for key, value in record.items():
        role = next((k for k, rx in _JSON_LOAD if rx.search(key.lower())), None)
        if role and (_number(value) or value in (math.inf, -math.inf)) and role not in load:
            load[role] = "inf" if value == math.inf else f"{value:g}"
    words = " ".join(str(v) for k, v in record.items() if isinstance(v, str) and len(v) < 80)
    names = {f: list(dict.fromkeys(file_names[f] + cat.names(f, words))) for f in CONDITION_FIELDS}
    percentiles = sorted({m.group(1) for k in record for m in [re.match(r"(p\d{2})_", k)] if m})
    if percentiles:
        load["percentiles"] = ",".join(percentiles)
    summary = ", ".join(
        f"{m.name}={m.value:g}{(' ' + m.unit) if m.unit else ''}" for m in metrics[:6]
    )
    return Claim(
        kind=ClaimKind.PERFORMANCE,
        text=f"{stem}: {summary}",
        metrics=metrics,
        conditions=Conditions(**names, load=load, repeats=format_repeats(load)),
        where=where,
        line=None,
        reporter=reporter,
    )
