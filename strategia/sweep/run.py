"""Running a sweep on Dask distributed: each game one task (`strategia.sweep.play.play_task`).

By default on a `LocalCluster` of worker processes on this machine (one thread each: a game is
pure Python), or on an existing cluster at a scheduler's address (``tcp://host:8786``): the same
code serves both. Dask reruns the games of a worker that is lost on the others, so a sweep's
Dataset is complete whatever happens to its workers, and the same as a run without losses: a
game depends on its task only.

`run` plays the games and returns the results (`strategia.sweep.results.assemble`) and, when
asked, the games' files (every game's, or those with the given outcomes: a worker sends back
only those); `keep_games` writes them as ordinary game files.
"""

from __future__ import annotations

import logging
import os
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import xarray as xr

from strategia.core.errors import os_error_ru
from strategia.core.errors import say as said
from strategia.game import count
from strategia.game.store import GameStore
from strategia.sweep.play import Played, play_task
from strategia.sweep.results import assemble
from strategia.sweep.spec import Sweep, SweepError, tasks

if TYPE_CHECKING:  # Dask is the [sweep] extra's: imported when a sweep runs, not before
    from distributed import Client

CONNECT_SECONDS = 5.0
# A local cluster's Dask settings: one thread a worker plays a pure-Python game; Dask's
# statistical profiler samples that thread every 10 ms, and its bookkeeping wakes the event
# loops (the scheduler's and the nannies' in this process, each worker's beside its game) every
# 20 ms (the tick), 100 ms (the memory monitor) and 500 ms (the system monitor): measured idle,
# 7 % of a core on two workers, 1.5 % with these (`benchmarks/sweep.py` reports what a sweep's
# bookkeeping costs). A worker's memory is still watched every second.
QUIET = {
    "distributed.worker.profile.enabled": False,
    "distributed.admin.tick.interval": "500ms",
    "distributed.worker.memory.monitor-interval": "1s",
    "distributed.admin.system-monitor.interval": "2s",
}
Progress = Callable[[int, int], None]  # (games done, games in all)


@dataclass(frozen=True)
class Ran:
    """A sweep run: its results, the games' files if kept (by name), and where Dask's
    dashboard was."""

    results: xr.Dataset
    games: tuple[tuple[str, bytes], ...]
    dashboard: str


@contextmanager
def dask_client(
    scheduler: str | None = None,
    workers: int = 2,
    dashboard: str | None = ":0",
    timeout: float = CONNECT_SECONDS,
) -> Iterator[Client]:
    """A client of the scheduler at `scheduler`, or of a new local cluster of `workers`
    processes (its dashboard at `dashboard`, ":0" any free port, None none; one thread each,
    Dask's profiler off and its bookkeeping less often: `QUIET`); closed after. An address
    that does not answer in `timeout` seconds is a SweepError naming it."""
    import dask
    from distributed import Client, LocalCluster

    if scheduler is not None:
        try:
            client = Client(scheduler, timeout=f"{timeout}s")
        except (OSError, TimeoutError, ValueError) as e:
            raise SweepError(
                f"--scheduler {scheduler}: no Dask scheduler answered there in {timeout:g} s "
                f"({type(e).__name__}); nothing was run",
                ru=f"--scheduler {scheduler}: планировщик Dask там не ответил за {timeout:g} с "
                f"({type(e).__name__}); ничего не запущено",
            ) from None
        try:
            yield client
        finally:
            client.close()
        return
    if workers < 1:
        raise SweepError(
            f"--workers {workers}: at least one", ru=f"--workers {workers}: нужен хотя бы один"
        )
    with dask.config.set(QUIET):
        # without a dashboard the scheduler still serves /health: on any free port, not 8787
        quiet = {"dashboard": False, "dashboard_address": ":0"} if dashboard is None else {}
        cluster = LocalCluster(
            n_workers=workers, threads_per_worker=1, processes=True,
            dashboard_address=dashboard, silence_logs=logging.ERROR, scheduler_kwargs=quiet,
        )  # fmt: skip
    try:
        client = Client(cluster)
        try:
            yield client
        finally:
            client.close()
    finally:
        cluster.close()


