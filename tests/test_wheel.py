"""The package runs outside the repository: the wheel built from this checkout, installed with
its own dependencies only (no [console], no [sweep]) into a fresh virtual environment, run from
an empty folder: `--version`, the default scenario by name, a game the computer plays for three
turns, the cases; and a command whose extra is missing says which to install.

Needs the package index (or pip's cache) for numpy, scipy, xarray and h5py; skipped, saying
so, where they cannot be installed.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The `strategia` command of a fresh environment with the wheel installed."""
    work = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "-q", "-w", str(work)],
        check=True, capture_output=True,
    )  # fmt: skip
    (wheel,) = work.glob("strategia-*.whl")
    env = work / "env"
    subprocess.run([sys.executable, "-m", "venv", str(env)], check=True)
    done = subprocess.run(
        [str(env / "bin" / "python"), "-m", "pip", "install", "-q", str(wheel)],
        capture_output=True, text=True,
    )  # fmt: skip
    if done.returncode != 0:
        pytest.skip(f"the wheel's dependencies could not be installed: {done.stderr[-300:]}")
    return env / "bin" / "strategia"


def _run(cmd: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(cmd), *args], cwd=cwd, capture_output=True, text=True, timeout=600)


def test_the_wheel_runs_from_an_empty_folder(installed: Path, tmp_path: Path) -> None:
    assert installed.exists()
    v = _run(installed, "--version", cwd=tmp_path)
    assert v.returncode == 0 and v.stdout.startswith("strategia ")
    shown = _run(installed, "scenario", "show", "continental", "--lang", "en", cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    assert "Continental" in shown.stdout or "Континентальная" in shown.stdout
    new = _run(
        installed, "game", "new", "continental", "war.game", "--level", "2",
        "--computer", "red", "--computer", "blue", "--computer", "green", cwd=tmp_path,
    )  # fmt: skip
    assert new.returncode == 0, new.stderr
    auto = _run(installed, "game", "auto", "war.game", "--turns", "3", "--json", cwd=tmp_path)
    assert auto.returncode == 0, auto.stderr
    status = json.loads(_run(installed, "game", "show", "war.game", "--json", cwd=tmp_path).stdout)
    assert status["turn"] == 4
    cases = _run(installed, "cases", "--json", cwd=tmp_path)
    assert cases.returncode == 0, cases.stderr
    assert json.loads(cases.stdout)["cases"]
    assert all(p.name.startswith("war.game") for p in tmp_path.iterdir())  # the game's files only


@pytest.mark.parametrize(
    ("lang", "words"), [("en", "strategia[sweep]"), ("ru", "strategia[sweep]")]
)
def test_a_missing_extra_is_named(installed: Path, tmp_path: Path, lang: str, words: str) -> None:
    done = _run(
        installed, "sweep", "run", "continental", "--games", "2", "--turns", "2", "--out",
        "s.nc", "--lang", lang, cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 2
    assert words in done.stderr and "Traceback" not in done.stderr
    assert ("install" in done.stderr) if lang == "en" else ("установите" in done.stderr)
