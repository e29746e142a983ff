"""Words and numbers (issue 24): a game played at each level through the console and through
the command line, in Russian and in English, and every text they show read as a demanding
mediator reads it (tests/language_checks.py says what it looks for and what is left alone by
design): Russian with no Latin word, no noun out of agreement with its number, no undeclined
direction, no decimal point, no quantity printed with two roundings in one report; English with
no Cyrillic word beyond the scenario's names and quoted Russian. Builder and scenario-check
errors, and the error paths of the command line, are read the same way."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from language_checks import (
    cyrillic_words,
    disagreements,
    dot_decimals,
    latin_words,
    plain,
    undeclined,
)
from test_console import _texts
from test_russian import small_theatre

from strategia.cli import main
from strategia.core.geometry import Cell
from strategia.core.i18n import Lang
from strategia.core.numbers import fixed, num
from strategia.engine.artillery import in_range
from strategia.engine.result import Result
from strategia.game import report_render as rr
from strategia.game.game import Game
from strategia.game.report import battle_report
from strategia.notation import FORMS, parse_order
from strategia.notation.orders import Attack
from strategia.rules import load_ruleset
from strategia.rules.kinds import DivisionKind
from strategia.theatre import terrain
from strategia.theatre.scenario_io import save_scenario
from strategia.ui.builder.panel import BuilderPanel
from strategia.ui.console import Console

ROOT = Path(__file__).parents[1]
DEFAULT = ROOT / "maps" / "continental.toml"
TURNS = 2
STILL = (DivisionKind.ARTILLERY, DivisionKind.FORTRESS, DivisionKind.ANTI_TANK)
Give = Callable[[str], object]


# --- a game played by a script ------------------------------------------------------------------


def _orders(g: Game, side: str) -> Iterator[str]:
    """The side's orders for its move, each worked out on the game as the previous one left it:
    an attack by the first unit beside an enemy, a strike by each battery in range, moves of the
    first four divisions two cells ahead (the trial script's, in the journal's notation)."""
    mine = lambda: sorted(  # noqa: E731
        (u for u in g.state.units.values() if g.state.side_of(u.ref) == side),
        key=lambda u: u.ref.number,
    )
    for u in mine():
        if u.division.kind in STILL or u.left <= 0:
            continue
        foes = [
            c for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy
            for c in [Cell(u.cell.lon + dx, u.cell.lat + dy)]
            if any(g.state.side_of(o.ref) not in (side, "green") for o in g.state.occupants(c))
        ]  # fmt: skip
        if foes:
            yield Attack(foes[0], ((u.ref,),)).format("ru")
            break
    for u in mine():
        if u.division.kind is not DivisionKind.ARTILLERY or u.ref not in g.state.units:
            continue
        foes = sorted(
            (o for o in g.state.units.values()
             if g.state.side_of(o.ref) not in (side, "green") and in_range(u.cell, o.cell, g.rules)),
            key=lambda o: (o.cell.km(u.cell), o.ref.number),
        )  # fmt: skip
        if foes:
            yield f"{u.ref} огонь по {foes[0].cell}"
    movers = [u for u in mine() if u.division.kind not in STILL][:4]
    for u in movers:
        if u.ref in g.state.units:
            u = g.state.unit(u.ref)
            dx, dy = u.facing.delta
            lon = min(g.state.width, max(1, u.cell.lon + 2 * dx))
            yield f"{u.ref} на {Cell(lon, min(g.state.height, max(1, u.cell.lat + 2 * dy)))}"


def _sides(g: Game) -> list[str]:
    if not g.simultaneous:
        return [g.side]
    return sorted({g.state.side_of(r) for r in g.state.units} - {"green"})


def _in(text: str, lang: Lang) -> str:
    """An order as a reader of `lang` types it: the English console is given English."""
    return parse_order(text).format(lang) if lang == "en" else text


def _names(g: Game) -> set[str]:
    """What the English texts name in Russian by design: the scenario's proper names."""
    ds = g.scenario.theatre
    out = {g.scenario.name, *(s.name for s in g.scenario.states)}
    out |= {name for name, _ in terrain.places(ds)}
    out |= {word for s in g.scenario.states for word in s.name.split()}
    return out


# --- what is read ------------------------------------------------------------------------------


def _report_texts(results: list[tuple[int, Result]], lang: Lang) -> list[str]:
    return [rr.report_html(r, lang, t) for t, r in results]


def _rule_ids_of_data() -> set[str]:
    every = load_ruleset(level=3)
    cited = [e.rule for e in every.entries.values()] + [f.rule for f in FORMS]
    return {m for c in cited for m in re.findall(r"\d+\.\d+", c)} | RULES_CITED


