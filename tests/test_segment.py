"""The segmenter cuts exactly as jieba does with its whole dictionary."""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

import jieba
import pytest

from research_radar.segment import Segmenter

if TYPE_CHECKING:
    from conftest import CorpusTexts

CRAFTED = [
    "投机解码在单卡上的模型专属推理引擎",
    "KV缓存卸载到SSD，吞吐提升3.5倍（RTX 5090，INT8量化）",
    "专家并行 + 流式语音识别: 首字延迟 120ms",
    "蝴蝶效应中的鲲鹏与龘龘",  # rare characters, some without a group of their own
    "",
]


@pytest.fixture(scope="module")
def texts(corpus_texts: CorpusTexts) -> list[str]:
    """The lines with Chinese of the sample and the fixtures."""
    documents = [*corpus_texts.documents, *corpus_texts.fields]
    lines = [line for doc in documents for line in doc.splitlines()]
    chinese = [line for line in lines if re.search(r"[\u4e00-\u9fff]", line)]
    return [*CRAFTED, *sorted(set(chinese))[:400]]


def test_cuts_as_jieba_does(tmp_path: Path, texts: list[str]) -> None:
    segmenter = Segmenter(tmp_path)
    for text in texts:
        assert segmenter.lcut(text, HMM=False) == jieba.lcut(text, HMM=False), text
        assert segmenter.lcut(text) == jieba.lcut(text), text
        assert segmenter.lcut_for_search(text) == jieba.lcut_for_search(text), text


def test_groups_file_is_written_once_and_read_back(tmp_path: Path) -> None:
    first = Segmenter(tmp_path)
    made = first.path.stat()
    assert first.path.parent == tmp_path
    again = Segmenter(tmp_path)
    assert again.path.stat().st_mtime_ns == made.st_mtime_ns, "read, not written again"
    text = CRAFTED[1]
    assert again.lcut_for_search(text) == first.lcut_for_search(text)
    assert again.lcut_for_search(text) == jieba.lcut_for_search(text)


@pytest.mark.parametrize(
    "content",
    [
        pytest.param(b"not a groups file at all", id="foreign"),
        pytest.param(b"research-radar jieba groups 1\n\xff\xff\xff", id="truncated"),
    ],
)
def test_unusable_groups_file_is_rebuilt(tmp_path: Path, content: bytes) -> None:
    (tmp_path / "jieba.groups.cache").write_bytes(content)
    segmenter = Segmenter(tmp_path)
    assert segmenter.path.read_bytes() != content
    assert segmenter.lcut(CRAFTED[0], HMM=False) == jieba.lcut(CRAFTED[0], HMM=False)


def test_unwritable_folder_still_cuts(tmp_path: Path) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("a file where the folder would be", encoding="utf-8")
    segmenter = Segmenter(blocked / "cache")
    assert not segmenter.path.exists()
    assert segmenter.lcut(CRAFTED[2]) == jieba.lcut(CRAFTED[2])
