"""Numbers the extractor reads where pages print them (issue #14): a benchmark tool's output
in a fenced block, a unit said once in a set-up section, compound durations."""

from __future__ import annotations

from research_radar.extract import durations, toolblocks
from research_radar.extract.claims import extract_claims
from research_radar.models import Claim


def _found(text: str) -> dict[float, tuple[str, str, Claim]]:
    """value -> (metric name, unit, claim) of every number extracted."""
    return {m.value: (m.name, m.unit, c) for c in extract_claims(text) for m in c.metrics}


def _units(found: dict[float, tuple[str, str, Claim]]) -> dict[float, str]:
    """value -> unit of the numbers `_found` gives."""
    return {value: unit for value, (_, unit, _) in found.items()}


SERVING = """# Serving Mistral-7B on one L40S

Benchmark result:

```
============ Serving Benchmark Result ============
Successful requests:                     320
Maximum request concurrency:             16
Benchmark duration (s):                  48.07
Total input tokens:                      65432
Request throughput (req/s):              6.66
Output token throughput (tok/s):         811.42
---------------Time to First Token----------------
Mean TTFT (ms):                          57.31
P99 ITL (ms):                            19.84
==================================================
```
"""


def test_a_serving_benchmark_block_is_read_with_units_and_load_from_its_settings() -> None:
    found = _found(SERVING)
    assert {v: u for v, (_, u, _) in found.items()} == {
        48.07: "s",
        6.66: "req/s",
        811.42: "tok/s",
        57.31: "ms",
        19.84: "ms",
    }
    name, _, claim = found[57.31]
    assert name == "TTFT"
    assert claim.line == 14  # the line the tool printed it on
    assert claim.conditions.hardware == ["L40S"]
    assert claim.conditions.model == ["Mistral-7B"]
    assert claim.conditions.load["concurrency"] == "16"
    # counts of the run are neither claims nor load
    assert "prompt" not in claim.conditions.load
    assert 320 not in found and 65432 not in found


def test_an_indented_tool_block_is_read_too() -> None:
    indented = SERVING.replace("\n```", "\n    ```").replace("\n=", "\n    =")
    assert 811.42 in _found(indented)


def test_ordinary_code_blocks_give_no_claims() -> None:
    text = (
        "# Run on H100\n\n```bash\npython bench.py --batch-size 8 --timeout 30s\n"
        "python bench.py --batch-size 16\n```\n\n"
        "```python\nlatency_ms = 12.5\nthroughput = 900  # tok/s\n```\n\n"
        "```yaml\nrequest_timeout (s): 30\nwarmup (s): 5\n```\n"
    )
    assert _found(text) == {}


def test_a_block_with_one_timing_among_log_lines_is_not_read() -> None:
    text = (
        "```\nINFO loading weights\nINFO model loaded in 3.2 s\nWARNING slow tokenizer\n"
        "Elapsed (s): 4.1\nDone.\n```\n"
    )
    assert _found(text) == {}


def test_a_llama_bench_table_in_a_fence_gives_its_tests_as_load() -> None:
    text = (
        "## CUDA on RTX 4090\n\n```console\n$ ./llama-bench -m mistral-7b.Q4_0.gguf\n"
        "| model | size | params | backend | ngl | test | t/s |\n"
        "| ----- | ---: | -----: | ------- | --: | ---- | --: |\n"
        "| llama 7B Q4_0 | 3.83 GiB | 7.24 B | CUDA | 99 | pp512 | 6021.55 ± 31.20 |\n"
        "| llama 7B Q4_0 | 3.83 GiB | 7.24 B | CUDA | 99 | tg128 | 162.08 ± 0.52 |\n"
        "\nbuild: 0d1b2c3 (2711)\n```\n"
    )
    found = _found(text)
    assert found[6021.55][1] == "tok/s" and found[162.08][1] == "tok/s"
    assert found[6021.55][2].conditions.load["prompt"] == "512"
    assert found[162.08][2].conditions.load["output"] == "128"
    assert found[162.08][2].conditions.hardware == ["RTX 4090"]
    assert 2711 not in found