def _rule_ids(g: Game) -> set[str]:
    """Every rule id the game's rules and results cite (4.3, 9.8c): dotted numbers that are
    no decimals."""
    every = load_ruleset(level=3)
    cited = [e.rule for e in every.entries.values()] + [f.rule for f in FORMS]
    cited += [p.rule for e in every.entries.values() for p in e.params()]
    # the data's own Russian, where a dotted number is a rule (its decimals have commas)
    cited += [p.reconstructed_ru or "" for e in every.entries.values() for p in e.params()]
    cited += [p.note_ru or "" for e in every.entries.values() for p in e.params()]
    cited += [e.title.ru for e in every.entries.values()]
    for _, _, _, r in g.results:
        cited += [s.rule for s in r.explanation.walk()] + [c.rule for c in r.cuts]
    return {m for c in cited for m in re.findall(r"\d+\.\d+", c)} | RULES_CITED


# Rules the texts cite by number beyond those in the data and the results (errors, headings).
RULES_CITED = {"0.2", "0.3", "1.1", "1.5", "6.3", "1.6", "1.7", "1.9", "2.1", "2.2", "3.6", "4.9", "5.2", "6.4",
               "8.3", "9.3", "9.4"}  # fmt: skip


def _check(
    texts: list[str],
    lang: Lang,
    what: str,
    names: set[str] = frozenset(),
    rules: set[str] = RULES_CITED,
) -> None:
    found: dict[str, list[str]] = {}

    def note(kind: str, items: list[str], line: str) -> None:
        for x in items:
            found.setdefault(kind, []).append(f"{x!r} in: {line.strip()[:200]}")

    for text in texts:
        for line in plain(text).splitlines():
            if lang == "ru":
                note("Latin word", latin_words(line), line)
                note("noun not agreeing with its number", disagreements(line), line)
                note("undeclined direction", undeclined(line), line)
                note("decimal point", dot_decimals(line, rules), line)
            else:
                note("Cyrillic word", cyrillic_words(line, names), line)
    assert not found, f"{what} ({lang}):\n" + "\n".join(
        f"  {kind}: {x}" for kind, xs in found.items() for x in list(dict.fromkeys(xs))[:12]
    )


def _roundings(results: list[tuple[int, Result]], lang: Lang) -> list[str]:
    """Quantities one report prints with two roundings: a value of the battle (its record and
    its tree) found written with two different numbers of decimals."""
    out = []
    for t, r in results:
        if r.battle is None:
            continue
        text = rr.report_html(r, lang, t) + rr.markdown(battle_report(r.battle, lang, turn=t,
                                                                   explanation=r.explanation))  # fmt: skip
        shown = set(re.findall(r"(?<![\d,.])\d+(?:,\d+)?(?![\d,.]*\d)", text))
        values = {round(float(s.value), 6) for s in r.explanation.walk()
                  if isinstance(s.value, int | float) and not isinstance(s.value, bool)}  # fmt: skip
        for u in r.battle.units:
            values |= {round(x, 6) for x in (u.rating, u.effective, u.strength_before,
                                             u.strength_after, u.lost * u.effective)}  # fmt: skip
        for v in values:
            if v == round(v, 2):
                continue  # every rounding writes it alike
            ways = {num(v, lang), num(v, lang, decimals=3), fixed(v, lang), fixed(v, lang, 3)}
            written = {w for w in ways if w in shown}
            if len({float(w.replace(",", ".")) for w in written}) > 1:
                out.append(f"turn {t}, {r.order}: {v} written {sorted(written)}")
    return out


# --- the console -------------------------------------------------------------------------------


@pytest.mark.parametrize("level", [1, 2, 3])
@pytest.mark.parametrize("lang", ["ru", "en"])
def test_a_game_in_the_console_reads_right(tmp_path: Path, level: int, lang: Lang) -> None:
    g = Game.new(small_theatre(level), tmp_path / "c.game", level=level)
    c = Console(g, lang=lang, games=tmp_path)
    texts: list[str] = []
    if level == 3:
        whose = c.status.value
        assert (
            "приказы отдают все стороны" if lang == "ru" else "every side gives orders"
        ) in whose
        assert "ходят красные" not in whose and "Red</b> to move" not in whose
    while g.state.turn <= TURNS:
        for side in _sides(g):
            c.set_viewer("mediator")
            for text in _orders(g, side):
                c.submit(_in(text, lang))
                texts += [c.panels.orders.result.value, c.message.value]
            first = next(iter(u for u in g.state.units.values() if g.state.side_of(u.ref) == side))
            c.click(first.cell.lon, first.cell.lat, {"unit": str(first.ref)})
            c.hover(first.cell.lon, first.cell.lat, {"unit": str(first.ref), "part": "marks"})
            texts += [*_texts(c.widget), c.mapview.readout.value]
            if not g.simultaneous:
                c.end_turn()
        if g.simultaneous:  # level 3: every side's sealed orders carried out at once
            c.end_turn()
        texts += _texts(c.widget)
    c.submit(_in("21 т.д. поворот на луну", lang) if lang == "ru" else "21 TD turn to the moon")
    c.panels.mediator.do_intervene()
    texts += [*_texts(c.widget), c.message.value]
    fights = [(t, r) for _, t, _, r in g.results if r.battle is not None]
    texts += _report_texts(fights, lang)
    texts += [c.breakdown_html(r) for _, _, _, r in g.results]
    assert fights
    _check(texts, lang, f"the console at level {level}", _names(g), _rule_ids(g))
    assert not _roundings(fights, lang), _roundings(fights, lang)


