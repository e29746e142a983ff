"""The tactical table in the console: a map of the table in cm (ipyleaflet, Simple CRS, no tiles)
with the ground and the units, and the mediator's panel for cards, phases, actions and results.

The GeoJSON is built by pure functions (tested without a browser): one layer for the ground
(table, grid, obstacles, roads) and one for all the units, each a rectangle of its formation's
frontage and depth with a heavy line along its front. The widget only draws, and calls the game.
"""

from __future__ import annotations

import html
import math
from typing import Any

from strategia.core.errors import StrategiaError
from strategia.core.i18n import Lang, Text, check_lang
from strategia.explain.render import explanation_html, fmt
from strategia.rules import RuleSet
from strategia.tactical.actions import format_actions
from strategia.tactical.game import TacticalGame
from strategia.tactical.geometry import corners, strip
from strategia.tactical.moving import is_moving
from strategia.tactical.phases import Battle, Phase, ReportKind, phase_label
from strategia.tactical.skirmish import ObstacleKind, Skirmish
from strategia.tactical.units import Condition, Formation, Unit

SIDE_COLOURS = {"red": "#c62828", "blue": "#1565c0", "green": "#2e7d32", "black": "#212121"}
GROUND = {
    ObstacleKind.HILL: "#c8b27a",
    ObstacleKind.SCRUB: "#8fbf6a",
    ObstacleKind.HEDGE: "#4f7a32",
    ObstacleKind.RAVINE: "#8d6e63",
    ObstacleKind.FORD: "#64b5f6",
    ObstacleKind.FOREST: "#2e7d32",
    ObstacleKind.VILLAGE: "#9e9e9e",
}
OPACITY = {
    Condition.FORMED: 0.85,
    Condition.DISORDERED: 0.55,
    Condition.SCATTERED: 0.35,
    Condition.ROUTED: 0.2,
}
GRID_CM = 10
MOVING_WORD = Text("moving", "двигающийся")  # 003 speeds, note 3
LABELS = {"description_width": "100px"}  # room for the panel's longest label, all aligned


def _ring(points: list[tuple[float, float]]) -> list[list[float]]:
    ring = [[round(x, 4), round(y, 4)] for x, y in points]
    return [*ring, ring[0]]


def _feature(geometry: dict[str, Any], **properties: Any) -> dict[str, Any]:
    return {"type": "Feature", "geometry": geometry, "properties": properties}


def _collection(features: list[dict[str, Any]]) -> dict[str, Any]:
    return {"type": "FeatureCollection", "features": features}


def ground_geojson(skirmish: Skirmish) -> dict[str, Any]:
    """The table (a cloth with a 10 cm grid), its obstacles and roads."""
    w, h = skirmish.width, skirmish.height
    cloth = {"color": "#5d4037", "weight": 2, "fillColor": "#e8efd8", "fillOpacity": 1}
    features = [
        _feature(
            {"type": "Polygon", "coordinates": [_ring([(0, 0), (w, 0), (w, h), (0, h)])]},
            part="table", style=cloth,
        )
    ]  # fmt: skip
    lines = [[[x, 0], [x, h]] for x in range(GRID_CM, int(w), GRID_CM)]
    lines += [[[0, y], [w, y]] for y in range(GRID_CM, int(h), GRID_CM)]
    if lines:
        grid = {"color": "#b0bea5", "weight": 1, "dashArray": "2 4"}
        features.append(
            _feature({"type": "MultiLineString", "coordinates": lines}, part="grid", style=grid)
        )
    for ob in skirmish.obstacles:
        colour = GROUND.get(ob.kind, "#999999")
        style = {"color": colour, "weight": 1, "fillColor": colour, "fillOpacity": 0.55}
        polys = [list(ob.polygon)] if ob.polygon else [list(p) for p in strip(ob.line, 1.0)]
        for poly in polys:
            features.append(
                _feature(
                    {"type": "Polygon", "coordinates": [_ring(poly)]},
                    part="obstacle", kind=ob.kind.key, name=ob.label, style=style,
                )
            )  # fmt: skip
    for road in skirmish.roads:
        features.append(
            _feature(
                {"type": "LineString", "coordinates": [[x, y] for x, y in road.line]},
                part="road", name=road.name, style={"color": "#7b5e3b", "weight": 4},
            )
        )  # fmt: skip
    return _collection(features)


