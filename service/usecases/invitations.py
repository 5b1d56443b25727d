"""Invitations: a link the creator of a game makes for one of its open seats.

One use, expiring (an hour to 30 days; a week by default), revocable by the
creator, and unguessable (128 random bits). Following it says nothing about
the game (not its id, its game, its players) until it is taken; taking it
with a player token (or creating a player on the way) joins the seat under
the player's name and binds the seat to the player (docs/players.md).
"""

from __future__ import annotations

from service.usecases.errors import Refused
from service.usecases.games import Games
from service.usecases.lobby import Lobby
from service.usecases.players import Players
from service.usecases.ports import SEAT, Holder, Invitation, Invitations, Player
from service.usecases.record import OPEN


def _none() -> Refused:
    # One answer for never made, taken, revoked and expired: a guesser learns nothing.
    return Refused("no_such_invitation", "no such invitation (taken, revoked or expired)", Refused.NOT_FOUND)


class InvitationDesk:
    def __init__(self, games: Games, lobby: Lobby, players: Players, store: Invitations):
        self.games = games
        self.lobby = lobby
        self.players = players
        self.store = store

    def invite(self, game_id: str, seat: int | None, seconds: int) -> tuple[Invitation, str]:
        record = self.games.load(game_id).state
        if record.over:
            raise Refused("game_over", "the game is over")
        open_seats = record.seats_of(OPEN)
        chosen = seat if seat is not None else (open_seats[0] if open_seats else None)
        if chosen is None:
            raise Refused("no_open_seat", "every seat is taken")
        if record.kind_of(chosen) is None:
            raise Refused("no_such_seat", f"the game has no seat {chosen}", Refused.NOT_FOUND)
        if chosen not in open_seats:
            raise Refused("seat_taken", f"seat {chosen} is not open")
        return self.store.create(game_id, chosen, seconds)

    def peek(self, code: str) -> Invitation:
        found = self.store.peek(code)
        if found is None:
            raise _none()
        return found

    def take(self, code: str, player: Player) -> tuple[Invitation, str, int]:
        """Take the invitation's seat for ``player``: the invitation, the seat's token and the version."""
        invitation = self.store.take(code)
        if invitation is None:
            raise _none()
        try:
            seat, token, version = self.lobby.join(invitation.game_id, player.name, invitation.seat)
        except Refused:
            self.store.give_back(invitation, code)  # nothing was taken: the link still works
            raise
        self.players.bind_issued(player, invitation.game_id, {Holder(SEAT, seat): token})
        return invitation, token, version

    def of_game(self, game_id: str) -> list[Invitation]:
        self.games.load(game_id)
        return self.store.of_game(game_id)

    def revoke(self, game_id: str, invitation_id: str) -> None:
        if not self.store.revoke(game_id, invitation_id):
            raise Refused("no_such_invitation", f"the game has no open invitation {invitation_id}", Refused.NOT_FOUND)
