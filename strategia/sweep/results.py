"""A sweep's results as one xarray Dataset (saved and loaded by `strategia.sweep.files`).

Dimensions ``variant`` (the house-rules variants, by name), ``game``, ``turn`` (0 the start,
then each turn played: the position after it) and ``side``. Each game's course of the war
(`strategia.game.course`: strength, divisions, losses, reinforcements, cells, cities, score,
battles, strikes, at_war) for every variant and game; a game that ended before the last turn
holds its last position (its losses, reinforcements, battles and strikes 0 after). Beside them
what each game drew (`game_seed`; `posture`, `attack_turn` and `player_seed` by side), the
`winner` of each game (the contender with the highest score at the last turn, or ``draw``) and
each variant's `rules_digest`. The attributes: the scenario (name, file, digest), the level,
the games, the turns, the seed, the engine's version, the house rules and the variants' (their
files and texts, JSON), the players (JSON), the contenders and the two sides whose force ratio
is read.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import numpy as np
import xarray as xr

from strategia.game.course import SIDE_VARIABLES
from strategia.sweep.play import Played
from strategia.sweep.spec import DRAW, Sweep, SweepError, draws, winner_of

FORMAT = "strategia-sweep/1"
FLOWS = ("losses", "reinforcements", "battles", "strikes")  # in a turn: 0 after a game's end


def _aligned(ds: xr.Dataset, turns: int, sides: Sequence[str]) -> xr.Dataset:
    """A game's course on the sweep's turns and sides."""
    ds = ds.drop_attrs() if hasattr(ds, "drop_attrs") else ds.assign_attrs({})
    ds = ds.reindex(side=list(sides), fill_value=0)
    full = np.arange(turns + 1, dtype=np.int32)
    flows = ds[list(FLOWS)].reindex(turn=full, fill_value=0)
    states = ds.drop_vars(list(FLOWS)).reindex(turn=full, method="ffill")
    return xr.merge([states, flows])[[*SIDE_VARIABLES, "at_war"]]


def winners(ds: xr.Dataset, contenders: Sequence[str]) -> xr.DataArray:
    """Each game's winner: the contender with the highest score at the last turn, unique, or
    "draw" (a tie, or no contenders)."""
    last = ds["score"].isel(turn=-1).sel(side=list(contenders))
    out = np.full(last.shape[:-1], DRAW, dtype=object)
    values = last.values
    for idx in np.ndindex(out.shape):
        out[idx] = winner_of([float(x) for x in values[idx]], contenders)
    return xr.DataArray(out.astype(str), dims=last.dims[:-1], coords={
        d: last.coords[d] for d in last.dims[:-1]
    })  # fmt: skip


def assemble(sweep: Sweep, played: Sequence[Played], engine: str) -> xr.Dataset:
    """The sweep's Dataset from its games (every variant's every game, in any order)."""
    by = {(p.variant, p.game): p for p in played}
    missing = [
        (v, k) for v in range(len(sweep.variants)) for k in range(sweep.games) if (v, k) not in by
    ]
    if missing:
        raise SweepError(
            f"{len(missing)} game(s) missing from the results",
            ru=f"нет результатов игр: {len(missing)}",
        )
    sides = list(sweep.sides)
    rows = [
        xr.concat(
            [_aligned(by[(v, k)].course, sweep.turns, sides) for k in range(sweep.games)],
            dim="game",
        )
        for v in range(len(sweep.variants))
    ]
    ds = xr.concat(rows, dim="variant")
    ds = ds.assign_coords(
        variant=[v.name for v in sweep.variants], game=np.arange(sweep.games, dtype=np.int32)
    )
    drawn = [draws(sweep, k) for k in range(sweep.games)]
    ds["game_seed"] = ("game", np.array([d[0] for d in drawn], dtype=np.int64))
    ds["posture"] = (("game", "side"), np.array([[d[1][s]["posture"] for s in sides]
                                                  for d in drawn], dtype=str))  # fmt: skip
    ds["attack_turn"] = (("game", "side"), np.array(
        [[_turn(d[1][s]["posture"]) for s in sides] for d in drawn], dtype=np.int32
    ))  # fmt: skip
    ds["player_seed"] = (("game", "side"), np.array([[d[1][s]["seed"] for s in sides]
                                                      for d in drawn], dtype=np.int64))  # fmt: skip
    ds["rules_digest"] = ("variant", np.array([
        str(by[(v, 0)].course.attrs.get("rules_digest", "")) for v in range(len(sweep.variants))
    ], dtype=str))  # fmt: skip
    contenders = list(sweep.contenders)
    ds["winner"] = winners(ds, contenders)
    ds.attrs = _attrs(sweep, engine)
    return ds


def _turn(posture: str) -> int:
    return int(posture.partition("@")[2] or 0)


def _attrs(sweep: Sweep, engine: str) -> dict[str, Any]:
    contenders = list(sweep.contenders)
    return {
        "format": FORMAT,
        "scenario": sweep.scenario_name,
        "scenario_file": sweep.scenario_file,
        "scenario_digest": sweep.digest,
        "level": sweep.level,
        "games": sweep.games,
        "turns": sweep.turns,
        "seed": sweep.seed,
        "engine": engine,
        "house": json.dumps([{"file": f, "text": t} for f, t in sweep.house], ensure_ascii=False),
        "variants": json.dumps(
            [
                {"name": v.name, "house": [{"file": f, "text": t} for f, t in v.house]}
                for v in sweep.variants
            ],
            ensure_ascii=False,
        ),
        "players": json.dumps(
            [{"side": s.side, "style": s.style, "posture": s.posture} for s in sweep.seats]
        ),
        "contenders": ",".join(contenders),
        "ratio_sides": ",".join(contenders[:2]),
    }


__all__ = ["FORMAT", "assemble", "winners"]