def test_a_box_drawn_statistics_table_takes_each_rows_unit() -> None:
    text = (
        "```\n                 LLM Metrics\n"
        "┏━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━┳━━━━━━━┳━━━━━━━┓\n"
        "┃                Statistic ┃   avg ┃   min ┃   p99 ┃\n"
        "┡━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━╇━━━━━━━╇━━━━━━━┩\n"
        "│ Time to first token (ms) │ 21.07 │ 14.52 │ 33.91 │\n"
        "│ Inter token latency (ms) │  2.61 │  2.02 │  3.48 │\n"
        "└──────────────────────────┴───────┴───────┴───────┘\n```\n"
    )
    found = _found(text)
    assert {v: u for v, (_, u, _) in found.items()} == {
        21.07: "ms",
        14.52: "ms",
        33.91: "ms",
        2.61: "ms",
        2.02: "ms",
        3.48: "ms",
    }


def test_the_tool_block_reader_keeps_line_numbers_and_leaves_code_alone() -> None:
    lines = SERVING.splitlines()
    read = toolblocks.unfence_tool_output(lines)
    assert len(read) == len(lines)
    assert read[13] == "- Mean TTFT (ms):                          57.31"
    assert not any(line.startswith("```") for line in read)
    code = ["```python", "x = 1", "y = 2", "```"]
    assert toolblocks.unfence_tool_output(code) is code
    assert toolblocks.__all__ == ["fenced_blocks", "unfence_tool_output"]


def test_a_unit_said_in_a_setup_section_holds_for_later_tables() -> None:
    text = (
        "## 测试环境\n\n| SOC | 骁龙 888 |\n|---|---|\n| CPU | 1xX1 @2.84GHz |\n\n"
        "* 测试说明\n  * warmup=10, repeats=100，统计平均时间，单位 ms\n\n"
        "## 测试数据\n\n### fp32\n\n| 模型 | 骁龙 888 |\n|---|---|\n| ResNet18 | 41.27 |\n"
        "| MobileNetV3 | 7.93 |\n"
    )
    found = _found(text)
    assert found[41.27][1] == "ms" and found[7.93][1] == "ms"
    assert 2.84 not in found


def test_a_unit_said_outside_a_setup_section_stays_in_its_section() -> None:
    text = (
        "## Notes\n\n| Model | Time |\n|---|---|\n| A | 3.1 |\n\nAll numbers in ms.\n\n"
        "## Sizes\n\n| Model | Layers |\n|---|---|\n| A | 32 |\n"
    )
    found = _found(text)
    assert found[3.1][1] == "ms"
    assert 32 not in found


def test_a_unit_written_after_a_word_with_a_space_is_stated() -> None:
    text = "测试说明：单位 ms\n\n| 模型 | 时延 |\n|---|---|\n| ResNet50 | 12.8 |\n"
    assert _found(text)[12.8][1] == "ms"


def test_compound_durations_are_read_as_seconds() -> None:
    text = (
        "Rendering one clip on an H100 takes 2m23s.\n\n在 4090 上生成耗时 1分23秒。\n\n"
        "| Model | Time |\n|---|---|\n| ModelA | 25'34'' |\n| ModelB | 1h05m |\n"
    )
    found = _found(text)
    assert {v: u for v, (_, u, _) in found.items()} == {
        143: "s",
        83: "s",
        1534: "s",
        3900: "s",
    }
    assert found[143][2].conditions.hardware == ["H100"]


def test_duration_seconds_lists_each_compound_duration() -> None:
    assert durations.duration_seconds("2m 23.5s, then 1h05m30s; 1小时5分钟 and 9'07\"") == [
        143.5,
        3930,
        3900,
        547,
    ]
    # single parts and look-alikes are not compound durations
    assert durations.duration_seconds("5 分钟, 23s, 3m tokens, Qwen2.5-1.5B, v1.2m3s") == []
    assert durations.in_seconds("耗时 1分23秒，") == "耗时 83秒，"
    assert durations.duration_spans("took 2m23s, then 5 s") == [(5, 10)]
    assert durations.__all__ == ["duration_seconds", "duration_spans", "in_seconds"]


def test_statistic_columns_and_per_second_rows_of_a_tool_table() -> None:
    text = (
        "| Statistic | avg | min | max |\n|---|---|---|---|\n"
        "| Output token throughput (per sec) | 1,156.09 | 1,001.50 | 1,200.25 |\n"
        "| Request throughput (per sec) | 21.63 | 20.11 | 22.94 |\n"
    )
    found = _found(text)
    assert {v: u for v, (_, u, _) in found.items()} == {
        1156.09: "tok/s",
        1001.5: "tok/s",
        1200.25: "tok/s",
        21.63: "req/s",
        20.11: "req/s",
        22.94: "req/s",
    }


