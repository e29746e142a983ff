"""Division ratings derived from their regiments (9.6, tables 7-10), each with its explanation.

Level 1: a division's rating is 9.6's initial rating times what is left of it.
Level 2 and up: each regiment takes part in a fight with its direct rating, its support rating or
not at all, by the division's formation and the side the blow lands on (the patterns of
`formation_patterns`, 9.6); the division's rating is the sum, times strength. Where a printed
table (9-1, 9-2, 10) gives a value for the division's type, that value is the rating at full
strength and losses scale it by the derivation: the printed tables stand, and where they differ
from the derivation the breakdown says so.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from strategia.core.i18n import Text
from strategia.core.numbers import num
from strategia.explain.render import rule_label
from strategia.explain.trace import Explained, Trace, explain, quiet, record, tracing
from strategia.rules import RuleSet
from strategia.rules.english import en
from strategia.rules.kinds import Facing, Formation, RegimentKind, RegimentsFacing, Role, blow_on
from strategia.rules.schema import parse_pattern
from strategia.rules.units import Division, Regiment, composition, new_division


@dataclass(frozen=True, slots=True)
class Contribution:
    """One regiment's part in a division's rating."""

    regiment: Regiment
    group: str
    role: Role
    per_unit: float  # the table 7 rating of its role, at full strength

    @property
    def value(self) -> float:
        return self.per_unit * self.regiment.strength


def _round(x: float) -> float:
    return round(x, 6)


def regiment_rating(
    kind: RegimentKind, role: Role, rules: RuleSet, division: Division | None = None
) -> float:
    """Table 7's rating of a regiment in `role` (a division may adjust it, table 8)."""
    if role is Role.NONE:
        return 0.0
    col = "direct" if role is Role.DIRECT else "support"
    if division is not None:
        adjusted = rules.get("rating_adjustments", division.kind.key, f"{kind.key}_{col}")
        if adjusted is not None:
            return float(adjusted)
    return float(rules.value("regiment_ratings", kind.key, col))


def _line_rating(
    kind: RegimentKind, role: Role, rules: RuleSet, division: Division, group: str, cap: bool
) -> float:
    """A regiment's rating in a formation; with `cap`, a line regiment out of contact adds at
    most its direct rating (`rating_rules.cap_line_support`)."""
    value = regiment_rating(kind, role, rules, division)
    if not (cap and role is Role.SUPPORT and group != "arm"):
        return value
    adjusted = rules.get("rating_adjustments", division.kind.key, f"{kind.key}_direct")
    peek = (
        adjusted
        if adjusted is not None
        else rules.param("regiment_ratings", kind.key, "direct").value
    )
    if float(peek) >= value:
        return value
    direct = regiment_rating(kind, Role.DIRECT, rules, division)
    record(
        Text("capped at its direct rating", "не больше рейтинга непосредственного столкновения"),
        direct,
        rule="9.6",
    )
    return direct


def pattern_row(formation: Formation, regiments_facing: RegimentsFacing) -> str:
    """The row of `formation_patterns` and `rating_targets` for a formation."""
    suffix = "_front_line" if regiments_facing is RegimentsFacing.FRONT_LINE else ""
    return formation.key + suffix


def _groups(division: Division, formation: Formation, rules: RuleSet) -> dict[str, list[Regiment]]:
    if formation is Formation.LINEAR:
        return {"line": list(division.line), "arm": list(division.arm)}
    # Supporting formation (table 10): the weakest line regiment stands behind the others.
    line = list(division.line)
    if len(line) < 2:
        return {"first": line, "second": [], "arm": list(division.arm)}
    label = Text("behind: the weakest line regiment", "позади: слабейший полк линии")
    with explain(label, rule="table 10") as g:
        directs = [float(rules.value("regiment_ratings", r.kind.key, "direct")) for r in line]
        rear = min(range(len(line)), key=lambda i: (directs[i], -i))
        g.set(line[rear].kind.ru)
    return {
        "first": [r for i, r in enumerate(line) if i != rear],
        "second": [line[rear]],
        "arm": list(division.arm),
    }


def assign_roles(tokens: tuple[tuple[Role, bool], ...], n: int) -> list[Role]:
    """Roles for `n` regiments, nearest the blow first, from a group's pattern tokens.

    The token marked `*` (else the last one) stands for every regiment the others leave.
    """
    star = next((i for i, (_, rep) in enumerate(tokens) if rep), len(tokens) - 1)
    before = [r for r, _ in tokens[:star]]
    after = [r for r, _ in tokens[star + 1 :]]
    fill = n - len(before) - len(after)
    if fill <= 0:  # no more regiments than the pattern names: the nearest keep their roles
        return [*before, tokens[star][0], *after][:n]  # (a lone regiment is the nearest)
    return before + [tokens[star][0]] * fill + after


