"""``nerscore curve GOLD PRED``: the threshold curve of scored predictions, as data or a picture.

``--format csv`` (default) writes one row per point (``label`` is ``micro``
or a label), ``json`` the curve with its summary numbers and the
calibration, ``svg`` and ``png`` one picture (``--plot pr|f1|reliability``;
PNG needs matplotlib, ``pip install 'nerscore[plot]'``). See docs/curves.md.
"""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING, Any

from nerscore.cli import _formats as fm, _options as opt
from nerscore.cli._arg_types import positive_float, positive_int
from nerscore.cli._output import (
    FormatGiven,
    add_quiet_option,
    declare_files,
    declare_formats,
    note,
    write_result,
)
from nerscore.cli.thresholds import add_schema_option, check_ranked, curve_kwargs, dev_curve
from nerscore.io.csv_cells import rows_text

if TYPE_CHECKING:
    Subparsers = argparse._SubParsersAction[argparse.ArgumentParser]

__all__ = ["register", "run_curve"]

FORMATS = ("csv", "json", "svg", "png")

EPILOG = """\
examples:
  nerscore curve gold.jsonl pred.jsonl -o curve.csv
  nerscore curve gold.jsonl pred.jsonl --plot pr -o pr.svg
  nerscore curve gold.jsonl pred.jsonl --plot reliability -o reliability.png
"""


def register(subparsers: Subparsers) -> None:
    """Add the ``curve`` subcommand.

    Parameters
    ----------
    subparsers : argparse._SubParsersAction
        From ``ArgumentParser.add_subparsers()``.
    """
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "curve", help="precision, recall and F1 at every threshold of scored predictions",
        description=__doc__, epilog=EPILOG, allow_abbrev=False,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("gold", metavar="GOLD", help="gold span file")
    parser.add_argument("pred", metavar="PRED", help="predicted span file, a score on every span")
    parser.add_argument("--format", choices=FORMATS, default="csv", action=FormatGiven,
                        help="csv (default), json, svg or png (default: the one the suffix of "
                             "-o FILE names, else csv)")
    parser.add_argument("--plot", choices=("pr", "f1", "reliability"), default="pr",
                        help="the picture of --format svg|png (default: pr)")
    parser.add_argument("--bins", type=positive_int, default=15, metavar="N",
                        help="score bins of the reliability table (default: 15)")
    parser.add_argument("-o", "--output", metavar="FILE", default=None,
                        help="write to FILE (default: standard output; png needs FILE)")
    parser.add_argument("--beta", type=positive_float, default=1.0,
                        help="weight of recall in the F-score (default: 1)")
    add_quiet_option(parser)
    fm.add_input_format_options(parser)
    opt.add_match_options(parser)
    add_schema_option(parser)
    opt.add_conll_options(parser)
    declare_files(parser, inputs=("gold", "pred"), outputs={"output": "--output"})
    declare_formats(parser, suffixes={f".{name}": name for name in FORMATS})
    parser.set_defaults(func=run_curve)


def _csv(rows: list[dict[str, Any]]) -> str:
    fields = ["label", "threshold", "tp", "n_pred", "n_gold", "precision", "recall", "fbeta"]
    return rows_text([fields, *([r[k] for k in fields] for r in rows)])


def run_curve(args: argparse.Namespace) -> int:
    """Run ``nerscore curve``.

    Parameters
    ----------
    args : argparse.Namespace
        Parsed arguments.

    Returns
    -------
    int
        The exit status (0).
    """
    import nerscore
    from nerscore.errors import InputTypeError

    if args.format == "png" and args.output in (None, "-"):
        raise opt.UsageError("--format png needs -o FILE")
    check_ranked(args, "nerscore curve traces")
    data: list[Any] = []
    read_notes: list[str] = []
    for path, given, side in ((args.gold, args.gold_format, "gold"),
                              (args.pred, args.pred_format, "pred")):
        fmt = fm.input_format(path, given)
        reading = fm.reader_options(args, fmt, side)
        if fmt.kind_of(path, reading) != "spans":
            raise opt.UsageError(f"nerscore curve needs span files with scores; {path!r} is "
                                 f"read as {fmt.name} tags, which carry no score")
        read = fmt.load(path, reading)
        data.append(read.data)
        read_notes += read.notes
    options = curve_kwargs(args, opt.match_kwargs(args))
    curve = dev_curve(args.pred, data[0], data[1], gold_path=args.gold, names=("GOLD", "PRED"),
                      match=args.match, beta=args.beta, **options)
    for n in dict.fromkeys([*read_notes, *curve.notes]):  # GOLD given as PRED says it once
        note("curve", n)
    if not len(curve.micro):
        note("curve", f"{args.pred} has no prediction: the curve has no point.")
    calibration = None
    needs_cal = args.format == "json" or (args.format in ("svg", "png")
                                         and args.plot == "reliability")
    if needs_cal:
        try:
            calibration = nerscore.calibration(data[0], data[1], match=args.match,
                                               bins=args.bins, **options)
        except InputTypeError as exc:
            if args.format != "json":
                raise
            note("curve", f'"calibration" is null: {exc}')
    if args.format == "png":
        from nerscore.io.atomic import atomic_open
        from nerscore.render.png_curves import curve_png

        png = curve_png(curve, calibration, args.plot)
        with atomic_open(args.output, "wb") as fh:
            fh.write(png)
        return 0
    if args.format == "csv":
        text = _csv(curve.rows())
    elif args.format == "json":
        out = curve.to_dict()
        out["calibration"] = None if calibration is None else calibration.to_dict()
        text = json.dumps(out, indent=2, ensure_ascii=False)
    else:
        from nerscore.render.html_curves import f1_svg, pr_svg, reliability_svg

        if args.plot == "pr":
            text = pr_svg(curve, curve.best)
        elif args.plot == "f1":
            text = f1_svg(curve, curve.best)
        else:
            assert calibration is not None
            text = reliability_svg(calibration)
    write_result(text, args.output)
    return 0
