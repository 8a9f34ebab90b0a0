"""How callers read a claim: its own numbers, and the JSON `radar extract --json` prints.

Pure. Kept apart from `research_radar.extract.claims`, which finds the claims.
"""

from __future__ import annotations

from typing import Any

from research_radar.extract.compared import is_baseline_metric
from research_radar.models import Claim, Metric

__all__ = ["claim_to_json", "own_metrics"]


def own_metrics(claim: Claim) -> list[Metric]:
    """The claim's own numbers: its metrics without the compared system's values.

    In `prefill 963 vs 763 tok/s` the 763 is llama.cpp's, named `prefill (baseline)`
    (a table column names the system: `prefill (llama.cpp baseline)`).
    """
    return [metric for metric in claim.metrics if not is_baseline_metric(metric)]


def claim_to_json(claim: Claim) -> dict[str, Any]:
    """The JSON shape `radar extract --json` prints for one claim."""
    conditions = claim.conditions
    return {
        "kind": claim.kind.value,
        "text": claim.text,
        "metrics": [m.model_dump() for m in claim.metrics],
        "conditions": {
            "hardware": conditions.hardware,
            "model": conditions.model,
            "precision": conditions.precision,
            "baseline": conditions.baseline,
            "software": conditions.software,
            "load": conditions.load,
        },
        "line": claim.line,
        "where": claim.where,
        "complete": claim.complete,
    }