def rating(
    division: Division,
    rules: RuleSet,
    *,
    formation: Formation = Formation.LINEAR,
    facing: Facing = Facing.FRONT,
    regiments_facing: RegimentsFacing = RegimentsFacing.ENEMY,
) -> Explained[float]:
    """The division's rating against a blow on `facing`, with its breakdown (9.6)."""
    title = Text(
        en(f"Rating of {division} against a blow on the {facing.en}"),
        f"Рейтинг {division}: удар {blow_on(facing.key, 'ru')}",
    )
    with explain(title, rule="9.6") as ex:
        if rules.level < 2:
            return _rating_level1(division, rules, ex)
        row = pattern_row(formation, regiments_facing)
        ex.step(
            Text(
                en(f"formation: {formation.en}, regiments {regiments_facing.en}"),
                f"построение: {formation.ru}, полки {regiments_facing.ru}",
            ),
            kind="note",
            rule="9.6",
        )
        parts = contributions(division, rules, formation, facing, regiments_facing)
        derived = _round(sum(c.value for c in parts))
        full = _round(sum(c.per_unit for c in parts))
        if _incomplete(division, rules):
            with quiet():
                whole = new_division(division.number, division.kind, rules)
                full = _round(
                    sum(
                        c.per_unit
                        for c in contributions(whole, rules, formation, facing, regiments_facing)
                    )
                )
            ex.step(
                Text(
                    en(
                        f"{len(division.regiments)} of its {len(whole.regiments)} regiments: "
                        f"the whole division at full strength derives {num(full)}"
                    ),
                    f"полков {len(division.regiments)} из {len(whole.regiments)}: "
                    f"вся дивизия полной численности — {num(full, 'ru')}",
                ),
                kind="note",
                rule="9.6",
            )
        ex.step(Text("derived from the regiments", "по полкам"), derived, rule="9.6")
        result = _calibrate(division, rules, ex, row, facing, derived, full)
        ex.set(result)
        return ex.explained(result)


def _incomplete(division: Division, rules: RuleSet) -> bool:
    """Whether the division has other regiments than table 1 gives its kind (a part of it, or
    one that passed or received a regiment, 4.9-4.11)."""
    line, arm = composition(division.kind, rules)
    return (tuple(r.kind for r in division.line), tuple(r.kind for r in division.arm)) != (
        line,
        arm,
    )


def contributions(
    division: Division,
    rules: RuleSet,
    formation: Formation,
    facing: Facing,
    regiments_facing: RegimentsFacing,
) -> list[Contribution]:
    """Each regiment's part in the division's rating by the formation's pattern (level 2+)."""
    row = pattern_row(formation, regiments_facing)
    pattern = _pattern(str(rules.value("formation_patterns", row, facing.key)))
    cap = bool(rules.value("rating_rules", "cap_line_support"))
    parts: list[Contribution] = []
    for group, members in _groups(division, formation, rules).items():
        roles = assign_roles(pattern.get(group, ((Role.NONE, True),)), len(members))
        for i, (reg, role) in enumerate(zip(members, roles, strict=True)):
            parts.append(_contribution(division, reg, group, i, role, rules, cap))
    return parts


_pattern = lru_cache(maxsize=256)(parse_pattern)  # a pattern's text read once (not changed)


def _contribution(
    division: Division,
    reg: Regiment,
    group: str,
    index: int,
    role: Role,
    rules: RuleSet,
    cap: bool,
) -> Contribution:
    if not tracing():  # the step would be kept by no one: the value alone
        return Contribution(
            reg, group, role, _line_rating(reg.kind, role, rules, division, group, cap)
        )
    where = {"line": "line", "first": "first line", "second": "behind", "arm": "artillery"}[group]
    where_ru = {"line": "в линии", "first": "впереди", "second": "позади", "arm": "артиллерия"}[
        group
    ]
    label = Text(
        en(
            f"{reg.kind.ru} ({where} {index + 1}, {role.en}): rating × strength {num(reg.strength)}"
        ),
        f"{reg.kind.ru} ({where_ru} {index + 1}, {role.ru}): "
        f"рейтинг × численность {num(reg.strength, 'ru')}",
    )
    with explain(label, rule="table 7") as g:
        per_unit = _line_rating(reg.kind, role, rules, division, group, cap)
        c = Contribution(reg, group, role, per_unit)
        g.set(_round(c.value))
    return c


def _calibrate(
    division: Division,
    rules: RuleSet,
    ex: Trace,
    row: str,
    facing: Facing,
    derived: float,
    full: float,
) -> float:
    target = str(rules.value("rating_targets", row, facing.key))
    entry_key, _, column = target.partition(".")
    entry = rules.entry(entry_key)
    if division.kind.key not in entry.rows:
        ex.step(
            Text(
                en(f"{entry.rule} has no row for {division.kind.ru}: the derivation is the rating"),
                f"в {rule_label(entry.rule, 'ru')} нет строки {division.kind.ru}: "
                "рейтинг равен выведенному",
            ),
            kind="note",
            rule=entry.rule,
        )
        return derived
    printed = float(rules.value(entry_key, division.kind.key, column))
    if abs(printed - full) > 1e-9:
        ex.step(
            Text(
                en(
                    f"{entry.rule} prints {num(printed)} where the derivation at full strength "
                    f"gives {num(full)}: the printed value stands"
                ),
                f"{rule_label(entry.rule, 'ru')} дает {num(printed, 'ru')}, вывод по полкам при "
                f"полной численности — {num(full, 'ru')}: действует таблица",
            ),
            kind="note",
            rule=entry.rule,
        )
    if abs(derived - full) <= 1e-9:
        return printed
    share = _round(derived / full) if full > 0 else 0.0
    ex.step(Text("share left (derived / full strength)", "доля (по полкам / полная)"), share)
    return _round(printed * share)


