"""Where a page states the load of many numbers at once (issue #14): a note below a
table, a statement for all of a section's numbers, a method section, a header row per
load key, `(input, output)` pairs; and a load value never read from a measurement."""

from __future__ import annotations

import pytest

from research_radar.extract.cataloguefiles import default_catalog
from research_radar.extract.claims import extract_claims
from research_radar.extract.conditions import find_conditions
from research_radar.models import Claim


def _numbers(claims: list[Claim]) -> dict[float, Claim]:
    return {metric.value: claim for claim in claims for metric in claim.metrics}


def _load(text: str) -> dict[str, dict[str, str]]:
    """Each number's load, by the number as written."""
    return {f"{m.value:g}": c.conditions.load for c in extract_claims(text) for m in c.metrics}


TABLE = "| Framework | Throughput (tok/s) |\n|---|---|\n| vLLM | 1200 |\n| SGLang | 1300 |\n"


def test_a_note_below_a_table_gives_the_table_its_load_whatever_its_first_word() -> None:
    english = f"## Results\n\n{TABLE}\nThe input length is 1024 and the output length is 128.\n"
    for number in ("1200", "1300"):
        assert _load(english)[number] == {"prompt": "1024", "output": "128"}
    chinese = f"## 结果\n\n{TABLE}\n输入长度为 1024，输出长度为 128，并发数为 16。\n"
    assert _load(chinese)["1200"] == {"prompt": "1024", "output": "128", "concurrency": "16"}


def test_a_note_with_a_number_of_its_own_or_an_example_sets_up_nothing() -> None:
    measured = f"## Results\n\n{TABLE}\nAt batch size 64 vLLM reaches 3000 tok/s.\n"
    assert "batch" not in _load(measured)["1200"]
    advice = f"## Results\n\n{TABLE}\nYou can raise the batch size to 64 for more throughput.\n"
    assert "batch" not in _load(advice)["1200"]


def test_a_paragraph_between_two_tables_introduces_the_second_not_the_first() -> None:
    second = "| Framework | TTFT (ms) |\n|---|---|\n| vLLM | 35 |\n"
    text = f"## Results\n\n{TABLE}\nThe next runs use a batch size of 32.\n\n{second}"
    found = _load(text)
    assert "batch" not in found["1200"]
    assert found["35"]["batch"] == "32"


def test_a_note_giving_two_values_of_a_key_sets_neither() -> None:
    text = f"## Results\n\n{TABLE}\nWe used batch size 8. Later we used batch size 16.\n"
    assert "batch" not in _load(text)["1200"]


def test_a_statement_for_all_numbers_sets_up_its_whole_section_before_it_too() -> None:
    text = (
        "# Bench\n\n## Results\n\nvLLM reaches 1200 tok/s, 2x faster than HF.\n\n"
        "All numbers are measured with batch size 8 and 512 input tokens.\n\n"
        "## Other\n\nHF reaches 600 tok/s.\n"
    )
    found = _load(text)
    assert found["1200"] == {"batch": "8", "prompt": "512"}
    assert "batch" not in found["600"]  # another section


def test_a_method_section_sets_up_the_load_of_its_parent_section() -> None:
    text = (
        "# Bench\n\n## Methodology\n\nWe use a batch size of 1 and generate 256 tokens.\n\n"
        "## Results\n\n| Model | tok/s |\n|---|---|\n| Llama-2-7B | 100 |\n"
    )
    assert _load(text)["100"] == {"batch": "1", "output": "256"}
    chinese = (
        "# 测试\n\n## 测试方法\n\n批大小为 1，输出长度 256。\n\n"
        "## 测试结果\n\n| 模型 | tokens/s |\n|---|---|\n| Qwen-7B | 100 |\n"
    )
    assert _load(chinese)["100"] == {"batch": "1", "output": "256"}


def test_input_output_pairs_written_as_tuples() -> None:
    table = (
        "| (ISL, OSL) | Throughput (tok/s) |\n|---|---|\n| (128, 2048) | 1200 |\n"
        "| (2048, 128) | 900 |\n"
    )
    found = _load(table)
    assert found["1200"] == {"prompt": "128", "output": "2048"}
    assert found["900"] == {"prompt": "2048", "output": "128"}
    assert "128" not in found and "2048" not in found  # the lengths are no measurements
    prose = _load("With (input, output) = (128, 2048), vLLM reaches 1200 tok/s.")
    assert prose["1200"] == {"prompt": "128", "output": "2048"}


