"""Pieces and their four traits (RULES.md, "Pieces")."""

from __future__ import annotations

import pytest

from quads import (
    InvalidPieceError,
    InvalidRulesError,
    Trait,
    describe_piece,
    parse_piece,
    piece_name,
)
from quads.pieces import ALL_PIECES, PIECES, TRAITS, piece_traits, trait_name, trait_word


def test_sixteen_pieces_one_for_each_combination_of_traits() -> None:
    assert len({piece_traits(piece) for piece in PIECES}) == 16
    # PIECES are exactly the integers a piece may be, and ALL_PIECES is their set.
    valid = []
    for number in range(-4, 20):
        try:
            piece_name(number)
        except InvalidPieceError:
            continue
        valid.append(number)
    assert tuple(valid) == PIECES
    mask = 0
    for piece in PIECES:
        mask |= 1 << piece
    assert mask == ALL_PIECES


@pytest.mark.parametrize("trait", list(Trait))
def test_each_trait_splits_the_pieces_in_halves_and_names_itself(trait: Trait) -> None:
    having = [piece for piece in PIECES if dict(piece_traits(piece))[trait]]
    assert len(having) == 8
    assert dict(piece_traits(trait.mask)) == {t: t is trait for t in TRAITS}
    assert Trait.parse(trait.identifier) is trait


def test_a_piece_is_the_sum_of_the_traits_it_has() -> None:
    for piece in PIECES:
        assert sum(trait.mask for trait, value in piece_traits(piece) if value) == piece


def test_traits_in_conventional_order_high_bit_first() -> None:
    assert sorted(TRAITS, key=lambda trait: -trait.mask) == list(TRAITS)
    assert set(TRAITS) == set(Trait)
    # Descriptions follow that order: the word of each trait stands in its place.
    for index, trait in enumerate(TRAITS):
        words = describe_piece(trait.mask).split()
        assert words[index] == trait_word(trait, True)
        assert [w for i, w in enumerate(words) if i != index] == [
            trait_word(t, False) for t in TRAITS if t is not trait]


def test_trait_parse_ignores_case_and_spaces() -> None:
    assert Trait.parse(" Color ") is Trait.COLOR
    assert Trait.parse("TOP") is Trait.TOP


def test_f_is_tall_dark_square_hollow_and_0_short_light_round_solid() -> None:
    assert piece_traits(0xF) == (
        (Trait.HEIGHT, True), (Trait.COLOR, True), (Trait.SHAPE, True), (Trait.TOP, True),
    )
    assert piece_traits(0) == (
        (Trait.HEIGHT, False), (Trait.COLOR, False), (Trait.SHAPE, False), (Trait.TOP, False),
    )


@pytest.mark.parametrize(
    ("piece", "english", "german"),
    [
        (0xF, "tall dark square hollow", "groß dunkel eckig hohl"),
        (0x0, "short light round solid", "klein hell rund massiv"),
        (0x8, "tall light round solid", "groß hell rund massiv"),
        (0x4, "short dark round solid", "klein dunkel rund massiv"),
        (0x2, "short light square solid", "klein hell eckig massiv"),
        (0x1, "short light round hollow", "klein hell rund hohl"),
        (0xA, "tall light square solid", "groß hell eckig massiv"),
        (0x5, "short dark round hollow", "klein dunkel rund hohl"),
    ],
)
def test_describe_piece_in_english_and_german(piece: int, english: str, german: str) -> None:
    assert describe_piece(piece) == english
    assert describe_piece(piece, "en") == english
    assert describe_piece(piece, "de") == german


@pytest.mark.parametrize(
    ("trait", "en", "de"),
    [
        (Trait.HEIGHT, ("tall", "short", "height"), ("groß", "klein", "Größe")),
        (Trait.COLOR, ("dark", "light", "colour"), ("dunkel", "hell", "Farbe")),
        (Trait.SHAPE, ("square", "round", "shape"), ("eckig", "rund", "Form")),
        (Trait.TOP, ("hollow", "solid", "top"), ("hohl", "massiv", "Oberseite")),
    ],
)
def test_trait_words(trait: Trait, en: tuple[str, str, str], de: tuple[str, str, str]) -> None:
    assert (trait_word(trait, True), trait_word(trait, False), trait_name(trait)) == en
    assert (
        trait_word(trait, True, "de"), trait_word(trait, False, "de"), trait_name(trait, "de")
    ) == de


def test_piece_names_are_upper_case_hex_digits() -> None:
    assert [piece_name(p) for p in PIECES] == list("0123456789ABCDEF")


@pytest.mark.parametrize("piece", PIECES)
def test_piece_name_round_trips_in_either_case(piece: int) -> None:
    name = piece_name(piece)
    assert parse_piece(name) == piece
    assert parse_piece(name.lower()) == piece


@pytest.mark.parametrize("text", ["", "G", "10", "-1", " ", "x", "0x"])
def test_parse_piece_refuses_anything_but_one_hex_digit(text: str) -> None:
    with pytest.raises(InvalidPieceError, match="invalid piece") as info:
        parse_piece(text)
    assert repr(text) in str(info.value)


@pytest.mark.parametrize("piece", [-1, 16, True, 3.0, "7"])
def test_piece_name_refuses_non_pieces(piece: object) -> None:
    with pytest.raises(InvalidPieceError) as info:
        piece_name(piece)  # type: ignore[arg-type]
    assert repr(piece) in str(info.value)
    with pytest.raises(InvalidPieceError):
        describe_piece(piece)  # type: ignore[arg-type]


@pytest.mark.parametrize("text", ["colour", "size", "", "heights"])
def test_trait_parse_refuses_unknown_names(text: str) -> None:
    with pytest.raises(InvalidRulesError) as info:
        Trait.parse(text)
    assert repr(text) in str(info.value)
