"""Movement on the table (seed 003): the three worked examples, the speed and slowdown of every
row, formation changes, limbering, restoring order, change of front, obstacles."""

from __future__ import annotations

import math
from dataclasses import replace
from fractions import Fraction

import pytest

from strategia.explain.render import explanation_text
from strategia.explain.trace import Explained
from strategia.rules.load import apply_house_text
from strategia.tactical.actions import parse_actions
from strategia.tactical.data import ruler, tactical_rules
from strategia.tactical.execute import Carried, carry_out
from strategia.tactical.moving import moving
from strategia.tactical.skirmish import Obstacle, ObstacleKind, Road, Skirmish, Table, new_table
from strategia.tactical.units import Condition, Formation, TacticalError, Unit, new_unit

RULES = tactical_rules()


def table(
    *units: Unit, obstacles: tuple[Obstacle, ...] = (), roads: tuple[Road, ...] = ()
) -> Table:
    return new_table(Skirmish("test", 200, 200, obstacles, roads, units))


def band(
    kind: ObstacleKind, y0: float, y1: float = 190, top: tuple[float, float] | None = None
) -> Obstacle:
    """An obstacle across the whole table between y0 and y1."""
    return Obstacle(kind, polygon=((0, y0), (200, y0), (200, y1), (0, y1)), top=top, name=kind.key)


def run(t: Table, name: str, plan: str) -> Carried:
    return carry_out(t, name, parse_actions(plan), RULES)


def inf(
    name: str = "bn",
    figures: int = 16,
    formation: str = "line",
    at: tuple[float, float] = (100, 10),
    **kw: object,
) -> Unit:
    return new_unit(name, "red", "infantry", figures, at, 0, formation, **kw)  # type: ignore[arg-type]


def text(c: Carried) -> str:
    return "\n".join(line for s in c.steps for line in explanation_text(s))


# --- the seed's three worked examples -----------------------------------------------------------


def test_example_battalion_moves_then_forms_square() -> None:
    """16 figures in division column: square takes 8 pairs × 1/20 = 2/5 of a turn, so it may
    first move 3/5 of the column's 12 cm: 12:5×3 = 7.2, «примерно на 7 см»."""
    c = run(table(inf(formation="column")), "bn", "move; form square")
    u = c.table.unit("bn")
    assert u.moved == Fraction(36, 5) and ruler(u.moved, RULES) == 7
    assert u.formation is Formation.SQUARE and u.spent == 1
    assert (u.x, u.y) == (100, 17.2)
    assert c.steps[1].value == "2/5"
    assert "pairs of figures = 8" in text(c) and "1/20" in text(c)


def test_example_line_meets_a_hill_after_4_cm() -> None:
    """10 − 4 = 6 left; 6:3 = 2 lost on the hill; 6 − 2 = 4 more."""
    c = run(table(inf(), obstacles=(band(ObstacleKind.HILL, 14),)), "bn", "move")
    u = c.table.unit("bn")
    assert u.moved == 8 and u.spent == 1
    assert "6 − 6 × 1/3 = 4" in text(c)
    assert u.condition is Condition.FORMED  # infantry stays formed on a hill


def test_example_column_leaves_the_scrub() -> None:
    """6 cm out of the scrub count as 8 (6 is 3/4 of 8): 12 − 8 = 4 more, or, restoring order
    (1/5 of 12), 4 − 2.4 = 1.6 (the seed: 1.5)."""
    col = inf(formation="column", condition="disordered")  # 4 cm deep: its rear leaves at 6 cm
    scrub = band(ObstacleKind.SCRUB, 0, 12)
    c = run(table(col, obstacles=(scrub,)), "bn", "move")
    assert c.table.unit("bn").moved == 10  # 6 + 4
    assert "as 8 cm of clear going" in text(c)
    c = run(table(col, obstacles=(scrub,)), "bn", "move; restore")
    u = c.table.unit("bn")
    assert u.moved - 6 == Fraction(8, 5) and ruler(u.moved - 6, RULES) == Fraction(3, 2)
    assert u.condition is Condition.FORMED and u.spent == 1


# --- every row of the speed table ------------------------------------------------------------------

