"""Research Radar: a daily radar for AI inference performance and RSI research."""

__version__ = "0.1.0"
