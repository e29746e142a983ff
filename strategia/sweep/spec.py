"""What a sweep plays: the scenario, its house-rules variants, the players, the games' seeds.

A sweep is read and checked whole before anything runs (`read_sweep`): the scenario, every
house-rules file applied to the rules, the players' sides, styles and postures. Each error names
the input and what is wrong, in English and Russian (`SweepError`).

*Variants.* ``--house FILE`` (repeatable) are house rules every game is played under (stacked,
as for ``game new``). ``--variant NAME=FILE[,FILE...]`` (repeatable) adds a variant: the same
games (the same seeds) played again under those house rules too; the first variant is the one
the others are compared with (``--variant base=`` is the scenario with the ``--house`` rules
only). Without ``--variant`` a sweep has one variant, ``base``.

*What varies between games.* The game has no dice (9.8's outcomes follow from the ratios), and
the computer player breaks only near-ties with its seed: the computer against itself plays the
same game from the same settings. So each game draws what a real opponent would vary: the turn
each side goes to war, from its posture's range (``attack@1-5``: a turn from 1 to 5, drawn for
each game and side), and the game's and the players' seeds. A side's settings are
``SIDE=STYLE[:POSTURE]`` (``red=bold:attack@2-4``, ``green=balanced:wait``); by default every
side plays ``balanced``, a neutral (green) waits to be attacked, the others ``attack@1-5``.
Game ``k``'s draws come from ``numpy.random.SeedSequence([seed, k])``: the same seed gives the
same games whatever runs them.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from strategia.core.errors import StrategiaError, os_error_ru
from strategia.core.errors import say as said
from strategia.game.history import game_rules
from strategia.players import Posture, load_styles
from strategia.rules.kinds import Side
from strategia.rules.load import apply_house_text
from strategia.theatre.scenario import Scenario
from strategia.theatre.scenario_io import format_scenario, load_scenario

DEFAULT_POSTURE = "attack@1-5"
DRAW = "draw"  # a game's outcome when no contender leads on points
NEUTRAL = {"green": "wait"}  # a neutral waits to be attacked, as the console's default
_RANGE = re.compile(r"attack@(\d+)(?:-(\d+))?")


class SweepError(StrategiaError):
    """A sweep that cannot be run as asked: the input named and what is wrong (nothing run,
    nothing written)."""


@dataclass(frozen=True)
class Variant:
    """A house-rules variant: its name and its files, as (file, text), over the sweep's own."""

    name: str
    house: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Seat:
    """A side's computer player in a sweep: its style and the range of turns it may go to war
    in (none: it waits to be attacked)."""

    side: str
    style: str
    attack: tuple[int, int] | None  # the first and last turn drawn from; None: "wait"

    @property
    def posture(self) -> str:
        """The posture as written (`attack@1-5`, `attack@3`, `wait`)."""
        if self.attack is None:
            return "wait"
        lo, hi = self.attack
        return f"attack@{lo}" if lo == hi else f"attack@{lo}-{hi}"


@dataclass(frozen=True)
class Sweep:
    """A sweep: `games` games of `turns` turns of the scenario (its text), for each variant,
    every side played by the computer (`seats`), at `level`, the draws from `seed`."""

    scenario_file: str
    scenario_text: str
    scenario_name: str
    level: int
    games: int
    turns: int
    seed: int
    house: tuple[tuple[str, str], ...]  # every game's house rules (file, text)
    variants: tuple[Variant, ...]
    seats: tuple[Seat, ...]

    @property
    def digest(self) -> str:
        """The scenario's digest (SHA-256 of its text as a game keeps it, 16 hex digits)."""
        return hashlib.sha256(self.scenario_text.encode("utf-8")).hexdigest()[:16]

    @property
    def sides(self) -> tuple[str, ...]:
        return tuple(s.side for s in self.seats)

    @property
    def contenders(self) -> tuple[str, ...]:
        """The sides that go to war (a waiting side may fight but does not contend)."""
        return tuple(s.side for s in self.seats if s.attack is not None)


@dataclass(frozen=True)
class GameTask:
    """One game of a sweep, all a worker needs to play it: the scenario's text, the house rules'
    texts, the level, the turns, the game's seed and each side's computer settings."""

    variant: int
    game: int
    scenario_text: str
    house: tuple[tuple[str, str], ...]
    level: int
    turns: int
    seed: int
    computer: tuple[tuple[str, tuple[tuple[str, Any], ...]], ...]  # side -> settings
    keep: bool = False
    contenders: tuple[str, ...] = ()  # whose score decides the game (`winner_of`)
    keep_only: tuple[str, ...] = ()  # kept only with one of these outcomes; () every game

    def settings(self) -> dict[str, dict[str, Any]]:
        """The computer's sides as `Game.new` takes them."""
        return {side: dict(s) for side, s in self.computer}


