"""Fuzzing what players and mediators type (issue 17): notation, orders at each level, questions,
scenario files and house-rules files. Every input is accepted (and then playable) or refused
with the project's own error (the StrategiaError family), each in bounded time."""

from __future__ import annotations

import contextlib
import json
import math
import os
import random
import re
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

import pytest
from game_script import script_turn
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from language_checks import latin_words

from strategia.core.errors import StrategiaError
from strategia.core.geometry import Direction
from strategia.game.game import Game
from strategia.game.questions import parse_question
from strategia.game.views import view_for
from strategia.notation import FORMS, parse_order
from strategia.notation.refs import Placement, UnitRef, parse_cell
from strategia.notation.say import say
from strategia.rules import load_ruleset
from strategia.rules.load import apply_house_text
from strategia.theatre.scenario_io import parse_scenario

ROOT = Path(__file__).parents[1]
DEFAULT = ROOT / "maps" / "continental.toml"
SMALL = re.findall(r"```toml\n(.*?)```", (ROOT / "maps" / "README.md").read_text("utf-8"), re.S)[0]
SECONDS = 2.0  # of CPU time per input (typical: milliseconds); CPU time, the machine is shared
SCALE = int(os.environ.get("STRATEGIA_FUZZ", "1"))  # the long run: STRATEGIA_FUZZ=20
FUZZ = settings(
    max_examples=40 * SCALE,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

WORDS = sorted(
    {w for f in FORMS for t in (f.ru, f.en, *f.also) for w in re.split(r"[\s{}\[\]|]+", t) if w}
    | {"17", "с.д.", "т.д.", "45,25", "45-25", ",", ";", "//", ":", "(", ")", "?", "0", "-1"}
    | {"999999", "1e9", "север", "north", "т.п.", "полк", "где", "есть", "ли", "войска", "в"}
)
noise = st.text(
    st.characters(blacklist_categories=("Cs",)) | st.sampled_from("\u0000\ud7ff\ufeff\u200b"),
    max_size=30,
)
texts = st.one_of(
    st.lists(st.sampled_from(WORDS) | noise, max_size=60).map(" ".join),
    st.builds(lambda w, n: " ".join([w] * n), st.sampled_from(WORDS), st.integers(0, 3000)),
)


def _timed(f: Any, *args: Any) -> None:
    start = time.process_time()
    try:
        f(*args)
    except StrategiaError as e:
        _told_in_both(e, *(a for a in args if isinstance(a, str)))
    assert time.process_time() - start < SECONDS


def _told_in_both(e: StrategiaError, *typed: str) -> None:
    """A refusal is told in both languages: its Russian has no English word beyond what was
    typed (quoted back as typed), notation, keys and paths (tests/language_checks.py)."""
    ru, en = say(e, "ru"), say(e, "en")
    assert ru and en
    pieces = {x for t in typed for x in (t, t[:60] + "…", *t.split("\n")) if x.strip()}
    if any("«" in t or "»" in t for t in typed):  # quotes typed inside what is quoted back
        ru = re.sub(r"«.*»", " ", ru)
    for piece in sorted(pieces, key=len, reverse=True):
        ru = ru.replace(piece, " ").replace(repr(piece), " ")
    ru = re.sub(r"\\(?:x[0-9a-f]{2}|u[0-9a-f]{4}|U[0-9a-f]{8})", " ", ru)  # unprintable, escaped
    assert not latin_words(ru), (ru, latin_words(ru))


# --- notation -----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def game2(tmp_path_factory: pytest.TempPathFactory) -> Game:
    return Game.new(DEFAULT, tmp_path_factory.mktemp("fuzz") / "g2.game", level=2, seed=1)


@FUZZ
@given(texts)
def test_notation_is_read_or_refused_quickly(game2: Game, text: str) -> None:
    for f in (parse_order, parse_question, UnitRef.parse, parse_cell, Placement.parse):
        _timed(f, text)
        _timed(f, text, game2.state)


# --- orders at each level -----------------------------------------------------------------------


def _fill(rnd: random.Random, template: str, g: Game, side: str) -> str:
    """A template's slots filled with this game's units and cells nearby, or something else."""
    mine = sorted(str(u.ref) for u in g.state.units.values() if g.state.side_of(u.ref) == side)
    theirs = sorted(str(r) for r in g.state.units if g.state.side_of(r) != side)
    corps = sorted({str(u.corps) for u in g.state.units.values() if u.corps} or {"1 т.к."})

    def unit() -> str:
        return rnd.choice((mine or theirs) if rnd.random() < 0.8 else (theirs or mine))

    at = g.state.unit(UnitRef.parse(unit())).cell

    def cell() -> str:
        if rnd.random() < 0.1:
            return rnd.choice(["0,0", "999,999", "1,1", "64,44"])
        return f"{at.lon + rnd.randint(-4, 4)},{at.lat + rnd.randint(-4, 4)}"

    def some(f: Any, lo: int, hi: int, sep: str) -> str:
        return sep.join(f() for _ in range(rnd.randint(lo, hi)))

    kinds = {
        "cell": cell,
        "cells": lambda: some(cell, 1, 3, " "),
        "direction": lambda: rnd.choice([d.ru for d in Direction] + ["вверх"]),
        "units": lambda: some(unit, 1, 2, ", "),
        "echelons": lambda: some(lambda: some(unit, 1, 2, ", "), 1, 2, "; "),
        "Defence": lambda: "оборона: " + some(unit, 1, 2, ", "),
        "divisions": lambda: some(unit, 2, 3, ", "),
        "corps": lambda: rnd.choice(corps),
        "new_corps": lambda: f"{rnd.randint(1, 99)} т.к.",
        "regiment": lambda: rnd.choice(["1 т.п.", "2 с.п.", "3 мот.п.", "9 ап"]),
        "flag": lambda: rnd.choice(["", "(подтверждено)"]),
        "formation": lambda: rnd.choice(["опорное", "линейное", "клином"]),
        "statute_echelons": lambda: some(
            lambda: some(lambda: rnd.choice([unit(), unit(), "остальные"]), 1, 2, ", "), 1, 3, "; "
        ),
        "km": lambda: rnd.choice(["5", "10", "0", "500"]),
    }

    def slot(m: re.Match[str]) -> str:
        kind = (m.group(2) or "").split("=")[0]
        return str(kinds.get(kind, unit)())

    text = re.sub(r"\[([^\]]*)\]", lambda m: m.group(1) if rnd.random() < 0.5 else "", template)
    text = re.sub(r"\{([\w+]+)(?::([^}]+))?\}", slot, text.replace("в|во", "в"))
    if rnd.random() < 0.1:
        text += " " + rnd.choice(WORDS)
    return text


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> dict[int, Path]:
    """A new game at each level, to be copied."""
    tmp = tmp_path_factory.mktemp("levels")
    for level in (1, 2, 3):
        Game.new(DEFAULT, tmp / f"level{level}.game", level=level, seed=1).journal.close()
    return {level: tmp / f"level{level}.game" for level in (1, 2, 3)}


@settings(FUZZ, max_examples=15 * SCALE)
@given(st.randoms(use_true_random=False), st.sampled_from([1, 2, 3]))
def test_orders_at_each_level_are_carried_out_or_refused(
    games: dict[int, Path], tmp_path: Path, rnd: random.Random, level: int
) -> None:
    path = tmp_path / f"{time.monotonic_ns()}.game"
    shutil.copyfile(games[level], path)
    g = Game.open(path)
    for _ in range(12):
        side = g.side if not g.simultaneous else rnd.choice(["red", "blue", "green", "black"])
        form = rnd.choice(FORMS)
        text = _fill(rnd, rnd.choice([form.ru, form.en]), g, side)
        start = time.process_time()
        try:
            g.order(text, side)
        except StrategiaError as e:
            _told_in_both(e, text)
        if rnd.random() < 0.15:
            g.end_turn()  # level 3: every queued order is carried out, whatever it was
        assert time.process_time() - start < SECONDS * 5
    g.end_turn()
    assert Game.open(path, verify=True).replay_problems == []


# --- scenario files -----------------------------------------------------------------------------

VALUES = st.one_of(
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
    st.booleans(),
    st.lists(st.integers(0, 9), max_size=3),
    st.just({}),
)


def _toml(v: Any) -> str:
    """A value as TOML writes it."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float) and not math.isfinite(v):
        return "nan" if v != v else "inf" if v > 0 else "-inf"
    if isinstance(v, str | list):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, dict):
        return "{}"
    return repr(v)


@st.composite
def scenario_texts(draw: Any) -> str:
    """The README's scenario with a few changes: mostly a digit or a map letter (often still a
    good scenario), sometimes a value of another type, a line gone, doubled or replaced, or a
    table header."""
    lines = SMALL.split("\n")
    for _ in range(draw(st.integers(1, 4))):
        k = draw(st.integers(0, len(lines) - 1))
        how = draw(st.sampled_from(["digit", "digit", "digit", "letter", "value", "drop", "copy",
                                    "header", "line"]))  # fmt: skip
        line = lines[k]
        spots = [i for i, ch in enumerate(line) if ch.isdigit() or ch in ".^fsh~"]
        if how in ("digit", "letter") and spots:
            i = draw(st.sampled_from(spots))
            new = draw(st.sampled_from("0123456789" if how == "digit" else ".^fsh~BR"))
            lines[k] = line[:i] + new + line[i + 1 :]
        elif how == "value" and "=" in line and not line.rstrip().endswith('"""'):
            lines[k] = line.split("=", 1)[0] + "= " + _toml(draw(VALUES))
        elif how == "drop":
            del lines[k]
        elif how == "copy":
            lines.insert(k, line)
        elif how == "header":
            lines.insert(k, draw(st.sampled_from(["[forces]", "[forces.X]", "[[state]]", "[map]",
                                                  "[settings]", "[routes]", "[misc]"])))  # fmt: skip
        elif how == "line":
            lines[k] = draw(st.sampled_from(WORDS)) + " " + draw(st.sampled_from(WORDS))
    return "\n".join(lines)


