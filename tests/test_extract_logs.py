"""What a script printed while it ran, shown in a fenced block: logger lines, progress
bars, lines of several measurements (issue #14)."""

from __future__ import annotations

from research_radar.extract.claims import extract_claims


def _found(text: str) -> list[tuple[int, float, str]]:
    return [(c.line, m.value, m.unit) for c in extract_claims(text) for m in c.metrics]


RUN_LOG = """# Faster sampling

Run it and you should see:

```bash
Loading weights: 100%|██████████| 9/9 [00:02<00:00,  4.41it/s]
2025-03-01 10:00:00,001 - INFO - Running the reference pipeline...
100%|██████████| 30/30 [00:11<00:00,  2.71it/s]
2025-03-01 10:00:12,430 - INFO - Reference: 11.64 seconds
2025-03-01 10:00:13,002 - INFO - Running ours...
100%|██████████| 30/30 [00:04<00:00,  6.95it/s]
2025-03-01 10:00:17,950 - INFO - Ours: 4.52 seconds
2025-03-01 10:00:18,100 - INFO - Wrote sample.png
```
"""


def test_a_logged_run_is_read_its_loading_bar_and_timestamps_are_not() -> None:
    found = _found(RUN_LOG)
    assert (8, 2.71, "it/s") in found and (11, 6.95, "it/s") in found
    assert (9, 11.64, "s") in found and (12, 4.52, "s") in found
    values = {value for _, value, _ in found}
    assert 4.41 not in values  # the bar that timed loading the weights
    assert not values & {2025.0, 10.0, 1.0, 430.0, 100.0}  # dates, clock times, percents


def test_slow_iterations_are_read_as_seconds_per_iteration() -> None:
    text = (
        "```\n[INFO] step A\n100%|#####| 20/20 [01:02<00:00,  3.10s/it]\n"
        "[INFO] Total: 62.3 seconds\n```\n"
    )
    found = _found(text)
    assert (3, 3.1, "s/it") in found and (4, 62.3, "s") in found


def test_a_line_of_several_measurements_is_read() -> None:
    text = (
        "Output:\n\n```\nstep 100 | 1234.5 tokens/s | mem 14.2 GB\n"
        "step 200 | 1240.1 tokens/s | mem 14.2 GB\n```\n"
    )
    found = _found(text)
    assert (4, 1234.5, "tok/s") in found and (5, 1240.1, "tok/s") in found


def test_code_that_prints_looks_like_no_output() -> None:
    text = (
        "```\nfor step in range(100):\n    loss = train(step)  # 3 s per step\n"
        "    print(f'step {step} | {rate:.1f} tokens/s')\n```\n"
    )
    assert _found(text) == []
