"""The journal's language: units, cells and placements (`refs`), and every order, declared once
with its Russian and English notation (`orders`, read and written by `grammar`).

    >>> from strategia.notation import parse_order
    >>> str(parse_order("17 RD by road to 45,25"))
    '17 с.д. по дороге на 45,25'

Bad notation raises `InvalidNotationError`, `IllegalNotationError` (a cell off the map, a unit
that does not exist) or `AmbiguousNotationError`, each naming the input, the column and what was
expected.
"""

from strategia.notation.orders import (
    FORMS,
    GRAMMAR,
    Attack,
    Defence,
    FaceRegiments,
    FormCorps,
    FormDivision,
    Frontage,
    March,
    Merge,
    Move,
    Order,
    Reform,
    SplitDivision,
    Statute,
    Strike,
    Transfer,
    TransferDivision,
    TransferRegiment,
    Turn,
    parse_order,
)
from strategia.notation.refs import (
    AmbiguousNotationError,
    IllegalNotationError,
    InvalidNotationError,
    NotationContext,
    NotationError,
    Placement,
    UnitRef,
    parse_cell,
)

__all__ = [
    "FORMS",
    "GRAMMAR",
    "AmbiguousNotationError",
    "Attack",
    "Defence",
    "FaceRegiments",
    "FormCorps",
    "FormDivision",
    "Frontage",
    "IllegalNotationError",
    "InvalidNotationError",
    "March",
    "Merge",
    "Move",
    "NotationContext",
    "NotationError",
    "Order",
    "Placement",
    "Reform",
    "SplitDivision",
    "Statute",
    "Strike",
    "Transfer",
    "TransferDivision",
    "TransferRegiment",
    "Turn",
    "UnitRef",
    "parse_cell",
    "parse_order",
]
