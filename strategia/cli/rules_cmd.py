"""`strategia rules` (the rules sheet) and `strategia rating` (a division's rating explained)."""

from __future__ import annotations

import argparse
from typing import Any

from strategia.cli.output import Output
from strategia.core.errors import StrategiaError
from strategia.core.i18n import Text
from strategia.explain.render import explanation_text, fmt
from strategia.rules import load_ruleset, ruleset_names
from strategia.rules.kinds import DivisionKind, Facing, Formation, RegimentsFacing
from strategia.rules.ratings import derivation_check, rating, support_rating
from strategia.rules.sheet import sheet_json, sheet_text
from strategia.rules.units import new_division


def add_commands(sub: Any, parent: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "rules",
        parents=[parent],
        help="print the effective rules sheet (rule 0.3)",
        description="Print every rule in effect at a level, by rule id, with reconstructed "
        "([r]) and house-rule ([h]) values marked. A house-rules file (TOML) mirrors the rule "
        "data: [entry.row] column = value for tables, [entry] param = value for parameter "
        "lists; the keys are those the sheet prints.",
    )
    _ruleset_options(p)
    p.add_argument(
        "--check", action="store_true", help="print tables 8-10 against their derivation"
    )
    p.set_defaults(handler=rules_sheet)

    p = sub.add_parser(
        "rating",
        parents=[parent],
        help="a division's rating against a blow, with its breakdown (9.6)",
    )
    p.add_argument(
        "unit", help="unit type: с.д., т.д., м.д., кав.д., сау.д., пт.д., а.д. or RD, TD, ..."
    )
    p.add_argument("--formation", default="linear", help="linear (line) or supporting")
    p.add_argument("--facing", default="front", help="front, flank45, flank90, flank135 or rear")
    p.add_argument(
        "--regiments-facing",
        default="enemy",
        help="enemy (turned to meet the blow, tables 9-1, 10) or front-line (9-2, 10*)",
    )
    p.add_argument(
        "--strength",
        default="1",
        help="what is left: one share for every regiment, or one per regiment, comma-separated",
    )
    p.add_argument("--number", type=int, default=1, help="the division's number")
    p.add_argument("--support", action="store_true", help="also the support rating (9.6, 9.8c)")
    _ruleset_options(p)
    p.set_defaults(handler=rating_command)


def _ruleset_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--ruleset", default="continental", choices=ruleset_names())
    p.add_argument("--level", type=int, default=3, choices=(1, 2, 3), help="game level (0.2)")
    p.add_argument("--house", action="append", metavar="FILE", help="house-rules file (0.3)")


def rules_sheet(args: argparse.Namespace) -> Output:
    rules = load_ruleset(args.ruleset, level=args.level, house=args.house)
    if not args.check:
        return Output(sheet_text(rules, args.lang), sheet_json(rules))
    if "division_ratings" not in rules.entries:
        raise StrategiaError(
            f"--check compares division ratings (9.6): {rules.name} has none",
            ru=f"--check сравнивает рейтинги дивизий (9.6): в «{rules.name}» их нет",
        )
    rows = derivation_check(rules)
    head = Text(
        "Printed division ratings against their derivation from table 7 (9.6)",
        "Рейтинги дивизий из таблиц и их вывод по таблице 7 (9.6)",
    )(args.lang)
    lines = [head]
    for r in rows:
        mark = "ok" if r.agrees else "DIFFERS"
        lines.append(
            f"  {r.table:<10} {r.division:<8} {r.column:<22} "
            f"printed {fmt(r.printed):<6} derived {fmt(r.derived):<6} {mark}"
        )
    data = [
        {
            "table": r.table,
            "division": r.division,
            "column": r.column,
            "printed": r.printed,
            "derived": r.derived,
            "agrees": r.agrees,
        }
        for r in rows
    ]
    return Output("\n".join(lines), data)


def _strengths(text: str) -> tuple[float, ...] | float:
    try:
        values = tuple(float(s) for s in text.split(","))
    except ValueError:
        raise StrategiaError(
            f"--strength {text!r}: expected numbers 0..1, comma-separated",
            ru=f"--strength {text!r}: нужны числа от 0 до 1 через запятую",
        ) from None
    return values[0] if len(values) == 1 else values


def rating_command(args: argparse.Namespace) -> Output:
    rules = load_ruleset(args.ruleset, level=args.level, house=args.house)
    kind = DivisionKind.parse(args.unit)
    division = new_division(args.number, kind, rules).with_strengths(_strengths(args.strength))
    formation = Formation.parse(args.formation)
    facing = Facing.parse(args.facing)
    regiments_facing = RegimentsFacing.parse(args.regiments_facing)
    r = rating(
        division, rules, formation=formation, facing=facing, regiments_facing=regiments_facing
    )
    lines = explanation_text(r.explanation, args.lang)
    data: dict[str, Any] = {
        "unit": str(division),
        "kind": kind.key,
        "level": rules.level,
        "formation": formation.key,
        "facing": facing.key,
        "regiments_facing": regiments_facing.key,
        "strengths": [reg.strength for reg in division.regiments],
        "rating": r.value,
        "explanation": r.explanation.to_json(),
    }
    if args.support:
        s = support_rating(division, rules)
        lines += ["", *explanation_text(s.explanation, args.lang)]
        data["support_rating"] = s.value
        data["support_explanation"] = s.explanation.to_json()
    return Output("\n".join(lines), data)