def test_each_header_row_gives_its_columns_its_own_load_key() -> None:
    text = (
        "| Input | 128 | | 2048 | |\n|---|---|---|---|---|\n"
        "| Output | 128 | 2048 | 128 | 2048 |\n"
        "| vLLM (tok/s) | 100 | 200 | 150 | 250 |\n"
    )
    found = _load(text)
    assert found["100"] == {"prompt": "128", "output": "128"}
    assert found["200"] == {"prompt": "128", "output": "2048"}
    assert found["150"] == {"prompt": "2048", "output": "128"}
    assert found["250"] == {"prompt": "2048", "output": "2048"}


def test_a_load_is_never_the_measurement_after_its_key() -> None:
    cat = default_catalog()
    assert find_conditions("At 64 concurrency 1200 tok/s.", cat).load == {"concurrency": "64"}
    assert find_conditions("64 并发 1200 tokens/s。", cat).load == {"concurrency": "64"}
    assert find_conditions("At 32K context 30 tok/s.", cat).load == {"context": "32K"}
    assert find_conditions("512 output length 20 tok/s.", cat).load == {"output": "512"}
    assert find_conditions("Context length 4096: 30 tok/s.", cat).load == {"context": "4096"}
    assert find_conditions("At 2 req/s the TTFT is 30 ms.", cat).load == {"rate": "2"}


def test_a_context_in_a_model_files_name_is_no_load() -> None:
    cat = default_catalog()
    named = "The model is `RWKV-novel-4-World-7B-20230810-ctx128k`, 20 tok/s."
    assert "context" not in find_conditions(named, cat).load
    assert find_conditions("llama-bench --ctx-size 4096", cat).load["context"] == "4096"
    assert find_conditions("with n_ctx=2048 it gets 5 tok/s", cat).load["context"] == "2048"


def test_a_number_of_the_note_is_not_read_from_the_table_above() -> None:
    """Every number stays in its own statement (the invariant)."""
    text = f"## Results\n\n{TABLE}\nThe input length is 1024 and the output length is 128.\n"
    for claim in extract_claims(text):
        for metric in claim.metrics:
            assert f"{metric.value:g}" in claim.text


def test_a_row_label_of_two_token_counts_is_the_rows_prompt_and_output() -> None:
    text = (
        "## Results (tok/s)\n\n| Workload | vLLM | SGLang |\n|---|---|---|\n"
        "| 1024/128 | 100 | 110 |\n| 4096/512 | 3000 | 3300 |\n"
    )
    found = _load(text)
    assert found["100"] == {"prompt": "1024", "output": "128"}
    assert found["3300"] == {"prompt": "4096", "output": "512"}
    assert "1024" not in found and "4096" not in found  # labels, not throughputs


def test_a_ratio_in_a_row_label_is_no_pair_of_lengths() -> None:
    text = "| Sparsity | Speedup |\n|---|---|\n| 1/8 | 1.5x |\n| 1/4 | 1.3x |\n"
    assert all("prompt" not in load for load in _load(text).values())


def test_a_cpus_name_is_no_context() -> None:
    cat = default_catalog()
    said = "All tests done on stock RTX 4090 / 12900K, running with a desktop environment."
    assert "context" not in find_conditions(said, cat).load
    assert "context" not in find_conditions("Measured on an i7-4790K, 20 tok/s", cat).load
    assert find_conditions("Decode at 32K, 20 tok/s", cat).load == {"context": "32K"}


def test_a_note_on_some_of_the_tables_models_is_not_the_tables_load() -> None:
    text = (
        "| Model | Latency (ms) |\n|---|---|\n| LLaMA-3-8B | 17.07 |\n| NVILA-8B | 16.12 |\n\n"
        "For NVILA, each image corresponds to 128 input tokens.\n"
    )
    assert "prompt" not in _load(text)["17.07"]


