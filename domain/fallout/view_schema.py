"""The shape of ``view(state, seat)``, as the API document publishes it.

Clients code against this. Every field is present once the game is set up
(before that the view is ``{"phase": "new"}``); fields a seat may not see
come as ``null`` (another seat's agenda cards, an unread tile, an inactive
enemy's face), and once the game is over nothing is hidden: the agenda deck,
the enemy stacks and the encounter decks show their cards instead of counts.
"""

from __future__ import annotations

from typing import Any

from marshmallow import RAISE, Schema, fields

from domain.engine.faces import faces_field


def _about(text: str) -> dict[str, Any]:
    return {"metadata": {"description": text}}


def _nullable(text: str) -> dict[str, Any]:
    return {"allow_none": True, "metadata": {"description": text}}


class _Shape(Schema):
    class Meta:
        unknown = RAISE


class SurvivorView(_Shape):
    seat = fields.Integer(**_about("The seat playing this survivor."))
    survivor = fields.String(**_nullable("The survivor's id; null until chosen (Complete Setup, step 7)."))
    space = fields.String(**_nullable("The space the figure stands in; null while killed and not yet placed again."))
    hp = fields.Integer(**_about("Where the red HP peg stands (16 at most)."))
    rads = fields.Integer(**_about("Where the green rad peg stands."))
    remaining_hp = fields.Integer(**_about("HP less rads: at 0 the survivor is killed."))
    xp = fields.String(**_nullable("The S.P.E.C.I.A.L. letter the XP peg sits under; null: the leftmost hole."))
    special = fields.List(
        fields.List(fields.String()), **_about("The S.P.E.C.I.A.L. tokens held, as [letter, token id], in letter order.")
    )
    letters = fields.List(fields.String(), **_about("The letters of the tokens held, in S.P.E.C.I.A.L. order."))
    traits = fields.List(fields.List(fields.String()), **_about("Trait tokens held, as [token id, side face up]."))
    agendas = fields.List(
        fields.String(), **_nullable("The agenda cards in hand; null for another seat's hand while the game runs.")
    )
    agenda_count = fields.Integer(**_about("How many agenda cards are in hand (public)."))
    influence = fields.Integer(
        **_about("Influence points, shown to the survivor's own seat only (to everyone once the game is over).")
    )
    caps = fields.Integer(**_about("Caps held."))
    equipped = fields.List(fields.String(), **_about("Cards equipped: at most one weapon, one apparel, one companion."))
    inventory = fields.List(fields.String(), **_about("Cards in the inventory (three at most once settled)."))
    abilities = fields.List(fields.String(), **_about("Character cards that are not items."))
    exhausted = fields.List(fields.String(), **_about("Cards exhausted until the next camp action."))
    perks = fields.List(fields.String(), **_about("Perk cards gained."))
    eliminated = fields.Boolean(**_about("Out of the game for good (killed with no way back)."))
    loyalty = fields.String(**_nullable("The agenda card revealed to declare loyalty to a faction, if any."))
    xp_gained = fields.Integer(**_about("XP gained in the whole game."))
    kills = fields.Integer(**_about("Enemies killed in the whole game."))
    quests_done = fields.Integer(**_about("Quest objectives completed in the whole game."))
    tiles_explored = fields.Integer(**_about("Map tiles explored in the whole game."))


class PlaceView(_Shape):
    place = fields.String(**_about("The place's id in the scenario."))
    q = fields.Integer(**_about("Axial hex column of the place."))
    r = fields.Integer(**_about("Axial hex row of the place."))
    back = fields.String(**_nullable("The back of the tile lying there (what a face-down tile shows)."))
    faceup = fields.Boolean(**_about("Whether the tile has been explored."))
    tile = fields.String(**_nullable("The tile's id; null while face down and the game runs."))


