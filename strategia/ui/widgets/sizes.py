"""Sizes the screens give their controls: a button as wide as its label needs."""

from __future__ import annotations

CHAR_PX = 8  # an average letter of the notebook's 13 px font, Latin or Cyrillic, with room
PADDING_PX = 28  # a button's padding and border, both sides
ICON_PX = 20  # an icon and its gap


def label_width(label: str, icon: bool = False) -> str:
    """The CSS width of a button showing `label` whole (and an icon before it)."""
    return f"{len(label) * CHAR_PX + PADDING_PX + (ICON_PX if icon else 0)}px"
