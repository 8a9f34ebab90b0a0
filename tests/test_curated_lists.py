"""The curated-list reader of benchmarks/curated.py, on list layouts written here: the items
it takes and leaves, the arXiv ids it reads, the reserved projects it keeps out."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

CURATED = Path(__file__).resolve().parents[1] / "benchmarks" / "curated.py"


@pytest.fixture(scope="module")
def curated() -> ModuleType:
    spec = importlib.util.spec_from_file_location("curated", CURATED)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["curated"] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def parse(curated: ModuleType, tmp_path: Path, text: str) -> list[tuple[str, list[str], str]]:
    path = tmp_path / "README.md"
    path.write_text(text, encoding="utf-8")
    result: list[tuple[str, list[str], str]] = curated.parse_list(path)
    return result


def test_an_item_with_its_venue_and_notes_in_nested_bullets(
    curated: ModuleType, tmp_path: Path
) -> None:
    items = parse(
        curated,
        tmp_path,
        "## Efficient Solver\n\n"
        '- [**DPM-Solver**]: "DPM-Solver: A Fast ODE Solver for Diffusion Sampling";\n'
        "    - 2022/06 | NeurIPS | [[Paper](https://arxiv.org/abs/2206.00927)]\n"
        "    - **Key results**: NFE = 10 matches DDIM with NFE = 100\n\n"
        '- [**PTQD**]: "PTQD: Accurate Post-Training Quantization for Diffusion Models";\n'
        "    - 2023/05 | NeurIPS23 | [[Paper](https://arxiv.org/abs/2305.10657)]\n",
    )
    assert items == [
        (
            "DPM-Solver: A Fast ODE Solver for Diffusion Sampling",
            ["Efficient Solver"],
            "2206.00927",
        ),
        (
            "PTQD: Accurate Post-Training Quantization for Diffusion Models",
            ["Efficient Solver"],
            "2305.10657",
        ),
    ]


def test_a_bold_title_takes_the_arxiv_id_of_its_author_line(
    curated: ModuleType, tmp_path: Path
) -> None:
    items = parse(
        curated,
        tmp_path,
        "### Speculative Decoding for LLMs\n\n"
        "- **Fast Inference from Transformers via Speculative Decoding**  \n"
        "  *Yaniv Leviathan, Matan Kalman.* [[pdf](https://arxiv.org/pdf/2211.17192.pdf)], 2022.11.\n"
        "- **A Title Whose Link Is Missing Here**  \n"
        "  *Someone Else.* [[code](https://github.com/example/code)], 2023.01.\n",
    )
    assert [(title, arxiv) for title, _, arxiv in items] == [
        ("Fast Inference from Transformers via Speculative Decoding", "2211.17192"),
        ("A Title Whose Link Is Missing Here", None),
    ]


def test_nested_named_links_are_items_of_their_own(curated: ModuleType, tmp_path: Path) -> None:
    items = parse(
        curated,
        tmp_path,
        "## Training\n\n"
        "- **RL post-training frameworks**\n"
        "  - [OpenRLHF](https://github.com/OpenRLHF/OpenRLHF): An Easy-to-use RLHF Framework\n"
        "  - [VeRL](https://github.com/volcengine/verl): Volcano Engine Reinforcement Learning\n",
    )
    assert [title for title, _, _ in items][1:] == [
        "OpenRLHF: An Easy-to-use RLHF Framework",
        "VeRL: Volcano Engine Reinforcement Learning",
    ]


def test_a_blank_line_ends_an_item(curated: ModuleType, tmp_path: Path) -> None:
    items = parse(
        curated,
        tmp_path,
        "#### Efficient VLA\n\n"
        "| Title | Year |\n| :--- | :--- |\n"
        "| [A Survey on Efficient Vision-Language-Action Models](https://ieeexplore.ieee.org/x) "
        "| 2025 |\n\n"
        "[23] Y. Ma, Z. Song, Y. Zhuang, “A survey on\n"
        "vision-language-action models,” https://arxiv.org/abs/2405.14093\n",
    )
    assert items == [
        ("A Survey on Efficient Vision-Language-Action Models", ["Efficient VLA"], None)
    ]


def test_the_own_papers_of_reserved_repositories_are_left_out(
    curated: ModuleType, tmp_path: Path
) -> None:
    # by arXiv id, whichever title the list gives the paper
    mapping = tmp_path / "mapping.toml"
    mapping.write_text(
        '[lists."a/one"]\nsplit = "train"\nworkload = "llm-agentic"\n'
        'headings = [{ heading = "Kernels", mechanism = ["kernel-compiler-fusion"] }]\n',
        encoding="utf-8",
    )
    (tmp_path / "a__one").mkdir()
    (tmp_path / "a__one" / "README.md").write_text(
        "## Kernels\n\n"
        "- [An Attention Kernel Paper Under Any Title](https://arxiv.org/abs/2205.14135)\n"
        "- [A Kernel Paper Nobody Reserved](https://arxiv.org/abs/2301.00001)\n",
        encoding="utf-8",
    )
    items = curated.build_items(curated.load_mapping(mapping), tmp_path)
    assert [item.title for item in items] == ["A Kernel Paper Nobody Reserved"]
    # by title hash, for a paper a list gives without its id
    title = "A Paper Given Without Its Identifier"
    assert curated.is_reserved(title, None, titles=frozenset({curated.title_key(title)}))
    assert not curated.is_reserved(title, None)
    assert not curated.is_reserved("Another Paper", "2301.00001")


def test_one_title_is_one_item_with_every_list_and_id(curated: ModuleType, tmp_path: Path) -> None:
    mapping = tmp_path / "mapping.toml"
    mapping.write_text(
        '[lists."a/one"]\nsplit = "train"\nworkload = "diffusion"\n'
        'headings = [{ heading = "Solvers", mechanism = ["compute-quality-budget"] }]\n'
        '[lists."b/two"]\nsplit = "train"\nworkload = "diffusion"\n'
        'headings = [{ heading = "Caching", mechanism = ["cache"] }]\n',
        encoding="utf-8",
    )
    for folder, text in (
        (
            "a__one",
            "## Solvers\n\n"
            '- [**DDPM**] "Denoising Diffusion Probabilistic Models";\n'
            "    - [[Paper](https://arxiv.org/abs/2006.11239)]\n\n"
            '- [**CFG**] "Denoising Diffusion Probabilistic Models";\n'
            "    - [[Paper](https://arxiv.org/abs/2207.12598)]\n",
        ),
        ("b__two", "## Caching\n\n- [Denoising Diffusion Probabilistic Models](https://x.org/a)\n"),
    ):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "README.md").write_text(text, encoding="utf-8")
    items = curated.build_items(curated.load_mapping(mapping), tmp_path)
    assert len(items) == 1
    item = items[0]
    assert item.key == "arxiv:2006.11239"
    assert item.arxiv == {"2006.11239", "2207.12598"}
    assert item.lists == {"a/one", "b/two"}
    assert item.mechanism == {"compute-quality-budget", "cache"}
