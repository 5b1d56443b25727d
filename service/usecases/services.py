"""Every use case of one running service, as the HTTP API, the workers and the
command line receive them (``service.wiring`` builds it)."""

from __future__ import annotations

from dataclasses import dataclass

from service.usecases.automation import Automation
from service.usecases.games import Games
from service.usecases.index import GameIndex
from service.usecases.invitations import InvitationDesk
from service.usecases.lobby import Lobby
from service.usecases.notifications import Notifications
from service.usecases.play_by_post import PlayByPost
from service.usecases.player_notices import PlayerNotices
from service.usecases.players import Players
from service.usecases.ports import Health, IdempotentRequests, Mailer, RateLimits
from service.usecases.proposals import Proposals
from service.usecases.queries import Queries
from service.usecases.undo import Undo


@dataclass(frozen=True)
class Services:
    games: Games
    automation: Automation
    play_by_post: PlayByPost
    lobby: Lobby
    proposals: Proposals
    undo: Undo
    queries: Queries
    index: GameIndex
    notifications: Notifications
    requests: IdempotentRequests
    health: Health
    players: Players
    invitations: InvitationDesk
    player_notices: PlayerNotices
    mailer: Mailer
    #: None: no rate limit (tests, or a deployment that limits elsewhere).
    rate_limits: RateLimits | None = None
    #: The errors that mean a server the service needs is away for now (a lost
    #: Redis, a cluster failing over, an append no replica holds yet): the
    #: adapters' own, named by the wiring, so the API answers them 503 with
    #: Retry-After without knowing what raised them (service.api.app).
    unavailable: tuple[type[Exception], ...] = ()