def test_a_note_below_a_table_sets_up_the_paragraph_that_introduces_the_table() -> None:
    text = (
        "## 推理性能\n\n与标准的 LLaMA-13B 相比，平均推理速度 (tokens/s) 实测提升 31.6%：\n\n"
        "| Model | tokens/s |\n|---|---|\n| LLaMA-13B | 19.4 |\n| Baichuan-13B | 25.4 |\n\n"
        "> 测试环境和参数：GPU A100-SXM4-80G, batch size = 1, 生成长度 = 2048, 精度 fp16, "
        "基于 Baichuan-13B-Base\n\n## 量化部署\n\n量化后速度为 30 tokens/s。\n"
    )
    found = _load(text)
    for number in ("31.6", "19.4", "25.4"):
        assert found[number] == {"batch": "1", "output": "2048"}
    assert found["30"] == {}  # the next section


def test_each_clause_keeps_its_own_lengths() -> None:
    english = _load("TTFT is 30 ms for 1k input and 120 ms for 8k input.")
    assert english["30"] == {"prompt": "1k"} and english["120"] == {"prompt": "8k"}
    chinese = _load("在 1024 输入长度下 TTFT 为 30 ms，在 8192 输入长度下为 200 ms。")
    assert chinese["30"] == {"prompt": "1024"} and chinese["200"] == {"prompt": "8192"}


def test_from_one_load_to_another_splits_the_sentence() -> None:
    found = _load("Throughput grows from 50 tok/s at batch 1 to 1200 tok/s at batch 32.")
    assert found["50"] == {"batch": "1"} and found["1200"] == {"batch": "32"}
    same = _load("Latency drops from 30 ms to 20 ms at batch size 8.")
    assert same["30"] == same["20"] == {"batch": "8"}


def test_a_count_before_a_comma_is_not_the_next_keys_value() -> None:
    cat = default_catalog()
    load = find_conditions("batch size = 1, 生成长度 = 2048, 精度 fp16", cat).load
    assert load == {"batch": "1", "output": "2048"}
    assert find_conditions("批次大小 16 时吞吐 300 tokens/s", cat).load == {"batch": "16"}


def test_a_blank_load_cell_is_the_merged_cell_above_whatever_the_rows_label() -> None:
    text = (
        "| Framework | Batch size | Input len | Throughput (tok/s) |\n|---|---|---|---|\n"
        "| vLLM | 1 | 1024 | 100 |\n| SGLang | | | 110 |\n| vLLM | 32 | 1024 | 2000 |\n"
        "| SGLang | | | 2100 |\n"
    )
    found = _load(text)
    assert found["110"] == {"batch": "1", "prompt": "1024"}
    assert found["2100"] == {"batch": "32", "prompt": "1024"}


def test_a_blank_measurement_is_never_filled_from_above() -> None:
    text = (
        "| Framework | Batch size | Throughput (tok/s) | TTFT (ms) |\n|---|---|---|---|\n"
        "| vLLM | 1 | 100 | 30 |\n| SGLang | 1 | 110 | |\n"
    )
    values = [m.value for c in extract_claims(text) for m in c.metrics]
    assert sorted(values) == [30, 100, 110]


def test_a_settings_line_sets_up_its_whole_section_above_it_too() -> None:
    text = (
        f"## Results\n\n{TABLE}\nvLLM is fast. It reaches 1400 tok/s on the other run.\n\n"
        "Settings used:\n\n- Batch size: 8\n- Input length: 1024\n\n## Next\n\nHF: 600 tok/s.\n"
    )
    found = _load(text)
    assert found["1200"] == found["1400"] == {"batch": "8", "prompt": "1024"}
    assert found["600"] == {}
    twice = (
        f"## Results\n\n{TABLE}\nvLLM is fast.\n\n- Batch size: 8\n\nLater:\n\n- Batch size: 16\n"
    )
    assert "batch" not in _load(twice)["1200"]


def test_a_notes_section_saying_how_the_numbers_were_taken_sets_up_the_document() -> None:
    text = (
        "# Speed Benchmark\n\n## Notes\n\n"
        "- We use a **batch size of 1** and the minimum number of GPUs possible for evaluation.\n"
        "- We test the speed when generating **2048 tokens**.\n\n"
        "## Results\n\n### Qwen3-0.6B\n\n| Model | Input Length | Speed (tokens/s) |\n|---|---|---|\n"
        "| Qwen3-0.6B | 6144 | 58.57 |\n"
    )
    assert _load(text)["58.57"] == {"batch": "1", "output": "2048", "prompt": "6144"}


