"""A chart drawn as inline SVG, as Sheets draws it: title, plot (bars, columns, lines with their points, or
pie slices), axis labels and gridlines, and a legend. Real DOM, so agents, tests and screenshots all see it:
each bar, point and slice is an element with a class and a ``<title>`` naming its category and value.

``render(chart, data)`` takes a ``sheets_charts`` record and what ``service.chart_data`` says it plots.
"""
from __future__ import annotations

import math
from html import escape

COLORS = ("#4285f4", "#ea4335", "#fbbc04", "#34a853", "#ff6d01", "#46bdc6", "#7baaf7", "#f07b72", "#fcd04f", "#71c287")
FONT = 'font-family="Roboto, Arial, sans-serif"'


def _nice(lo: float, hi: float, ticks: int = 5) -> tuple[float, float, float]:
    """Axis bounds and step on round numbers covering lo..hi (0 included)."""
    lo, hi = min(lo, 0.0), max(hi, 0.0)
    if hi == lo:
        hi = lo + 1
    raw = (hi - lo) / ticks
    mag = 10 ** math.floor(math.log10(raw))
    step = next(m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= raw)
    return math.floor(lo / step) * step, math.ceil(hi / step) * step, step


def _short(v: float) -> str:
    """A tick label: 60,000,000 → 60M, 2,500 → 2.5K, as compact as Sheets' axis."""
    a = abs(v)
    for div, suffix in ((1e9, "B"), (1e6, "M"), (1e3, "K")):
        if a >= div:
            x = v / div
            return (f"{x:.1f}".rstrip("0").rstrip(".")) + suffix
    return f"{v:.2f}".rstrip("0").rstrip(".") if v != int(v) else str(int(v))


def _text(x, y, s, cls, anchor="middle", size=11, extra="") -> str:
    return (f'<text class="{cls}" x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}" font-size="{size}" {FONT} '
            f'fill="#5f6368"{extra}>{escape(str(s))}</text>')


def _legend(names: list[str], pos: str, w: float, h: float, top: float) -> tuple[str, tuple[float, float, float, float]]:
    """The legend's SVG, and the box (x0, y0, x1, y1) left for the plot."""
    box = [16.0, top, w - 16.0, h - 12.0]
    if pos == "none" or not names:
        return "", tuple(box)
    items = []
    if pos in ("right", "left"):
        lw = min(150.0, max(60.0, 14 + 7 * max(len(n) for n in names)))
        x = w - lw - 8 if pos == "right" else 12
        y = top + max(0.0, (h - top - 18 * len(names)) / 2)
        for i, n in enumerate(names):
            items.append(f'<g class="legend-item"><rect x="{x:.1f}" y="{y + 18 * i:.1f}" width="10" height="10" rx="2" '
                         f'fill="{COLORS[i % len(COLORS)]}"/>{_text(x + 15, y + 18 * i + 9, n[:22], "legend-label", "start")}</g>')
        if pos == "right":
            box[2] = x - 12
        else:
            box[0] = x + lw + 4
    else:
        widths = [24 + 6.5 * len(n[:22]) for n in names]
        x = max(16.0, (w - sum(widths)) / 2)
        y = top + 2 if pos == "top" else h - 18
        for i, n in enumerate(names):
            items.append(f'<g class="legend-item"><rect x="{x:.1f}" y="{y:.1f}" width="10" height="10" rx="2" '
                         f'fill="{COLORS[i % len(COLORS)]}"/>{_text(x + 15, y + 9, n[:22], "legend-label", "start")}</g>')
            x += widths[i]
        if pos == "top":
            box[1] = top + 22
        else:
            box[3] = h - 30
    return f'<g class="legend" data-position="{pos}">{"".join(items)}</g>', tuple(box)