def unit_rectangle(u: Unit, rules: RuleSet) -> list[tuple[float, float]]:
    """The unit's rectangle: front-left, front-right, rear-right, rear-left (cm)."""
    w, d = u.footprint(rules)
    return corners(u.x, u.y, u.facing, w, d)


def units_geojson(
    battle: Battle, rules: RuleSet, selected: str | None = None, lang: Lang = "ru"
) -> dict[str, Any]:
    """Every unit in one collection: its rectangle (the side's colour, fainter as its order
    goes), a heavy line along its front, and its data for the tooltip, whether it counts as
    moving as the engine says."""
    features = []
    for u in battle.table.units:
        rect = unit_rectangle(u, rules)
        chosen = u.name == selected
        dashed = u.condition is not Condition.FORMED
        style = {
            "color": "#ffeb3b" if chosen else "#222222",
            "weight": 3 if chosen else 1,
            "fillColor": SIDE_COLOURS.get(u.side, "#555555"),
            "fillOpacity": 0.1 if u.out_of_action else OPACITY[u.condition],
            **({"dashArray": "3 2"} if dashed else {}),
        }
        going = is_moving(u, rules)  # the engine's answer (003 speeds, note 3)
        label = (
            f"{u.name}: {u.figures} · {u.formation.label(lang)} · {u.condition.label(lang)}"
            f" · {fmt(u.facing)}°" + (f" · {MOVING_WORD(lang)}" if going else "")
        )
        props = {
            "unit": u.name, "side": u.side, "arm": u.arm.key, "figures": u.figures,
            "formation": u.formation.key, "condition": u.condition.key,
            "facing": u.facing, "spent": str(u.spent), "moving": going, "label": label,
        }  # fmt: skip
        features.append(
            _feature(
                {"type": "Polygon", "coordinates": [_ring(rect)]},
                **props, part="unit", style=style,
            )
        )  # fmt: skip
        front = {"color": "#ffeb3b" if chosen else "#111111", "weight": 4}
        features.append(
            _feature(
                {"type": "LineString", "coordinates": [list(rect[0]), list(rect[1])]},
                unit=u.name, part="front", style=front,
            )
        )  # fmt: skip
        if u.formation is Formation.SQUARE:  # a square fronts every way: all four faces
            features[-1]["geometry"] = {
                "type": "LineString",
                "coordinates": _ring(rect),
            }
    return _collection(features)


def phases_html(battle: Battle, rules: RuleSet, lang: Lang = "ru") -> str:
    """The eight phases with the current one marked, and the cards laid (orders per phase). The
    phases' names carry their numbers (the rule data's labels), so the list adds none."""
    items = []
    for p in Phase:
        label = html.escape(phase_label(p, rules)(lang))
        items.append(f"<li><b>▶ {label}</b></li>" if p is battle.phase else f"<li>{label}</li>")
    rows = []
    for name, card in battle.cards.items():
        before = format_actions(card.before, lang) or "—"
        after = format_actions(card.after, lang) or "—"
        attack = html.escape(card.attack or "—")
        rows.append(
            f"<tr><td>{html.escape(name)}</td><td>{html.escape(before)}</td>"
            f"<td>{html.escape(after)}</td><td>{attack}</td></tr>"
        )
    heads = Text("unit,before fire,after fire,attacks", "отряд,до стрельбы,после стрельбы,атакует")
    head = "".join(f"<th>{h}</th>" for h in heads(lang).split(","))
    cards = f"<table><tr>{head}</tr>{''.join(rows)}</table>" if rows else ""
    turn = Text("Turn", "Ход")(lang)
    listing = f"<ul style='list-style:none;padding-left:0.6em'>{''.join(items)}</ul>"
    return f"<div><b>{turn} {battle.turn}</b>{listing}{cards}</div>"


