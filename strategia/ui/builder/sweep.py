"""«Сыграть N раз» / "Try it N times": the scenario being built played N times by the computer on
every side, a small balance sweep on this machine (`strategia.sweep`, a local Dask cluster),
with a progress bar while it runs, then each side's win rate and the force ratio turn by turn
(the sweep's summary and picture).

`TryIt` holds the widgets; `try_it` is the button's action, a method, so the tests drive it
without a browser. The scenario is taken when the button is pressed (`scenario`, a function),
saved into a scratch folder and read back as any scenario file is.
"""

from __future__ import annotations

import base64
import html
import io
import tempfile
from collections.abc import Callable
from pathlib import Path

import ipywidgets as w
import xarray as xr

from strategia.core.errors import StrategiaError
from strategia.core.i18n import Lang, Text
from strategia.notation.say import say
from strategia.theatre.scenario import Scenario
from strategia.theatre.scenario_io import save_scenario

WORDS = {
    "button": Text("Try it {n} times", "Сыграть {n} раз"),
    "games": Text("games", "игр"),
    "turns": Text("turns", "ходов"),
    "running": Text("playing {n} games on {k} local workers…",
                    "играются {n} партий на {k} локальных процессах…"),
    "done": Text("{n} games played", "сыграно партий: {n}"),
}  # fmt: skip
LABELLED = {"description_width": "initial"}


class TryIt:
    """The builder's "try it N times" (see the module)."""

    def __init__(
        self,
        scenario: Callable[[], Scenario],
        lang: Lang = "ru",
        workers: int = 2,
        folder: Path | None = None,
    ) -> None:
        self.scenario = scenario
        self.lang = lang
        self.workers = workers
        self.folder = folder
        self.games = w.BoundedIntText(value=8, min=1, max=1000, description=WORDS["games"](lang),
                                      style=LABELLED, layout=w.Layout(width="130px"))  # fmt: skip
        self.turns = w.BoundedIntText(value=5, min=1, max=60, description=WORDS["turns"](lang),
                                      style=LABELLED, layout=w.Layout(width="130px"))  # fmt: skip
        self.button = w.Button(description=self._label(), button_style="warning")
        self.games.observe(lambda _: setattr(self.button, "description", self._label()), "value")
        self.button.on_click(lambda _: self.try_it())
        self.progress = w.IntProgress(value=0, min=0, max=1, layout=w.Layout(width="98%"))
        self.status = w.HTML()
        self.result = w.HTML()
        self.widget = w.VBox(
            [w.HBox([self.games, self.turns, self.button]), self.progress, self.status,
             self.result]
        )  # fmt: skip

    def _label(self) -> str:
        return WORDS["button"](self.lang).format(n=self.games.value)

    def _tick(self, done: int, total: int) -> None:
        self.progress.max = total
        self.progress.value = done

    def try_it(self) -> xr.Dataset | None:
        """Play the games; the results (None, and the error shown, if the scenario cannot be
        played)."""
        from strategia.sweep import dask_client, read_sweep, run
        from strategia.sweep.plot import figure
        from strategia.sweep.summary import summary

        lang, n = self.lang, int(self.games.value)
        self.result.value = ""
        self.progress.value = 0
        self.button.disabled = True
        try:
            folder = self.folder or Path(tempfile.mkdtemp(prefix="strategia-try-"))
            path = save_scenario(self.scenario(), folder / "try.toml")
            sweep = read_sweep(path, n, int(self.turns.value))
            self.status.value = html.escape(
                WORDS["running"](lang).format(n=n, k=self.workers)
            )  # fmt: skip
            with dask_client(workers=min(self.workers, n), dashboard=None) as client:
                ds = run(sweep, client, progress=self._tick).results
        except StrategiaError as e:
            self.status.value = f"<b style='color:#b71c1c'>{html.escape(say(e, lang))}</b>"
            return None
        finally:
            self.button.disabled = False
        s = summary(ds)
        png = io.BytesIO()
        figure(ds, lang, s).savefig(png, format="png", metadata={"Software": None})
        picture = base64.b64encode(png.getvalue()).decode("ascii")
        self.status.value = html.escape(WORDS["done"](lang).format(n=n))
        self.result.value = (
            f"<img src='data:image/png;base64,{picture}' style='max-width:100%'>"
            f"<pre style='font-size:11px'>{html.escape(s.text(lang))}</pre>"
        )
        return ds


__all__ = ["TryIt"]