def render(chart: dict, data: dict) -> str:
    w, h = chart["width"], chart["height"]
    out = [f'<svg class="chart-svg" viewBox="0 0 {w} {h}" width="{w}" height="{h}" role="img" '
           f'aria-label="{escape(chart["title"] or "Chart")}" xmlns="http://www.w3.org/2000/svg">',
           f'<rect class="chart-bg" width="{w}" height="{h}" fill="#fff"/>']
    top = 12.0
    if chart["title"]:
        out.append(f'<text class="chart-title" x="{w / 2:.1f}" y="28" text-anchor="middle" font-size="15" {FONT} '
                   f'fill="#202124">{escape(chart["title"])}</text>')
        top = 42.0
    series = data["series"][:1] if chart["type"] == "pie" else data["series"]
    names = data["categories"] if chart["type"] == "pie" else [s["name"] for s in series]
    legend, box = _legend(names, chart["legend"], w, h, top)
    out.append(legend)
    if chart["type"] == "pie":
        out.append(_pie(data, series[0] if series else None, box))
    else:
        out.append(_axes(chart["type"], data, series, box))
    out.append("</svg>")
    return "".join(out)


def _pie(data: dict, s: dict | None, box) -> str:
    x0, y0, x1, y1 = box
    cx, cy, r = (x0 + x1) / 2, (y0 + y1) / 2, max(10.0, min(x1 - x0, y1 - y0) / 2 - 4)
    vals = [(c, v) for c, v in zip(data["categories"], (s or {}).get("values", [])) if v is not None and v > 0]
    total = sum(v for _, v in vals)
    parts = ['<g class="plot pie">']
    angle = -math.pi / 2
    for i, (cat, v) in enumerate(vals):
        sweep = 2 * math.pi * v / total
        color = COLORS[data["categories"].index(cat) % len(COLORS)]
        tip = f"<title>{escape(cat)}: {v:,} ({v / total:.1%})</title>"
        if len(vals) == 1:
            parts.append(f'<circle class="slice" cx="{cx:.1f}" cy="{cy:.1f}" r="{r:.1f}" fill="{color}" '
                         f'data-category="{escape(cat)}" data-value="{v}">{tip}</circle>')
        else:
            a2 = angle + sweep
            xa, ya, xb, yb = cx + r * math.cos(angle), cy + r * math.sin(angle), cx + r * math.cos(a2), cy + r * math.sin(a2)
            large = 1 if sweep > math.pi else 0
            parts.append(f'<path class="slice" d="M{cx:.1f},{cy:.1f} L{xa:.1f},{ya:.1f} A{r:.1f},{r:.1f} 0 {large} 1 '
                         f'{xb:.1f},{yb:.1f} Z" fill="{color}" stroke="#fff" stroke-width="1" '
                         f'data-category="{escape(cat)}" data-value="{v}">{tip}</path>')
        if v / total >= 0.05:
            mid = angle + sweep / 2
            parts.append(f'<text class="slice-label" x="{cx + r * 0.65 * math.cos(mid):.1f}" '
                         f'y="{cy + r * 0.65 * math.sin(mid) + 4:.1f}" text-anchor="middle" font-size="11" {FONT} '
                         f'fill="#fff">{v / total:.1%}</text>')
        angle += sweep
    parts.append("</g>")
    return "".join(parts)


