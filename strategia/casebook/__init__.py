"""The case book: every rule the engine implements, a small position, the orders and the
expected result, run against the program (`strategia cases`), printable by chapter.

    from strategia.casebook import load_book, run_book
    runs = run_book(load_book(rule="9.7"))
"""

from strategia.casebook.case import Case, CaseError, Expect, Step, load_case
from strategia.casebook.run import BOOK, CaseRun, load_book, run_book, run_case

__all__ = [
    "BOOK",
    "Case",
    "CaseError",
    "CaseRun",
    "Expect",
    "Step",
    "load_book",
    "load_case",
    "run_book",
    "run_case",
]