def draws(sweep: Sweep, game: int) -> tuple[int, dict[str, dict[str, Any]]]:
    """Game `game`'s seed and each side's computer settings (style, posture, seed), drawn from
    the sweep's seed (see the module)."""
    rng = np.random.default_rng(np.random.SeedSequence([sweep.seed, game]))
    seed = int(rng.integers(2**62))
    out: dict[str, dict[str, Any]] = {}
    for seat in sweep.seats:
        player_seed = int(rng.integers(2**31))
        posture = "wait"
        if seat.attack is not None:
            posture = f"attack@{int(rng.integers(seat.attack[0], seat.attack[1] + 1))}"
        out[seat.side] = {"style": seat.style, "posture": posture, "seed": player_seed}
    return seed, out


def winner_of(scores: Sequence[float], contenders: Sequence[str]) -> str:
    """A game's outcome from its contenders' scores at the last turn (in `contenders`' order):
    the contender with the highest score, unique, or "draw" (a tie, or no contenders)."""
    if not len(scores):
        return DRAW
    top = max(scores)
    best = [side for side, score in zip(contenders, scores, strict=True) if score == top]
    return best[0] if len(best) == 1 else DRAW


def tasks(sweep: Sweep, keep: bool = False, keep_only: Sequence[str] = ()) -> list[GameTask]:
    """Every game of the sweep, variant by variant (the same draws in each); with `keep`, the
    games' files are sent back (only those whose outcome is in `keep_only`, if any given)."""
    drawn = [draws(sweep, k) for k in range(sweep.games)]
    out = []
    for v, variant in enumerate(sweep.variants):
        for k, (seed, computer) in enumerate(drawn):
            frozen = tuple((side, tuple(sorted(s.items()))) for side, s in computer.items())
            out.append(
                GameTask(v, k, sweep.scenario_text, sweep.house + variant.house, sweep.level,
                         sweep.turns, seed, frozen, keep, sweep.contenders, tuple(keep_only))
            )  # fmt: skip
    return out


# --- reading and checking ------------------------------------------------------------------


def read_sweep(
    scenario: str | Path,
    games: int,
    turns: int,
    *,
    house: list[str] | None = None,
    variants: list[str] | None = None,
    players: str | None = None,
    level: int | None = None,
    seed: int = 1,
) -> Sweep:
    """The sweep asked for, every input checked (a `SweepError` names the first bad one)."""
    if games < 1:
        raise SweepError(
            f"--games {games}: at least one game", ru=f"--games {games}: нужна хотя бы одна игра"
        )
    if turns < 1:
        raise SweepError(
            f"--turns {turns}: at least one turn", ru=f"--turns {turns}: нужен хотя бы один ход"
        )
    sc = _scenario(Path(scenario))
    level = level or sc.settings.level
    if level not in (1, 2, 3):
        raise SweepError(
            f"--level {level}: expected 1, 2 or 3 (rule 0.2)",
            ru=f"--level {level}: нужен 1, 2 или 3 (правило 0.2)",
        )
    common = tuple(_house_file(Path(h), "--house") for h in house or [])
    chosen = tuple(_variant(v) for v in variants or []) or (Variant("base"),)
    names = [v.name for v in chosen]
    if len(set(names)) < len(names):
        raise SweepError(
            f"--variant: the names {', '.join(names)} are not all different",
            ru=f"--variant: названия {', '.join(names)} повторяются",
        )
    rules = game_rules(sc, level, [], str(scenario))
    for variant in chosen:
        checked = rules
        for name, text in common + variant.house:
            try:
                checked = apply_house_text(checked, text, name)
            except StrategiaError as e:
                raise SweepError(
                    f"{name}: not house rules this game can play: {said(e, 'en')}",
                    ru=f"{name}: эти домашние правила нельзя применить: {said(e, 'ru')}",
                ) from None
    return Sweep(
        str(scenario), format_scenario(sc), sc.name, level, games, turns, seed, common, chosen,
        _seats(sc, players),
    )  # fmt: skip


def read_outcomes(text: str, sweep: Sweep) -> tuple[str, ...]:
    """The outcomes `--keep-only` names (``red,draw``: a contender that won, or ``draw``;
    Russian names too), as the results and the summary name them (`winner_of`)."""
    valid = [*sweep.contenders, DRAW]
    out: list[str] = []
    for part in [p.strip() for p in text.split(",")]:
        side = Side.find(part) if part else None
        key = DRAW if part.casefold() in ("draw", "ничья") else side.key if side else None
        if key not in valid:
            raise SweepError(
                f"--keep-only {text}: {part!r} is not an outcome of this sweep (one of "
                f"{', '.join(valid)})",
                ru=f"--keep-only {text}: {part!r} — не исход этого прогона (можно: "
                f"{', '.join(valid)}; или «ничья»)",
            )
        if key not in out:
            out.append(str(key))
    return tuple(out)


