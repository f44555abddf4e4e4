"""Accounts on a real store: signing up keeps everything a player had, signing in
merges the device's anonymous player, sessions end, and refusals change nothing."""

from __future__ import annotations

import time

import pytest
from tests.site.site_helpers import online_game

from quads.site.accounts.codes import hashed, normal_code
from quads.site.accounts.names import check_name
from quads.site.accounts.passkeys import NewPasskey
from quads.site.accounts.passwords import check_password, verify_password
from quads.site.accounts.service import Accounts
from quads.site.accounts.throttle import AccountThrottle
from quads.site.errors import SiteError
from quads.storage import GameStore
from quads.storage.accounts import DELETED_NAME, AccountStore
from quads.storage.bot_keys import BotKeys

GOOD = "tall quiet heron by the lake"
ALICE, BOB, CAROL = "a" * 64, "b" * 64, "c" * 64


@pytest.fixture
def accounts(store: GameStore) -> Accounts:
    for player in (ALICE, BOB, CAROL):
        store.add_player(player)
    return Accounts(AccountStore(store), AccountThrottle("3/hour"))


def _refused(code: str, reason: str = "") -> pytest.RaisesExc[SiteError]:
    return pytest.raises(SiteError, check=lambda e: e.code == code and (
        not reason or e.reason == reason))


@pytest.mark.parametrize(("name", "reason"), [
    ("ab", "length"), ("a" * 21, "length"), ("has space", "characters"),
    ("émile", "characters"), ("Admin", "reserved"), ("quads", "reserved"),
])
def test_names_refused(name: str, reason: str) -> None:
    with _refused("invalid_name", reason):
        check_name(name)


@pytest.mark.parametrize("name", ["abc", "A-b_9", "x" * 20])
def test_names_taken(name: str) -> None:
    assert check_name(name) == name


@pytest.mark.parametrize(("password", "reason"), [
    ("short1!", "too_short"), ("x" * 129, "too_long"), ("password1234", "common"),
    ("1234567890", "common"), ("aaaaaaaaaaaa", "common"), ("heron-Alice-2026", "like_name"),
])
def test_weak_passwords_refused(password: str, reason: str) -> None:
    with _refused("weak_password", reason):
        check_password(password, "Alice")


def test_a_good_password_passes() -> None:
    check_password(GOOD, "Alice")


def test_sign_up_keeps_the_player_and_retires_its_first_token(
        store: GameStore, accounts: Accounts) -> None:
    signed = accounts.sign_up(ALICE, "Alice", GOOD, "Firefox on Linux")
    assert signed.player == ALICE
    assert len(signed.recovery_codes) == 10
    keys = BotKeys(store)
    assert keys.player_of(ALICE) is None  # the token whose hash is the id no longer leads in
    assert keys.player_of(hashed(signed.session)) == (ALICE, True)
    account = accounts.account(ALICE)
    assert account.name == "Alice"
    assert verify_password(account.password, GOOD)
    assert account.password != GOOD


def test_names_are_unique_without_regard_to_case(accounts: Accounts) -> None:
    accounts.sign_up(ALICE, "Alice", GOOD, "d")
    with _refused("name_taken"):
        accounts.sign_up(BOB, "aLICE", GOOD, "d")
    with _refused("account_exists"):
        accounts.sign_up(ALICE, "Alice2", GOOD, "d")
    assert accounts.store.of(BOB) is None


def test_a_wrong_name_and_a_wrong_password_are_refused_alike(accounts: Accounts) -> None:
    accounts.sign_up(ALICE, "Alice", GOOD, "d")
    errors, times = [], []
    for name, password in (("Nobody", GOOD), ("Alice", "not the password")):
        start = time.perf_counter()
        with pytest.raises(SiteError) as caught:
            accounts.sign_in(name, password, "d", None)
        times.append(time.perf_counter() - start)
        errors.append((caught.value.code, caught.value.message))
    assert errors[0] == errors[1] == ("bad_credentials", "no account has this name and password")
    assert min(times) > 0.003  # both verified a hash


def test_sign_in_merges_the_anonymous_player_of_the_device(
        store: GameStore, accounts: Accounts) -> None:
    accounts.sign_up(ALICE, "Alice", GOOD, "d")
    game = online_game(store, BOB, CAROL)
    signed = accounts.sign_in("alice", GOOD, "Chrome on Android", BOB)
    assert signed.merged
    assert signed.name == "Alice"
    stored = store.load(game)
    assert (stored.first_player, stored.second_player) == (ALICE, CAROL)
    assert BotKeys(store).player_of(BOB) is None
    assert len(accounts.sessions(ALICE)) == 2


def test_an_account_is_never_merged_into_another(store: GameStore, accounts: Accounts) -> None:
    accounts.sign_up(ALICE, "Alice", GOOD, "d")
    bob = accounts.sign_up(BOB, "Bob", GOOD, "d")
    signed = accounts.sign_in("Alice", GOOD, "d", BOB)
    assert not signed.merged
    assert BotKeys(store).player_of(hashed(bob.session)) == (BOB, True)


