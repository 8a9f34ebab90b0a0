"""Units as benchmark pages write them, and where they write them (issue #14)."""

from __future__ import annotations

import pytest

from research_radar.extract.claims import extract_claims
from research_radar.extract.units import canonical_unit, part_number
from research_radar.models import Claim


def _found(claims: list[Claim]) -> list[tuple[float, str]]:
    return [(m.value, m.unit) for claim in claims for m in claim.metrics]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param(
            "The server sustains 37.5 infer/s on one card.", (37.5, "infer/s"), id="infer"
        ),
        pytest.param(
            "Batch decoding runs at 410 inferences per second.", (410.0, "infer/s"), id="inferences"
        ),
        pytest.param("The encoder alone reaches 88.2 img/s.", (88.2, "img/s"), id="img"),
        pytest.param(
            "Throughput climbs to 12 images per second.", (12.0, "img/s"), id="images-words"
        ),
        pytest.param(
            "Training reaches 3100 samples/sec on eight cards.", (3100.0, "samples/s"), id="samples"
        ),
        pytest.param("Packing lifts it to 95.5 seq/s.", (95.5, "seq/s"), id="seq"),
        pytest.param("The sampler does 7.25 iter/s at 512 pixels.", (7.25, "it/s"), id="iter"),
        pytest.param("We measure 41 frames per second on the phone.", (41.0, "FPS"), id="frames"),
        pytest.param("Decoding costs 18.4 ms per token.", (18.4, "ms/token"), id="ms-per-token"),
        pytest.param("Each picture takes 230 ms/img end to end.", (230.0, "ms/image"), id="ms-img"),
        pytest.param(
            "The gateway answers 1500 queries per second.", (1500.0, "req/s"), id="queries"
        ),
        pytest.param("平均每卡 2100 tokens/s/GPU。", (2100.0, "tok/s"), id="per-gpu"),
        pytest.param("识别速度达到 24 帧/秒。", (24.0, "FPS"), id="zh-frames"),
        pytest.param("出图速度 3.5 张/秒。", (3.5, "img/s"), id="zh-images"),
        pytest.param("推理时显存占用 9.6G，比原来少一半。", (9.6, "GB"), id="zh-g-memory"),
        pytest.param("运行时占用 38 M 内存。", (38.0, "MB"), id="zh-m-memory"),
        pytest.param("另需约660M的额外内存。", (660.0, "MB"), id="zh-m-extra-memory"),
        pytest.param("还用了 22M 交换空间。", (22.0, "MB"), id="zh-m-swap"),
        pytest.param("没有显卡，2G内存就能跑。", (2.0, "GB"), id="zh-g-before-memory"),
        pytest.param("显存峰值约 20G。", (20.0, "GB"), id="zh-g-peak"),
        pytest.param(
            "解码阶段每秒输出 120 个 token。", (120.0, "tok/s"), id="zh-per-second-output"
        ),
        pytest.param("RTF 低至 ~0.3。", (0.3, ""), id="rtf-approximately"),
        pytest.param("导致 PPL 上升至 9.63。", (9.63, ""), id="ppl-rose-to"),
        pytest.param("Streaming 的 PPL (8.49) 与基线持平。", (8.49, ""), id="ppl-in-parentheses"),
        pytest.param("略微降低显存（5.31 vs 5.49 GB）。", (5.31, "GB"), id="memory-vs-shared"),
        pytest.param("进一步节省了额外的 150MB。", (150.0, "MB"), id="zh-memory-saved"),
        pytest.param("Only 3.4GB VRAM usage at peak.", (3.4, "GB"), id="vram-usage"),
        pytest.param("4.242s avg (22.9 chars/sec)", (22.9, "char/s"), id="chars-per-sec"),
        pytest.param("The RTF is about 0.12 on an RTX 4090.", (0.12, ""), id="rtf-about"),
        pytest.param(
            "The output token throughput is about 250.", (250.0, "tok/s"), id="token-throughput"
        ),
        pytest.param(
            "It gives a $2.45\\times$ speedup over eager mode.", (2.45, "x"), id="latex-times"
        ),
        pytest.param("- Batch size=1 => 31 tokens / sec", (31.0, "tok/s"), id="spaced-sec"),
        pytest.param(
            "Throughput: 1,234 tokens / second on one card.", (1234.0, "tok/s"), id="spaced-second"
        ),
        pytest.param("The 7B model generates 40 tokens per sec.", (40.0, "tok/s"), id="per-sec"),
        pytest.param("The proxy serves 35 req / s at peak.", (35.0, "req/s"), id="spaced-req"),
        pytest.param("First token latency is 230 milliseconds.", (230.0, "ms"), id="milliseconds"),
        pytest.param("- p50 latency: 110 msec", (110.0, "ms"), id="msec"),
        pytest.param("One kernel call takes 12 microseconds.", (12.0, "us"), id="microseconds"),
        pytest.param("Sampling costs 3.2 sec/image on one card.", (3.2, "s/image"), id="sec-image"),
        pytest.param("Latency is $37.5\\,\\text{ms}$ per step.", (37.5, "ms"), id="tex-text-unit"),
        pytest.param("The CPU takes ($>10$%) of the time.", (10.0, "%"), id="tex-number"),
        pytest.param("Decode reaches $41.2$ tok/s.", (41.2, "tok/s"), id="tex-bare"),
        pytest.param("A 2.5-fold speedup over eager mode.", (2.5, "x"), id="fold"),
        pytest.param("Cold reads peak at 27 GiB/s per client.", (27.0, "GiB/s"), id="gib-s"),
        pytest.param("The whole cluster reads 3.1 TiB/s.", (3.1, "TiB/s"), id="tib-s"),
        pytest.param("Weights stream in at 850 MB/s.", (850.0, "MB/s"), id="mb-s"),
        pytest.param("KV 传输带宽达到 12 GiB/s。", (12.0, "GiB/s"), id="gib-s-zh"),
    ],
)
def test_a_unit_as_pages_write_it(text: str, expected: tuple[float, str]) -> None:
    assert expected in _found(extract_claims(text))


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("The board ships with 5G and Wi-Fi 6 radios.", id="5g-network"),
        pytest.param("在 BM1684X（32T@INT8，内存12G）上部署。", id="memory-spec"),
        pytest.param("手机端最低3G内存即可运行。", id="memory-least"),
        pytest.param("It needs at least 8 GB of memory.", id="memory-at-least"),
        pytest.param("模型参数量为 15M，矩阵维度 M 为 4096。", id="million-not-mb"),
        pytest.param("We measure token throughput at concurrency of 64.", id="throughput-load"),
        pytest.param("Runs on a 24GB VRAM card.", id="vram-spec"),
        pytest.param("We use image size 512 and 30 frames in each clip.", id="frames-count"),
    ],
)
def test_look_alikes_of_units_are_no_measurements(text: str) -> None:
    assert _found(extract_claims(text)) == []