def _axes(kind: str, data: dict, series: list[dict], box) -> str:
    x0, y0, x1, y1 = box
    cats = data["categories"]
    nums = [v for s in series for v in s["values"] if v is not None]
    lo, hi, step = _nice(min(nums, default=0), max(nums, default=0))
    horizontal = kind == "bar"
    label_w = 44 if not horizontal else min(120, 8 + 6 * max((len(c[:18]) for c in cats), default=1))
    px0, py0, px1, py1 = x0 + label_w, y0 + 4, x1 - 6, y1 - 20
    parts = ['<g class="plot">']
    n_ticks = int(round((hi - lo) / step))
    for k in range(n_ticks + 1):                                 # gridlines and value labels
        v = lo + k * step
        if horizontal:
            x = px0 + (px1 - px0) * (v - lo) / (hi - lo)
            parts.append(f'<line class="grid" x1="{x:.1f}" y1="{py0:.1f}" x2="{x:.1f}" y2="{py1:.1f}" stroke="#e0e0e0"/>')
            parts.append(_text(x, py1 + 14, _short(v), "axis-label value-label"))
        else:
            y = py1 - (py1 - py0) * (v - lo) / (hi - lo)
            parts.append(f'<line class="grid" x1="{px0:.1f}" y1="{y:.1f}" x2="{px1:.1f}" y2="{y:.1f}" stroke="#e0e0e0"/>')
            parts.append(_text(px0 - 6, y + 4, _short(v), "axis-label value-label", "end"))
    n, m = max(1, len(cats)), max(1, len(series))
    span = (py1 - py0) if horizontal else (px1 - px0)
    group = span / n
    scale = lambda v: (v - lo) / (hi - lo)                       # noqa: E731
    est = 14 if horizontal else 8 + 6.2 * max((len(c[:14]) for c in cats), default=1)    # a label's room
    every = max(1, math.ceil(n / max(1, int(span / est))))
    for j, c in enumerate(cats):                                 # category labels
        if j % every:
            continue
        if horizontal:
            parts.append(_text(px0 - 6, py0 + group * (j + 0.5) + 4, c[:18], "axis-label category-label", "end"))
        else:
            parts.append(_text(px0 + group * (j + 0.5), py1 + 14, c[:14], "axis-label category-label"))
    zero = scale(0)
    for i, s in enumerate(series):
        color = COLORS[i % len(COLORS)]
        if kind == "line":
            pts = [(px0 + group * (j + 0.5), py1 - (py1 - py0) * scale(v)) for j, v in enumerate(s["values"]) if v is not None]
            parts.append(f'<polyline class="line" data-series="{escape(s["name"])}" fill="none" stroke="{color}" '
                         f'stroke-width="2" points="{" ".join(f"{x:.1f},{y:.1f}" for x, y in pts)}"/>')
            for (x, y), (cat, v) in zip(pts, [(c, v) for c, v in zip(cats, s["values"]) if v is not None]):
                parts.append(f'<circle class="point" cx="{x:.1f}" cy="{y:.1f}" r="3" fill="{color}" '
                             f'data-category="{escape(cat)}" data-value="{v}"><title>{escape(s["name"])}, '
                             f'{escape(cat)}: {v:,}</title></circle>')
            continue
        bw = group * 0.7 / m
        for j, v in enumerate(s["values"]):
            if v is None:
                continue
            off = group * (j + 0.15) + bw * i
            a, b = sorted((scale(v), zero))
            tip = f"<title>{escape(s['name'])}, {escape(cats[j])}: {v:,}</title>"
            if horizontal:
                x, wd = px0 + (px1 - px0) * a, (px1 - px0) * (b - a)
                geo = f'x="{x:.1f}" y="{py0 + off:.1f}" width="{wd:.1f}" height="{bw:.1f}"'
            else:
                y, ht = py1 - (py1 - py0) * b, (py1 - py0) * (b - a)
                geo = f'x="{px0 + off:.1f}" y="{y:.1f}" width="{bw:.1f}" height="{ht:.1f}"'
            parts.append(f'<rect class="bar" {geo} fill="{color}" data-series="{escape(s["name"])}" '
                         f'data-category="{escape(cats[j])}" data-value="{v}">{tip}</rect>')
    axis = (f'<line class="axis" x1="{px0 + (px1 - px0) * zero:.1f}" y1="{py0:.1f}" x2="{px0 + (px1 - px0) * zero:.1f}" '
            f'y2="{py1:.1f}" stroke="#9aa0a6"/>' if horizontal else
            f'<line class="axis" x1="{px0:.1f}" y1="{py1 - (py1 - py0) * zero:.1f}" x2="{px1:.1f}" '
            f'y2="{py1 - (py1 - py0) * zero:.1f}" stroke="#9aa0a6"/>')
    parts.append(axis + "</g>")
    return "".join(parts)


def figure(chart: dict, data: dict) -> str:
    """A chart as it floats over the grid: a focusable figure (placed on its anchor cell by the script) with
    its settings in data attributes for the chart editor."""
    attrs = {"data-chart": chart["id"], "data-type": chart["type"], "data-range": chart["range"],
             "data-title": chart["title"] or "", "data-legend": chart["legend"], "data-anchor": chart["anchor"]}
    a = " ".join(f'{k}="{escape(str(v))}"' for k, v in attrs.items())
    return (f'<figure class="chart" role="figure" tabindex="0" aria-label="Chart: {escape(chart["title"] or "Untitled")}" '
            f'{a} style="width:{chart["width"]}px;height:{chart["height"]}px">{render(chart, data)}</figure>')