class EnemyView(_Shape):
    enemy = fields.String(**_about("The enemy's id on the map (e.g. \"e7\")."))
    type = fields.String(**_about("The enemy type (its stack)."))
    space = fields.String(**_about("A space id, or \"place:<id>\" while it stands on a face-down tile."))
    active = fields.Boolean(**_about("Face up: an inactive enemy shows its type only."))
    faction = fields.String(**_about("The faction the token stands for, when it is a faction token."))
    token = fields.String(**_about("The enemy token's id (active enemies, or once the game is over)."))
    name = fields.String(**_about("The token's name."))
    level = fields.Integer(**_about("The enemy's level now."))
    abilities = fields.List(fields.String(), **_about("The token's abilities (aggressive, ranged, loot, ...)."))
    vulnerable = fields.List(fields.String(), **_about("The V.A.T.S. hit areas that hurt it."))


class TurnView(_Shape):
    seat = fields.Integer(**_about("The seat whose turn it is."))
    actions = fields.Integer(**_about("Actions left this turn (two at the start)."))
    movement = fields.Integer(**_about("Movement points left to spend."))
    ending = fields.Boolean(**_about("The survivor was killed: the turn ends once the resolution settles."))
    encountered = fields.List(fields.String(), **_about("The space where the encounter action was taken this turn (at most one)."))
    camping = fields.Boolean(**_about("A camp action was just taken: trading is open until the next action."))


class RoundEndView(_Shape):
    card = fields.String(**_about("The agenda card revealed to activate enemies."))
    types = fields.List(fields.String(), **_about("Enemy types still to activate; the first is activating."))
    acting = fields.List(fields.String(), **_nullable("Enemies of the activating type yet to act; null: not begun."))
    placed = fields.List(fields.String(), **_about("Enemies placed face down during this activation."))


class DecksView(_Shape):
    agenda = fields.Raw(**_about("Cards in the agenda deck: a count; the cards, top first, once the game is over."))
    agenda_discard = fields.Integer(**_about("Cards in the agenda discard pile."))
    special_supply = fields.Integer(**_about("S.P.E.C.I.A.L. tokens in the supply."))
    enemy_stacks = fields.Dict(
        keys=fields.String(), values=fields.Raw(),
        **_about("Per enemy type, tokens in its stack: a count; the tokens, top first, once the game is over."),
    )
    enemy_discards = fields.Dict(
        keys=fields.String(), values=fields.Integer(), **_about("Per enemy type, tokens in its discard pile.")
    )
    loot = fields.Integer(**_about("Cards in the loot deck."))
    loot_discard = fields.Integer(**_about("Cards in the loot discard pile."))
    asset = fields.Integer(**_about("Cards in the asset deck."))
    asset_discard = fields.Integer(**_about("Cards in the asset discard pile."))
    encounter = fields.Dict(
        keys=fields.String(), values=fields.Raw(),
        **_about("Per encounter deck, its cards: a count; the cards, top first, once the game is over."),
    )


class EncounterView(_Shape):
    seat = fields.Integer(**_about("The seat resolving the encounter."))
    deck = fields.String(**_about("The encounter deck the card came from."))
    space = fields.String(**_about("The space of the encounter."))
    level = fields.Integer(**_about("The level the encounter is resolved at."))
    read_aloud = fields.Dict(
        keys=fields.String(), **_about("What is read aloud before the choice: title, intro and each option's label, "
                                       "whether it is forced, its condition and its tasks.")
    )
    option = fields.Integer(**_nullable("The option chosen (its index); null until chosen."))
    outcome = fields.String(**_nullable("\"results\", \"succeed\" or \"fail\" once known."))
    outcome_text = fields.String(**_about("The text of the outcome reached (once known)."))
    results = fields.List(fields.Raw(), **_about("The results of the outcome reached (once known)."))


class AttemptView(_Shape):
    seat = fields.Integer(**_about("The seat attempting the tasks."))
    tasks = fields.List(fields.Dict(keys=fields.String()), **_about("The tasks, attempted left to right."))
    level = fields.Integer(**_about("The level the tasks are at."))
    index = fields.Integer(**_about("The task being attempted."))
    outcome = fields.Boolean(**_nullable("Success or failure once known; null while running."))
    enemy = fields.String(**_nullable("The enemy drawn to fight for a task, while it is fought."))


class QuestingView(_Shape):
    seat = fields.Integer(**_about("The seat taking the quest action."))
    quest = fields.String(**_about("The quest card."))
    objective = fields.Integer(**_about("The objective's index on the card."))
    level = fields.Integer(**_about("The level of the space it is taken in."))
    outcome = fields.Boolean(**_nullable("Success or failure once known."))


