"""The rules sheet and the rating workbench as ipywidgets panels."""

from __future__ import annotations

import html
from dataclasses import dataclass, field
from typing import Any

import ipywidgets as w

from strategia.core.i18n import Lang, Text, check_lang
from strategia.core.numbers import fixed
from strategia.explain.render import explanation_html
from strategia.rules import RuleSet, load_ruleset
from strategia.rules.kinds import DivisionKind, Facing, Formation, RegimentsFacing
from strategia.rules.ratings import rating, support_rating
from strategia.rules.sheet import sheet_text
from strategia.rules.units import new_division


def _options(kinds: Any, lang: Lang) -> list[tuple[str, Any]]:
    return [(k.label(lang), k) for k in kinds]


def level_buttons(level: int, lang: Lang) -> w.ToggleButtons:
    """The levels 1, 2, 3 as buttons on one row (narrow: a digit each)."""
    buttons = w.ToggleButtons(
        options=[1, 2, 3],
        value=level,
        description=Text("level", "уровень")(lang),
        layout=w.Layout(width="auto", flex="0 0 auto"),
    )
    buttons.style.button_width = "40px"
    buttons.add_class("sg-levels")
    return buttons


@dataclass
class RatingWorkbench:
    """A division type, formation, facing and regiment strengths in; its rating explained out."""

    lang: Lang = "en"
    level: int = 2
    house: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.lang = check_lang(self.lang)
        lang = self.lang
        self.kind = w.Dropdown(
            options=_options(DivisionKind, lang), description=Text("unit", "часть")(lang)
        )
        self.formation = w.ToggleButtons(
            options=_options(Formation, lang), description=Text("formation", "построение")(lang)
        )
        self.facing = w.ToggleButtons(
            options=_options(Facing, lang), description=Text("blow on", "удар в")(lang)
        )
        self.regiments_facing = w.ToggleButtons(
            options=_options(RegimentsFacing, lang), description=Text("regiments", "полки")(lang)
        )
        self.level_w = level_buttons(self.level, lang)
        self.strengths = w.VBox()
        self.result = w.HTML()
        for control in (self.formation, self.facing, self.regiments_facing, self.level_w):
            control.observe(self._update, names="value")
        self.kind.observe(self._new_kind, names="value")
        self.widget = w.VBox(
            [
                w.HBox([self.kind, self.level_w], layout=w.Layout(flex_flow="row wrap")),
                self.formation,
                self.facing,
                self.regiments_facing,
                self.strengths,
                self.result,
            ]
        )
        self._new_kind()

    def rules(self) -> RuleSet:
        return load_ruleset(level=int(self.level_w.value), house=list(self.house) or None)

    def _new_kind(self, *_: Any) -> None:
        division = new_division(1, self.kind.value, self.rules())
        self.sliders = [strength_slider(reg.kind.label(self.lang), self.lang, self._update)
                        for reg in division.regiments]  # fmt: skip
        self.strengths.children = [box for _, box in self.sliders]
        self._update()

    def _update(self, *_: Any) -> None:
        rules = self.rules()
        division = new_division(1, self.kind.value, rules).with_strengths(
            tuple(float(s.value) for s, _ in self.sliders)
        )
        r = rating(
            division,
            rules,
            formation=self.formation.value,
            facing=self.facing.value,
            regiments_facing=self.regiments_facing.value,
        )
        parts = [explanation_html(r.explanation, self.lang)]
        if rules.level >= 2:
            parts.append(explanation_html(support_rating(division, rules).explanation, self.lang))
        self.value = r.value
        self.result.value = "".join(parts)


def strength_slider(label: str, lang: Lang, changed: Any) -> tuple[w.FloatSlider, w.HBox]:
    """A regiment's strength from 0 to 1, its value written as the reader writes numbers (1,00
    in Russian: a slider's own readout cannot write a decimal comma)."""
    slider = w.FloatSlider(value=1.0, min=0.0, max=1.0, step=0.05, description=label,
                           readout=False)  # fmt: skip
    shown = w.Label(fixed(slider.value, lang), layout=w.Layout(width="3.5em"))

    def show(change: dict[str, Any]) -> None:
        shown.value = fixed(float(change["new"]), lang)
        changed()

    slider.observe(show, names="value")
    return slider, w.HBox([slider, shown])


def rules_sheet_panel(lang: Lang = "en", house: list[str] | None = None, level: int = 3) -> w.VBox:
    """The effective rules sheet (0.3) at a chosen level (the game's first), as the players get
    it."""
    chosen = level_buttons(level, lang)
    out = w.HTML()

    def show(*_: Any) -> None:
        rules = load_ruleset(level=int(chosen.value), house=house)
        out.value = f"<pre>{html.escape(sheet_text(rules, lang, keys=False))}</pre>"

    chosen.observe(show, names="value")
    show()
    return w.VBox([chosen, out])