@pytest.mark.parametrize(
    ("raw", "canonical"),
    [
        ("infer/s", "infer/s"),
        ("iterations/s", "it/s"),
        ("samples per second", "samples/s"),
        ("ms per token", "ms/token"),
        ("Tokens per GPU per Second", "tok/s"),
        ("帧/秒", "FPS"),
    ],
)
def test_canonical_names_of_the_new_spellings(raw: str, canonical: str) -> None:
    assert canonical_unit(raw) == canonical


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param(
            "Ours and the reference take 12.5 / 30.25 ms per call.",
            [(12.5, "ms"), (30.25, "ms")],
            id="spaced-pair",
        ),
        pytest.param(
            "Prefill/decode reach 950/64 tok/s.", [(950.0, "tok/s"), (64.0, "tok/s")], id="rates"
        ),
        pytest.param(
            "Three sizes finish in 0.8/1.6/3.3 s.",
            [(0.8, "s"), (1.6, "s"), (3.3, "s")],
            id="chain-of-three",
        ),
    ],
)
def test_numbers_slashed_before_one_unit_share_it(
    text: str, expected: list[tuple[float, str]]
) -> None:
    found = _found(extract_claims(text))
    assert all(pair in found for pair in expected)


@pytest.mark.parametrize(
    ("text", "absent"),
    [
        pytest.param("It waits 1/2 s between retries.", 1.0, id="fraction"),
        pytest.param("Tested on RTX 3060 12/24 GB cards.", 12.0, id="memory-spec"),
        pytest.param("It scores 1.9x/2.4x on the two sets.", None, id="ratios-own-units"),
    ],
)
def test_fractions_and_specs_before_a_unit_take_none(text: str, absent: float | None) -> None:
    found = _found(extract_claims(text))
    if absent is None:
        assert found == [(1.9, "x"), (2.4, "x")]
    else:
        assert all(value != absent for value, _ in found)


def test_a_sum_worked_out_with_slashes_shares_no_unit() -> None:
    text = "So the link moves about 120GB / 40 / 6 / 50ms = 10GB/s per card."
    values = [value for value, _ in _found(extract_claims(text))]
    assert 40.0 not in values and 6.0 not in values