def test_a_section_that_tells_a_reader_how_to_run_sets_up_nothing_elsewhere() -> None:
    text = (
        "# Project\n\n## Usage\n\n- A batch size of 8 works well on most GPUs.\n\n"
        "## Results\n\n| Model | Speed (tokens/s) |\n|---|---|\n| Qwen3-0.6B | 58.57 |\n"
    )
    assert _load(text)["58.57"] == {}


def test_a_subsections_set_up_does_not_reach_its_parents_siblings() -> None:
    text = (
        "# Project\n\n## Intro\n\nIt runs at 1.91x the speed of vLLM.\n\n## Benchmarks\n\n"
        "### Feasibility\n\nWe evaluate it with input 1024 and output 512.\n"
    )
    assert _load(text)["1.91"] == {}


def test_a_tools_printed_lengths_set_up_its_timings() -> None:
    text = (
        "The output looks like this:\n\n```bash\nStream Generation Summary:\n=====\n"
        "Prefill length: 106850\nPrefill time: 16.36 s\nMean accept length: 2.50\n"
        "Decode length: 118\nDecode time: 0.76 s\n```\n"
    )
    found = _load(text)
    assert found["16.36"] == found["0.76"] == {"prompt": "106850", "output": "118"}


def test_a_kernels_printed_parameters_set_up_the_timings_below_them() -> None:
    text = (
        "## Self-Attention\n```bash\nTesting Ops.self_attention on nvidia\n"
        "   qlen=1 kvlen=128 nh=12 nkvh=2 hd=128 dtype <f32>\n        Torch time: 0.20475 ms\n"
        "        LLAISYS time: 0.01203 ms\n   qlen=1 kvlen=512 nh=32 nkvh=8 hd=128 dtype <f32>\n"
        "        Torch time: 0.21123 ms\n        LLAISYS time: 0.04198 ms\nTest passed!\n```\n"
    )
    found = _load(text)
    assert found["0.20475"]["context"] == "128" and found["0.01203"]["context"] == "128"
    assert found["0.21123"]["context"] == "512" and found["0.04198"]["context"] == "512"
    assert set(found) == {"0.20475", "0.01203", "0.21123", "0.04198"}  # no parameter is a claim


def test_the_authors_setting_a_key_set_up_their_whole_section_and_its_subsections() -> None:
    """`we set batch size here to 1` among a section's notes on its command: every table
    of the section, though a number (the test clips' lengths) stands before it."""
    text = (
        "## Perf Test\n\nWe ran the client with these options:\n\n"
        "- the test audio lasts 5 seconds;\n"
        "- `-b` is the batch size; we simulate single users, so we set batch size here to `1`;\n\n"
        "### Offline\n\n| Concurrency | Throughput (RTF) |\n|---|---|\n| 50 | 0.0010 |\n\n"
        "## Other\n\n| Concurrency | Throughput (RTF) |\n|---|---|\n| 60 | 0.0020 |\n"
    )
    found = _load(text)
    assert found["0.001"] == {"batch": "1", "concurrency": "50"}
    assert found["0.002"] == {"concurrency": "60"}  # another section


def test_advice_to_set_a_key_sets_up_nothing() -> None:
    text = (
        "## Perf Test\n\n- the test audio lasts 5 seconds;\n"
        "- You can set the batch size to 64 for more throughput.\n\n"
        "### Offline\n\n| Concurrency | Throughput (RTF) |\n|---|---|\n| 50 | 0.0010 |\n"
    )
    assert "batch" not in _load(text)["0.001"]


def test_a_section_of_settings_that_measures_nothing_sets_up_its_parent_section() -> None:
    """`### Load` lists the settings beside `### Results`: both stand under one parent,
    whose numbers all ran so; a heading's own count still wins (`(6 parallel)`)."""
    text = (
        "# Bench\n\n## Runs\n\n### Load\n\n- **Request pattern**: Sequential, single-threaded\n"
        "- **Max tokens**: 64 per response\n- **Context length**: 8192 tokens\n\n"
        "### Results - one by one\n\n| Metric | Ours | Theirs |\n|---|---|---|\n"
        "| Mean latency | 210ms | 900ms |\n\n"
        "### Results - Concurrent Requests (6 parallel)\n\n| Metric | Ours | Theirs |\n"
        "|---|---|---|\n| Total time | 7.1s | 6.2s |\n\n## Elsewhere\n\nA run took 3.3s.\n"
    )
    found = _load(text)
    assert found["210"] == {"concurrency": "1", "output": "64"}  # no context: the model's
    assert found["7.1"] == {"concurrency": "6", "output": "64"}
    assert found["3.3"] == {}  # another section