def test_each_line_of_a_broken_cell_is_read_as_a_cell() -> None:
    text = (
        "| Case | Throughput (tok/s) before<br>after |\n|---|---|\n"
        "| Chat | 412.5<br>803.1 (+94.7%) |\n\n"
        "| Case | vLLM | Ours |\n|---|---|---|\n"
        "| Long | Total TPS: 2210.45<br>Mean TPOT(ms): 61.32 | Total TPS: 3977.08<br>"
        "Mean TPOT(ms): 44.9 |\n"
    )
    found = _found(text)
    assert {v: u for v, (_, u, _) in found.items()} == {
        412.5: "tok/s",
        803.1: "tok/s",
        94.7: "%",
        2210.45: "tok/s",
        61.32: "ms",
        3977.08: "tok/s",
        44.9: "ms",
    }
    assert found[44.9][0] == "Mean TPOT"


def test_a_unit_in_the_corner_cell_a_caption_below_or_an_intro_holds_for_the_table() -> None:
    text = (
        "## A\n\n| model \\ time(ms) | A100 | H100 |\n|---|---|---|\n| Llama-2-7B | 12.5 | 8.25 |\n"
        "\n## B\n\nWe report decode latency (ms) below.\n\n"
        "| Model | A100 |\n|---|---|\n| Llama-2-7B | 14.5 |\n"
        "\n## C\n\n| Model | bs1 |\n|---|---|\n| Llama-2-7B | 17.5 |\n\n"
        "Table 4: Decode latency of each model (ms).\n\n## D\n\n"
        "| Model | Layers |\n|---|---|\n| Llama-2-7B | 32 |\n"
    )
    found = _found(text)
    assert {v: u for v, (_, u, _) in found.items()} == {
        12.5: "ms",
        8.25: "ms",
        14.5: "ms",
        17.5: "ms",
    }


def test_a_header_spelling_out_per_second_keeps_its_rate() -> None:
    text = "| | Tokens per second | BLEU |\n| --- | --- | --- |\n| SystemA 2.1 | 209.2 | 26.93 |\n"
    assert _found(text)[209.2][1] == "tok/s"


def test_a_latency_block_keeps_its_average_and_reads_no_percentile_as_a_change() -> None:
    text = (
        "```\nAvg latency: 1.8412 seconds\n10% percentile latency: 1.7903 seconds\n"
        "50% percentile latency: 1.8377 seconds\nThroughput: 5.43 requests/s, "
        "2779.12 total tokens/s\n```\n"
    )
    found = _found(text)
    assert {v: u for v, (_, u, _) in found.items()} == {
        1.8412: "s",
        5.43: "req/s",
        2779.12: "tok/s",
    }


def test_each_tool_block_takes_the_load_of_its_own_settings_lines() -> None:
    block = "```\nMaximum request concurrency: {c}\nOutput token throughput (tok/s): {v}\n"
    text = (
        "## Results on H100\n\n"
        + block.format(c=16, v=811.42)
        + "Mean TTFT (ms): 57.31\n```\n\n"
        + block.format(c=64, v=1911.42)
        + "Mean TTFT (ms): 157.31\n```\n"
    )
    found = _found(text)
    assert found[811.42][2].conditions.load["concurrency"] == "16"
    assert found[1911.42][2].conditions.load["concurrency"] == "64"
    assert found[157.31][2].conditions.load["concurrency"] == "64"


def test_fenced_blocks_pair_each_fence_with_its_own_closing_and_run_an_unclosed_one_to_the_end() -> (
    None
):
    lines = [
        "text with ``` inside",
        "````bash",
        "```",
        "````",
        "~~~ Python",
        "code",
        "```",
        "~~~",
        "```",
        "left open",
    ]
    assert list(toolblocks.fenced_blocks(lines)) == [(1, 3, "bash"), (4, 7, "python"), (8, 10, "")]


TIMINGS = """# Run it

Sample output on an M2 Ultra:

```
llama_print_timings:        load time =   1234.56 ms
llama_print_timings:      sample time =     12.34 ms /   128 runs   (    0.10 ms per token, 10372.77 tokens per second)
Prefilling: 100.0% (106850/106850 tokens) @ 6565.3 tokens/s - Complete!
Generated 256 tokens in 3.2 s (80.0 tokens/s)
```
"""


