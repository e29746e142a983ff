"""The map's units layer without a browser (issue 25): each counter a compact record
(`counters.counter_records`), sent once and then only as changes (`units_layer.UnitsLayer`),
drawn in the browser from `counters.look` with the same shapes `counters.unit_features` makes.
The drawing itself is checked in Chromium (test_browser, test_layout_browser)."""

from __future__ import annotations

from typing import Any

import pytest

from strategia.ui.widgets import counters
from strategia.ui.widgets.units_layer import UnitsLayer


def _unit(name: str, cells: list[str], **more: Any) -> dict[str, Any]:
    x, y = (int(v) for v in cells[0].split(","))
    props = {"unit": name, "side": "red", "kind": "rifle", "cells": cells, **more}
    return {"type": "Feature", "geometry": {"type": "Point", "coordinates": [x, y]},
            "properties": props}  # fmt: skip


def _view(*features: dict[str, Any]) -> dict[str, Any]:
    return {"type": "FeatureCollection", "features": list(features)}


def test_a_counter_is_one_record_with_what_its_drawing_needs() -> None:
    """107 с.д. at 45,25 at 0,9 and 0,7 of its regiments' strength, facing west, in the
    supporting formation (Λ, 9.6), of 5 ск: its record says so in a dozen fields; the strength
    is the mean, 0,8; its three digits beside the formation's mark are `digit_height(3, True)`
    tall, min(0.26, 2 * 0.42 / (1.5 * 3 - 0.5)) = 0.21; a corps' outline is its rectangle."""
    view = _view(_unit("107 с.д.", ["45,25"], strengths=[0.9, 0.7], facing="W",
                       formation="supporting", corps="5 ск"))  # fmt: skip
    records, corps, features = counters.counter_records(counters.counters_geojson(view))
    assert records == [
        {"k": "107 с.д.", "c": [45, 25], "s": "red", "t": "rifle", "n": "107", "h": 0.21,
         "m": counters.MARK_SUPPORTING, "q": 0.8, "d": [-1, 0], "sel": 0}
    ]  # fmt: skip
    assert corps == [[44.5, 24.5, 45.5, 25.5]]
    assert features["107 с.д."]["properties"]["part"] == "counter"


def test_selection_a_column_and_troops_seen_without_a_name() -> None:
    """The selected counter says so; a division on the march over two cells carries its
    outline (the band over both, `_square`); troops seen only by position have no number, no
    strength and a key of their cell."""
    view = _view(
        _unit("4 с.д.", ["33,25", "34,26"]),
        {"type": "Feature", "geometry": {"type": "Point", "coordinates": [50, 20]},
         "properties": {"side": "blue", "cells": ["50,20"]}},
    )  # fmt: skip
    records, _, features = counters.counter_records(counters.counters_geojson(view, "4 с.д."))
    column, seen = records
    assert column["sel"] == 1 and column["c"] == [33, 25, 34, 26]
    assert column["r"] == counters._square([(33, 25), (34, 26)])[0]
    assert seen["k"] == "?50,20#0" and seen["n"] == "" and seen["q"] is None and seen["t"] == ""
    assert seen["s"] == "blue" and "?50,20#0" in features


def test_the_browser_lays_out_the_same_number_as_the_kernel_draws() -> None:
    """counters.js places digit i of a number at digits_at + (i * 1.5 * w, 0) and scales the
    digit's strokes (in a 1 x 2 box) by w = h / 2: the same strokes `unit_features` draws."""
    look = counters.look()
    x, y, number, h = 45, 25, "107", counters.digit_height(3)
    w = h / 2
    laid = [
        [[round(x + look["digits_at"][0] + i * w * look["digit_advance"] + a * w, 3),
          round(y + look["digits_at"][1] + c * w, 3)] for a, c in line]
        for i, digit in enumerate(number)
        for line in look["digits"][digit]
    ]  # fmt: skip
    drawn = counters._digits(number, x + look["digits_at"][0], y + look["digits_at"][1], h)
    assert sorted(map(str, laid)) == sorted(map(str, drawn))
    assert set(look["symbols"]) >= {"rifle", "tank", "cavalry", "artillery", "fortress"}


class Sent(list[dict[str, Any]]):
    def __call__(self, message: dict[str, Any], *_: Any) -> None:
        self.append(message)


@pytest.fixture
def layer(monkeypatch: pytest.MonkeyPatch) -> tuple[UnitsLayer, Sent]:
    units = UnitsLayer("войска")
    sent = Sent()
    monkeypatch.setattr(units.widget, "send", sent)
    return units, sent


def test_only_the_counters_that_changed_are_sent(layer: tuple[UnitsLayer, Sent]) -> None:
    units, sent = layer
    a, b = _unit("1 с.д.", ["10,10"]), _unit("2 с.д.", ["11,10"])
    units.show(counters.counters_geojson(_view(a, b)))
    assert [m["type"] for m in sent] == ["changes"] and len(sent[0]["set"]) == 2
    assert (sent[0]["base"], sent[0]["rev"]) == (0, 1)
    units.show(counters.counters_geojson(_view(a, b)))  # nothing changed: nothing sent
    assert len(sent) == 1
    moved = _unit("2 с.д.", ["12,10"])
    units.show(counters.counters_geojson(_view(a, moved)))
    assert [r["k"] for r in sent[1]["set"]] == ["2 с.д."] and sent[1]["gone"] == []
    assert (sent[1]["base"], sent[1]["rev"]) == (1, 2)
    units.show(counters.counters_geojson(_view(a)))
    assert sent[2]["set"] == [] and sent[2]["gone"] == ["2 с.д."]
    assert units.sent == 3


def test_a_browser_that_missed_a_change_gets_everything(layer: tuple[UnitsLayer, Sent]) -> None:
    units, sent = layer
    units.show(counters.counters_geojson(_view(_unit("1 с.д.", ["10,10"]))))
    units._message(units.widget, {"type": "ready", "rev": -1})  # a new page
    assert sent[-1] == {"type": "all", "rev": 1, "units": list(units.records.values()),
                        "corps": []}  # fmt: skip
    units._message(units.widget, {"type": "ready", "rev": 1})  # already up to date
    assert len(sent) == 2


def test_a_click_and_a_hover_report_the_counter(layer: tuple[UnitsLayer, Sent]) -> None:
    units, _ = layer
    got: list[tuple[str, str]] = []
    units.on_click(lambda **e: got.append(("click", e["feature"]["properties"]["unit"])))
    units.on_hover(lambda **e: got.append((e["event"], e["properties"]["unit"])))
    units.show(counters.counters_geojson(_view(_unit("1 с.д.", ["10,10"]))))
    units._message(units.widget, {"type": "click", "key": "1 с.д."})
    units._message(units.widget, {"type": "hover", "key": "1 с.д."})
    units._message(units.widget, {"type": "click", "key": "99 с.д."})  # gone since: nothing
    units._message(units.widget, {"type": "bogus", "key": "1 с.д."})
    assert got == [("click", "1 с.д."), ("hover", "1 с.д.")]
