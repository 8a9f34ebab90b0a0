from inferhost.quality_gate import Verdict, judge


def test_missing_output_is_inconclusive() -> None:
    assert judge(["a", "b"], ["a", None]) is Verdict.INCONCLUSIVE


def test_exact_match_passes() -> None:
    assert judge(["a"], ["a"]) is Verdict.PASS