ROWS = {
    "line": ("infantry", "line", None, "foot"),
    "column": ("infantry", "column", None, "foot"),
    "march": ("infantry", "march", None, "foot"),
    "skirmish": ("infantry", "loose", None, "foot"),
    "cavalry_formed_light": ("cavalry", "line", "light", "foot"),
    "cavalry_formed_medium": ("cavalry", "march", "medium", "foot"),
    "cavalry_formed_heavy": ("cavalry", "line", "heavy", "foot"),
    "cavalry_dispersed_light": ("cavalry", "loose", "light", "foot"),
    "cavalry_dispersed_medium": ("cavalry", "loose", "medium", "foot"),
    "cavalry_dispersed_heavy": ("cavalry", "loose", "heavy", "foot"),
    "limbered_foot_light": ("artillery", "limbered", "light", "foot"),
    "limbered_foot_heavy": ("artillery", "limbered", "heavy", "foot"),
    "limbered_horse": ("artillery", "limbered", "light", "horse"),
    "prolonge_light": ("artillery", "prolonge", "light", "foot"),
    "prolonge_heavy": ("artillery", "prolonge", "heavy", "foot"),
    "hand_light": ("artillery", "unlimbered", "light", "foot"),
    "hand_heavy": ("artillery", "unlimbered", "heavy", "foot"),
}


def unit_of(row: str, **kw: object) -> Unit:
    arm, formation, weight, draught = ROWS[row]
    guns = 4 if arm == "artillery" else 0
    return new_unit(
        "u", "red", arm, 8, (100, 10), 0, formation, weight=weight, draught=draught, guns=guns, **kw
    )  # type: ignore[arg-type]


@pytest.mark.parametrize("row", ROWS)
def test_every_speed_row_is_slowed_only_in_the_obstacle(row: str) -> None:
    u = unit_of(row)
    assert u.speed_row() == row
    v = Fraction(RULES.value("speeds", row, "forward"))
    k = Fraction(RULES.value("slowdown", row, "slowdown"))
    c = run(table(u, obstacles=(band(ObstacleKind.HILL, 11, 190, top=(100, 180)),)), "u", "move")
    assert c.table.unit("u").moved == 1 + (v - 1) * (1 - k)
    assert c.table.unit("u").spent == 1


@pytest.mark.parametrize("row", ROWS)
def test_the_seeds_dashes_are_refused(row: str) -> None:
    for mode, verb in (("withdrawal", "withdraw 1"), ("accelerated", "double 1")):
        if RULES.value("speeds", row, mode) == 0:
            with pytest.raises(TacticalError, match="«--»"):
                run(table(unit_of(row)), "u", verb)


def test_accelerated_and_withdrawal_speeds() -> None:
    c = run(table(inf()), "bn", "double")
    assert c.table.unit("bn").moved == RULES.value("speeds", "line", "accelerated")
    c = run(table(inf()), "bn", "withdraw")
    u = c.table.unit("bn")
    assert u.moved == 5 and u.y == 5 and u.facing == 0  # back, still facing the enemy


def test_flight_is_for_routed_troops_only() -> None:
    with pytest.raises(TacticalError, match="only routed"):
        run(table(inf(formation="loose")), "bn", "flee")
    routed = inf(formation="loose", condition="routed")
    with pytest.raises(TacticalError, match="routed"):
        run(table(routed), "bn", "move")
    c = run(table(routed), "bn", "flee towards 180")
    u = c.table.unit("bn")
    assert u.moved == 30 and u.facing == 180 and u.y == -20


def test_foot_guns_flee_faster_than_their_crews() -> None:
    c = run(table(unit_of("limbered_foot_light", condition="routed")), "u", "flee")
    assert c.table.unit("u").moved == 30  # the crew's 30; the guns' 60 is the rule data's


# --- formation changes ----------------------------------------------------------------------------