def test_lines_a_program_printed_with_a_rate_are_read_whole() -> None:
    found = _found(TIMINGS)
    units = {v: u for v, (_, u, _) in found.items()}
    assert units[1234.56] == "ms"  # after the printing function's tag
    assert units[0.10] == "ms/token" and units[10372.77] == "tok/s"
    assert units[6565.3] == "tok/s" and units[80.0] == "tok/s"
    # how far a run got is no measurement; nor is a count of runs or tokens
    assert 100.0 not in found and 106850 not in found
    assert 128 not in found and 256 not in found
    assert found[80.0][2].line == 9
    assert found[80.0][2].conditions.hardware == ["M2 Ultra"]


def test_a_block_of_commands_with_one_rate_is_not_read() -> None:
    text = "# Use\n\n```\n$ run --rate 5\nwget https://x.y/z\nspeed=12 tokens/s\n```\n"
    assert _found(text) == {}


def test_timings_in_a_row_are_read_below_the_command_and_the_generated_text() -> None:
    text = (
        "On the RISC-V board:\n\n```\nmake llama-cli -j\n./llama-cli -m m.gguf -p 'Hello there' -n 10\n"
        "...\nHello there, said the old fisherman to the tired sailor\n"
        "llama_print_timings:        load time =  4831.33 ms\n"
        "llama_print_timings: prompt eval time =  3739.10 ms /     6 tokens (  623.35 ms per token,"
        "     1.60 tokens per second)\n"
        "llama_print_timings:        eval time = 11690.53 ms /     9 runs   ( 1298.39 ms per token,"
        "     0.77 tokens per second)\n```\n"
    )
    found = _found(text)
    assert found[4831.33][1] == "ms" and found[1.60][1] == "tok/s" and found[0.77][1] == "tok/s"
    assert found[623.35][2].line == 9


def test_two_timings_among_commands_and_text_are_not_enough() -> None:
    text = (
        "```\nmake all\n./run -n 10\nsome generated text here\nmore text\n"
        "load time = 48.3 ms\nnothing to see\neval time = 116.5 ms\n```\n"
    )
    assert _found(text) == {}


def test_aligned_timings_of_each_network_are_read_from_a_tool_block() -> None:
    text = (
        "On the board:\n\n```bash\n$ ./bench -r 5 -t 1\nloop_counts = 5\nnum_threads = 1\n"
        "     squeezenet_v1.1  min =   89.81 ms   max =   93.23 ms   avg =   90.62 ms\n"
        "           googlenet  min =  448.30 ms   max =  452.39 ms   avg =  450.34 ms\n"
        "ALL TEST DONE\n```\n"
    )
    found = _found(text)
    assert sorted(found) == [89.81, 90.62, 93.23, 448.30, 450.34, 452.39]
    assert {unit for _, unit, _ in found.values()} == {"ms"}
    assert found[450.34][2].line == 8  # settings (`loop_counts = 5`) are no claims


def test_a_label_with_its_rate_unit_and_a_named_score_are_read_in_a_tool_block() -> None:
    text = (
        "Result:\n\n```\n==== Summary ====\nPrefill length: 106850\nPrefill time: 16.36 s\n"
        "Prefill tokens/s: 6530.77\nMean accept length: 2.50\nAccuracy: 0.950\n"
        "Decode length: 118\n```\n"
    )
    units = [(value, unit) for value, (_, unit, _) in sorted(_found(text).items())]
    assert units == [(0.950, ""), (2.50, ""), (16.36, "s"), (6530.77, "tok/s")]


def test_timing_statistics_a_tool_prints_without_a_unit_are_read() -> None:
    text = (
        "- output:\n\n```bash\nTotal Requests:  100\nPrompts/Request:  250\n"
        "Total Time:  142.64\nAvg Latency:  81.99\nMin Latency:  45.00\n```\n"
    )
    found = _found(text)
    assert {142.64, 81.99, 45.00} <= set(found)
    assert 100 not in found and 250 not in found  # counts of the run


def test_statistics_lines_without_a_unit_are_read_as_a_table_of_networks() -> None:
    text = (
        "### Orange Pi 5 (RK3588, 4 big cores)\n\n```\n$ ./benchmark_tool 8 4 0\n"
        "loop_count = 8\nnum_threads = 4\n"
        "        resnet18  min =   41.20  max =   44.95  avg =   42.07\n"
        "   resnet18_int8  min =   30.11  max =   31.60  avg =   30.52\n"
        "     mobilenetv2  min =    9.87  max =   10.02  avg =    9.93\n```\n"
    )
    found = _found(text)
    assert set(found) == {41.2, 44.95, 42.07, 30.11, 31.6, 30.52, 9.87, 10.02, 9.93}
    _, unit, claim = found[44.95]
    assert unit == ""  # the tool prints none: no unit is made up
    assert claim.line == 7  # the line the tool printed it on
    assert claim.conditions.model == ["resnet18"]
    assert 8 not in found and 4 not in found  # the settings are not results


