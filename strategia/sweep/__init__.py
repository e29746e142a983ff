"""Balance sweeps (issue 27): a scenario played many times by the computer on every side, on
Dask distributed, the results as an xarray Dataset saved as NetCDF or Zarr, summarised and
drawn.

    from strategia.sweep import read_sweep, dask_client, run, summary
    sweep = read_sweep("maps/continental.toml", games=20, turns=10)
    with dask_client(workers=2) as client:
        ds = run(sweep, client).results
    print(summary(ds).text("en"))

`spec` reads and checks what a sweep plays (the variants, the players, the seeds); `play` plays
one game (the task); `run` sends the games to Dask; `results` assembles the Dataset; `files`
saves and loads it (NetCDF, or Zarr for large sweeps); `summary` the win rates, force ratios,
first battles and variants' differences, with their intervals; `plot` the picture.
"""

from strategia.sweep.files import load, save
from strategia.sweep.results import assemble
from strategia.sweep.run import Ran, dask_client, run
from strategia.sweep.spec import GameTask, Sweep, SweepError, read_sweep, tasks

__all__ = [
    "GameTask",
    "Ran",
    "Sweep",
    "SweepError",
    "assemble",
    "dask_client",
    "load",
    "read_sweep",
    "run",
    "save",
    "tasks",
]