def test_the_english_console_writes_english_notation(tmp_path: Path) -> None:
    c = Console(Game.new(DEFAULT, tmp_path / "e.game", level=2), lang="en", games=tmp_path)
    assert c.find_box.placeholder == "unit: 21 TD"
    assert c.panels.orders.free.placeholder == "17 RD to 45,25"
    assert c.panels.orders.order_text().endswith("? to ?") or "?" in c.panels.orders.order_text()
    assert "на" not in c.panels.orders.order_text().split()
    assert int(c.whole.layout.width.removesuffix("px")) >= 8 * len("Whole map") + 40


# --- the command line --------------------------------------------------------------------------


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err, argv
    return code, out + err


@pytest.mark.parametrize("level", [1, 2, 3])
@pytest.mark.parametrize("lang", ["ru", "en"])
def test_a_game_on_the_command_line_reads_right(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], level: int, lang: Lang
) -> None:
    path = str(tmp_path / "g.game")
    scenario = save_scenario(small_theatre(level), tmp_path / "s.toml")
    L = ("--lang", lang)
    texts = []
    code, out = _run(capsys, "game", "new", str(scenario), path, "--level", str(level), *L)
    assert code == 0
    texts.append(out)
    if level == 3:
        assert ("приказы отдают все стороны" if lang == "ru" else "every side gives orders") in out
    while (g := Game.open(path)).state.turn <= TURNS:
        for side in _sides(g):
            for text in list(_orders(Game.open(path), side)):
                code, out = _run(capsys, "game", "order", path, _in(text, lang), "--explain", *L)
                texts.append(out)
            if not g.simultaneous:
                texts.append(_run(capsys, "game", "end-turn", path, *L)[1])
        if g.simultaneous:
            texts.append(_run(capsys, "game", "end-turn", path, *L)[1])
    for argv in (
        ["show", path],
        ["show", path, "--side", "blue"],
        ["journal", path],
        ["journal", path, "--side", "red"],
        ["report", path],
        ["score", path],
        ["replay", path],
        ["ask", path, "--side", "blue", "где 21 т.д.?" if lang == "ru" else "where is 21 TD?"],
        [
            "ask",
            path,
            "--side",
            "blue",
            "где 21 т.д.?" if lang == "ru" else "where is 21 TD?",
            "--lie",
            "no",
        ],
        ["order", path, "21 т.д. поворот на луну" if lang == "ru" else "21 TD turn to the moon"],
        ["order", path, "21 т.д. на 99,99" if lang == "ru" else "21 TD to 99,99"],
        ["order", path, "999 с.д. на 3,3" if lang == "ru" else "999 RD to 3,3"],
        ["show", path, "--side", "purple"],
        ["show", path, "--turn", "999"],
        ["intervene", path, "дождь" if lang == "ru" else "rain", "--cell", "99,99"],
        ["undo", path],
    ):
        code, out = _run(capsys, "game", *argv, *L)
        texts.append(out)
    g = Game.open(path)
    if lang == "ru":
        assert any("ошибка:" in t for t in texts) and not any(" error: " in t for t in texts)
    _check(texts, lang, f"strategia game at level {level}", _names(g), _rule_ids(g))
    fights = [(t, r) for _, t, _, r in g.results if r.battle is not None]
    assert fights and not _roundings(fights, lang), _roundings(fights, lang)


# --- scenarios: the builder and the check --------------------------------------------------------


BROKEN = """
[scenario]
name = "Проба"
[map]
relief = \"\"\"
....~~
......
\"\"\"
[[state]]
code = "R"
name = "Красная"
side = "blu"
[routes]
roads = ["1,1 6,2"]
[forces.R]
deployment = \"\"\"
1 с.д. - 5,2
2 с.д. - 99,1
\"\"\"
"""


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_a_broken_scenario_is_told_in_the_readers_language(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], lang: Lang
) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text(BROKEN, encoding="utf-8")
    texts = []
    for text in (BROKEN, BROKEN.replace('side = "blu"', 'side = "blue"'), "[map\nx = 1"):
        bad.write_text(text, encoding="utf-8")
        code, out = _run(capsys, "scenario", "check", str(bad), "--lang", lang)
        assert code == 1 and out.strip(), out  # a check's findings
        texts.append(out)
    code, out = _run(capsys, "scenario", "check", str(tmp_path / "none.toml"), "--lang", lang)
    texts.append(out)
    p = BuilderPanel.blank(10, 6, lang)
    p.forces("R", "", "1 с.д. - 3,3")
    p.tool.value = "water"
    p.click(7, 5)
    p.forces("R", "", "2 с.д. - 7,5")
    p.tool.value = "road"
    p.click(6, 5)
    p.click(8, 5)
    p.forces("R", "нечто" if lang == "ru" else "junk", "")
    texts += [p.report.value, *p.validate(), *_texts(p.widget)]
    assert any("7,5" in t for t in texts)
    _check(texts, lang, "scenario problems", {"Проба", "Красная"}, _rule_ids_of_data())
