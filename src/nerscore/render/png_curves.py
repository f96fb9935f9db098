"""The curve pictures as PNG files through matplotlib (``pip install 'nerscore[plot]'``).

The same three pictures as :mod:`nerscore.render.html_curves` (every point
drawn here), for papers: precision against recall, F1 against threshold and
the reliability diagram. matplotlib is imported only when a PNG is asked for.
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Any

from nerscore.errors import require

if TYPE_CHECKING:
    from nerscore.analysis.calibration import Calibration
    from nerscore.analysis.curves import Curve

__all__ = ["curve_png"]


def curve_png(curve: Curve, calibration: Calibration | None, plot: str, *,
              dpi: int = 150) -> bytes:
    """One picture (``plot``: ``"pr"``, ``"f1"`` or ``"reliability"``) as PNG bytes.

    Raises
    ------
    MissingDependencyError
        When matplotlib is not installed.
    """
    require("matplotlib", extra="plot")
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    fig = Figure(figsize=(5.0, 3.8))
    ax: Any = fig.add_subplot()
    lines = [("micro", curve.micro), *((k, v) for k, v in curve.per_label.items() if len(v))]
    best = curve.best
    if plot == "pr":
        for k, (name, c) in enumerate(lines):
            ax.step(c.recall, c.precision, where="post", label=name, lw=2.0 if k == 0 else 1.0)
        if best is not None:
            ax.plot([best.recall], [best.precision], "ko", mfc="none", ms=8,
                    label=f"t = {best.threshold:g}")
        ax.set(xlabel="recall", ylabel="precision", title="Precision–recall", xlim=(0, 1),
               ylim=(0, 1.02))
    elif plot == "f1":
        for k, (name, c) in enumerate(lines):
            ax.plot(c.threshold, c.fbeta, label=name, lw=2.0 if k == 0 else 1.0)
        if best is not None:
            ax.plot([best.threshold], [best.fbeta], "ko", mfc="none", ms=8,
                    label=f"t = {best.threshold:g}")
        ax.set(xlabel="threshold", ylabel="F1" if curve.beta == 1 else f"F{curve.beta:g}",
               title="F1 against threshold", ylim=(0, 1.02))
    else:
        assert calibration is not None
        full = [b for b in calibration.overall.bins if b.count]
        ax.bar([(b.lower + b.upper) / 2 for b in full], [b.accuracy for b in full],
               width=[(b.upper - b.lower) * 0.9 for b in full], alpha=0.75, label="share correct")
        ax.plot([0, 1], [0, 1], "k--", lw=1, label="calibrated")
        ax.set(xlabel="score", ylabel="share correct", xlim=(0, 1), ylim=(0, 1.02),
               title=f"Reliability (ECE {calibration.ece:.3f})")
    ax.legend(loc="best", fontsize=8)
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi)
    return buf.getvalue()
