"""Pictures of scored predictions as inline SVG: precision–recall, F1 against threshold, reliability.

Standard library only; every label and number is escaped. Each function
returns one ``<svg>`` element that a page embeds as it is (the HTML report's
"Curves" section, :func:`curves_section`) or that is written as an ``.svg``
file (``nerscore curve --format svg``). A line with many points is drawn
from at most :data:`MAX_POINTS` of them, evenly spaced over the thresholds
(the chosen operating point is always one of them); the data of every point
is in ``nerscore curve --format csv|json``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from nerscore.analysis.calibration import Calibration
    from nerscore.analysis.curves import Curve, OperatingPoint, PRCurve

__all__ = ["MAX_POINTS", "PLOTS", "curves_section", "f1_svg", "pr_svg", "reliability_svg",
           "systems_curves_section", "systems_pr_svg"]

#: Points drawn per line at most.
MAX_POINTS = 400
#: The pictures, by the name ``nerscore curve --plot`` takes.
PLOTS = ("pr", "f1", "reliability")

_W, _H = 420, 320
_L, _R, _T, _B = 52, 118, 28, 44  # margins: left, right (legend), top, bottom
_COLORS = ("#1f3b73", "#c0392b", "#27ae60", "#8e44ad", "#d68910", "#16a085", "#7f8c8d",
           "#2e86c1", "#a04000", "#6c3483")


def _x(v: float, lo: float = 0.0, hi: float = 1.0) -> float:
    span = (hi - lo) or 1.0
    return _L + (v - lo) / span * (_W - _L - _R)


def _y(v: float) -> float:
    return _T + (1.0 - v) * (_H - _T - _B)


def _frame(title: str, xlabel: str, ylabel: str, lo: float = 0.0, hi: float = 1.0) -> list[str]:
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_W} {_H}" width="{_W}" '
           f'height="{_H}" role="img" aria-label="{escape(title)}" '
           'font-family="sans-serif" font-size="11">',
           f"<title>{escape(title)}</title>",
           f'<rect x="{_L}" y="{_T}" width="{_W - _L - _R}" height="{_H - _T - _B}" '
           'fill="#fff" stroke="#888"/>',
           f'<text x="{(_L + _W - _R) / 2:.1f}" y="16" text-anchor="middle" '
           f'font-size="13">{escape(title)}</text>']
    for k in range(6):
        v = k / 5
        xv = lo + v * (hi - lo)
        out.append(f'<line x1="{_x(xv, lo, hi):.1f}" y1="{_H - _B}" x2="{_x(xv, lo, hi):.1f}" '
                   f'y2="{_H - _B + 4}" stroke="#888"/>'
                   f'<text x="{_x(xv, lo, hi):.1f}" y="{_H - _B + 15}" '
                   f'text-anchor="middle">{xv:.3g}</text>')
        out.append(f'<line x1="{_L - 4}" y1="{_y(v):.1f}" x2="{_L}" y2="{_y(v):.1f}" '
                   f'stroke="#888"/><text x="{_L - 6}" y="{_y(v) + 4:.1f}" '
                   f'text-anchor="end">{v:.1f}</text>')
        if 0 < k < 5:
            out.append(f'<line x1="{_L}" y1="{_y(v):.1f}" x2="{_W - _R}" y2="{_y(v):.1f}" '
                       'stroke="#eee"/>')
    out.append(f'<text x="{(_L + _W - _R) / 2:.1f}" y="{_H - 8}" '
               f'text-anchor="middle">{escape(xlabel)}</text>')
    out.append(f'<text x="14" y="{(_T + _H - _B) / 2:.1f}" text-anchor="middle" '
               f'transform="rotate(-90 14 {(_T + _H - _B) / 2:.1f})">{escape(ylabel)}</text>')
    return out


def _legend(names: Sequence[str]) -> list[str]:
    out = []
    for k, name in enumerate(names):
        y = _T + 10 + 15 * k
        out.append(f'<line x1="{_W - _R + 8}" y1="{y}" x2="{_W - _R + 24}" y2="{y}" '
                   f'stroke="{_COLORS[k % len(_COLORS)]}" stroke-width="2"/>'
                   f'<text x="{_W - _R + 28}" y="{y + 4}">{escape(name[:14])}</text>')
    return out


def _sample(n: int, keep: int | None) -> np.ndarray:
    """At most :data:`MAX_POINTS` indices of ``n``, evenly spaced, with ``keep`` among them."""
    idx = np.unique(np.linspace(0, n - 1, min(n, MAX_POINTS)).round().astype(np.int64))
    if keep is not None:
        idx = np.union1d(idx, [keep])
    return idx


def _lines(curves: Sequence[tuple[str, PRCurve]]) -> list[tuple[str, PRCurve]]:
    return [(n, c) for n, c in curves if len(c)]


def pr_svg(curve: Curve, point: OperatingPoint | None = None, *,
           title: str = "Precision–recall") -> str:
    """Precision against recall (recall over all gold), micro and per label; ``point`` marked.

    Examples
    --------
    >>> import nerscore
    >>> c = nerscore.threshold_curve({"d": [(0, 4, "A")]}, {"d": [(0, 4, "A", 0.9), (5, 6, "A", 0.2)]})
    >>> svg = pr_svg(c, c.best)
    >>> svg.startswith("<svg"), svg.count("<polyline"), "<circle" in svg
    (True, 2, True)
    """
    lines = _lines([("micro", curve.micro), *curve.per_label.items()])
    out = _frame(title, "recall", "precision")
    for k, (_, c) in enumerate(lines):
        keep = None
        idx = _sample(len(c), keep)
        r, p = c.recall[idx], c.precision[idx]
        pts = " ".join(f"{_x(a):.1f},{_y(b):.1f}" for a, b in zip(r.tolist(), p.tolist(),
                                                                  strict=True) if a == a)
        width = 2.5 if k == 0 else 1.2
        out.append(f'<polyline fill="none" stroke="{_COLORS[k % len(_COLORS)]}" '
                   f'stroke-width="{width}" points="{pts}"/>')
    if point is not None and point.recall == point.recall:
        out.append(f'<circle cx="{_x(point.recall):.1f}" cy="{_y(point.precision):.1f}" r="5" '
                   f'fill="none" stroke="#000" stroke-width="2"><title>threshold '
                   f"{point.threshold:g}: precision {point.precision:.3f}, recall "
                   f"{point.recall:.3f}</title></circle>")
    out += _legend([n for n, _ in lines])
    out.append("</svg>")
    return "".join(out)


def f1_svg(curve: Curve, point: OperatingPoint | None = None, *,
           title: str = "F1 against threshold") -> str:
    """F-beta against the threshold, micro and per label; ``point`` marked.

    Examples
    --------
    >>> import nerscore
    >>> c = nerscore.threshold_curve({"d": [(0, 4, "A")]}, {"d": [(0, 4, "A", 0.9), (5, 6, "A", 0.2)]})
    >>> f1_svg(c, c.best).count("<polyline")
    2
    """
    lines = _lines([("micro", curve.micro), *curve.per_label.items()])
    scores = [c.threshold for _, c in lines]
    lo = float(min((s.min() for s in scores), default=0.0))
    hi = float(max((s.max() for s in scores), default=1.0))
    if lo >= 0.0 and hi <= 1.0:
        lo, hi = 0.0, 1.0
    name = "F1" if curve.beta == 1 else f"F{curve.beta:g}"
    out = _frame(title if curve.beta == 1 else f"{name} against threshold", "threshold", name,
                 lo, hi)
    for k, (_, c) in enumerate(lines):
        idx = _sample(len(c), None)
        pts = " ".join(f"{_x(a, lo, hi):.1f},{_y(b):.1f}"
                       for a, b in zip(c.threshold[idx].tolist(), c.fbeta[idx].tolist(),
                                       strict=True))
        out.append(f'<polyline fill="none" stroke="{_COLORS[k % len(_COLORS)]}" '
                   f'stroke-width="{2.5 if k == 0 else 1.2}" points="{pts}"/>')
    if point is not None:
        out.append(f'<circle cx="{_x(point.threshold, lo, hi):.1f}" cy="{_y(point.fbeta):.1f}" '
                   f'r="5" fill="none" stroke="#000" stroke-width="2"><title>threshold '
                   f"{point.threshold:g}: {name} {point.fbeta:.3f}</title></circle>")
    out += _legend([n for n, _ in lines])
    out.append("</svg>")
    return "".join(out)


def reliability_svg(cal: Calibration, *, title: str = "Reliability") -> str:
    """Share correct against mean score per bin (bars), with the diagonal of perfect calibration.

    Examples
    --------
    >>> import nerscore
    >>> cal = nerscore.calibration({"d": [(0, 4, "A")]}, {"d": [(0, 4, "A", 0.9), (5, 6, "A", 0.2)]})
    >>> svg = reliability_svg(cal)
    >>> svg.count("<rect") - 1, "ECE 0.150" in svg
    (2, True)
    """
    out = _frame(title, "score", "share correct")
    for b in cal.overall.bins:
        if not b.count:
            continue
        x0, x1 = _x(b.lower) + 1, _x(b.upper) - 1
        out.append(f'<rect x="{x0:.1f}" y="{_y(b.accuracy):.1f}" width="{max(x1 - x0, 1):.1f}" '
                   f'height="{_y(0) - _y(b.accuracy):.1f}" fill="#1f3b73" fill-opacity="0.75">'
                   f"<title>({b.lower:.3g}, {b.upper:.3g}]: {b.count} predictions, mean score "
                   f"{b.mean_score:.3f}, {b.accuracy:.3f} correct</title></rect>")
        out.append(f'<circle cx="{_x(b.mean_score):.1f}" cy="{_y(b.accuracy):.1f}" r="2.5" '
                   'fill="#c0392b"/>')
    out.append(f'<line x1="{_x(0):.1f}" y1="{_y(0):.1f}" x2="{_x(1):.1f}" y2="{_y(1):.1f}" '
               'stroke="#555" stroke-dasharray="4 3"/>')
    ece = cal.overall.ece
    out.append(f'<text x="{_W - _R + 8}" y="{_T + 14}">ECE {ece:.3f}</text>' if ece == ece
               else f'<text x="{_W - _R + 8}" y="{_T + 14}">no predictions</text>')
    out.append(f'<text x="{_W - _R + 8}" y="{_T + 30}">{cal.bins} bins</text>')
    out.append("</svg>")
    return "".join(out)


def _credit(curve: Curve) -> str:
    """What a true positive is, for the matchers whose pairs earn partial credit or one schema."""
    if curve.match == "overlap":
        return f" (overlap: true positives are summed partial credit, s = {curve.options['s']:g})"
    if curve.match == "semeval":
        return f" (SemEval {escape(str(curve.options['schema']))} schema)"
    return ""


def _outside_unit(curve: Curve) -> str:
    """Why scores outside ``[0, 1]`` have no reliability diagram ('' when all lie in it)."""
    c = curve.micro
    if not len(c) or (c.threshold[0] <= 1 and c.threshold[-1] >= 0):
        return ""
    total = int(c.n_pred[-1])
    above = c.n_pred[c.threshold > 1]
    inside = c.n_pred[c.threshold >= 0]
    k = total - (int(inside[-1]) if len(inside) else 0) + (int(above[-1]) if len(above) else 0)
    return (f"No reliability diagram: calibration needs scores in [0, 1] (probabilities); {k} "
            f"of the {total} predictions are scored outside it (from "
            f"{float(c.threshold[-1]):g} to {float(c.threshold[0]):g}). Map the scores to "
            "probabilities first (e.g. exp of a log-probability).")


def curves_section(curve: Curve, calibration: Calibration | None = None,
                   point: OperatingPoint | None = None, digits: int = 2) -> str:
    """The HTML report's section: the three pictures and one line on the operating point.

    Without ``calibration``, scores outside ``[0, 1]`` get a line saying why
    there is no reliability diagram.

    Examples
    --------
    >>> import nerscore
    >>> g, p = {"d": [(0, 4, "A")]}, {"d": [(0, 4, "A", 0.9), (5, 6, "A", 0.2)]}
    >>> html = curves_section(nerscore.threshold_curve(g, p), nerscore.calibration(g, p))
    >>> html.count("<svg"), "best F1 at threshold 0.9" in html
    (3, True)
    >>> html = curves_section(nerscore.threshold_curve(g, {"d": [(0, 4, "A", -0.1), (5, 6, "A", -2.3)]}))
    >>> html.count("<svg"), "2 of the 2 predictions are scored outside it (from -2.3 to -0.1)" in html
    (2, True)
    """
    point = point if point is not None else curve.best
    parts = ['<div class="curves" style="display:flex;flex-wrap:wrap;gap:12px">',
             pr_svg(curve, point), f1_svg(curve, point)]
    if calibration is not None:
        parts.append(reliability_svg(calibration))
    parts.append("</div>")
    why = "" if calibration is not None else _outside_unit(curve)
    if why:
        parts.append(f"<p>{escape(why)}</p>")
    if point is not None:
        how = "best F1" if point.objective in ("fbeta", "f1") else escape(point.objective)
        parts.append(
            f"<p>Operating point (circled): {how} at threshold {point.threshold:g} — precision "
            f"{point.precision:.{digits}f}, recall {point.recall:.{digits}f}, F1 "
            f"{point.fbeta:.{digits}f}; average precision "
            f"{curve.micro.average_precision:.{digits}f}{_credit(curve)}. Recall counts every "
            "gold entity, found by some prediction or not.</p>")
    return "".join(parts)


def systems_pr_svg(curves: Mapping[str, Curve], *,
                   title: str = "Precision–recall, all systems") -> str:
    """The micro precision–recall curve of each system in one picture, each best point circled.

    Examples
    --------
    >>> import nerscore
    >>> g = {"d": [(0, 4, "A")]}
    >>> a = nerscore.threshold_curve(g, {"d": [(0, 4, "A", 0.9), (5, 6, "A", 0.2)]})
    >>> b = nerscore.threshold_curve(g, {"d": [(0, 4, "A", 0.3), (5, 6, "A", 0.8)]})
    >>> svg = systems_pr_svg({"a": a, "b": b})
    >>> svg.count("<polyline"), svg.count("<circle"), ">b</text>" in svg
    (2, 2, True)
    """
    out = _frame(title, "recall", "precision")
    names = []
    for k, (name, curve) in enumerate(curves.items()):
        c = curve.micro
        color = _COLORS[k % len(_COLORS)]
        names.append(name)
        if not len(c):
            continue
        idx = _sample(len(c), None)
        pts = " ".join(f"{_x(a):.1f},{_y(b):.1f}" for a, b in zip(
            c.recall[idx].tolist(), c.precision[idx].tolist(), strict=True) if a == a)
        out.append(f'<polyline fill="none" stroke="{color}" stroke-width="2" points="{pts}"/>')
        best = c.best
        if best is not None and best.recall == best.recall:
            out.append(f'<circle cx="{_x(best.recall):.1f}" cy="{_y(best.precision):.1f}" '
                       f'r="4" fill="none" stroke="{color}" stroke-width="2"><title>'
                       f"{escape(name)}: threshold {best.threshold:g}, precision "
                       f"{best.precision:.3f}, recall {best.recall:.3f}</title></circle>")
    out += _legend(names)
    out.append("</svg>")
    return "".join(out)


def systems_curves_section(curves: Mapping[str, Curve],
                           calibrations: Mapping[str, Calibration | None] | None = None,
                           digits: int = 2) -> str:
    """The Curves section of several systems: their micro curves together, then each system's.

    The systems missing from ``curves`` are named by
    :func:`nerscore.render_html`, with why.

    Examples
    --------
    >>> import nerscore
    >>> g = {"d": [(0, 4, "A")]}
    >>> p = {"d": [(0, 4, "A", 0.9), (5, 6, "A", 0.2)]}
    >>> html = systems_curves_section({"a": nerscore.threshold_curve(g, p),
    ...                                "b <1>": nerscore.threshold_curve(g, p)})
    >>> html.count("<svg"), html.count("<h3>"), "b &lt;1&gt;" in html
    (5, 2, True)
    """
    cals = calibrations or {}
    parts = []
    if len(curves) > 1:
        parts.append('<div class="curves" style="display:flex;flex-wrap:wrap;gap:12px">'
                     + systems_pr_svg(curves) + "</div>")
    for name, curve in curves.items():
        parts.append(f"<h3>{escape(name)}</h3>")
        parts.append(curves_section(curve, cals.get(name), digits=digits))
    return "".join(parts)