def _scenario(path: Path) -> Scenario:
    if not path.is_file():
        raise SweepError(f"{path}: no such scenario file", ru=f"{path}: нет такого файла сценария")
    try:
        return load_scenario(path)
    except StrategiaError as e:
        raise SweepError(
            f"{path}: not a scenario that can be played: {said(e, 'en')}",
            ru=f"{path}: этот сценарий нельзя сыграть: {said(e, 'ru')}",
        ) from None


def _house_file(path: Path, option: str) -> tuple[str, str]:
    """A house-rules file's name and text; a SweepError if it cannot be read."""
    try:
        return str(path), path.read_text(encoding="utf-8")
    except OSError as e:
        raise SweepError(
            f"{option} {path}: the house-rules file cannot be read ({e.strerror or e})",
            ru=f"{option} {path}: файл домашних правил не читается ({os_error_ru(e)})",
        ) from None
    except UnicodeDecodeError:
        raise SweepError(
            f"{option} {path}: the house-rules file is not UTF-8 text",
            ru=f"{option} {path}: файл домашних правил — не текст UTF-8",
        ) from None


def _variant(spec: str) -> Variant:
    name, eq, files = spec.partition("=")
    name = name.strip()
    if not eq or not re.fullmatch(r"[\w.-]+", name):
        raise SweepError(
            f"--variant {spec}: expected NAME=FILE[,FILE...] (NAME= for none), NAME letters, "
            "digits, '.', '-' or '_'",
            ru=f"--variant {spec}: нужно ИМЯ=ФАЙЛ[,ФАЙЛ...] (ИМЯ= без файлов), в ИМЕНИ буквы, "
            "цифры, «.», «-» или «_»",
        )
    paths = [f.strip() for f in files.split(",") if f.strip()]
    return Variant(name, tuple(_house_file(Path(p), f"--variant {name}") for p in paths))


def _seats(sc: Scenario, players: str | None) -> tuple[Seat, ...]:
    """Every side of the scenario with its player, `players`' settings over the defaults."""
    there = {s.side for s in sc.states}
    present = [s.key for s in Side if s.key in there]  # red, blue, green, black
    given: dict[str, tuple[str, str | None]] = {}
    styles = load_styles()
    for part in [p.strip() for p in (players or "").split(",") if p.strip()]:
        side_text, eq, rest = part.partition("=")
        side = Side.find(side_text.strip())
        if side is None or side.key not in present or not eq:
            raise SweepError(
                f"--players {part}: expected SIDE=STYLE[:POSTURE], SIDE one of "
                f"{', '.join(present)}",
                ru=f"--players {part}: нужно СТОРОНА=СТИЛЬ[:ЗАМЫСЕЛ], СТОРОНА — одна из "
                f"{', '.join(present)}",
            )
        style, _, posture = rest.strip().partition(":")
        if style not in styles:
            raise SweepError(
                f"--players {part}: no style {style!r} (one of {', '.join(styles)})",
                ru=f"--players {part}: нет стиля {style!r} (можно: {', '.join(styles)})",
            )
        given[side.key] = (style, posture or None)
    out = []
    for key in present:
        chosen, wanted = given.get(key, ("balanced", None))
        out.append(Seat(key, chosen, _attack(key, wanted or NEUTRAL.get(key, DEFAULT_POSTURE))))
    if sum(s.attack is not None for s in out) < 2:
        listed = ", ".join(f"{s.side} {s.posture}" for s in out)
        raise SweepError(
            f"{sc.name}: a sweep needs two sides that go to war; this scenario's sides and "
            f"postures: {listed or 'none'}",
            ru=f"{sc.name}: для прогона нужны две стороны, которые вступают в войну; стороны "
            f"этого сценария и их замыслы: {listed or 'нет'}",
        )
    return tuple(out)


def _attack(side: str, posture: str) -> tuple[int, int] | None:
    """The range of turns of `attack@N` or `attack@N-M`; None for `wait`."""
    if posture == "wait":
        return None
    m = _RANGE.fullmatch(posture)
    lo, hi = (int(m.group(1)), int(m.group(2) or m.group(1))) if m else (0, 0)
    if m is None or not 1 <= lo <= hi:
        raise SweepError(
            f"--players {side}: posture {posture!r}: expected wait, attack@N or attack@N-M "
            "(turns from 1, N ≤ M)",
            ru=f"--players {side}: замысел {posture!r}: нужно wait, attack@N или attack@N-M "
            "(ходы с 1, N ≤ M)",
        )
    Posture.parse(f"attack@{lo}")
    return lo, hi


__all__ = [
    "DEFAULT_POSTURE",
    "DRAW",
    "GameTask",
    "Seat",
    "Sweep",
    "SweepError",
    "Variant",
    "draws",
    "read_outcomes",
    "read_sweep",
    "tasks",
    "winner_of",
]