def test_a_session_ends(store: GameStore, accounts: Accounts) -> None:
    first = accounts.sign_up(ALICE, "Alice", GOOD, "one")
    second = accounts.sign_in("Alice", GOOD, "two", None)
    listed = accounts.sessions(ALICE)
    assert {s.device for s in listed} == {"one", "two"}
    accounts.end_session(ALICE, hashed(second.session)[:16])
    assert BotKeys(store).player_of(hashed(second.session)) is None
    assert BotKeys(store).player_of(hashed(first.session)) == (ALICE, True)
    with _refused("not_found"):
        accounts.end_session(ALICE, hashed(second.session)[:16])
    with _refused("not_found"):
        accounts.end_session(BOB, hashed(first.session)[:16])  # not Bob's


def test_failures_throttle_strangers_but_not_a_trusted_device(accounts: Accounts) -> None:
    signed = accounts.sign_up(ALICE, "Alice", GOOD, "home")
    for _ in range(3):
        with _refused("bad_credentials"):
            accounts.sign_in("Alice", "wrong password!", "d", None)
    with _refused("rate_limited") as caught:
        accounts.sign_in("Alice", GOOD, "d", None)  # even the right one, from a stranger
    assert int(caught.value.params["retry_after"]) > 0
    again = accounts.sign_in("Alice", GOOD, "home", None, trusted=signed.trusted)
    assert again.player == ALICE
    assert again.trusted == signed.trusted


def test_failures_at_names_nobody_has_are_forgotten_once_their_windows_empty(
        store: GameStore) -> None:
    """Credential stuffing tries made-up names; each is counted, then forgotten."""
    throttle = AccountThrottle("1/second")
    accounts = Accounts(AccountStore(store), throttle)
    for n in range(3):
        with _refused("bad_credentials"):
            accounts.sign_in(f"nobody-{n}", "wrong password!", "d", None)
    for n in range(1500):
        throttle.failed(f"early-{n}")
    time.sleep(1.1)  # every early name's failure has left its window
    for n in range(1500):
        throttle.failed(f"late-{n}")
    assert throttle.windows.held() <= 1500


def test_recovery_codes_work_once(accounts: Accounts) -> None:
    codes = accounts.sign_up(ALICE, "Alice", GOOD, "d").recovery_codes
    typed = codes[0].lower().replace("-", " ")
    assert accounts.recover("Alice", typed, "d", None).player == ALICE
    with _refused("bad_credentials"):
        accounts.recover("Alice", codes[0], "d", None)
    assert accounts.store.recovery_codes_left(ALICE) == 9
    assert normal_code(" abcd efgh-jklm ") == "ABCD-EFGH-JKLM"


def test_a_link_code_lets_one_device_in(accounts: Accounts) -> None:
    accounts.sign_up(ALICE, "Alice", GOOD, "d")
    code, _ = accounts.new_link_code(ALICE)
    assert accounts.link(code, "phone", CAROL).player == ALICE
    with _refused("bad_link_code"):
        accounts.link(code, "phone", None)
    with _refused("not_signed_in"):
        accounts.new_link_code(BOB)


def test_a_deleted_account_keeps_its_games_for_the_opponents(
        store: GameStore, accounts: Accounts) -> None:
    signed = accounts.sign_up(ALICE, "Alice", GOOD, "d")
    game = online_game(store, ALICE, BOB)
    with _refused("bad_credentials"):
        accounts.delete(ALICE, "Alice", "wrong password!")
    accounts.delete(ALICE, "alice", GOOD)
    assert BotKeys(store).player_of(hashed(signed.session)) is None
    assert store.load(game).names[0] == DELETED_NAME
    with _refused("bad_credentials"):
        accounts.sign_in("Alice", GOOD, "d", None)
    with _refused("name_taken"):
        accounts.sign_up(BOB, "ALICE", GOOD, "d")


def test_a_password_changes(accounts: Accounts) -> None:
    accounts.sign_up(ALICE, "Alice", GOOD, "d")
    with _refused("bad_credentials"):
        accounts.change_password(ALICE, "wrong", "another fine long phrase")
    accounts.change_password(ALICE, GOOD, "another fine long phrase")
    assert accounts.sign_in("Alice", "another fine long phrase", "d", None).player == ALICE


def test_an_account_without_a_password_proves_itself_by_its_own_passkey(
        accounts: Accounts) -> None:
    passkey = NewPasskey("credential-id", "public-key", 0)
    accounts.sign_up(ALICE, "Alice", None, "d", passkey=passkey)
    account = accounts.account(ALICE)
    with _refused("bad_credentials"):
        accounts.check_password_again(account, None)  # no proof at all
    with _refused("bad_credentials"):
        accounts.check_password_again(account, None, passkey=BOB)  # another's passkey
    accounts.check_password_again(account, None, passkey=ALICE)
    with _refused("bad_credentials"):
        accounts.delete(ALICE, "Alice", None)
    accounts.delete(ALICE, "Alice", None, passkey=ALICE)
    with _refused("not_signed_in"):
        accounts.account(ALICE)