class ResolvingView(_Shape):
    seat = fields.Integer(**_nullable("The seat the results apply to (null: nobody in particular)."))
    source = fields.String(**_nullable("The card the results are on; null for an encounter card while the game runs."))
    origin = fields.String(**_about("Where the results come from: encounter, quest, loot, item, perk or setup."))
    level = fields.Integer(**_about("The level the results are resolved at."))
    results = fields.List(fields.Raw(), **_about("The results still to resolve, left to right."))


class ShoppingView(_Shape):
    seat = fields.Integer(**_about("The seat shopping."))
    left = fields.Integer(**_about("Buys, sells and recruits still allowed."))


class TradeView(_Shape):
    seat = fields.Integer(**_about("The camping seat putting the trade together."))
    partner = fields.Integer(**_about("The seat it trades with."))
    proposed = fields.Boolean(**_about("Proposed: the partner is to answer."))
    give = fields.List(
        fields.String(allow_none=True),
        **_about("The proposer's cards offered; an agenda card is null to seats outside the trade."),
    )
    take = fields.List(fields.String(), **_about("The partner's items and companions asked for."))
    give_caps = fields.Integer(**_about("Caps the proposer gives."))
    take_caps = fields.Integer(**_about("Caps the proposer asks for."))
    take_agendas = fields.Integer(**_about("How many agenda cards the partner hands over (the partner picks)."))


class PendingView(_Shape):
    seat = fields.Integer(**_about("The seat the game waits on."))
    kind = fields.String(**_about("What is being decided (reroll, respawn, shop, answer_trade, ...)."))
    choices = fields.List(
        fields.Dict(keys=fields.String(), allow_none=True),
        **_about("The complete commands that answer it; null each for a private decision of another seat."),
    )
    context = fields.Dict(keys=fields.String(), **_about("What the decision is about (the dice, the enemy, ...)."))


class VatsTestView(_Shape):
    letters = fields.List(fields.String(), **_about("The S.P.E.C.I.A.L. letters tested."))
    difficulty = fields.Integer(**_about("Hits needed to pass."))
    then = fields.Dict(keys=fields.String(), **_about("What the result reports to (an attempt, a card's results)."))


class RollView(_Shape):
    seat = fields.Integer(**_about("The seat rolling."))
    faces = fields.List(fields.Integer(), **_about("The face index each V.A.T.S. die shows."))
    rerolls = fields.Integer(**_about("Rerolls left."))
    well_rested = fields.Boolean(**_about("Well Rested may still be given up for one more reroll."))
    kept = fields.Boolean(**_about("The dice are kept: no more rerolls."))
    test = fields.Nested(VatsTestView, **_nullable("The test rolled for; null: the roll of the fight in progress."))
    abilities = fields.Boolean(**_about('"During a fight" abilities may still be used on these dice.'))


class FightView(_Shape):
    seat = fields.Integer(**_about("The seat fighting."))
    enemy = fields.String(**_about("The enemy fought."))
    cause = fields.String(**_about("Why: action, aggressive, activation, task or result."))
    at_range = fields.Boolean(**_about("Fought across a space."))
    rerolls = fields.Integer(**_about("Rerolls abilities gave before the roll."))
    hits = fields.Integer(**_about("Extra hits abilities used in this fight give."))
    armor = fields.Integer(**_about("Extra enemy hits canceled by abilities used in this fight."))
    rolling = fields.Boolean(**_about('"Before a fight" is over: the dice are (being) rolled.'))


class AttackersView(_Shape):
    seat = fields.Integer(**_about("The survivor the enemies must fight."))
    enemies = fields.List(fields.String(), **_about("The enemies still to fight it."))
    cause = fields.String(**_about("Why they fight: aggressive or activation."))


class LevelingView(_Shape):
    seat = fields.Integer(**_about("The seat leveling up."))
    drawn = fields.List(fields.String(), **_about("The S.P.E.C.I.A.L. tokens drawn, one to keep."))
    letter = fields.String(**_nullable("A letter the survivor already had, turned into a perk choice."))


class PlacingView(_Shape):
    seat = fields.Integer(**_about("The seat that explored."))
    place = fields.String(**_about("The place explored."))
    enemies = fields.List(fields.String(), **_about("Enemies that stood on the tile, still to be placed."))