CHANGES = [
    # arm, figures, squadrons, from, to, turns (part of a turn for every 2 figures)
    ("infantry", 16, 1, "line", "column", Fraction(1)),  # 8 × 1/8
    ("infantry", 12, 1, "march", "square", Fraction(1)),  # 6 × 1/6
    ("infantry", 10, 1, "march", "line", Fraction(1)),  # 5 × 1/5
    ("infantry", 16, 1, "column", "square", Fraction(2, 5)),  # 8 × 1/20
    ("infantry", 10, 1, "line", "loose", Fraction(1, 2)),  # 5 × 1/10
    ("infantry", 6, 1, "loose", "line", Fraction(1)),  # 3 × 1/3
    ("infantry", 15, 1, "line", "column", Fraction(1)),  # an odd figure counts a pair
    ("cavalry", 8, 2, "line", "column", Fraction(1, 2)),  # head squadron not counted: 2 × 1/4
    ("cavalry", 8, 2, "march", "column", Fraction(4, 5)),  # 4 × 1/5
    ("cavalry", 8, 1, "march", "line", Fraction(1)),  # 4 × 1/4
    ("cavalry", 8, 1, "line", "loose", Fraction(2, 5)),  # 4 × 1/10
]


@pytest.mark.parametrize(("arm", "figures", "squadrons", "src", "dst", "need"), CHANGES)
def test_formation_change_times(
    arm: str, figures: int, squadrons: int, src: str, dst: str, need: Fraction
) -> None:
    u = new_unit("u", "red", arm, figures, (100, 10), 0, src, squadrons=squadrons)
    c = run(table(u), "u", f"form {dst}")
    done = c.table.unit("u")
    assert done.formation is Formation.parse(dst) and done.spent == need and done.changed


def test_a_change_longer_than_the_turn_finishes_next_turn() -> None:
    from strategia.tactical.formations import carry_on

    u = new_unit("u", "red", "infantry", 16, (100, 10), 0, "march")
    c = run(table(u), "u", "form line; move 3")  # 8 × 1/5 = 8/5 turns
    busy = c.table.unit("u")
    assert busy.formation is Formation.MARCH and busy.pending is not None
    assert busy.pending.left == Fraction(3, 5) and busy.spent == 1 and busy.moved == 0
    t = c.table.with_unit(replace(busy, spent=Fraction(0)))  # the next turn
    done = carry_on(t, "u", RULES).table.unit("u")
    assert (
        done.formation is Formation.LINE and done.spent == Fraction(3, 5) and done.pending is None
    )


def test_cavalry_columns_need_two_squadrons_and_no_squares() -> None:
    with pytest.raises(TacticalError, match="2 squadrons"):
        run(table(new_unit("c", "red", "cavalry", 4, (100, 10), 0, "line")), "c", "form column")
    with pytest.raises(TacticalError, match="forms line, column, march, loose"):
        run(
            table(new_unit("c", "red", "cavalry", 8, (100, 10), 0, "column", squadrons=2)),
            "c",
            "form square",
        )


def test_rallying_routed_troops_takes_a_turn_a_pair() -> None:
    u = inf(figures=4, formation="loose", condition="routed")
    c = run(table(u), "bn", "form column facing 90")
    busy = c.table.unit("bn")
    assert busy.pending is not None and busy.pending.left == 1  # 2 pairs × 1/3 × 3 = 2 turns


def test_forming_from_loose_order_faces_any_way_at_no_time() -> None:
    c = run(table(inf(figures=6, formation="loose")), "bn", "form line facing 90")
    u = c.table.unit("bn")
    assert u.facing == 90 and u.spent == 1
    with pytest.raises(TacticalError, match="wheel instead"):
        run(table(inf()), "bn", "form column facing 90")


# --- limbering ------------------------------------------------------------------------------------

LIMBERING = [
    ("limbered", "unlimbered", 0, Fraction(1, 2)),
    ("unlimbered", "limbered", 0, Fraction(2, 3)),
    ("unlimbered", "prolonge", 0, Fraction(1)),
    ("prolonge", "unlimbered", 0, Fraction(2, 3)),
    (
        "limbered",
        "unlimbered",
        1,
        Fraction(1, 2) + Fraction(1, 3),
    ),  # + 1/3 a 'killed' gunner figure
]


