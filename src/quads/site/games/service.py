"""What a caller does to a game, from start to rematch: each operation loads the game
as the caller may see it, checks who may do what, changes it by the rules of
:mod:`quads.site.games.play`, saves it and tells its followers.

:class:`Games` is the one object the web layer calls for a game; its routes and its
live socket only read the request and answer.  Every operation either changes the
game completely or, raising, not at all.  The store's calls block: the web layer
runs them in its database lane.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from quads.clock import TimeControl
from quads.game import Action, Game
from quads.outcome import Player
from quads.site.accounts.rated import rated_category, require_account
from quads.site.errors import SiteError
from quads.site.games import actions, clocks, play, seats
from quads.site.games.calls import online_rules
from quads.site.games.seats import Side
from quads.site.games.uploads import Change, DeviceGame, upload
from quads.storage import GameNotFoundError, GameStore, Mode, StaleGameError, StoredGame
from quads.storage.stored import GameSummary, Status, now

__all__ = ["Followers", "GameRules", "Games"]


class Followers(Protocol):
    """Who follows games as they change: the web layer's live hub."""

    def publish(self, game_id: str, stored: StoredGame | None = None, *,
                gone: bool = False) -> None:
        """Tell the followers of ``game_id`` its state as saved, or that it is gone."""
        ...

    def connected(self, game_id: str) -> frozenset[str]:
        """The seat holders who have ``game_id`` open now."""
        ...


class GameRules(clocks.AbandonLimits, Protocol):
    """What an operator tunes of the games (:class:`quads.web.settings.Settings`)."""

    @property
    def clock_grace(self) -> float:
        """Seconds for each side's first turn of a real-time game."""
        ...


