"""A sweep's results on disk: a NetCDF file (h5netcdf), or a Zarr store for large sweeps.

The format is chosen by the name when written: ``RESULTS.zarr`` is a Zarr store (a folder:
Zarr's format 2 with consolidated metadata, which every Zarr reader opens and whose
fixed-width strings, the sides and the winners, Zarr's format 3 has no stable encoding for),
any other name a NetCDF file. When read it is told by what is on disk: a folder is a Zarr
store, a file NetCDF. Either way the Dataset read back is the one written
(`xarray.testing.assert_identical`).

`save` writes the results whole or not at all: into a temporary sibling (``.NAME.PID.tmp``)
renamed into place when complete. A file or store already there is refused unless told to
replace it, and then only by one of its own kind (a NetCDF file by a file, a Zarr store by a
store: a folder that is not a Zarr store is never removed). `load` refuses what is not a
sweep's results.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import xarray as xr

from strategia.core.errors import os_error_ru
from strategia.sweep.results import FORMAT
from strategia.sweep.spec import SweepError

ZARR = ".zarr"
ZARR_FORMAT = 2
_ZARR_MARKS = (".zgroup", ".zmetadata", "zarr.json")  # what a Zarr store has at its top


def is_zarr_name(path: Path) -> bool:
    """Whether results written to `path` are a Zarr store (the name ends in ``.zarr``)."""
    return path.suffix.lower() == ZARR


def is_zarr_store(path: Path) -> bool:
    """Whether `path` is a folder holding a Zarr store."""
    return path.is_dir() and any((path / mark).is_file() for mark in _ZARR_MARKS)


def refuse_existing(path: Path, force: bool) -> None:
    """Refuse a results file or store that is already there, unless `force`; and with it,
    anything there that is not of the kind the name asks for (before any work)."""
    if not path.exists() and not path.is_symlink():
        return
    if not force:
        raise SweepError(
            f"{path}: the file is already there; choose another name or give --force",
            ru=f"{path}: такой файл уже есть; выберите другое имя или добавьте --force",
        )
    if is_zarr_name(path):
        if not is_zarr_store(path):
            raise SweepError(
                f"{path}: what is there is not a Zarr store; it is not replaced, even with --force",
                ru=f"{path}: там лежит не хранилище Zarr; оно не заменяется и с --force",
            )
    elif not path.is_file():
        raise SweepError(f"{path}: not a file", ru=f"{path}: это не файл")


def save(ds: xr.Dataset, path: str | Path, force: bool = False) -> Path:
    """Write the results to `path` (a Zarr store if it ends in ``.zarr``, else NetCDF), whole
    or not at all."""
    path = Path(path)
    refuse_existing(path, force)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        _remove(tmp)
        if is_zarr_name(path):
            ds.to_zarr(tmp, mode="w-", zarr_format=ZARR_FORMAT, consolidated=True)
        else:
            ds.to_netcdf(tmp, engine="h5netcdf")
        _into_place(tmp, path)
    except OSError as e:
        raise SweepError(
            f"{path}: the results cannot be written ({e.strerror or e}); nothing was written",
            ru=f"{path}: результаты не записать ({os_error_ru(e)}); ничего не записано",
        ) from None
    finally:
        _remove(tmp)
    return path


def _into_place(tmp: Path, path: Path) -> None:
    """Rename the complete `tmp` to `path`; a store there (replaced with --force) is moved
    aside first and removed after, so that `path` is the old results or the new, whole."""
    if not path.is_dir():
        os.replace(tmp, path)
        return
    old = path.with_name(f".{path.name}.{os.getpid()}.old")
    _remove(old)
    os.replace(path, old)
    try:
        os.replace(tmp, path)
    except OSError:
        os.replace(old, path)
        raise
    _remove(old)


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    else:
        path.unlink(missing_ok=True)


def load(path: str | Path) -> xr.Dataset:
    """A sweep's results, read whole (a folder a Zarr store, a file NetCDF); a SweepError if
    they are not a sweep's."""
    path = Path(path)
    if path.is_dir():
        try:
            ds = xr.load_dataset(path, engine="zarr", consolidated=True)
        except (OSError, ValueError, KeyError) as e:
            raise SweepError(
                f"{path}: not a Zarr store of a sweep's results ({e})",
                ru=f"{path}: это не хранилище Zarr с результатами прогона ({e})",
            ) from None
    elif path.is_file():
        try:
            ds = xr.load_dataset(path, engine="h5netcdf")
        except (OSError, ValueError) as e:
            raise SweepError(
                f"{path}: not a NetCDF file of a sweep's results ({e})",
                ru=f"{path}: это не файл NetCDF с результатами прогона ({e})",
            ) from None
    else:
        raise SweepError(
            f"{path}: no such results file", ru=f"{path}: нет такого файла результатов"
        )
    if ds.attrs.get("format") != FORMAT:
        raise SweepError(
            f"{path}: not a sweep's results (no format {FORMAT!r})",
            ru=f"{path}: это не результаты прогона (нет формата {FORMAT!r})",
        )
    return ds


__all__ = ["ZARR", "is_zarr_name", "is_zarr_store", "load", "refuse_existing", "save"]