@FUZZ
@given(scenario_texts())
def test_scenario_files_are_playable_or_refused(tmp_path: Path, text: str) -> None:
    start = time.process_time()
    try:
        sc = parse_scenario(text, "fuzz.toml")
    except StrategiaError as e:
        assert "fuzz.toml" in str(e)
        _told_in_both(e, text)
        event("refused")
        return
    finally:
        assert time.process_time() - start < SECONDS
    try:
        g = Game.new(sc, tmp_path / f"{time.monotonic_ns()}.game", seed=1)
    except StrategiaError:
        event("refused by the game")
        return  # refused when the game is made (a ruleset's check of the forces...)
    event("accepted")
    _play(g, 4)


# --- house-rules files --------------------------------------------------------------------------

RULES = load_ruleset("continental", level=3)
PARAMS = list(RULES.params())


def _in_range(draw: Any, p: Any) -> Any:
    """A value for a parameter: mostly one its range allows (its ends often), else anything."""
    if isinstance(p.value, bool) or not isinstance(p.value, int | float):
        same = st.just(p.value)
        return draw(st.one_of(same, same, same, same, VALUES))
    lo = p.minimum if p.minimum is not None else -1e6
    hi = p.maximum if p.maximum is not None else 1e6
    within = st.sampled_from([lo, hi, max(lo, 0), min(max(lo, 1), hi)]) | st.floats(lo, hi)
    value = draw(st.one_of(*[within] * 9, VALUES))
    if isinstance(p.value, int) and isinstance(value, float) and value.is_integer():
        value = int(value)
    return value


