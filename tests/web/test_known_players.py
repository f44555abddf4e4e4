"""What a server process remembers of the tokens it checked: a bounded memory, the
least lately used forgotten first, and every token of a player forgotten on the news
that one of them changed."""

from __future__ import annotations

import hashlib

from quads.web.middleware.known_players import KnownPlayers


def _id(n: int) -> str:
    return hashlib.sha256(str(n).encode()).hexdigest()


def test_the_least_lately_used_are_forgotten_first_and_the_memory_is_bounded() -> None:
    known = KnownPlayers(most=3)
    for n in range(3):
        known.add(_id(n))
    assert known.get(_id(0)) == _id(0)  # used: now the latest
    known.add(_id(3))
    assert len(known) == 3
    assert known.get(_id(1)) is None  # the least lately used went
    assert [known.get(_id(n)) for n in (0, 2, 3)] == [_id(0), _id(2), _id(3)]
    for n in range(4, 1000):
        known.add(_id(n))
    assert len(known) == 3


def test_a_players_sessions_are_forgotten_with_it() -> None:
    known = KnownPlayers(most=10)
    player, phone, laptop = _id(1), _id(2), _id(3)
    known.add(player)
    known.add(player, token_hash=phone)
    known.add(player, token_hash=laptop)
    known.add(_id(4))
    assert player in known
    assert known.get(phone) == player
    known.forget(player)
    assert [known.get(token) for token in (player, phone, laptop)] == [None, None, None]
    assert player not in known
    assert known.get(_id(4)) == _id(4)  # another player is not touched


def test_a_session_pushed_out_leaves_no_trace_of_its_player() -> None:
    known = KnownPlayers(most=2)
    player, session = _id(1), _id(2)
    known.add(player, token_hash=session)
    assert player in known  # known by its session alone
    known.add(_id(3))
    known.add(_id(4))
    assert known.get(session) is None
    assert player not in known


def test_what_was_read_before_a_forgetting_is_not_believed() -> None:
    known = KnownPlayers()
    mark = known.mark()
    known.forget(_id(9))  # news meanwhile
    known.add(_id(1), mark)
    assert known.get(_id(1)) is None
    known.add(_id(1), known.mark())
    assert known.get(_id(1)) == _id(1)


def test_nothing_is_believed_while_news_could_be_missed() -> None:
    known = KnownPlayers()
    known.add(_id(1))
    known.trusted = lambda: False
    assert known.get(_id(1)) is None
    assert _id(1) not in known
