"""`strategia cases`: the case book run against the program, a line per case; under house
rules, which cases change and how; the book as a page to print."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from strategia.casebook import BOOK, load_book, run_book
from strategia.casebook.render import book_html, lines
from strategia.cli.output import FORCE_HELP, Output, check_output
from strategia.core.errors import StrategiaError


def add_commands(sub: Any, parent: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "cases",
        parents=[parent],
        help="run the case book: every rule, a position, the orders and the expected result",
        description="Run the case book against the program: a line per case, and for a "
        "failure the expected and the actual values side by side. With --house, every case is "
        "played under the house rules too, and the cases whose results change are shown.",
    )
    p.add_argument("--rule", help="only the cases of this rule (9.7 takes 9.7a, 9.7b...)")
    p.add_argument(
        "--house", action="append", default=[], metavar="FILE", help="house rules (TOML)"
    )
    p.add_argument("--case", dest="only", help="only this case (its id, e.g. 9.3-1)")
    p.add_argument("--book", type=Path, metavar="OUT.html", help="also write the book to print")
    p.add_argument("--force", action="store_true", help=FORCE_HELP)
    p.add_argument("--folder", type=Path, default=BOOK, help=argparse.SUPPRESS)
    p.set_defaults(handler=cases)


def cases(args: argparse.Namespace) -> Output:
    house = [Path(h) for h in args.house]
    check_output("--book", args.book, args.force, house)
    for h in house:
        if not h.is_file():
            raise FileNotFoundError(2, f"{h}: no such house-rules file", str(h))
    book = load_book(args.folder, args.rule)
    if args.only:
        book = [c for c in book if c.id == args.only]
    if not book:
        what = args.only or args.rule
        raise StrategiaError(
            f"no case of {what!r} in the book ({args.folder})",
            ru=f"в книге ({args.folder}) нет случая {what!r}",
        )
    runs = run_book(book, house)
    if args.book is not None:
        args.book.write_text(book_html(runs, args.lang), encoding="utf-8")
    data = {"cases": [r.to_json() for r in runs], "house": [str(h) for h in house]}
    failed = not house and not all(r.passed for r in runs)
    return Output(lines(runs, args.lang), data, status=1 if failed else 0)


__all__ = ["add_commands", "cases"]