@pytest.mark.parametrize(("src", "dst", "lost", "need"), LIMBERING)
def test_limbering_times(src: str, dst: str, lost: int, need: Fraction) -> None:
    u = replace(new_unit("b", "red", "artillery", 6, (100, 10), 0, src, guns=4), lost=lost)
    done = run(table(u), "b", f"form {dst}").table.unit("b")
    assert done.formation is Formation.parse(dst) and done.spent == need


def test_unlimbering_battery_faces_any_way_and_turns_in_half_a_turn() -> None:
    u = new_unit("b", "red", "artillery", 6, (100, 10), 0, "limbered", guns=4)
    c = run(table(u), "b", "unlimber facing 270; face 45")
    b = c.table.unit("b")
    assert b.formation is Formation.UNLIMBERED and b.facing == 45 and b.spent == 1
    c = run(table(u), "b", "move 2; unlimber; face 45")  # 1/5 + 1/2: no half turn left to turn
    b = c.table.unit("b")
    assert b.facing == 0 and b.spent == Fraction(7, 10)
    assert "not enough of the turn left" in text(c)


# --- restoring order ------------------------------------------------------------------------------


@pytest.mark.parametrize("figures", [2, 8, 24])
def test_restoring_order_is_a_fifth_of_a_turn_whatever_the_size(figures: int) -> None:
    c = run(table(inf(figures=figures, condition="disordered")), "bn", "restore")
    u = c.table.unit("bn")
    assert u.condition is Condition.FORMED and u.spent == Fraction(1, 5)


def test_scattered_troops_form_as_from_loose_order() -> None:
    c = run(table(inf(figures=8, condition="scattered")), "bn", "restore")
    u = c.table.unit("bn")
    assert u.condition is Condition.SCATTERED  # 4 pairs × 1/3 = 4/3: a third left for next turn
    assert u.pending is not None and u.pending.left == Fraction(1, 3)
    c = run(table(inf(figures=2, condition="scattered")), "bn", "restore")
    assert c.table.unit("bn").condition is Condition.FORMED and c.table.unit(
        "bn"
    ).spent == Fraction(1, 3)


# --- change of front --------------------------------------------------------------------------------


def test_wheel_about_the_front_corner_figure() -> None:
    c = run(table(inf(figures=4)), "bn", "wheel 90")  # 4 cm front: the far corner runs 2π cm
    u = c.table.unit("bn")
    assert u.facing == 90
    assert (u.x, u.y) == pytest.approx((102, 12))  # pivot (102, 10) stays
    assert float(u.spent) == pytest.approx(4 * math.pi / 2 / 10, abs=1e-6)
    c = run(table(inf(figures=4)), "bn", "wheel -90")
    u = c.table.unit("bn")
    assert u.facing == 270 and (u.x, u.y) == pytest.approx((98, 12))


def test_a_wheel_longer_than_the_turn_is_cut() -> None:
    c = run(table(inf(figures=16)), "bn", "wheel 90")  # 8π ≈ 25 cm > 10
    u = c.table.unit("bn")
    assert u.spent == 1 and 0 < u.facing < 90
    assert u.facing == pytest.approx(math.degrees(10 / 16), abs=1e-3)


def test_changes_of_front_that_cost_nothing() -> None:
    for formation, plan, facing in [
        ("square", "face 90", 90),
        ("march", "face 37", 37),
        ("loose", "face 180", 180),
    ]:
        c = run(table(inf(formation=formation)), "bn", plan)
        u = c.table.unit("bn")
        assert u.facing == facing and u.spent == 0, formation
    c = run(table(inf(formation="square")), "bn", "face 45")
    assert c.table.unit("bn").spent > 0  # not square to a face: a wheel


def test_retreat_faces_about_at_no_time_and_only_infantry_keeps_closed_order() -> None:
    c = run(table(inf(figures=4, formation="column")), "bn", "retreat 6")
    u = c.table.unit("bn")
    assert u.facing == 180 and u.moved == 6 and u.spent == Fraction(1, 2)
    assert u.y == 10 - 4 - 6  # the old rear rank (4 cm back) is the new front
    with pytest.raises(TacticalError, match="only infantry"):
        run(table(new_unit("c", "red", "cavalry", 4, (100, 10), 0, "line")), "c", "retreat 5")
    run(table(new_unit("c", "red", "cavalry", 4, (100, 10), 0, "loose")), "c", "retreat 5")