def run(
    sweep: Sweep,
    client: Client,
    keep: bool = False,
    progress: Progress | None = None,
    keep_only: Sequence[str] = (),
) -> Ran:
    """Play every game of `sweep` on `client`'s cluster; the results (and the games' files if
    `keep`: every game's, or only those whose outcome is one of `keep_only`, as
    `strategia.sweep.spec.read_outcomes` reads them; the others' files are not sent back). A
    game that fails is a SweepError naming it (the others are cancelled)."""
    from distributed import as_completed

    from strategia import __version__

    todo = tasks(sweep, keep, keep_only)
    run_id = uuid.uuid4().hex[:8]
    futures = [
        client.submit(play_task, t, key=f"strategia-game-{run_id}-{t.variant}-{t.game}",
                      pure=False)
        for t in todo
    ]  # fmt: skip
    played: list[Played] = []
    if progress:
        progress(0, len(todo))
    try:
        for f in as_completed(futures):
            try:
                played.append(f.result())
            except Exception as e:
                t = todo[futures.index(f)]
                v = sweep.variants[t.variant].name
                raise SweepError(
                    f"game {t.game} of variant {v} (seed {t.seed}) failed: {said(e, 'en')}",
                    ru=f"игра {t.game} варианта {v} (зерно {t.seed}) не сыграна: {said(e, 'ru')}",
                ) from e
            if progress:
                progress(len(played), len(todo))
    finally:
        client.cancel([f for f in futures if not f.done()])
    results = assemble(sweep, played, __version__)
    games = tuple(
        (game_name(sweep, p.variant, p.game), p.file)
        for p in sorted(played, key=lambda p: (p.variant, p.game))
        if p.file is not None
    )
    return Ran(results, games, str(client.dashboard_link or ""))


def game_name(sweep: Sweep, variant: int, game: int) -> str:
    """The file name a kept game has: its variant and its number."""
    return f"{sweep.variants[variant].name}-{game:04d}.game"


def check_keep(folder: Path, sweep: Sweep) -> None:
    """Refuse to keep the games in `folder` if one of their files (or a log left by a game of
    that name) is already there (before any game is played)."""
    if folder.exists() and not folder.is_dir():
        raise SweepError(f"--keep {folder}: not a folder", ru=f"--keep {folder}: это не папка")
    there = [  # a game, or a log left by one (it would be read into the game kept there)
        f"{name}{ext}"
        for v in range(len(sweep.variants))
        for k in range(sweep.games)
        for ext in ("", "-wal", "-shm")
        if Path(f"{folder / (name := game_name(sweep, v, k))}{ext}").exists()
    ]
    if there:
        raise SweepError(
            f"--keep {folder}: {there[0]} is already there ({len(there)} of the games' files); "
            "choose another folder",
            ru=f"--keep {folder}: {there[0]} уже есть (файлов игр: {len(there)}); выберите "
            "другую папку",
        )


def keep_games(folder: Path, games: Sequence[tuple[str, bytes]]) -> list[Path]:
    """Write the games' files into `folder`, each whole (written aside, synced, then renamed),
    with the count of its entries beside it, as any game has (`strategia.game.count`)."""
    out = []
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for name, data in games:
            path = folder / name
            tmp = folder / f".{name}.{os.getpid()}.tmp"
            with tmp.open("wb") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, path)
            with GameStore.open(path) as store:
                count.record(path, store.game_id, store.last_seq)
            out.append(path)
    except OSError as e:
        raise SweepError(
            f"--keep {folder}: the games cannot be written ({e.strerror or e})",
            ru=f"--keep {folder}: игры не записать ({os_error_ru(e)})",
        ) from None
    return out


__all__ = [
    "CONNECT_SECONDS",
    "QUIET",
    "Ran",
    "check_keep",
    "dask_client",
    "game_name",
    "keep_games",
    "run",
]