def test_settings_beside_their_own_numbers_set_up_only_their_section() -> None:
    text = (
        "# Bench\n\n## A\n\n- Batch size: 4\n\nA reaches 120 tok/s.\n\n"
        "## B\n\nB reaches 90 tok/s.\n"
    )
    found = _load(text)
    assert found["120"] == {"batch": "4"}
    assert "batch" not in found["90"]


def test_a_load_stated_in_a_note_sets_up_its_section() -> None:
    """A quoted note below a paragraph: its load holds for the numbers of its section,
    before and after it; a plain sentence stating a load does not."""
    text = (
        "## 实验\n\nQServe 的吞吐是 TensorRT-LLM 的 2.5 倍。\n\n> 注意：\n>\n"
        "> 使用 2048 的输入序列长度和 256 的输出序列长度。\n\n在 L40S 上吞吐提升 30%。\n\n"
        "## Other\n\nIt runs at 70 tok/s.\n\nWe use 512 input tokens here.\n\nIt takes 9 ms.\n"
    )
    found = _load(text)
    assert found["2.5"] == {"prompt": "2048", "output": "256"}
    assert found["30"] == {"prompt": "2048", "output": "256"}
    assert "prompt" not in found["70"] and "prompt" not in found["9"]


def test_a_settings_section_listing_workloads_sets_up_no_key_it_varies() -> None:
    text = (
        "# Bench\n\n## Runs\n\n### Data\n\n- Chat: 200 input tokens\n- RAG: 3000 input tokens\n"
        "- Input length: 700\n- Output length: 90\n\n### Results\n\nIt reaches 41 tok/s.\n"
    )
    assert _load(text)["41"] == {"output": "90"}


def test_a_table_of_settings_sets_up_the_results_beside_it() -> None:
    """`| 并发数 | 12 |` rows in a section of their own: a set-up, for the parent section
    (a two-column table of results sets nothing up)."""
    text = (
        "# 测试\n\n## 配置\n\n| 参数 | 值 |\n|---|---|\n| 并发数 | 12 |\n| 输出长度 | 300 |\n"
        "| 驱动 | 550.54 |\n\n## 结果\n\n| 框架 | 吞吐 (tokens/s) |\n|---|---|\n| vLLM | 1500 |\n"
    )
    found = _load(text)
    assert found["1500"] == {"concurrency": "12", "output": "300"}
    results = (
        "# Bench\n\n## Runs\n\n| Run | Latency (ms) |\n|---|---|\n| Batch size: 4 | 80 |\n\n"
        "## More\n\n| Framework | Throughput (tok/s) |\n|---|---|\n| vLLM | 1500 |\n"
    )
    assert "batch" not in _load(results)["1500"]


def test_a_table_naming_describing_and_valuing_its_settings_sets_up_the_results() -> None:
    """`| Variable | Description | Default |` over `| RUN_INPUT | Input token length | 700 |`
    in a section of its own: its values, by the words that describe them, set up the
    parent section; a wider table, or one with no column of values, sets up nothing."""
    text = (
        "# Bench\n\n## Results\n\n| Framework | Throughput (tok/s) |\n|---|---|\n| vLLM | 1500 |\n"
        "\n## Options\n\n| Variable | Description | Default |\n|---|---|---|\n"
        "| `RUN_INPUT` | Input token length | `700` |\n| `RUN_OUTPUT` | Output token length | `90` |\n"
        "| `RUN_PORT` | Server port | `8000` |\n"
    )
    assert _load(text)["1500"] == {"prompt": "700", "output": "90"}
    measured = text.replace("| Default |", "| Time (s) |")
    assert _load(measured)["1500"] == {}


