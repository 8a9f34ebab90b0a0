"""Static SVG charts (pure): readable without JavaScript, scaled to any width.

Each function returns one `<svg>` element as safe markup: every label is escaped, the
chart names itself (`role="img"`, `<title>`) and each bar or cell carries a `<title>`
with its exact value, so a reader hovering or using a screen reader gets the numbers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from markupsafe import Markup, escape

__all__ = ["Bar", "PALETTE", "bar_chart", "health_grid", "stacked_bars"]

PALETTE = (
    "#4e79a7",
    "#f28e2b",
    "#e15759",
    "#76b7b2",
    "#59a14f",
    "#edc948",
    "#b07aa1",
    "#ff9da7",
    "#9c755f",
    "#bab0ac",
)
_FONT = 'font-family="system-ui, sans-serif"'


@dataclass(frozen=True)
class Bar:
    """One horizontal bar: its label, value, and an optional link and note."""

    label: str
    value: float
    note: str = ""
    href: str = ""


def _number(value: float) -> str:
    return f"{value:,.0f}" if abs(value) >= 100 else f"{value:,.3g}"


def _svg(width: int, height: int, title: str, body: list[str]) -> Markup:
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'class="chart" style="max-width:{width}px" role="img" aria-label="{escape(title)}" '
        f'{_FONT} font-size="12">'
        f"<title>{escape(title)}</title>"
    )
    return Markup(head + "".join(body) + "</svg>")


def bar_chart(bars: Sequence[Bar], *, title: str, unit: str = "") -> Markup:
    """Horizontal bars, one per label, longest value full width."""
    label_width, bar_width, row = 220, 420, 24
    height = row * len(bars) + 10
    top = max((bar.value for bar in bars), default=0.0) or 1.0
    body: list[str] = []
    for index, bar in enumerate(bars):
        y = 5 + index * row
        length = max(1.0, bar_width * bar.value / top) if bar.value > 0 else 0.0
        label = escape(bar.label if len(bar.label) <= 32 else bar.label[:31] + "…")
        text = f'<text x="{label_width - 8}" y="{y + 16}" text-anchor="end" fill="currentColor">{label}</text>'
        if bar.href:
            text = f'<a href="{escape(bar.href)}">{text}</a>'
        value = f"{_number(bar.value)} {unit}".strip()
        tip = escape(f"{bar.label}: {value}" + (f" ({bar.note})" if bar.note else ""))
        body.append(
            f"<g>{text}"
            f'<rect x="{label_width}" y="{y + 3}" width="{length:.1f}" height="{row - 8}" '
            f'fill="{PALETTE[0]}"><title>{tip}</title></rect>'
            f'<text x="{label_width + length + 6:.1f}" y="{y + 16}" fill="currentColor">'
            f"{escape(value)}</text></g>"
        )
    return _svg(label_width + bar_width + 110, height, title, body)


def stacked_bars(
    columns: Sequence[str], series: Sequence[tuple[str, Sequence[int]]], *, title: str
) -> Markup:
    """Vertical stacked bars: one column per period, one colour per series, with a legend.

    Args:
        columns: the periods, in order (e.g. ISO weeks).
        series: (name, counts per column) in stacking order; at most ten are coloured
            apart, the rest share the last colour.
    """
    left, bottom, plot_height, legend_row = 40, 40, 200, 20
    step = max(6, min(48, 640 // max(1, len(columns))))
    width = max(left + step * len(columns) + 20, 640)
    totals = [sum(values[i] for _, values in series) for i in range(len(columns))]
    top = max(totals, default=0) or 1
    legend_top = plot_height + bottom + 10
    height = legend_top + legend_row * len(series) + 10
    body = [
        f'<line x1="{left}" y1="{plot_height + 10}" x2="{width - 10}" y2="{plot_height + 10}" '
        'stroke="currentColor" stroke-opacity=".4"/>',
        f'<text x="{left - 6}" y="18" text-anchor="end" fill="currentColor">{top}</text>',
        f'<text x="{left - 6}" y="{plot_height + 14}" text-anchor="end" fill="currentColor">0</text>',
    ]
    label_every = max(1, len(columns) // 8, -(-72 // step))
    for i, column in enumerate(columns):
        x = left + i * step
        y = float(plot_height + 10)
        for index, (name, values) in enumerate(series):
            count = values[i]
            if not count:
                continue
            h = plot_height * count / top
            y -= h
            colour = PALETTE[min(index, len(PALETTE) - 1)]
            tip = escape(f"{column} · {name}: {count}")
            body.append(
                f'<rect x="{x + 1}" y="{y:.1f}" width="{max(2, step - 2)}" height="{h:.1f}" '
                f'fill="{colour}"><title>{tip}</title></rect>'
            )
        if i % label_every == 0:
            body.append(
                f'<text x="{x + 1}" y="{plot_height + 28}" fill="currentColor" font-size="10">'
                f"{escape(column)}</text>"
            )
    for index, (name, values) in enumerate(series):
        x = left
        y = legend_top + index * legend_row
        colour = PALETTE[min(index, len(PALETTE) - 1)]
        label = name if len(name) <= 60 else name[:59] + "…"
        body.append(
            f'<rect x="{x}" y="{y}" width="12" height="12" fill="{colour}"/>'
            f'<text x="{x + 18}" y="{y + 11}" fill="currentColor">{escape(label)} '
            f"({sum(values)})</text>"
        )
    return _svg(width, height, title, body)


def health_grid(
    sources: Sequence[str],
    moments: Sequence[str],
    states: dict[tuple[str, str], str],
    *,
    title: str,
) -> Markup:
    """One row per source, one cell per run: green ok, amber partial/stale, red failed."""
    label_width, cell, row = 90, max(4, min(18, 560 // max(1, len(moments)))), 22
    width = max(label_width + cell * len(moments) + 20, 300)
    height = row * len(sources) + 30
    body: list[str] = []
    for r, source in enumerate(sources):
        y = 8 + r * row
        body.append(
            f'<text x="{label_width - 8}" y="{y + 14}" text-anchor="end" fill="currentColor">'
            f"{escape(source)}</text>"
        )
        for c, moment in enumerate(moments):
            state = states.get((source, moment))
            if state is None:
                continue
            colour = (
                "#2da44e"
                if state == "ok"
                else "#cf222e"
                if state.startswith("failed")
                else "#d4a72c"
            )
            body.append(
                f'<rect x="{label_width + c * cell}" y="{y + 2}" width="{max(2, cell - 2)}" '
                f'height="{row - 6}" fill="{colour}"><title>{escape(f"{moment} · {source}: {state}")}'
                "</title></rect>"
            )
    if moments:
        body.append(
            f'<text x="{label_width}" y="{height - 6}" fill="currentColor" font-size="10">'
            f"{escape(moments[0])}</text>"
        )
        if len(moments) > 1:
            body.append(
                f'<text x="{width - 10}" y="{height - 6}" text-anchor="end" fill="currentColor" '
                f'font-size="10">{escape(moments[-1])}</text>'
            )
    return _svg(width, height, title, body)
