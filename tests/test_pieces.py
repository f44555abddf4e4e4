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
    assert tuple(range(16)) == PIECES
    assert ALL_PIECES == 0xFFFF
    assert len({piece_traits(piece) for piece in PIECES}) == 16


@pytest.mark.parametrize(
    ("trait", "bit", "identifier"),
    [
        (Trait.HEIGHT, 3, "height"),
        (Trait.COLOR, 2, "color"),
        (Trait.SHAPE, 1, "shape"),
        (Trait.TOP, 0, "top"),
    ],
)
def test_trait_bits(trait: Trait, bit: int, identifier: str) -> None:
    assert trait.value == bit
    assert trait.mask == 1 << bit
    assert trait.identifier == identifier
    assert Trait.parse(identifier) is trait


def test_traits_in_conventional_order_high_bit_first() -> None:
    assert TRAITS == (Trait.HEIGHT, Trait.COLOR, Trait.SHAPE, Trait.TOP)


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