def _table(intro: str) -> str:
    return (
        f"{intro}\n\n| Model | Laptop | Desktop |\n|---|---|---|\n"
        "| tiny-2b | 41.5 | 88.25 |\n| base-7b | 12.75 | 30.5 |\n"
    )


@pytest.mark.parametrize(
    ("intro", "unit"),
    [
        pytest.param("### 4 线程解码速度: `tok/s`", "tok/s", id="zh-heading-backticks"),
        pytest.param("### Peak memory [GB]", "GB", id="brackets"),
        pytest.param("### Time to first token, ms", "ms", id="comma"),
        pytest.param("### Step time in s", "s", id="in"),
        pytest.param("Latency per token in ms shown.", "ms", id="measure-in-unit-note"),
        pytest.param("Throughput in tokens/s for each model:", "tok/s", id="throughput-in"),
        pytest.param(
            "下表使用 `input_len=2048`，TPS 为多次运行的 mean latency 计算结果。",
            "tok/s",
            id="rate-defined-above",
        ),
        pytest.param("Below, QPS is measured with 64 clients.", "req/s", id="qps-is"),
        pytest.param("The table shows tokens/s for each model.", "tok/s", id="shows-unit"),
        pytest.param(
            "## 评测\n\n本节给出两台机器上不同模型的推理速度(tokens/s)，均为单卡。",
            "tok/s",
            id="section-prose-names-it",
        ),
    ],
)
def test_a_tables_unit_said_once_above_it(intro: str, unit: str) -> None:
    found = _found(extract_claims(_table(intro)))
    assert (41.5, unit) in found and (30.5, unit) in found


@pytest.mark.parametrize(
    "intro",
    [
        pytest.param("### Results on H20 96G", id="memory-of-a-part"),
        pytest.param("### Qwen-7B", id="name-tail"),
        pytest.param("Latency in 5 runs on x86 machines.", id="measure-in-a-count"),
        pytest.param("We improved the throughput in vLLM by 2x.", id="measure-in-a-name"),
        pytest.param("We compare TPS and latency:", id="rate-named-among-others"),
        pytest.param("Load: QPS=4, 64 clients.", id="rate-as-a-setting"),
        pytest.param("The table shows s and ms side by side.", id="shows-two-units"),
        pytest.param("Below we compare 7B at 40 tok/s with 13B.", id="shows-a-claim"),
        pytest.param(
            "## Notes\n\nWe measured latency (ms) and throughput (tok/s) on both machines.",
            id="two-units-named",
        ),
    ],
)
def test_a_name_or_two_units_above_a_table_give_it_none(intro: str) -> None:
    found = _found(extract_claims(_table(intro)))
    assert (41.5, "") in found and (30.5, "") in found  # read, without a unit


def test_a_column_abbreviation_defined_above_the_table_takes_its_unit() -> None:
    text = (
        "## Serving\n\n- SPS: Samples per second\n- **ITL**: gap between two tokens (ms)\n"
        "- HOST: the machine\n\n| HOST | SPS | ITL | Note |\n|-|-|-|-|\n"
        "| box-a | 812 | 21.5 | 3 |\n"
    )
    found = _found(extract_claims(text))
    assert (812.0, "samples/s") in found and (21.5, "ms") in found
    assert all(unit == "" for value, unit in found if value == 3.0)


def test_an_abbreviation_defined_without_a_unit_gives_none() -> None:
    text = (
        "## Serving\n\n- MFU: model FLOPs utilisation, higher is better\n\n"
        "| HOST | MFU |\n|-|-|\n| box-a | 0.47 |\n"
    )
    assert all(unit == "" for _, unit in _found(extract_claims(text)))


def test_a_required_memory_before_a_comma_is_no_measurement() -> None:
    found = _found(extract_claims("显存要求：至少6G，其余随意。"))
    assert all(value != 6.0 for value, _ in found)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("平均每秒生成token数量: 64.5", (64.5, "tok/s"), id="zh-tokens-per-second"),
        pytest.param("每秒处理请求数：18", (18.0, "req/s"), id="zh-requests"),
        pytest.param("Summary: tok/s: 512.75", (512.75, "tok/s"), id="unit-as-label"),
        pytest.param("Requests per second = 7.5", (7.5, "req/s"), id="words-as-label"),
    ],
)
def test_a_rate_written_as_the_label_of_its_number(text: str, expected: tuple[float, str]) -> None:
    assert expected in _found(extract_claims(text))


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("ms: 3", id="time-label"),
        pytest.param("The tok/s: column is filled below.", id="no-number"),
    ],
)
def test_a_label_that_is_no_rate_gives_no_rate(text: str) -> None:
    units = {unit for _, unit in _found(extract_claims(text))}
    assert not units & {"tok/s", "req/s", "ms"}


