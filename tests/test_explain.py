"""The explanation tree: built while computing, rendered separately, round-trips as JSON."""

from __future__ import annotations

from strategia.core.geometry import round_to
from strategia.core.i18n import Text
from strategia.explain.render import explanation_html, explanation_text, fmt
from strategia.explain.trace import Step, explain, record, tracing
from strategia.rules import RuleSet
from strategia.rules.distances import table_distance


def test_nested_groups_attach_to_the_open_group() -> None:
    assert not tracing()
    with explain(Text("battle", "бой"), rule="9.8") as outer:
        record("a", 1, rule="x")
        with explain("inner", rule="9.6") as inner:
            inner.step("b", 2.5, unit="km")
            inner.set(2.5)
        outer.set(3.5)
        assert tracing()
    tree = outer.freeze()
    assert [c.label.en for c in tree.children] == ["a", "inner"]
    assert tree.children[1].children[0].unit == "km"
    assert Step.from_json(tree.to_json()) == tree
    assert tree.find("9.6")[0].value == 2.5
    assert not tracing()


def test_record_outside_a_trace_does_nothing() -> None:
    record("nothing", 1)  # no error, nothing kept


def test_renderers() -> None:
    s = Step(Text("total", "итого"), 0.30000000000000004, rule="9.6", note=Text("n", "п"),
             children=(Step(Text("part", "часть"), 1.0, kind="lookup", rule="table 7"),))  # fmt: skip
    assert explanation_text(s, "en") == ["total = 0.3  [9.6]  (n)", "  · part = 1  [table 7]"]
    assert explanation_text(s, "ru")[0] == "итого = 0,3  [9.6]  (п)"
    html = explanation_html(s, "ru")
    assert "итого" in html and "[табл. 7]" in html and "<script" not in html
    assert "&lt;b&gt;" in explanation_html(Step(Text("<b>")), "en")
    assert (
        fmt(2.0) == "2"
        and fmt(0.125) == "0.13"
        and fmt(0.825) == "0.83"
        and fmt(True) == "yes"
        and fmt(None) == ""
    )


# Surviving printed cells of tables 2 and 3 (000): (x, y) -> distance in cells.
TABLE_2 = {(6, 2): 6.5, (9, 3): 9.5, (10, 3): 10.5, (11, 3): 11.5, (12, 4): 12.5, (13, 4): 13.5,
           (14, 4): 14.5, (15, 4): 15.5, (16, 4): 16.5, (17, 5): 17.5, (18, 5): 18.5}  # fmt: skip
# Table 3 is printed with 1-based indices: offset = index - 1.
TABLE_3 = {(1, 1): 1.5, (1, 2): 2.25, (2, 2): 2.75, (2, 3): 3.5, (2, 4): 4.5, (3, 3): 4.25,
           (3, 5): 5.75, (3, 6): 6.75, (4, 4): 5.75, (4, 5): 6.5, (4, 6): 7.25, (5, 6): 7.75,
           (6, 6): 8.5, (5, 7): 8.5}  # fmt: skip


def test_table_2_and_3_are_computed(rules: RuleSet) -> None:
    for (x, y), d in TABLE_2.items():
        assert table_distance(x, y, rules) == d, (x, y)
    assert table_distance(18, 6, rules) == 19.0  # printed 19.5: the one disagreeing cell
    for (x, y), d in TABLE_3.items():
        assert table_distance(x, y, rules, diagonal=True) == d, (x, y)
    assert round_to(2.25, 0.5) == 2.5


def test_units_and_yes_no_speak_the_readers_language() -> None:
    def line(value: float | bool | str, unit: str, lang: str) -> str:
        return explanation_text(Step(Text("t", "т"), value, unit=unit), lang)[0]  # type: ignore[arg-type]

    assert [line(v, "turn", "ru") for v in (1, 2, 5, 21, 0.5, 4.5)] == [
        "т = 1 ход", "т = 2 хода", "т = 5 ходов", "т = 21 ход", "т = 0,5 хода", "т = 4,5 хода"
    ]  # fmt: skip
    assert line(1, "turn", "en") == "t = 1 turn" and line(0.5, "turn", "en") == "t = 0.5 turn"
    assert line("2/5", "turn", "ru") == "т = 2/5 хода" and line(20, "km", "ru") == "т = 20 км"
    assert line(True, "", "ru") == "т = да" and line(False, "", "en") == "t = no"
    assert "хода" in explanation_html(Step(Text("t", "т"), 3, unit="turn"), "ru")
    assert line(30, "°", "ru") == "т = 30°"


def test_rule_ids_as_the_reader_calls_them() -> None:
    from strategia.explain.render import rule_label

    assert rule_label("table 4", "ru") == "табл. 4" and rule_label("table 4", "en") == "table 4"
    assert rule_label("4.8", "ru") == "4.8" and rule_label("9.8b", "ru") == "9.8б"
    assert rule_label("003 speeds", "ru") == "003, скорость передвижения"
    assert "[табл. 7]" in explanation_text(Step(Text("t", "т"), 1, rule="table 7"), "ru")[0]
