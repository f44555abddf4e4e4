"""Rule sets, presets and their names (RULES.md, "Rule sets")."""

from __future__ import annotations

import itertools

import pytest

from quads import ADVANCED, CLASSIC, PRESETS, QUADS, Calling, InvalidRulesError, Rules, ShapeSet
from quads.pieces import Trait
from quads.rules import ALL_TRAITS, parse_traits
from quads.shapes import LINES, SHAPES

TRAIT_MASKS = range(1, 16)
ALL_RULES = [
    Rules(shapes, traits, calling)
    for shapes, traits, calling in itertools.product(ShapeSet, TRAIT_MASKS, Calling)
]


def test_presets() -> None:
    assert Rules(ShapeSet.LINES_SQUARES, ALL_TRAITS, Calling.AUTO) == QUADS
    assert Rules(ShapeSet.LINES, ALL_TRAITS, Calling.DECLARE) == CLASSIC
    assert Rules(ShapeSet.LINES_SQUARES, ALL_TRAITS, Calling.DECLARE) == ADVANCED
    assert PRESETS == {"quads": QUADS, "classic": CLASSIC, "advanced": ADVANCED}


def test_quads_is_the_default() -> None:
    assert Rules() == QUADS


@pytest.mark.parametrize(("name", "rules"), list(PRESETS.items()))
def test_presets_are_named_by_their_preset_name(name: str, rules: Rules) -> None:
    assert rules.name == name
    assert str(rules) == name
    assert Rules.parse(name) is rules
    assert Rules.parse(f"  {name.upper()} ") is rules


def test_sixty_rule_sets() -> None:
    # Two shape sets, fifteen non-empty trait subsets, two ways of calling.
    assert len(ALL_RULES) == len(set(ALL_RULES)) == 60


@pytest.mark.parametrize("rules", ALL_RULES, ids=lambda rules: rules.name)
def test_every_rule_set_name_round_trips(rules: Rules) -> None:
    assert Rules.parse(rules.name) == rules
    assert Rules.parse(rules.name.upper()) == rules


def test_only_presets_have_short_names() -> None:
    names = [rules.name for rules in ALL_RULES]
    assert len(set(names)) == 60
    assert sorted(name for name in names if ":" not in name) == ["advanced", "classic", "quads"]


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("lines:color:auto", "lines:color:auto"),
        ("lines:color,height:auto", "lines:height,color:auto"),
        ("lines+squares:height,top:declare", "lines+squares:height,top:declare"),
        ("lines:shape", "lines:shape:auto"),
        ("lines", "lines:height,color,shape,top:auto"),
        ("declare", "advanced"),
        ("lines:declare", "classic"),
        ("declare:lines", "classic"),
        ("height,color,shape,top", "quads"),
        ("top , shape:lines+squares", "lines+squares:shape,top:auto"),
        ("auto:color:lines", "lines:color:auto"),
        ("LINES:Color:DECLARE", "lines:color:declare"),
    ],
)
def test_parse_takes_parts_in_any_order_and_defaults_from_quads(text: str, name: str) -> None:
    assert Rules.parse(text).name == name


def test_custom_rule_set_parts() -> None:
    rules = Rules.parse("lines+squares:height,top:declare")
    assert rules.shapes is ShapeSet.LINES_SQUARES
    assert rules.traits == Trait.HEIGHT.mask | Trait.TOP.mask
    assert rules.counted_traits == (Trait.HEIGHT, Trait.TOP)
    assert rules.calling is Calling.DECLARE
    assert rules.declare


def test_winning_shapes_follow_the_shape_set() -> None:
    assert Rules.parse("lines").winning_shapes == LINES
    assert CLASSIC.winning_shapes == LINES
    assert QUADS.winning_shapes == SHAPES
    assert len(ADVANCED.shape_masks) == 19
    assert CLASSIC.shape_masks == tuple(shape.cells for shape in LINES)


def test_declare_flag() -> None:
    assert not QUADS.declare
    assert CLASSIC.declare
    assert ADVANCED.declare


def test_with_traits_keeps_shapes_and_calling() -> None:
    rules = CLASSIC.with_traits(Trait.COLOR.mask)
    assert rules == Rules(ShapeSet.LINES, Trait.COLOR.mask, Calling.DECLARE)
    assert rules.name == "lines:color:declare"
    assert rules.with_traits(ALL_TRAITS) is not CLASSIC
    assert rules.with_traits(ALL_TRAITS) == CLASSIC
    assert rules.with_traits(ALL_TRAITS).name == "classic"


def test_rules_are_hashable_values() -> None:
    assert len({Rules.parse("lines:color"), Rules.parse("auto:color:lines"), QUADS}) == 2


def test_parse_traits() -> None:
    assert parse_traits("color") == Trait.COLOR.mask
    assert parse_traits("top, height") == Trait.TOP.mask | Trait.HEIGHT.mask
    assert parse_traits("height,color,shape,top") == ALL_TRAITS


@pytest.mark.parametrize("traits", [0, 16, -1, True, 1.5])
def test_a_rule_set_counts_at_least_one_of_the_four_traits(traits: object) -> None:
    with pytest.raises(InvalidRulesError) as info:
        Rules(ShapeSet.LINES, traits)  # type: ignore[arg-type]
    assert repr(traits) in str(info.value)
    with pytest.raises(InvalidRulesError):
        QUADS.with_traits(traits)  # type: ignore[arg-type]


def test_rules_refuse_parts_of_the_wrong_type() -> None:
    with pytest.raises(InvalidRulesError):
        Rules("lines", ALL_TRAITS, Calling.AUTO)  # type: ignore[arg-type]
    with pytest.raises(InvalidRulesError):
        Rules(ShapeSet.LINES, ALL_TRAITS, "auto")  # type: ignore[arg-type]