def test_moving_off_the_facing_needs_a_change_of_front_except_in_march_order() -> None:
    with pytest.raises(TacticalError, match="change of front first"):
        run(table(inf()), "bn", "move 5 towards 90")
    u = run(table(inf(formation="march")), "bn", "move 5 towards 90").table.unit("bn")
    assert (u.x, u.y, u.facing) == (105, 10, 90)
    sq = run(table(inf(formation="square")), "bn", "move 5 towards 270").table.unit("bn")
    assert (sq.x, sq.facing) == (95, 0)


# --- obstacles ------------------------------------------------------------------------------------


def hedge(y: float) -> Obstacle:
    return Obstacle(ObstacleKind.HEDGE, line=((0, y), (200, y)), name="hedge")


def test_a_column_has_crossed_when_all_its_figures_have() -> None:
    # the hedge counts 1 cm deep; the column is 4 cm deep: slowed from 2 to 2 + 1 + 4 = 7 cm
    c = run(table(inf(formation="column"), obstacles=(hedge(12),)), "bn", "move")
    assert c.table.unit("bn").moved == 7 + (1 - Fraction(1, 6) - Fraction(5, 9)) * 12
    assert c.table.unit("bn").condition is Condition.DISORDERED
    line = run(table(inf(), obstacles=(hedge(12),)), "bn", "move").table.unit("bn")
    assert line.moved == 9  # 2 clear (1/5), 2 slowed (3/10), 5 clear


def test_artillery_stops_at_scrub_and_crosses_a_hill() -> None:
    u = new_unit("b", "red", "artillery", 6, (100, 10), 0, "limbered", guns=2)
    c = run(table(u, obstacles=(band(ObstacleKind.SCRUB, 13),)), "b", "move")
    assert c.table.unit("b").moved == 3 and "impassable to artillery" in text(c)
    assert c.table.unit("b").condition is Condition.FORMED


def test_forest_in_march_order_along_a_road() -> None:
    forest = band(ObstacleKind.FOREST, 12)
    road = (Road(((100, 0), (100, 200))),)
    free = run(
        table(inf(formation="march"), obstacles=(forest,), roads=road), "bn", "move road"
    ).table.unit("bn")
    assert free.moved == 15 and free.condition is Condition.FORMED
    slowed = run(table(inf(formation="march"), obstacles=(forest,)), "bn", "move").table.unit("bn")
    assert slowed.moved == 2 + 13 * Fraction(3, 4) and slowed.condition is Condition.SCATTERED
    guns = new_unit("b", "red", "artillery", 6, (100, 10), 0, "limbered", guns=2)
    assert run(table(guns, obstacles=(forest,)), "b", "move road").table.unit("b").moved == 10
    assert run(table(guns, obstacles=(forest,)), "b", "move").table.unit("b").moved == 2


def test_cavalry_is_disordered_going_down_a_hill() -> None:
    cav = new_unit("c", "red", "cavalry", 4, (100, 10), 0, "line", weight="light")
    up = run(table(cav, obstacles=(band(ObstacleKind.HILL, 11, 100, top=(100, 60)),)), "c", "move")
    assert up.table.unit("c").condition is Condition.FORMED
    over = run(
        table(cav, obstacles=(band(ObstacleKind.HILL, 11, 100, top=(100, 14)),)), "c", "move"
    )
    assert over.table.unit("c").condition is Condition.DISORDERED


def test_scattered_troops_keep_their_formations_speed() -> None:
    cav = new_unit("c", "red", "cavalry", 4, (100, 10), 0, "line", weight="light")
    c = run(table(cav, obstacles=(band(ObstacleKind.SCRUB, 12, 14),)), "c", "move")
    u = c.table.unit("c")
    assert u.condition is Condition.SCATTERED and u.formation is Formation.LINE
    # 2 clear, 3 slowed (2 cm of scrub + 1 cm deep) at 20 × 2/3, the rest at the formed 20
    assert u.moved == 5 + (1 - Fraction(1, 10) - Fraction(9, 40)) * 20


