from inferhost.budget import Budget


def test_budget_stops_after_patience() -> None:
    budget = Budget(gpu_hours=2.0, max_trials=10, patience=2)
    budget.record(0.1, gained=False)
    budget.record(0.1, gained=False)
    assert budget.exhausted()