def test_a_config_block_in_a_set_up_section_sets_up_the_results_beside_it() -> None:
    """A YAML block of load keys, one value each, under `## Config`: the load of the
    sections beside it (a list of values or a cap is no load); a block beside numbers of
    its own sets up only its section."""
    text = (
        "# Bench\n\n## Config\n\n```yaml\nbatch_size: 6\ninput_len: 700\nmax_batch_size: 99\n"
        "output_len: [64, 128]\n```\n\n## Results\n\n| System | Throughput (tok/s) |\n"
        "|---|---|\n| vLLM | 1500 |\n"
    )
    assert _load(text)["1500"] == {"batch": "6", "prompt": "700"}
    other = (
        "# Bench\n\n## A\n\n```yaml\nbatch_size: 6\n```\n\nA reaches 30 tok/s.\n\n"
        "## B\n\nB reaches 40 tok/s.\n"
    )
    assert _load(other)["30"] == {"batch": "6"}
    assert "batch" not in _load(other)["40"]


@pytest.mark.parametrize(
    "block",
    [
        pytest.param(
            "vllm serve Qwen/Qwen2-7B --tensor-parallel-size 4 --max-model-len 4096", id="launch"
        ),
        pytest.param("MODEL=acme/foo\nTENSOR_PARALLEL_SIZE=4\nMAX_NUM_SEQS=99", id="environment"),
    ],
)
def test_a_servers_block_gives_the_results_below_it_its_parallelism_not_its_limits(
    block: str,
) -> None:
    text = (
        f"## Throughput\n\nServer:\n\n```shell\n{block}\n```\n\n"
        "| Concurrency | Throughput (tok/s) |\n|---|---|\n| 8 | 1500 |\n"
    )
    assert _load(text)["1500"] == {"concurrency": "8", "tp": "4"}


def test_a_benchmark_command_in_a_set_up_section_sets_up_the_results_beside_it() -> None:
    text = (
        "# Bench\n\n## Command\n\n```bash\nvllm bench serve --random-input-len 900 "
        "--max-concurrency 12\n```\n\n## Results\n\n| System | Throughput (tok/s) |\n"
        "|---|---|\n| vLLM | 1500 |\n"
    )
    assert _load(text)["1500"] == {"prompt": "900", "concurrency": "12"}


def test_a_setting_swept_over_several_values_sets_up_none() -> None:
    text = (
        "# Bench\n\n## Runs\n\n| Setting | Value |\n|---|---|\n| Concurrency | 2, 6, 24 |\n"
        "| Output length | 300 |\n\n## Results\n\n| System | Throughput (tok/s) |\n|---|---|\n"
        "| vLLM | 1500 |\n"
    )
    assert _load(text)["1500"] == {"output": "300"}


def test_a_settings_line_of_parallelism_sets_up_its_numbered_subsections() -> None:
    text = (
        "## 5. Benchmark\n\n### 5.1 Speed\n\n- Hardware: 4x MI300X\n- Tensor Parallelism: 4"
        "\n\n### 5.1.1 Low Concurrency\n\n| Concurrency | Throughput (tok/s) |\n|---|---|\n"
        "| 1 | 1500 |\n\n### 5.2 Accuracy\n\n| Task | Score |\n|---|---|\n| GSM8K | 91.5 |\n"
    )
    found = _load(text)
    assert found["1500"] == {"concurrency": "1", "gpus": "4", "tp": "4"}
    assert "tp" not in found["91.5"]


def test_a_count_of_gpus_in_a_note_below_a_table_stays_the_hardwares() -> None:
    text = f"## Results\n\n{TABLE}\nAll runs use a single RTX 4090.\n"
    assert "gpus" not in _load(text)["1200"]


def test_every_row_of_a_table_of_settings_sets_up_what_its_value_states() -> None:
    """`| Workers | 2x TP=4 |` below `| GPU | 8x H200 |`: a row keyed by no load word still
    states the load (its `2x` counts workers, no speed-up)."""
    text = (
        "# Report\n\n## Deployment Details\n\n| Parameter | Value |\n|---|---|\n"
        "| GPU | 8x H200 |\n| Workers | 2x TP=4 |\n\n## Results\n\n"
        "| Concurrency | TTFT (ms) |\n|---|---|\n| 32 | 123.5 |\n"
    )
    assert _load(text)["123.5"] == {"concurrency": "32", "gpus": "8", "tp": "4"}