def test_statistics_lines_among_other_output_stay_code() -> None:
    text = (
        "```\n$ ./run\n\n  resnet18  min = 41.20  max = 44.95\n  warming up\n"
        "  mobilenet  min = 9.87  max = 10.02\n```\n"
    )
    assert _found(text) == {}


KERNEL_TIMINGS = """# GEMM kernels on an RTX 3080

```
./bench_gemm
run: M=2048 N=2048 K=2048
CASE: naive_kernel          :  81.500 ms,    0.21 TFLOPS
CASE: tiled_kernel          :  12.250 ms,    1.40 TFLOPS
step_forward took 3.75 seconds to execute
ModelA (total latency: 1.625 sec)
  rouge1 : 31.25
  rougeL : 27.48
```
"""


def test_lines_that_time_a_run_or_give_its_compute_rate_are_read_whole() -> None:
    found = _found(KERNEL_TIMINGS)
    units = _units(found)
    assert units[81.5] == "ms" and units[0.21] == "TFLOPS" and units[1.40] == "TFLOPS"
    assert units[3.75] == "s" and units[1.625] == "s"
    assert 31.25 in found and 27.48 in found  # a ROUGE score, printed without a unit
    assert found[12.25][2].line == 7
    assert 2048 not in found


def test_timings_of_the_set_up_or_in_a_command_do_not_make_a_block_output() -> None:
    text = (
        "```\nbench --timeout 30s --warmup 5s\nmodel loaded in 3.2 s\n"
        "tokenizer loaded in 0.4 s\nDone.\n```\n"
    )
    assert _found(text) == {}


def test_a_box_drawn_header_wrapped_over_two_rows_is_one_header() -> None:
    text = (
        "# Decode on one A10\n\n```\n"
        "┏━━━━━━━━━━┳━━━━━━━━━━━┳━━━━━━━━━━━━┓\n"
        "┃   Prompt ┃    Engine ┃  Engine B  ┃\n"
        "┃   Tokens ┃ A (tok/s) ┃    (tok/s) ┃\n"
        "┡━━━━━━━━━━╇━━━━━━━━━━━╇━━━━━━━━━━━━┩\n"
        "│      512 │    412.35 │     388.12 │\n"
        "│     4096 │    297.61 │     275.04 │\n"
        "└──────────┴───────────┴────────────┘\n```\n"
    )
    found = _found(text)
    assert _units(found) == dict.fromkeys([412.35, 388.12, 297.61, 275.04], "tok/s")
    assert found[297.61][2].line == 9
    assert found[297.61][2].conditions.load["prompt"] == "4096"


def test_a_block_of_columns_drawn_with_arrows_is_looked_at() -> None:
    text = (
        "# Attention on a laptop NPU\n\n```\n"
        "Length      →  Before   →  After   →  Gain\n"
        "256 tokens  →  84.0ms   →  21.5ms  →  3.9x\n"
        "1024 tokens →  336.0ms  →  47.25ms →  7.1x\n```\n"
    )
    found = _found(text)
    assert found[84.0][1] == "ms" and found[47.25][1] == "ms"
    assert found[47.25][2].line == 6


def test_comma_separated_rows_under_a_header_of_short_names_are_a_table() -> None:
    text = (
        "# 在 RTX 3060 上测试编码器\n\n```bash\n"
        "bs: Batch Size\nlt: Latency (ms)\nqps: Throughput (req/s)\n"
        "====+=======+========\n"
        "  bs|     lt|     qps\n"
        "====+=======+========\n\n"
        "   1,  3.125, 3.200e+02\n"
        "   8, 11.750, 6.809e+02\n"
        "```\n"
    )
    found = _found(text)
    assert _units(found) == {3.125: "ms", 320.0: "req/s", 11.75: "ms", 680.9: "req/s"}
    assert found[11.75][2].line == 12
    assert found[11.75][2].conditions.load["batch"] == "8"


def test_a_timing_of_the_set_up_is_read_in_a_block_its_other_timings_make_output() -> None:
    text = (
        "```\nINFO: load_weights took 1.875 seconds to execute\n"
        "INFO: denoise took 3.125 seconds to execute\n"
        "INFO: decode took 0.375 seconds to execute\n```\n"
    )
    assert set(_found(text)) == {1.875, 3.125, 0.375}
