"""inferhost: paired inference benchmarks, budgets and quality gates."""
