"""Zona's options and view as a client reads them (marshmallow schemas, which the API document shows).

Beside the game (``domain.zona.game``) rather than in it: mypyc compiles no marshmallow schema (their fields
are class-body statements that marshmallow's metaclass reads), and the game's class, which every command
passes through, is compiled (mypyc_build.py).
"""

from __future__ import annotations

from marshmallow import Schema, ValidationError, fields, validate

from domain.engine.faces import faces_field
from domain.engine.shelf import UnknownPack
from domain.zona.model import FACES
from domain.zona.pack import PACKS, SHELF


def _shelved(pack: str) -> bool:
    """A shipped pack's name, or the address of a copy this install keeps (options resolved before)."""
    try:
        SHELF.open(pack)
    except UnknownPack:
        raise ValidationError(f"Must be one of: {', '.join(PACKS)}.") from None
    return True


#: The bundled pack's board sides, for a client's form (the API document's `x-choices`); tests/domain/zona/test_setup.py
#: checks they are the bundled pack's.
SIDE_CHOICES = {"small": "the small side (1-2 players)", "large": "the large side (3-4 players)"}


class ZonaOptions(Schema):
    """What a creator may choose; every ruling a group could play otherwise is here (docs/zona-engine.md)."""

    pack = fields.String(load_default="base", validate=lambda pack: _shelved(pack),
                         metadata={"description": "content pack: base (the box) or test (a small one for tests); "
                                   "the resolved options pin it to its address, `base@<content hash>`"})
    draft = fields.String(load_default="draft", validate=validate.OneOf(["draft", "free"]),
                          metadata={"description": "two boards each and keep one, or free choice of all"})
    random_facilities = fields.Boolean(load_default=False,
                                       metadata={"description": "deal the facility decks to the places at random"})
    first_voice = fields.Integer(load_default=None, allow_none=True, strict=True, validate=validate.Range(0, 3),
                                 metadata={"description": "seat holding the Voice of the Zone first (default: random)"})
    read_whole_card = fields.Boolean(load_default=False,
                                     metadata={"description": "the stalker may read an event card's outcomes before choosing"})
    die_faces = fields.List(fields.String(validate=validate.OneOf(FACES)), load_default=None, allow_none=True,
                            validate=validate.Length(min=1),
                            metadata={"description": "faces of each die (default: the pack's)"})
    triangle_pair = fields.String(load_default="minus", validate=validate.OneOf(["minus", "none"]),
                                  metadata={"description": "two or more triangles: one minus, or nothing"})
    cancel_target = fields.String(load_default="minus", validate=validate.OneOf(["minus", "minus_or_triangle"]),
                                  metadata={"description": "what a cancel modifier removes"})
    news_loss = fields.String(load_default="after_last", validate=validate.OneOf(["after_last", "on_empty_draw"]),
                              metadata={"description": "lose after the last news card, or at the draw from an empty deck"})
    worsen_at_bad = fields.String(load_default="fatigue", validate=validate.OneOf(["fatigue", "damage"]),
                                  metadata={"description": "what worsening a bad reputation costs"})
    solo_news_discard = fields.Integer(load_default=5, strict=True, validate=validate.Range(0, 20),
                                       metadata={"description": "news cards set aside unseen in solo"})
    side = fields.String(load_default=None, allow_none=True, validate=validate.Length(1, 32),
                         metadata={"description": "board side, one of the pack's (small, large): play the other side "
                                                  "than the one printed for the player count (default: that one)",
                                   "example": "large", "x-choices": SIDE_CHOICES})


class ZonaView(Schema):
    phase = fields.String(metadata={"description": "setup, action, event, news or over"})
    round = fields.Integer(metadata={"description": "the round number, from 1"})
    voice = fields.Integer(metadata={"description": "the seat holding the Voice of the Zone marker"})
    players = fields.Integer()
    side = fields.String(metadata={"description": "board side: small (1-2 players) or large (3-4)"})
    over = fields.Boolean()
    winner = fields.Integer(allow_none=True, metadata={"description": "the one winner, if any"})
    lost = fields.String(allow_none=True, metadata={"description": "why everyone lost: news or sarcophagus"})
    emission = fields.Dict(metadata={"description": "marker and last space of the emission track"})
    timed = fields.Dict(allow_none=True, metadata={"description": "the timed news card in force and its area"})
    turn = fields.Dict(allow_none=True, metadata={"description": "whose turn, actions taken, area action used"})
    stalkers = fields.List(fields.Dict(), metadata={"description": "each seat's stalker; others' finds show as 'find'"})
    threats = fields.Dict(metadata={"description": "threat tokens by area, with their reverse (tokens are public)"})
    in_play = fields.List(fields.Dict(), metadata={"description": "the threat being met now"})
    facilities = fields.Dict(metadata={"description": "lock, open, looted, finds and event cards left, by facility"})
    market = fields.Dict(metadata={"description": "junk and equipment rows, four columns each"})
    decks = fields.Dict(metadata={"description": "cards left in each deck (orders hidden)"})
    dispenser = fields.Dict(metadata={"description": "tokens left in each dispenser queue"})
    wear = fields.Dict(metadata={"description": "damage tokens on item cards"})
    deactivated = fields.List(fields.String(), metadata={"description": "durable items used this round"})
    reading = fields.Dict(allow_none=True, metadata={"description": "the event card being read; its text only to the reader"})
    hand = fields.Raw(metadata={"description": "cards being looked through (a count for others)"})
    pending = fields.Dict(allow_none=True, metadata={
        "description": "the decision the game waits for; its choices, except the draft and the find deck"})
    table = fields.Dict(metadata={"description": "public bookkeeping: pack, options, facility decks' places, who has "
                                                 "played this phase, the resolution stack, discard piles, cards being read"})
    board = fields.Dict(metadata={"description": "this side's areas (name, sector, action in words) and borders"})
    cards = fields.Dict(metadata={"description": "what each item card named in the view is, by type"})
    faces = faces_field()