@st.composite
def house_texts(draw: Any) -> str:
    tables: dict[str, dict[str, str]] = {}
    for p in draw(st.lists(st.sampled_from(PARAMS), min_size=1, max_size=3)):
        e = RULES.entries[p.entry]
        head = f"[{p.entry}]" if e.shape == "params" else f"[{p.entry}.{p.row}]"
        key = p.row if e.shape == "params" else p.column
        tables.setdefault(head, {})[key] = _toml(_in_range(draw, p))
    out = [h + "".join(f"\n{k} = {v}" for k, v in kv.items()) for h, kv in tables.items()]
    if draw(st.integers(0, 7)) == 0:
        out.insert(0, draw(st.sampled_from(['[ruleset]\nname = "continental"', "ruleset = 5",
                                            '[ruleset]\nname = "x"', "[nope]\nx = 1"])))  # fmt: skip
    return "\n".join(out) + "\n"


@settings(FUZZ, max_examples=40 * SCALE)
@given(house_texts(), st.sampled_from([1, 2, 3]))
def test_house_rules_files_are_playable_or_refused(text: str, level: int) -> None:
    try:
        apply_house_text(RULES, text, "fuzz.toml")
    except StrategiaError as e:
        assert "fuzz.toml" in str(e)
        _told_in_both(e, text)
        event("refused")
        return
    event("accepted")
    with tempfile.TemporaryDirectory() as tmp:
        house = Path(tmp) / "house.toml"
        house.write_text(text, encoding="utf-8")
        sc = parse_scenario(SMALL, "README.md")
        g = Game.new(sc, Path(tmp) / "g.game", level=level, house=[str(house)], seed=1)
        _play(g)


def _play(g: Game, turns: int = 8) -> None:
    """A few turns of the script, what each side sees, and a question of each."""
    for _ in range(turns):
        script_turn(g)
    for side in ("red", "blue"):
        view_for(g.state, side, g.rules, [a for a in g.answers if a["side"] == side])
        for q in ("где 5 т.д.?", "есть ли войска в 5,3?", "сколько дивизий в 8,4?"):
            with contextlib.suppress(StrategiaError):
                g.ask(side, q)
    g.journal.close()