def _rating_level1(division: Division, rules: RuleSet, ex: Trace) -> Explained[float]:
    ex.step(
        Text(
            "level 1: tables 7-10 do not act; the rating does not depend on formation or facing",
            "1 уровень: таблицы 7-10 не действуют; рейтинг не зависит от построения и ориентации",
        ),
        kind="note",
        rule="0.2",
    )
    base = float(rules.value("initial_ratings", division.kind.key, "rating"))
    strength = _round(division.strength)
    ex.step(Text("strength left", "численность"), strength)
    result = _round(base * strength)
    ex.set(result)
    return ex.explained(result)


def support_rating(division: Division, rules: RuleSet) -> Explained[float]:
    """The division's support rating (9.6, table 8): its artillery's support ratings only."""
    title = Text(en(f"Support rating of {division}"), f"Рейтинг поддержки {division}")
    with explain(title, rule="9.6") as ex:
        parts: list[tuple[Regiment, float]] = []
        for reg in division.regiments:
            if not rules.value("regiment_classes", reg.kind.key, "artillery"):
                continue
            label = Text(
                en(f"{reg.kind.ru}: support rating × strength {num(reg.strength)}"),
                f"{reg.kind.ru}: рейтинг поддержки × численность {num(reg.strength, 'ru')}",
            )
            with explain(label, rule="table 7") as g:
                per_unit = regiment_rating(reg.kind, Role.SUPPORT, rules, division)
                g.set(_round(per_unit * reg.strength))
            parts.append((reg, per_unit))
        derived = _round(sum(p * r.strength for r, p in parts))
        full = _round(sum(p for _, p in parts))
        result = derived
        if division.kind.key in rules.entry("division_ratings").rows:
            printed = float(rules.value("division_ratings", division.kind.key, "support"))
            if abs(printed - full) > 1e-9:
                ex.step(
                    Text(
                        en(
                            f"table 8 prints {num(printed)}, the derivation gives {num(full)}: "
                            "the printed value stands"
                        ),
                        f"таблица 8 дает {num(printed, 'ru')}, вывод — {num(full, 'ru')}: "
                        "действует таблица",
                    ),
                    kind="note",
                    rule="table 8",
                )
                result = _round(printed * derived / full) if full > 0 else 0.0
        ex.set(result)
        return ex.explained(result)


@dataclass(frozen=True, slots=True)
class CheckRow:
    """A printed rating (tables 8-10) against its derivation from table 7 at full strength."""

    table: str
    division: str
    column: str
    printed: float
    derived: float

    @property
    def agrees(self) -> bool:
        return abs(self.printed - self.derived) <= 1e-9


def derivation_check(rules: RuleSet) -> list[CheckRow]:
    """Every printed division rating of tables 8, 9-1, 9-2 and 10 against its derivation."""
    from strategia.rules.kinds import DivisionKind

    rules = rules.at_level(max(rules.level, 2))
    rows: list[CheckRow] = []
    t8 = rules.entry("division_ratings")
    for kind_key in t8.rows:
        d = new_division(0, DivisionKind.from_key(kind_key), rules)
        direct = _round(
            sum(
                c.per_unit
                for c in contributions(
                    d, rules, Formation.LINEAR, Facing.FRONT, RegimentsFacing.ENEMY
                )
            )
        )
        rows.append(
            CheckRow(t8.rule, d.kind.ru, "direct", float(t8.rows[kind_key]["direct"].value), direct)
        )
        rows.append(
            CheckRow(
                t8.rule,
                d.kind.ru,
                "support",
                float(t8.rows[kind_key]["support"].value),
                support_rating(d, rules).value,
            )
        )
    seen: set[tuple[str, str, str]] = set()
    targets = rules.entry("rating_targets")
    for row_key, cells in targets.rows.items():
        formation = Formation.from_key(row_key.removesuffix("_front_line"))
        rf = (
            RegimentsFacing.FRONT_LINE if row_key.endswith("_front_line") else RegimentsFacing.ENEMY
        )
        for facing_key, target in cells.items():
            entry_key, _, column = str(target.value).partition(".")
            entry = rules.entry(entry_key)
            for kind_key, printed in entry.rows.items():
                if (entry_key, kind_key, column) in seen:
                    continue
                seen.add((entry_key, kind_key, column))
                d = new_division(0, DivisionKind.from_key(kind_key), rules)
                parts = contributions(d, rules, formation, Facing.from_key(facing_key), rf)
                derived = _round(sum(c.per_unit for c in parts))
                rows.append(
                    CheckRow(entry.rule, d.kind.ru, column, float(printed[column].value), derived)
                )
    return rows
