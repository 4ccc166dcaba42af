"""Profile the engines in process: ``.venv/bin/python -m bench.prof_engine sheet|<game> [-n N]``.

``sheet``: the All Fours 6-trick sheet scored ``N`` times; ``<game>``: random playouts as
:mod:`bench.engines` runs them (``apply`` and ``legal_actions``).  Prints pyinstrument's call
tree (``pip install pyinstrument``; not a dependency of referee).  Speed is measured by
:mod:`bench.engines`; this only shows where the time goes.
"""
from __future__ import annotations

import argparse

from bench.engines import playout_rate, sheet_rate


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.prof_engine")
    parser.add_argument("what")
    parser.add_argument("-s", type=float, default=2.0, help="seconds of work")
    args = parser.parse_args()
    from pyinstrument import Profiler
    profiler = Profiler(interval=0.0002)
    with profiler:
        if args.what == "sheet":
            sheet_rate(args.s)
        else:
            playout_rate(args.what, args.s)
    print(profiler.output_text(unicode=True, color=False, show_all=False))


if __name__ == "__main__":
    main()
