"""A bot's token replaced or revoked: by the bot, with its token, or by its owner, with
the owner's key that ``POST /api/bot/upgrade`` gave once.

* ``POST /api/bot/token`` (the bot): a new token, given this once; the one it called
  with is refused from then on, on every process.  A caller whose token came in the
  identity cookie (a browser that made itself a bot) gets the new cookie too.
* ``DELETE /api/bot/token`` (the bot): no token of the bot works any more, until its
  owner makes a new one.
* ``POST /api/bots/{handle}/token`` and ``POST /api/bots/{handle}/revoke`` (the
  owner, with ``{"owner_key": KEY}``): the same, whoever else holds the bot's token.
  These routes do not look at the caller's own token: an owner whose token was
  replaced by a thief is refused nowhere here.

No token changes the owner's key, so that a stolen token cannot keep the bot from
its owner: the thief may replace or revoke the token, and the owner takes the bot
back with the key.  A bot's open event stream ends when its token changes.

Each change counts against ``rate_keys`` for the client address and, for the bot's
own routes, for the bot (the owner's routes count per address only: a thief cannot
use up the owner's share).  Requests from other sites' pages are refused as
everywhere (:mod:`quads.web.middleware.origins`).
"""

from __future__ import annotations

import secrets
from typing import Annotated

from fastapi import APIRouter, Path, Request, Response

from quads.site.bots.tokens import BotTokens
from quads.web.bot_api import KEY_BYTES
from quads.web.dispatch import quick
from quads.web.middleware import rates
from quads.web.middleware.identity import anonymous, by_cookie, cookie_header, player_id
from quads.web.openapi import refusals
from quads.web.schemas.lobby import BotToken, OwnerKeyRequest
from quads.web.wiring import BotTokensOf, CallerOf

__all__ = ["router"]

router = APIRouter(prefix="/api")
"""The routes of bots' tokens."""

BotHandle = Annotated[str, Path(pattern=r"^bot-[A-Za-z0-9_-]{1,32}$",
                                description="The bot's handle (GET /api/bots)")]


def _replace(request: Request, tokens: BotTokens, player: str | None) -> str:
    """Give the calling bot a new token; the token."""
    rates.charge(request, "keys")
    token = secrets.token_urlsafe(KEY_BYTES)
    tokens.replace(player, player_id(token))
    return token


@router.post("/bot/token", tags=["bots"], responses=refusals(
    403, 429, s403="`not_a_bot`: the caller is no bot"))
@quick
def replace_token(request: Request, response: Response, tokens: BotTokensOf,
                  player: CallerOf) -> BotToken:
    """Replace the calling bot's token: the new one is in the answer, once, and the one
    it called with is refused from now on."""
    token = _replace(request, tokens, player)
    if by_cookie(request):
        response.headers.append("set-cookie", cookie_header(token, request.scope))
    return BotToken(token=token)


@router.delete("/bot/token", status_code=204, tags=["bots"], response_class=Response,
               responses=refusals(403, 429, s403="`not_a_bot`: the caller is no bot"))
@quick
def revoke_token(request: Request, tokens: BotTokensOf, player: CallerOf) -> Response:
    """Revoke the calling bot's token: no token of the bot works until its owner makes
    a new one (``POST /api/bots/{handle}/token``)."""
    _replace(request, tokens, player)  # a token that nobody is given
    return Response(status_code=204)


def _as_owner(request: Request, tokens: BotTokens, handle: str, body: OwnerKeyRequest) -> str:
    """Give the bot of ``handle`` a new token, for its owner; the token."""
    rates.charge(request, "keys")
    token = secrets.token_urlsafe(KEY_BYTES)
    tokens.replace_as_owner(handle, player_id(body.owner_key), player_id(token))
    return token


_OWNER_REFUSALS = refusals(403, 404, 429, s403="`bad_owner_key`: not this bot's owner's key",
                           s404="No bot has this handle")


@router.post("/bots/{handle}/token", tags=["bots"], responses=_OWNER_REFUSALS)
@anonymous
@quick
def replace_token_as_owner(request: Request, handle: BotHandle, body: OwnerKeyRequest,
                           tokens: BotTokensOf) -> BotToken:
    """The owner replaces the bot's token, whoever else holds it: the new one is in the
    answer, once, and every token before is refused from now on."""
    return BotToken(token=_as_owner(request, tokens, handle, body))


@router.post("/bots/{handle}/revoke", status_code=204, tags=["bots"],
             response_class=Response, responses=_OWNER_REFUSALS)
@anonymous
@quick
def revoke_token_as_owner(request: Request, handle: BotHandle, body: OwnerKeyRequest,
                          tokens: BotTokensOf) -> Response:
    """The owner revokes the bot's token: no token of the bot works until the owner
    makes a new one."""
    _as_owner(request, tokens, handle, body)
    return Response(status_code=204)
