"""The scenarios that ship with Strategia (package data), addressable by name wherever a
scenario file is taken: `continental` is `continental.toml` here, the default scenario
«Континентальная война»; a house variant by its path under this folder (`house/blue-first`).
The format is described in README.md beside them."""

from __future__ import annotations

from importlib.resources import as_file, files
from pathlib import Path

from strategia.core.errors import StrategiaError

DEFAULT = "continental"


def folder() -> Path:
    """This folder on disk (the package is installed as files, never zipped)."""
    with as_file(files(__name__)) as p:
        return Path(p)


def names() -> list[str]:
    """The scenarios shipped, by name (`continental`, `house/blue-first`)."""
    root = folder()
    return sorted(str(p.relative_to(root).with_suffix("")) for p in root.rglob("*.toml"))


def default() -> Path:
    """The default scenario's file."""
    return folder() / f"{DEFAULT}.toml"


def scenario_path(text: str | Path) -> Path:
    """The file a scenario argument names: a file that exists, else a shipped scenario of that
    name; a StrategiaError listing the names for anything else."""
    path = Path(text)
    if path.exists() or path.suffix not in ("", ".toml"):
        return path
    name = str(text).removesuffix(".toml")
    shipped = folder() / f"{name}.toml"
    if shipped.is_file() and not any(part in ("..", "") for part in Path(name).parts):
        return shipped
    known = ", ".join(names())
    raise StrategiaError(
        f"{text}: no such file, nor a scenario of that name (shipped: {known})",
        ru=f"{text}: нет такого файла и нет сценария с таким именем (есть: {known})",
    )


__all__ = ["DEFAULT", "default", "folder", "names", "scenario_path"]
