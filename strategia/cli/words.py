"""The command line's own sentences (status lines of `strategia game`), in English and Russian;
`line(key, lang, **values)` fills one in. Sides are named as sentences name them (`side_name`)."""

from __future__ import annotations

from typing import Any

from strategia.core.i18n import Lang, Text
from strategia.rules.kinds import side_name

WORDS = {
    "new": Text(
        "{game}: «{name}», level {level}, turn {turn}, {who}",
        "{game}: «{name}», уровень {level}, ход {turn}, {who}",
    ),
    "extended": Text(
        "{game}: the move extended by {minutes} min, {left} left",
        "{game}: ход продлен на {minutes} мин, осталось {left}",
    ),
    "sealed": Text(
        "{text}: sealed until the mediator ends the turn (level 3)",
        "{text}: запечатан до конца хода посредником (3 уровень)",
    ),
    "queued": Text(
        "{text}: noted for the turn's execution (level 3)",
        "{text}: записан к исполнению хода (3 уровень)",
    ),
    "cut": Text("  cut [{rule}]: {reason}", "  сокращено [{rule}]: {reason}"),
    "turn": Text("turn {turn}: {who}", "ход {turn}: {who}"),
    "show": Text(
        "«{name}» turn {turn}, {who}, phase {phase}",
        "«{name}», ход {turn}, {who}, этап: {phase}",
    ),
    "to_move": Text("{side} to move", "ходят {side}"),
    "all_move": Text("every side gives orders", "приказы отдают все стороны"),
    "as_side": Text(", as {side} sees it", ", как видят {side}"),
    "as_mediator": Text(", the mediator's view", ", взгляд посредника"),
    "replayed": Text(
        "{game}: {n} entries replayed, turn {turn}", "{game}: переиграно записей: {n}, ход {turn}"
    ),
    "same": Text(
        "; every result, answer and snapshot reproduced",
        "; все результаты, ответы и снимки воспроизведены",
    ),
    "differences": Text("; {n} difference(s):", "; расхождений: {n}:"),
    "exported": Text("{out}: {n} entries of {game}", "{out}: записей из {game}: {n}"),
    "tactical": Text(
        "{game}: {n} entries of a tactical game (play it with `strategia tactical`)",
        "{game}: записей тактической игры: {n} (играйте в нее командой `strategia tactical`)",
    ),
    "imported": Text(
        "{game}: {n} entries from {text}, turn {turn}",
        "{game}: записей из {text}: {n}, ход {turn}",
    ),
    "noted": Text("noted: {text}", "записано: {text}"),
    "undone": Text(
        "the last order is taken back; turn {turn}, {who}",
        "последний приказ отменен; ход {turn}, {who}",
    ),
}
PHASES = {
    "deployment": Text("deployment", "развертывание"),
    "combat": Text("combat", "боевые действия"),
    "peace": Text("peace talks", "мирные переговоры"),
}


def line(key: str, lang: Lang, **values: Any) -> str:
    """The sentence `key` in `lang` with `values` filled in."""
    return WORDS[key](lang).format(**values)


def sides(side: str, lang: Lang) -> str:
    """A side as the subject of «ходят ...» / "... to move"."""
    return side_name(side, lang, capital=lang == "en")


def to_move(g: Any, lang: Lang) -> str:
    """Whose move it is: «ходят красные» / "Red to move"; at level 3, where every side gives
    sealed orders at once (1.7), «приказы отдают все стороны» / "every side gives orders"."""
    if g.simultaneous:
        return line("all_move", lang)
    return line("to_move", lang, side=sides(g.side, lang))


def phase(name: str, lang: Lang) -> str:
    return PHASES[name](lang) if name in PHASES else name


__all__ = ["line", "phase", "sides", "to_move"]