def test_a_unit_in_parentheses_after_in_closes_a_chinese_heading() -> None:
    text = (
        "### 峰值显存（Peak Mem in GB）\n\n| 精度 | 模型 A |\n|---|---|\n"
        "| bf16 | 27.5 |\n| int8 | 14.25 |\n"
    )
    found = _found(extract_claims(text))
    assert (27.5, "GB") in found and (14.25, "GB") in found


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("Samples are rendered at 768x768 with 20 steps.", id="resolution"),
        pytest.param("输出分辨率为 1280 * 720。", id="zh-star"),
    ],
)
def test_the_sides_of_a_dimension_are_no_ratio(text: str) -> None:
    assert all(unit != "x" for _, unit in _found(extract_claims(text)))


def test_the_far_end_of_from_to_is_read_as_the_near_one() -> None:
    found = _found(extract_claims("Memory for the weights, once packed, goes from 31GB to 8.6GB."))
    assert (31.0, "GB") in found and (8.6, "GB") in found


def test_a_unit_is_not_carried_into_a_clause_that_names_another_measure() -> None:
    text = "命中率 41.5% → 57.25%，平均批大小 6.5 → 9.25。"
    found = _found(extract_claims(text))
    assert (57.25, "%") in found
    assert all(unit != "%" for value, unit in found if value in (6.5, 9.25))


def test_a_unit_is_carried_to_a_bare_pair_in_the_same_measure() -> None:
    found = _found(extract_claims("TTFT 1.4s -> 0.5s, 2.8 -> 1.1 at the longer prompt."))
    assert (2.8, "s") in found and (1.1, "s") in found


def test_minutes_spelled_out() -> None:
    assert (3.0, "min") in _found(extract_claims("A full render takes 3 minutes on one card."))


SIBLINGS = """## Results

### One card

| Model | FastRun (tok/s) | SlowRun (tok/s) |
|---|---|---|
| m-3b | 150.5 | 90.25 |

### Two cards

| Model | FastRun | SlowRun |
|---|---|---|
| m-3b | 280.75 | 160.5 |

## Memory

| Model | FastRun | SlowRun |
|---|---|---|
| m-3b | 7.5 | 9.25 |
"""


def test_a_sibling_sections_table_with_the_same_columns_keeps_their_unit() -> None:
    found = _found(extract_claims(SIBLINGS))
    assert (280.75, "tok/s") in found and (160.5, "tok/s") in found


def test_a_table_in_another_section_takes_no_unit_from_an_earlier_one() -> None:
    found = _found(extract_claims(SIBLINGS))
    assert all(unit != "tok/s" for value, unit in found if value in (7.5, 9.25))


def test_a_chinese_rate_counted_with_tiao() -> None:
    assert (150.0, "req/s") in _found(extract_claims("网关每秒处理 150 条请求。"))


def test_a_first_row_of_readings_without_a_unit_is_no_header_row() -> None:
    """`| AGX Orin 32GB | Qwen3-VL-2B | 4875.75 |` first under the header, nothing saying a
    unit: a row of readings all the same, not a second header row (whose memory size
    would become the unit of the rows below it)."""
    text = (
        "# Jetson\n\n| Device | Model | FP16 | W4A16 |\n|---|---|---:|---:|\n"
        "| AGX Orin 32GB | Qwen3-VL-2B | 4875.75 | 4700.28 |\n"
        "| AGX Orin 32GB | Qwen3-VL-4B | - | 2499.46 |\n"
        "| Orin NX 16GB | Qwen3-VL-2B | 2438.27 | 2494.89 |\n"
    )
    claims = extract_claims(text)
    units = {m.value: m.unit for c in claims for m in c.metrics}
    assert units[2499.46] == "" and units[2438.27] == ""  # no `GB` from a device's name
    names = {m.value: m.name.removesuffix(" (baseline)") for c in claims for m in c.metrics}
    assert names[2494.89] == "W4A16"
    assert all(not c.text.startswith("Device AGX") for c in claims)


def test_a_header_row_of_load_values_stays_a_header_row() -> None:
    text = (
        "# Speed (tok/s)\n\n| Model | Seq Len | |\n|---|---|---|\n| | 256 | 512 |\n"
        "| Llama-2-7B | 41.5 | 38.25 |\n"
    )
    found = _found(extract_claims(text))
    assert (41.5, "tok/s") in found and 256 not in [v for v, _ in found]