def test_troops_in_loose_order_are_only_slowed() -> None:
    c = run(
        table(inf(figures=4, formation="loose"), obstacles=(band(ObstacleKind.FOREST, 12),)),
        "bn",
        "move",
    )
    u = c.table.unit("bn")
    assert u.condition is Condition.FORMED and u.moved == 2 + 10 * Fraction(4, 5)
    assert "only slowed" in text(c)


def test_passing_through_friends_and_batteries() -> None:
    front = inf("front", figures=8, at=(100, 20))
    c = run(table(inf(formation="column"), front), "bn", "move")
    assert c.table.unit("bn").condition is Condition.SCATTERED
    assert c.table.unit("front").condition is Condition.DISORDERED
    march = run(table(inf(formation="march"), front), "bn", "move").table
    assert (
        march.unit("bn").condition is Condition.FORMED
        and march.unit("front").condition is Condition.FORMED
    )
    battery = new_unit("bty", "red", "artillery", 6, (100, 20), 0, "unlimbered", guns=2)
    t = run(table(inf(formation="column"), battery), "bn", "move").table
    assert t.unit("bty").ceasefire == Fraction(1, 2)
    guns = new_unit("b", "red", "artillery", 6, (100, 10), 0, "limbered", guns=2)
    assert run(table(guns, battery), "b", "move").table.unit("b").moved < 10


def test_enemy_contact_stops_the_move() -> None:
    enemy = new_unit("foe", "blue", "infantry", 8, (100, 16), 180, "line")
    c = run(table(inf(), enemy), "bn", "move")
    assert c.table.unit("bn").moved == 6  # fronts meet at y 16
    assert "contact" in text(c)


def test_moving_means_two_cm_or_a_formation_change() -> None:
    """003, note 3 to the speeds: «Для того, чтобы считаться двигающимся, отряд должен в ход
    совершить передвижение в любую сторону на дистанцию не меньше 2 см, либо совершить
    перестроение». A line that moves 1 cm does not count as moving; 2 cm (not less than 2)
    does, and so does a withdrawal of 2 cm (any direction); a battalion that only forms column
    (2 figures: one pair × 1/8 of a turn) does, having moved 0 cm, and so does a disordered one
    restoring order. The answer is the rule data's (`moving`), explained with the rule."""

    def answer(t: Table, plan: str) -> Explained[bool]:
        return moving(run(t, "bn", plan).table.unit("bn"), RULES)

    assert answer(table(inf()), "move 1").value is False
    assert answer(table(inf()), "move 2").value is True
    assert answer(table(inf()), "withdraw 2").value is True
    formed = answer(table(inf(figures=2)), "form column")
    assert formed.value is True
    assert answer(table(inf(condition="disordered")), "restore").value is True
    why = explanation_text(answer(table(inf()), "move 1").explanation)
    assert why[0] == "bn: counts as moving = no  [003 speeds, note 3]"
    assert any("a move in any direction of at least = 2 cm" in line for line in why)
    assert any("moved this turn, in any direction = 1 cm" in line for line in why)
    ru = explanation_text(formed.explanation, "ru")
    assert ru[0] == "bn: считается двигающимся = да  [003, скорость передвижения, примеч. 3]"
    assert any("перестроение в этот ход = да" in line for line in ru)
    house = apply_house_text(RULES, "[moving]\nmin_cm = 1\nformation_change = false\n", "h")
    assert moving(run(table(inf()), "bn", "move 1").table.unit("bn"), house).value is True
    column = run(table(inf(figures=2)), "bn", "form column").table.unit("bn")
    assert moving(column, house).value is False


def test_explanations_cite_the_seeds_sections() -> None:
    c = run(
        table(inf(formation="column"), obstacles=(hedge(12),)), "bn", "move; form square; wheel 10"
    )
    rules = {s.rule for step in c.steps for s in step.walk()}
    assert {"003 speeds", "003 obstacles", "003 formation changes", "003 change of front"} <= rules
    lookups = [s for step in c.steps for s in step.walk() if s.kind == "lookup"]
    assert any("reconstructed" in (s.note.en if s.note else "") for s in lookups)
