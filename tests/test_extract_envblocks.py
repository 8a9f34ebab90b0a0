"""A code block that prints the machine sets up the parts of its section (issue #14)."""

from __future__ import annotations

from research_radar.extract.claims import extract_claims
from research_radar.extract.envblocks import env_blocks
from research_radar.models import Claim

_TABLE = "| batch | tokens/s |\n|---|---|\n| 1 | 123.5 |\n"


def _numbers(claims: list[Claim]) -> dict[float, Claim]:
    return {metric.value: claim for claim in claims for metric in claim.metrics}


def test_nvidia_smi_list_names_the_gpu_of_the_section() -> None:
    text = (
        "## Results\n\n```\n$ nvidia-smi -L\n"
        "GPU 0: NVIDIA A100-SXM4-80GB (UUID: GPU-1a2b)\n"
        "GPU 1: NVIDIA A100-SXM4-80GB (UUID: GPU-3c4d)\n```\n\n" + _TABLE
    )
    assert _numbers(extract_claims(text))[123.5].conditions.hardware == ["A100 80 GB"]


def test_lscpu_and_collect_env_name_the_machine() -> None:
    text = (
        "## CPU\n\n```\nArchitecture: x86_64\nModel name: Intel(R) Xeon(R) Platinum 8480+\n"
        "CPU(s): 224\n```\n\n" + _TABLE
    )
    assert _numbers(extract_claims(text))[123.5].conditions.hardware == ["Xeon Platinum 8480+"]
    text = "```\nGPU models and configuration:\nGPU 0: NVIDIA H100 80GB HBM3\n```\n\n" + _TABLE
    assert _numbers(extract_claims(text))[123.5].conditions.hardware == ["H100 80 GB"]


def test_a_block_printing_no_machine_names_none() -> None:
    text = "## Run\n\n```bash\npython bench.py --device A100 --compare H100\n```\n\n" + _TABLE
    assert env_blocks(text) == []
    assert _numbers(extract_claims(text))[123.5].conditions.hardware == []


def test_the_machine_holds_in_its_section_only() -> None:
    text = (
        "## A\n\n```\nGPU 0: NVIDIA L40S (UUID: GPU-1)\n```\n\n" + _TABLE + "\n## B\n\n"
        "| batch | tokens/s |\n|---|---|\n| 2 | 99.5 |\n"
    )
    found = _numbers(extract_claims(text))
    assert found[123.5].conditions.hardware == ["L40S"]
    assert found[99.5].conditions.hardware == []