def unit_labels(battle: Battle, rules: RuleSet) -> dict[str, tuple[float, float]]:
    """Where each unit's name is written: the middle of its rectangle (cm)."""
    out = {}
    for u in battle.table.units:
        rect = unit_rectangle(u, rules)
        out[u.name] = (sum(p[0] for p in rect) / 4, sum(p[1] for p in rect) / 4)
    return out


def label_html(name: str, side: str) -> str:
    """A unit's name as the map writes it beside the unit, in the side's colour."""
    colour = SIDE_COLOURS.get(side, "#555555")
    return (
        f"<div style='white-space:nowrap;font:bold 11px sans-serif;color:{colour};"
        f"background:#ffffffd0;padding:0 3px;border-radius:3px;display:inline-block;"
        f"transform:translate(-50%,-140%)'>{html.escape(name)}</div>"
    )


def fit_zoom(width: float, height: float, pixels: tuple[int, int] = (760, 520)) -> float:
    """The zoom (in quarters) at which the whole table fits the map's box."""
    scale = min(pixels[0] / (width + 4), pixels[1] / (height + 4))
    return math.floor(math.log2(scale) * 4) / 4


class TacticalTable:
    """The tactical table widget: the map and the mediator's panel, driving a TacticalGame."""

    def __init__(self, game: TacticalGame, lang: str = "ru") -> None:
        import ipyleaflet as L
        import ipywidgets as w

        from strategia.ui.widgets.mapview import zoom_titles

        self.game = game
        self.lang: Lang = check_lang(lang)
        self.selected: str | None = None
        sk = game.skirmish
        t = self._t
        self.map = L.Map(
            crs=L.projections.Simple,
            layers=(),
            center=(sk.height / 2, sk.width / 2),
            zoom=fit_zoom(sk.width, sk.height),
            zoom_snap=0.25,
            min_zoom=0,
            max_zoom=7,
            scroll_wheel_zoom=True,
            attribution_control=False,
            layout=w.Layout(height="560px", width="100%"),
        )
        zoom_titles(self.map, self.lang)
        self.ground = L.GeoJSON(data=ground_geojson(sk), style_callback=_style, name="ground")
        self.units = L.GeoJSON(data=_collection([]), style_callback=_style, name="units")
        self.names: dict[str, Any] = {}
        for u in game.table.units:
            marker = L.Marker(
                location=(u.y, u.x),
                icon=L.DivIcon(html=label_html(u.name, u.side), icon_size=(0, 0)),
                draggable=False,
                keyboard=False,
                title=u.name,
            )
            marker.on_click(lambda name=u.name, **_: self.select(name))
            self.names[u.name] = marker
        self.labels = L.LayerGroup(layers=list(self.names.values()), name="names")
        self.map.add(self.ground)
        self.map.add(self.units)
        self.map.add(self.labels)
        self.units.on_click(self._feature_click)
        names = [u.name for u in game.table.units]
        self.unit = w.Dropdown(options=names, description=t("unit", "отряд"), style=LABELS)
        self.actions = w.Text(
            placeholder=t("move; form square", "вперед; строй каре"),
            description=t("actions", "действия"),
            style=LABELS,
        )
        self.act_button = w.Button(description=t("Act now", "Выполнить"), button_style="primary")
        self.before = w.Text(
            placeholder=t("move 5", "вперед 5"), description=t("before", "до огня"), style=LABELS
        )
        self.after = w.Text(
            placeholder=t("wheel 30", "захождение 30"),
            description=t("after", "после огня"),
            style=LABELS,
        )
        self.attack = w.Dropdown(
            options=["", *names], description=t("attacks", "атакует"), style=LABELS
        )
        self.card_button = w.Button(description=t("Lay the card", "Положить карточку"))
        self.next_button = w.Button(
            description=t("Next phase", "Следующий этап"), button_style="warning"
        )
        self.kind = w.Dropdown(
            options=[(k.label(self.lang), k.key) for k in ReportKind],
            description=t("result", "итог"),
            style=LABELS,
        )
        self.casualties = w.BoundedIntText(
            min=0, max=999, description=t("figures lost", "потери"), style=LABELS
        )
        self.outcome = w.Text(description=t("outcome", "исход"), style=LABELS)
        self.condition = w.Dropdown(
            options=[("—", "")] + [(c.label(self.lang), c.key) for c in Condition],
            description=t("condition", "состояние"),
            style=LABELS,
        )
        self.by = w.Dropdown(options=["", *names], description=t("by", "кем"), style=LABELS)
        self.report_button = w.Button(description=t("Enter", "Внести"))
        self.status = w.HTML()
        self.message = w.HTML()
        self.breakdown = w.HTML()
        self.unit.observe(lambda ch: self.select(str(ch["new"])), names="value")
        self.act_button.on_click(lambda _: self.act(self.actions.value))
        self.card_button.on_click(
            lambda _: self.lay_card(self.before.value, self.after.value, self.attack.value or None)
        )
        self.next_button.on_click(lambda _: self.next_phase())
        self.report_button.on_click(
            lambda _: self.enter(
                self.kind.value,
                self.casualties.value,
                self.outcome.value,
                self.condition.value,
                self.by.value or None,
            )
        )
        panel = w.VBox(
            [
                self.status,
                self.next_button,
                self.unit,
                w.HBox([self.actions, self.act_button]),
                w.HTML(f"<b>{t('Order card', 'Карточка-приказ')}</b>"),
                self.before, self.after, self.attack, self.card_button,
                w.HTML(f"<b>{t('Results (the mediator)', 'Результаты (посредник)')}</b>"),
                self.kind, self.by, self.casualties, self.outcome, self.condition,
                self.report_button,
                self.message,
            ]
        )  # fmt: skip
        self.widget = w.VBox(
            [
                w.HBox(
                    [
                        w.Box([self.map], layout=w.Layout(width="60%")),
                        w.Box([panel], layout=w.Layout(width="40%")),
                    ]
                ),
                self.breakdown,
            ]
        )
        self.refresh()

    def _t(self, en: str, ru: str) -> str:
        return Text(en, ru)(self.lang)

    # --- drawing ------------------------------------------------------------------------------

    def units_data(self) -> dict[str, Any]:
        """Exactly what the unit layer is sent."""
        return units_geojson(self.game.battle, self.game.rules, self.selected, self.lang)

    def refresh(self) -> None:
        self.units.data = self.units_data()
        for name, (x, y) in unit_labels(self.game.battle, self.game.rules).items():
            if tuple(self.names[name].location) != (y, x):
                self.names[name].location = (y, x)
        self.status.value = phases_html(self.game.battle, self.game.rules, self.lang)

    def _show(self, step: Any) -> None:
        self.breakdown.value = explanation_html(step, self.lang)

    def _run(self, what: Any) -> Any:
        try:
            step = what()
        except StrategiaError as e:
            self.message.value = f"<span style='color:#b00'>{html.escape(str(e))}</span>"
            return None
        self.message.value = ""
        self._show(step)
        self.refresh()
        return step

    # --- actions (the buttons call these; so do the tests) ----------------------------------------

    def select(self, name: str) -> None:
        self.selected = name
        if self.unit.value != name:
            self.unit.value = name
        self.refresh()

    def act(self, actions: str) -> Any:
        return self._run(lambda: self.game.act(self.unit.value, actions))

    def lay_card(self, before: str, after: str = "", attack: str | None = None) -> Any:
        return self._run(lambda: self.game.card(self.unit.value, before, after, attack))

    def next_phase(self) -> Any:
        return self._run(self.game.advance)

    def enter(
        self,
        kind: str,
        casualties: int = 0,
        outcome: str = "",
        condition: str = "",
        by: str | None = None,
    ) -> Any:
        """Enter a result for the selected unit (the one it befalls), `by` whom if anyone."""
        return self._run(
            lambda: self.game.report(
                self.unit.value, kind, casualties, outcome, condition or None, by or None
            )
        )

    def _feature_click(self, feature: dict[str, Any] | None = None, **_: Any) -> None:
        if feature and feature.get("properties", {}).get("unit"):
            self.select(str(feature["properties"]["unit"]))


def _style(feature: dict[str, Any]) -> dict[str, Any]:
    return dict(feature["properties"].get("style", {}))