@dataclass(frozen=True)
class Games:
    """The games of the site, kept in ``store``, followed by ``followers``."""

    store: GameStore
    followers: Followers
    rules: GameRules

    # ---- seeing --------------------------------------------------------------

    def load(self, game_id: str, player: str | None) -> StoredGame:
        """Game ``game_id`` as ``player`` may see it.

        :raises GameNotFoundError: if there is none, or ``player`` may not see it.
        """
        return seats.load_visible(self.store, game_id, player)

    def page(self, player: str | None, status: Status | None, limit: int,
             after: tuple[str, str] | None) -> tuple[list[GameSummary], tuple[str, str] | None]:
        """A page of ``player``'s games in which somebody has acted, most recently played
        first, after the key ``after``: the summaries and the key of the next page."""
        if player is None:
            return [], None
        summaries = self.store.summaries(status, player=player, limit=limit + 1, after=after)
        if len(summaries) <= limit:
            return summaries, None
        summaries = summaries[:limit]
        return summaries, self.store.page_key(summaries[-1])

    def by_invite(self, token: str) -> StoredGame:
        """The online game that invitation ``token`` seats one in.

        :raises SiteError: ``not_found`` if no game has it.
        """
        game_id = self.store.find_invite(token)
        if game_id is None:
            raise SiteError.not_found("no game has this invitation: it may have been deleted")
        return self.store.load(game_id)

    def record(self, game_id: str, player: str | None) -> Game:
        """The game to write as a record (:func:`quads.site.games.play.recorded`)."""
        return play.recorded(self.load(game_id, player))

    # ---- starting ------------------------------------------------------------

    def new(self, rules: str, mode: Mode, owner: str | None, *, level: int | None = None,
            human: Side | None = None, host: Side | None = None,
            clock: TimeControl | None = None, rated: bool = False,
            false_calls: str | None = None, safe_pieces: bool = False) -> StoredGame:
        """Start a new game of ``owner`` (see :func:`quads.site.games.play.new_game`); a
        ``rated`` one (online, between accounts, with a clock) changes both ratings.  An
        online game's false calls are ``false_calls``, else as
        :func:`quads.site.games.calls.online_rules` chooses.

        :raises InvalidRulesError: if ``rules`` cannot be read.
        With ``safe_pieces`` both players of an online game may show the safe pieces
        (:func:`quads.site.games.play.safe_help`); else neither may.

        :raises SiteError: ``account_needed``, ``cannot_be_rated`` for a rated game
            that cannot be (or with help).
        """
        if mode == "online":
            rules = online_rules(rules, false_calls).name
        stored = play.new_game(rules, mode, level, human, owner, host, clock)
        if safe_pieces and mode == "online":
            if rated:
                raise SiteError("cannot_be_rated", "a rated game gives no help to either player")
            stored.game.headers[play.HELP_HEADER] = play.SAFE_PIECES
        if rated:
            if mode != "online":
                raise SiteError("cannot_be_rated", "only online games can be rated")
            require_account(self.store, owner)
            rated_category(stored.game.rules, clock)
            stored.rated = True
        self.store.create(stored)
        return stored

    def imported(self, record: str, mode: Mode | None, owner: str | None, *,
                 level: int | None = None, human: Side | None = None) -> StoredGame:
        """Start a game of ``owner`` from ``record``, replayed to its last action.

        :raises InvalidRecordError: if the record cannot be read or replayed.
        """
        stored = play.imported_game(record, mode, level, human, owner)
        self.store.create(stored)
        return stored

    def upload(self, owner: str, device_id: str, game: DeviceGame,
               charge: Callable[[], None]) -> tuple[StoredGame, Change]:
        """Store ``owner``'s device game ``device_id`` as the device has it now
        (:func:`quads.site.games.uploads.upload`); a newer state is told."""
        stored, change = upload(self.store, owner, device_id, game, charge)
        if change == "replaced":
            self.followers.publish(stored.id, stored)
        return stored, change

    def join(self, game_id: str, player: str, invite: str) -> StoredGame:
        """Seat ``player`` in the free seat of an online game; the clock starts once
        both seats are taken.  Joining twice changes nothing.

        :raises SiteError: ``bad_invite``, ``seat_taken``; ``account_needed`` for a
            rated game.
        """
        stored = self.load(game_id, player)
        if stored.rated and stored.seat_of(player) is None:
            require_account(self.store, player)
        if not play.join(stored, player, invite):
            return stored
        clocks.start(stored, now(), self.rules.clock_grace)
        self.store.save(stored)
        seated = self.load(game_id, player)  # read again: with the new seat's name
        self.followers.publish(seated.id, seated)
        return seated

    def rematch(self, game_id: str, player: str | None,
                charge: Callable[[], None]) -> StoredGame:
        """The next game after a finished one, sides swapped; asked again (by either
        player), the same one.  ``charge`` counts a new game against the caller's rate.

        :raises SiteError: ``not_your_game``, ``not_over``.
        """
        stored = self.load(game_id, player)
        side = seats.require_seat(stored, player)
        if stored.rematch is not None:
            try:
                return self.store.load(stored.rematch)
            except GameNotFoundError:
                pass  # its owner deleted it (unplayed): start another
        charge()
        following = play.rematch(stored)
        clocks.start(following, now(), self.rules.clock_grace)
        stored.rematch = following.id
        stored.rematch_by = side if stored.mode == "online" else None
        self.store.create(following)
        try:
            actions.save(self.store, self.followers.publish, stored)
        except StaleGameError:
            self.store.delete(following.id, following.revision)
            raise
        return following

    # ---- playing -------------------------------------------------------------

    def act(self, game_id: str, player: str | None, action: Action,
            revision: int) -> StoredGame:
        """Play one action of a person (:func:`quads.site.games.actions.act`)."""
        return actions.act(self.store, self.followers.publish, game_id, player, action,
                           revision)

    def _changing(self, game_id: str, player: str | None,
                  revision: int) -> tuple[StoredGame, Player | None]:
        """The game to change for ``player`` as seen at ``revision``, and their side."""
        stored = self.load(game_id, player)
        seats.require_not_on_device(stored)
        side = seats.require_seat(stored, player)
        play.check_revision(stored, revision)
        return stored, side

    def computer_to_move(self, game_id: str, player: str | None,
                         revision: int) -> StoredGame:
        """The game in which ``player`` asks the computer to play, as seen at ``revision``
        (its turn is checked by :func:`quads.site.games.play.computer_actions`)."""
        return self._changing(game_id, player, revision)[0]

    def computer_played(self, stored: StoredGame, turn: list[Action]) -> StoredGame:
        """Save the computer's ``turn`` (chosen by ``computer_actions``) in ``stored``."""
        for action in turn:
            stored.game.apply(action)
        actions.save(self.store, self.followers.publish, stored)
        return stored

    def undo(self, game_id: str, player: str | None, revision: int) -> StoredGame:
        """Take back the last turn (against the computer, back to the person's); online,
        ask the other player instead.

        :raises SiteError: ``nothing_to_undo``, ``clock_no_undo``, ``undo_requested``,
            ``waiting_for_opponent``.
        """
        stored, side = self._changing(game_id, player, revision)
        if stored.mode == "online":
            assert side is not None
            clocks.require_no_clock(stored)
            play.request_undo(stored, side)
        else:
            play.undo(stored)
        actions.save(self.store, self.followers.publish, stored)
        return stored

    def answer_undo(self, game_id: str, player: str | None, revision: int,
                    accept: bool) -> StoredGame:
        """Accept or refuse the other player's undo request.

        :raises SiteError: ``no_undo_request``.
        """
        stored = self.load(game_id, player)
        side = seats.require_seat(stored, player)
        play.check_revision(stored, revision)
        if side is None:
            raise SiteError("no_undo_request", "undo requests are made in online games only")
        play.answer_undo(stored, side, accept)
        actions.save(self.store, self.followers.publish, stored)
        return stored

    def offer_draw(self, game_id: str, player: str | None, revision: int) -> StoredGame:
        """The caller offers the other player of an online game a draw (or accepts
        theirs, if one waits).

        :raises SiteError: ``not_online``, ``waiting_for_opponent``, ``game_over``,
            ``draw_offered``, ``too_many_draw_offers``.
        """
        stored, side = self._draw(game_id, player, revision)
        actions.timed(self.store, self.followers.publish, stored,
                      lambda: play.offer_draw(stored, side))
        return stored

    def answer_draw(self, game_id: str, player: str | None, revision: int,
                    accept: bool) -> StoredGame:
        """Accept (the game is drawn) or decline the other player's draw offer.

        :raises SiteError: ``not_online``, ``no_draw_offer``.
        """
        stored, side = self._draw(game_id, player, revision)
        actions.timed(self.store, self.followers.publish, stored,
                      lambda: play.answer_draw(stored, side, accept))
        return stored

    def _draw(self, game_id: str, player: str | None, revision: int
              ) -> tuple[StoredGame, Player]:
        """The online game ``game_id`` at ``revision`` and the caller's seat in it."""
        stored = self.load(game_id, player)
        side = seats.require_seat(stored, player)
        play.check_revision(stored, revision)
        if side is None:
            raise SiteError("not_online", "draws are offered in online games only")
        return stored, side

    def redo(self, game_id: str, player: str | None, revision: int) -> StoredGame:
        """Play again what undo took back (not online).

        :raises SiteError: ``nothing_to_redo``.
        """
        stored, _ = self._changing(game_id, player, revision)
        play.redo(stored)
        actions.save(self.store, self.followers.publish, stored)
        return stored

    def resign(self, game_id: str, player: str | None, revision: int) -> StoredGame:
        """``player``'s side gives up (on one device, the side to move).

        :raises SiteError: ``waiting_for_opponent`` online before anyone joined,
            ``game_over``.
        """
        stored, side = self._changing(game_id, player, revision)
        if stored.mode == "online" and (stored.first_player is None
                                        or stored.second_player is None):
            raise SiteError("waiting_for_opponent",
                            "nobody has joined yet: delete the game instead")
        resigning = side if side is not None else stored.game.to_move
        if resigning is None:
            raise SiteError.game_over()
        actions.timed(self.store, self.followers.publish, stored,
                      lambda: play.resign(stored, resigning))
        return stored

    def claim_abandoned(self, game_id: str, player: str | None, revision: int,
                        draw: bool) -> StoredGame:
        """Claim the win (or with ``draw`` a draw) of an online game the opponent left
        during their turn (:func:`quads.site.games.clocks.claim_abandonment`); if the
        time ran out first, the game ends on time instead.

        :raises SiteError: ``no_abandonment``, ``not_abandoned``, ``game_over``.
        """
        stored = self.load(game_id, player)
        side = seats.require_seat(stored, player)
        play.check_revision(stored, revision)
        if side is None:
            raise SiteError("no_abandonment", "only an online game can be abandoned")
        at = now()
        if not clocks.expire(stored, at):
            clocks.claim_abandonment(stored, side, draw, self.followers.connected(stored.id),
                                     at, self.rules)
        actions.save(self.store, self.followers.publish, stored)
        return stored

    def delete(self, game_id: str, player: str | None, revision: int) -> None:
        """Delete one of ``player``'s unfinished games (not an online game whose both
        seats are taken).

        :raises SiteError: ``not_your_game``, ``game_over``, ``in_play``, ``stale``.
        """
        stored = self.load(game_id, player)
        if stored.owner != player:
            raise SiteError("not_your_game", "only the player who created a game deletes it")
        play.check_revision(stored, revision)
        if stored.is_over():
            raise SiteError("game_over", "a finished game stays in the list")
        if stored.mode == "online" and stored.first_player and stored.second_player:
            raise SiteError("in_play", "your opponent has joined: resign the game instead")
        self.store.delete(stored.id, stored.revision)
        self.followers.publish(stored.id, gone=True)

    # ---- advice ----------------------------------------------------------------

    def hint_allowed(self, stored: StoredGame, player: str | None) -> None:
        """Check that ``player`` may ask for a hint in ``stored`` now.

        :raises SiteError: ``hint_online``, ``not_your_game``, ``not_your_turn``,
            ``game_over``.
        """
        play.require_hints(stored)
        seats.require_turn(stored, player)

    @staticmethod
    def reviewable(stored: StoredGame) -> Game:
        """The game to review: a copy, once it is over.

        :raises SiteError: ``not_over``.
        """
        if not stored.is_over():
            raise SiteError("not_over", "a game is reviewed once it is over")
        return stored.game.copy()