class ViewSchema(_Shape):
    seat = fields.Integer(**_nullable("The seat this view is for; null: a spectator."))
    pack = fields.String(**_about("The content pack played."))
    scenario = fields.String(**_about("The scenario played."))
    players = fields.Integer(**_about("How many seats the game has."))
    phase = fields.String(required=True, **_about("\"new\", \"choosing\" (survivors), \"playing\" or \"over\"."))
    result = fields.String(**_nullable("\"won\" or \"lost\" once the game is over."))
    round = fields.Integer(**_about("The round being played (0 while survivors are chosen)."))
    first_player = fields.Integer(**_about("The seat holding the first-player token."))
    turn = fields.Nested(TurnView, **_nullable("The turn in progress; null between turns."))
    round_end_due = fields.Boolean(**_about("Every seat has had its turn: the round end is due."))
    round_end = fields.Nested(RoundEndView, **_nullable("The round end in progress."))
    survivors = fields.List(fields.Nested(SurvivorView), **_about("One survivor per seat, in seat order."))
    map = fields.List(fields.Nested(PlaceView), **_about("The scenario's places and the tiles on them."))
    enemies = fields.List(fields.Nested(EnemyView), **_about("Enemies on the map."))
    power = fields.Dict(
        keys=fields.String(), values=fields.Integer(),
        **_about("Each scenario faction's position on the power track; 0 is the top space."),
    )
    shop = fields.List(fields.String(), **_about("The asset cards in the shop."))
    perk_deck = fields.List(fields.String(), **_about("The perk cards still to gain (open information)."))
    decks = fields.Nested(DecksView, **_about("Deck sizes (their cards once the game is over)."))
    unique_deck = fields.List(fields.String(), **_about("Unique asset cards still available, by name."))
    unique_discard = fields.List(
        fields.String(), **_about("Discarded unique asset cards, beside the deck and no longer available.")
    )
    loot_discard = fields.List(fields.String(), **_about("The loot discard pile."))
    asset_discard = fields.List(fields.String(), **_about("The asset discard pile."))
    quests = fields.List(fields.String(), **_about("Staged quest cards, face up in the play area."))
    markers = fields.List(fields.List(fields.String()), **_about("Quest markers on the map, as [quest card, space]."))
    encounter = fields.Nested(EncounterView, **_nullable("The encounter being resolved, as the table knows it."))
    attempt = fields.Nested(AttemptView, **_nullable("Tasks being attempted for an encounter option or an objective."))
    questing = fields.Nested(QuestingView, **_nullable("The quest action in progress."))
    resolving = fields.List(
        fields.Nested(ResolvingView), **_about("Results bars in progress; the last is resolved first.")
    )
    gaining = fields.List(fields.List(fields.Raw()), **_about("Cards gained still to equip or stow, as [seat, card]."))
    shopping = fields.Nested(ShoppingView, **_nullable("The shopping in progress."))
    trade = fields.Nested(TradeView, **_nullable("The trade being put together or answered."))
    winners = fields.List(fields.Integer(), **_about("The seats that won (once the game is over)."))
    influence_needed = fields.Integer(**_nullable("Influence a survivor needs to win, for this many players."))
    pending = fields.Nested(PendingView, **_nullable("The decision the game waits on, if any."))
    roll = fields.Nested(RollView, **_nullable("V.A.T.S. dice on the table."))
    fight = fields.Nested(FightView, **_nullable("The fight in progress."))
    attackers = fields.Nested(AttackersView, **_nullable("Enemies a survivor must still fight, in an order it picks."))
    leveling = fields.Nested(LevelingView, **_nullable("A level being gained."))
    placing = fields.Nested(PlacingView, **_nullable("Enemies from an explored tile still to be placed."))
    names = fields.Dict(
        keys=fields.String(), values=fields.String(),
        **_about("The pack's name for each id this view shows that has one (survivors, tiles, named spaces, cards, "
                 "agendas, perks, quests, enemy tokens, the scenario and its factions): exactly the ids shown, "
                 "so it names nothing the view hides. Ids are stable; names are content, so label with these."),
    )
    faces = faces_field()