def test_a_cell_that_names_its_own_score_keeps_no_unit_of_the_table() -> None:
    """`| RTF <br>0.817 |` in a table of frame rates: the cell says what its number is (a
    real-time factor, which has no unit); its neighbours keep the table's unit."""
    text = (
        "# Perf (FPS)\n\n| Model | RK3566 | RK3588 |\n|---|---|---|\n"
        "| yolov5s | 12.5 | 30.1 |\n| whisper | RTF <br>1.178 | RTF <br>0.420 |\n"
        "| tts | 1.5<br>2.5 | 3 |\n"
    )
    read = {m.value: (m.name, m.unit) for c in extract_claims(text) for m in c.metrics}
    assert read[1.178] == ("RTF", "") and read[0.42] == ("RTF", "")
    assert read[12.5][1] == "FPS" and read[1.5][1] == "FPS" and read[2.5][1] == "FPS"


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("It costs $5 to $10 per hour.", id="two-prices"),
        pytest.param("Input costs \\$0.14/M tokens, output \\$2.19/M tokens.", id="escaped"),
    ],
)
def test_dollar_amounts_are_no_inline_math(text: str) -> None:
    """Prices stay prices (their unit `$`), however close two dollars stand."""
    found = _found(extract_claims(text))
    assert len(found) == 2 and all(unit == "$" for _, unit in found)


@pytest.mark.parametrize(
    ("text", "shared"),
    [
        pytest.param(
            "Llama-7B and Llama-13B reach 45 and 26 tokens/s, respectively.",
            [(45.0, "tok/s"), (26.0, "tok/s")],
            id="and",
        ),
        pytest.param(
            "We measure 1.2, 2.3 and 4.5 ms for batch 1, 8 and 32.",
            [(1.2, "ms"), (2.3, "ms"), (4.5, "ms")],
            id="commas-and",
        ),
        pytest.param(
            "Latency is between 20 and 30 ms.", [(20.0, "ms"), (30.0, "ms")], id="between"
        ),
    ],
)
def test_numbers_listed_before_one_unit_share_it(
    text: str, shared: list[tuple[float, str]]
) -> None:
    found = _found(extract_claims(text))
    assert all(pair in found for pair in shared)
    assert all(value not in (1.0, 8.0, 32.0) for value, _ in found)  # the batches stay load


@pytest.mark.parametrize(
    ("text", "absent"),
    [
        pytest.param("We use batch 8 and 16 GB of memory.", 8.0, id="setting-before"),
        pytest.param("Weights for 7 and 13 GB models load fast.", 7.0, id="for"),
    ],
)
def test_the_values_of_a_setting_listed_before_a_unit_take_none(text: str, absent: float) -> None:
    assert absent not in [value for value, _ in _found(extract_claims(text))]


def test_a_column_that_writes_its_unit_once_gives_it_to_its_bare_numbers() -> None:
    text = (
        "# T\n\n| Model | Prefill | Decode | Speedup |\n|---|---|---|---|\n"
        "| 7B | 1,200 tok/s | 45.5 | 1.5x |\n| 13B | 700.5 | 30.25 | 1.25 |\n"
    )
    units = {m.value: m.unit for c in extract_claims(text) for m in c.metrics}
    assert units[700.5] == "tok/s"  # its column said tok/s in the row above
    assert units.get(30.25, "") == ""  # a column that writes no unit gets none
    assert units.get(1.25, "") in ("", "x")


@pytest.mark.parametrize(
    ("before", "raw", "after", "expected"),
    [
        pytest.param("a Ryzen 7 ", "2700", "X box", True, id="family"),
        pytest.param("CPU: Xeon W-", "2295", "X.", True, id="family-letter-hyphen"),
        pytest.param("the ", "5600", "XT card", True, id="more-code"),
        pytest.param("It is ", "3", "x faster", False, id="small-ratio"),
        pytest.param("It is ", "5.2", "X faster", False, id="decimal-ratio"),
        pytest.param("memory falls ", "256", "X", False, id="no-family"),
        pytest.param("a Ryzen 7 2700, ", "256", "X less", False, id="family-left-behind"),
        pytest.param("a Ryzen 7 ", "2700", " tok/s", False, id="no-x"),
    ],
)
def test_a_part_number_is_told_from_a_ratio(
    before: str, raw: str, after: str, expected: bool
) -> None:
    assert part_number(before, raw, after) is expected
