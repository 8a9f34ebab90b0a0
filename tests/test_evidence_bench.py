"""The evidence benchmark's report (issue #14): the load recall of each key, aggregate
counts only, and a run limited to one split or to labels kept in another folder."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCH = Path(__file__).resolve().parents[1] / "benchmarks" / "evidence_bench.py"
COMMIT = "0" * 40
DOC = "# Bench\n\nOn one H100 at batch size 8 and 4 concurrent requests, we reach 120 tok/s.\n"
LABELS = f"""# doc x-one o/r {COMMIT} README.md lines=3-3 lang=en split=tune
L3 120 tok/s throughput | hw=H100; load=batch:8,tp:2
# doc x-two o/r {COMMIT} README.md lines=3-3 lang=en split=heldout
L3 120 tok/s throughput | hw=H100; load=batch:8
"""


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("evidence_bench", BENCH)
    assert spec and spec.loader
    bench = importlib.util.module_from_spec(spec)
    sys.modules["evidence_bench"] = bench  # its dataclasses look their module up
    spec.loader.exec_module(bench)
    return bench


def _run(tmp_path: Path, capsys: pytest.CaptureFixture[str], *args: str) -> str:
    labels, cache = tmp_path / "labels", tmp_path / "cache"
    labels.mkdir()
    (labels / "x.lab").write_text(LABELS, encoding="utf-8")
    page = cache / "o" / "r" / COMMIT / "README.md"
    page.parent.mkdir(parents=True)
    page.write_text(DOC, encoding="utf-8")
    argv = ["--docs-only", "--labels-dir", str(labels), "--cache", str(cache), *args]
    assert _bench().main(argv) == 0
    return capsys.readouterr().out


def test_load_recall_of_each_key_follows_the_load_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = _run(tmp_path, capsys, "--split", "tune")
    lines = out.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("load "))
    assert lines[at].split()[2] == "0.500"  # recall: batch found, tp missed
    assert lines[at + 1].split() == ["load", "by", "key", "batch", "1.000/1,", "tp", "0.000/1"]
    assert "== tune" in out and "heldout" not in out  # one split only


def test_every_split_has_its_line_of_keys(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = _run(tmp_path, capsys)
    assert out.count("load by key") == 2
    assert "load by key    batch 1.000/1\n" in out  # the held-out split: batch alone


@pytest.mark.parametrize(
    ("gold", "predicted", "same"),
    [
        pytest.param("Xeon(R) 6271", "Xeon 6271", True, id="registered-mark"),
        pytest.param("Intel(R) Core(TM) i7-9750H", "Core i7-9750H", True, id="marks-and-vendor"),
        pytest.param("AMD Ryzen™ 7 9800X3D", "Ryzen 7 9800X3D", True, id="trademark-sign"),
        pytest.param("A6000", "RTX A6000", True, id="workstation-rtx"),
        pytest.param("NVIDIA-A6000", "NVIDIA RTX A6000", True, id="workstation-rtx-vendor"),
        pytest.param("A4000", "RTX A4000 16GB", True, id="workstation-rtx-memory"),
        pytest.param("A5000", "RTX A6000", False, id="another-workstation-card"),
        pytest.param("4090", "RTX 4090", False, id="a-number-alone-is-no-card"),
        pytest.param("Xeon 6271", "Xeon 6278", False, id="another-xeon"),
    ],
)
def test_hardware_names_match_without_marks_or_a_workstation_rtx(
    gold: str, predicted: str, same: bool
) -> None:
    assert _bench().name_matches("hardware", gold, predicted) is same


@pytest.mark.parametrize(
    ("gold", "predicted", "same"),
    [
        pytest.param("Meta-Llama-3-8B", "Llama-3-8B", True, id="meta-spelling"),
        pytest.param("Llama-3-8B-Instruct", "Meta-Llama-3-8B-Instruct", True, id="meta-predicted"),
        pytest.param("Llama-2-7b-hf", "meta-llama/Llama-2-7b-hf", True, id="hub-owner"),
        pytest.param("Qwen2.5-7B", "Qwen/Qwen2.5-7B-Instruct", True, id="hub-owner-and-suffix"),
        pytest.param("Llama-3-8B", "Llama-3-70B", False, id="another-size"),
        pytest.param("Meta-Llama-3-8B", "Llama-2-7B", False, id="another-llama"),
        pytest.param("Metaformer-7B", "former-7B", False, id="meta-without-llama"),
    ],
)
def test_model_names_match_across_meta_and_hub_spellings(
    gold: str, predicted: str, same: bool
) -> None:
    assert _bench().name_matches("model", gold, predicted) is same
