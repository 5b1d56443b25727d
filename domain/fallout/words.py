"""Fallout in words: a sentence for each event, as one seat may read it.

The event comes already redacted for the reader (``domain.fallout.view.redact``),
so a hidden card is ``None`` here and the sentence says "a card"; names come
from ``domain.fallout.names``, read from the game right before the event (so
the enemy a fight kills is still on the map to be named, and a seat is called
by the survivor it played then). Pending decisions in words are
``domain.fallout.prompts``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.engine.addressing import addressed
from domain.fallout.names import Names, capital, counted, listed, pack_names, plain
from domain.fallout.prompts import KINDS, PLAIN, command_words
from domain.fallout.state import GameState
from domain.game import Event

Words = Callable[[dict[str, Any], Names], str]
_EVENTS: dict[str, Words] = {}


def _says(*types: str) -> Callable[[Words], Words]:
    def register(words: Words) -> Words:
        for kind in types:
            _EVENTS[kind] = words
        return words

    return register


def event(event: Event, seat: int | None, state: GameState) -> str:
    """``event`` (redacted for ``seat``) as a sentence."""
    words = _EVENTS.get(event.type)
    if words is None:
        raise KeyError(f"Fallout has no words for {event.type}")
    return addressed(words(event.data, Names(state, seat)))


# -- setup and the round ----------------------------------------------------------


@_says("GameSetUp")
def _set_up(d: dict[str, Any], n: Names) -> str:
    # Read against the game before it (no pack yet): the scenario is named from the pack the event sets up.
    try:
        scenario = pack_names(d["pack"], None).get(d["scenario"]) if d.get("pack") else None
    except KeyError:  # a pack this server does not hold
        scenario = None
    return f"A game for {counted(d['players'], 'survivor')} is set up: {scenario or n.card(d['scenario'])}."


@_says("SurvivorChosen")
def _chosen(d: dict[str, Any], n: Names) -> str:
    return f"{n.seat(d['seat'])} plays {n.survivor(d['survivor'])}, who starts at {n.space(d['space'])}."


@_says("RoundStarted")
def _round(d: dict[str, Any], n: Names) -> str:
    return f"Round {d['round']} begins."


@_says("TurnStarted")
def _turn_started(d: dict[str, Any], n: Names) -> str:
    return f"{n.seat(d['seat'])}'s turn begins."


@_says("TurnEnded")
def _turn_ended(d: dict[str, Any], n: Names) -> str:
    after = " The round is ending." if d.get("round_end_due") else f" {n.seat(d['next'])} is next."
    return f"{n.seat(d['seat'])} ends the turn.{after}"


@_says("FirstPlayerPassed")
def _first(d: dict[str, Any], n: Names) -> str:
    return f"{n.seat(d['seat'])} takes the agenda deck and plays first."


@_says("GameEnded")
def _ended(d: dict[str, Any], n: Names) -> str:
    winners = listed([n.seat(s) for s in d.get("winners") or []])
    if d.get("result") == "won":
        return f"The game is over: {winners} won ({d.get('reason')})."
    return f"The game is over and everyone lost: {d.get('reason')}."


# -- enemies ------------------------------------------------------------------------


@_says("EnemyPlaced")
def _enemy_placed(d: dict[str, Any], n: Names) -> str:
    who = n.token(d["token"]) if d.get("token") else f"a face-down {d['type']} enemy"
    if d.get("faction"):
        who = f"a token of {n.faction(d['faction'])}"
    return f"{capital(who)} is placed at {n.space(d['space'])}."


@_says("EnemyNotReplaced")
def _not_replaced(d: dict[str, Any], n: Names) -> str:
    return f"No {d['type']} enemy is left to place at {n.space(d['space'])}."


@_says("EnemyStackReshuffled")
def _stack(d: dict[str, Any], n: Names) -> str:
    return f"The {d['type']} enemy stack is shuffled."


@_says("EnemyKilled")
def _killed(d: dict[str, Any], n: Names) -> str:
    by = f"{n.seat(d['seat'])} kills" if d.get("seat") is not None else "Killed:"
    return f"{by} {n.enemy(d['enemy'], d.get('token'))}."


@_says("EnemyDiscarded")
def _enemy_discarded(d: dict[str, Any], n: Names) -> str:
    return f"{capital(n.enemy(d['enemy']))} leaves the map."


@_says("EnemyRetreated")
def _retreated(d: dict[str, Any], n: Names) -> str:
    return f"{capital(n.enemy(d['enemy']))} retreats."


@_says("EnemyTypeActivated")
def _activated(d: dict[str, Any], n: Names) -> str:
    count = len(d.get("enemies") or [])
    return f"{capital(plain(d['type']))} enemies activate ({count} on the map)."


@_says("EnemyMoved")
def _enemy_moved(d: dict[str, Any], n: Names) -> str:
    return f"{capital(n.enemy(d['enemy']))} moves from {n.space(d['from'])} to {n.space(d['to'])}."


@_says("EnemyIdle")
def _idle(d: dict[str, Any], n: Names) -> str:
    return f"{capital(n.enemy(d['enemy']))} stays where it is."


@_says("EnemiesFlipped")
def _flipped(d: dict[str, Any], n: Names) -> str:
    count = len(d.get("enemies") or [])
    if not count:
        return f"No face-down {plain(d['type'])} enemy turns face up."
    return f"{count} face-down {plain(d['type'])} {'enemy turns' if count == 1 else 'enemies turn'} face up."


@_says("EnemyRelocated")
def _relocated(d: dict[str, Any], n: Names) -> str:
    return f"{n.seat(d['seat'])} moves {n.enemy(d['enemy'])} to {n.space(d['space'])}."


# -- survivors --------------------------------------------------------------------------


@_says("SurvivorKilled")
def _survivor_killed(d: dict[str, Any], n: Names) -> str:
    out = " and is out of the game" if d.get("eliminated") else ""
    return f"{n.seat(d['seat'])} is killed at {n.space(d['space'])}{out}."


@_says("SurvivorRespawned")
def _respawned(d: dict[str, Any], n: Names) -> str:
    return f"{n.seat(d['seat'])} returns to play at {n.space(d['space'])}."


@_says("SurvivorHurt")
def _hurt(d: dict[str, Any], n: Names) -> str:
    hurt = [f"{d['damage']} damage"] * bool(d.get("damage")) + [counted(d["rads"], "rad")] * bool(d.get("rads"))
    return f"{n.seat(d['seat'])} suffers {listed(hurt) if hurt else 'no harm'}."


@_says("SurvivorRecovered")
def _recovered(d: dict[str, Any], n: Names) -> str:
    healed = [f"recovers {counted(d['hp'], 'hit point')}"] * bool(d.get("hp"))
    healed += [f"sheds {counted(d['rads'], 'rad')}"] * bool(d.get("rads"))
    return f"{n.seat(d['seat'])} {listed(healed) if healed else 'recovers nothing'}."


@_says("SurvivorCamped")
def _camped(d: dict[str, Any], n: Names) -> str:
    recovered = f" and recovers {counted(d['recovered'], 'hit point')}" if d.get("recovered") else ""
    return f"{n.seat(d['seat'])} camps{recovered}."


@_says("SurvivorMoved")
def _moved(d: dict[str, Any], n: Names) -> str:
    return f"{n.seat(d['seat'])} moves to {n.space(d['to'])}."


@_says("MoveActionTaken")
def _move_action(d: dict[str, Any], n: Names) -> str:
    return f"{n.seat(d['seat'])} takes a move action ({counted(d['points'], 'movement point')})."


@_says("MovementGained")
def _movement(d: dict[str, Any], n: Names) -> str:
    return f"{n.seat(d['seat'])} gains {counted(d['points'], 'movement point')}."


@_says("TileExplored")
def _explored(d: dict[str, Any], n: Names) -> str:
    return f"{n.seat(d['seat'])} explores and turns up {n.tile(d['tile'])}."


@_says("CapsGained")
def _caps(d: dict[str, Any], n: Names) -> str:
    return f"{n.seat(d['seat'])} gains {counted(d['amount'], 'cap')}."


@_says("CapsPaid")
def _paid(d: dict[str, Any], n: Names) -> str:
    return f"{n.seat(d['seat'])} pays {counted(d['amount'], 'cap')}."


@_says("XPGained")
def _xp(d: dict[str, Any], n: Names) -> str:
    levels = f" and goes up {d['levels']} level{'s' if d['levels'] != 1 else ''}" if d.get("levels") else ""
    return f"{n.seat(d['seat'])} gains {d['amount']} XP{levels}."


@_says("LevelUpStarted")
def _level_up(d: dict[str, Any], n: Names) -> str:
    return f"{n.seat(d['seat'])} levels up and draws {len(d.get('drawn') or [])} S.P.E.C.I.A.L. tokens."


@_says("SpecialTokenGained")
def _special(d: dict[str, Any], n: Names) -> str:
    return f"{n.seat(d['seat'])} gains the {d['letter']} token."


@_says("SpecialTokenDuplicated")
def _duplicate(d: dict[str, Any], n: Names) -> str:
    return f"{n.seat(d['seat'])} draws a second {d['letter']} token and picks a perk instead."


@_says("PerkGained")
def _perk(d: dict[str, Any], n: Names) -> str:
    return f"{n.seat(d['seat'])} gains the perk {n.card(d['perk'])}."


@_says("PerkUsed")
def _perk_used(d: dict[str, Any], n: Names) -> str:
    return f"{n.seat(d['seat'])} uses the perk {n.card(d['perk'])}."


@_says("TraitGained")
def _trait(d: dict[str, Any], n: Names) -> str:
    return f"{n.seat(d['seat'])} is now {plain(d['trait'])}."


@_says("TraitLost")
def _trait_lost(d: dict[str, Any], n: Names) -> str:
    return f"{n.seat(d['seat'])} is no longer {plain(d['trait'])}."


@_says("WellRestedGivenUp")
def _rested(d: dict[str, Any], n: Names) -> str:
    return f"{n.seat(d['seat'])} gives up being well rested to reroll."


# -- cards ------------------------------------------------------------------------------


@_says("AgendaDrawn")
def _agenda_drawn(d: dict[str, Any], n: Names) -> str:
    what = n.card(d["card"]) if d.get("card") else "an agenda card"
    return f"{n.seat(d['seat'])} draws {what}."


@_says("AgendaDiscardedFromHand")
def _agenda_dropped(d: dict[str, Any], n: Names) -> str:
    what = n.card(d["card"]) if d.get("card") else "an agenda card"
    return f"{n.seat(d['seat'])} discards {what}."


@_says("AgendaRevealed")
def _agenda(d: dict[str, Any], n: Names) -> str:
    by = f"{n.seat(d['seat'])} reveals" if d.get("seat") is not None else "Revealed:"
    return f"{by} the agenda {n.card(d['card'])}, activating {listed([plain(a) for a in d['activation']])}."


@_says("AgendaDiscarded")
def _agenda_discarded(d: dict[str, Any], n: Names) -> str:
    return f"The agenda {n.card(d['card'])} is discarded."


@_says("AgendaDeckReshuffled", "LootDeckReshuffled", "AssetDeckReshuffled")
def _reshuffled(d: dict[str, Any], n: Names) -> str:
    return "A deck runs out and its discards are shuffled into a new one."


@_says("FactionsAdvanced")
def _factions(d: dict[str, Any], n: Names) -> str:
    if d.get("faction"):
        return f"{n.faction(d['faction'])} advances {d.get('steps', 1)} on the power track."
    return "The factions advance on the power track."


@_says("LoyaltyDeclared")
def _loyal(d: dict[str, Any], n: Names) -> str:
    return f"{n.seat(d['seat'])} declares loyalty to {n.faction(d['faction'])} with {n.card(d['agenda'])}."


@_says("LoyaltyWithdrawn")
def _disloyal(d: dict[str, Any], n: Names) -> str:
    return f"{n.seat(d['seat'])} withdraws loyalty."


@_says("LootDrawn", "AssetDrawn")
def _drawn(d: dict[str, Any], n: Names) -> str:
    return f"{n.seat(d['seat'])} draws {n.card(d['card'])}."


@_says("UniqueGained")
def _unique(d: dict[str, Any], n: Names) -> str:
    return f"{n.seat(d['seat'])} gains the unique asset {n.card(d['card'])}."


@_says("CardGained")
def _gained(d: dict[str, Any], n: Names) -> str:
    return f"{n.seat(d['seat'])} gains {n.card(d['card'])}."


@_says("CardDiscarded")
def _discarded(d: dict[str, Any], n: Names) -> str:
    return f"{n.seat(d['seat'])} discards {n.card(d['card'])}."


@_says("CardUsed")
def _used(d: dict[str, Any], n: Names) -> str:
    return f"{n.seat(d['seat'])} uses {n.card(d['card'])}."


@_says("CardEquipped")
def _equipped(d: dict[str, Any], n: Names) -> str:
    return f"{n.seat(d['seat'])} equips {n.card(d['card'])}."


@_says("CardsUnexhausted")
def _ready(d: dict[str, Any], n: Names) -> str:
    return f"{n.seat(d['seat'])} readies {n.cards(d.get('cards') or [])}."


@_says("CardAdded")
def _added(d: dict[str, Any], n: Names) -> str:
    return f"Card {d['number']} from the library is shuffled into the {plain(d['deck'])} deck."


@_says("CardTrashed")
def _trashed(d: dict[str, Any], n: Names) -> str:
    return f"{capital(n.card(d['card'])) if d.get('card') else 'A card'} goes back in the box."


@_says("LibraryCardUnavailable")
def _unavailable(d: dict[str, Any], n: Names) -> str:
    return f"Card {d['number']} of the library is not available."


@_says("QuestStaged")
def _staged(d: dict[str, Any], n: Names) -> str:
    return f"A new quest is staged: {n.quest(d['quest'])}."


@_says("MarkerPlaced")
def _marker(d: dict[str, Any], n: Names) -> str:
    return f"A marker for {n.quest(d['quest'])} is placed at {n.space(d['space'])}."


@_says("MarkersRemoved")
def _markers_gone(d: dict[str, Any], n: Names) -> str:
    return f"The markers of {n.quest(d['quest'])} are removed."


# -- the shop and trading -----------------------------------------------------------------


@_says("ShopOpened")
def _shop(d: dict[str, Any], n: Names) -> str:
    return f"{n.seat(d['seat'])} visits the shop."


@_says("AssetBought")
def _bought(d: dict[str, Any], n: Names) -> str:
    return f"{n.seat(d['seat'])} buys {n.card(d['card'])} for {counted(d['cost'], 'cap')}."


@_says("CardSold")
def _sold(d: dict[str, Any], n: Names) -> str:
    return f"{n.seat(d['seat'])} sells {n.card(d['card'])} for {counted(d['caps'], 'cap')}."


@_says("ShopClosed")
def _shop_closed(d: dict[str, Any], n: Names) -> str:
    return f"{n.seat(d['seat'])} leaves the shop."


@_says("ShopReset")
def _shop_reset(d: dict[str, Any], n: Names) -> str:
    return "The shop's cards are replaced."


@_says("TradeOpened")
def _trade(d: dict[str, Any], n: Names) -> str:
    return f"{n.seat(d['seat'])} starts a trade with {n.seat(d['partner'])}."


@_says("TradeChanged")
def _trade_changed(d: dict[str, Any], n: Names) -> str:
    what = n.card(d["card"]) if d.get("card") else "an agenda card" if d.get("agenda") else None
    change = plain(d["change"]).replace("trade ", "")
    return f"{n.seat(d['seat'])} changes the offer: {change}{f' ({what})' if what else ''}."


@_says("TradeProposed")
def _proposed(d: dict[str, Any], n: Names) -> str:
    return f"{n.seat(d['seat'])} offers the trade to {n.seat(d['partner'])}."


@_says("TradeDeclined")
def _declined(d: dict[str, Any], n: Names) -> str:
    return f"{n.seat(d['by'])} declines the trade."


@_says("TradeCompleted")
def _traded(d: dict[str, Any], n: Names) -> str:
    gives = [n.card(c) for c in d.get("give") or []] + [counted(d["give_caps"], "cap")] * bool(d.get("give_caps"))
    takes = [n.card(c) for c in d.get("take") or []] + [counted(d["take_caps"], "cap")] * bool(d.get("take_caps"))
    agendas = len(d.get("give_agendas") or []) + len(d.get("agendas") or [])
    moved = [f"{n.seat(d['seat'])} gives {listed(gives)}"] * bool(gives)
    moved += [f"{n.seat(d['partner'])} gives {listed(takes)}"] * bool(takes)
    moved += [f"{counted(agendas, 'agenda card')} {'changes' if agendas == 1 else 'change'} hands"] * bool(agendas)
    return f"{n.seat(d['seat'])} and {n.seat(d['partner'])} trade: {'; '.join(moved) or 'nothing changes hands'}."


@_says("TradingClosed")
def _trading_closed(d: dict[str, Any], n: Names) -> str:
    return f"{n.seat(d['seat'])} is done trading."


# -- dice and fights ------------------------------------------------------------------------


@_says("DiceRolled")
def _rolled(d: dict[str, Any], n: Names) -> str:
    return f"{n.seat(d['seat'])} rolls {counted(len(d.get('faces') or []), 'die', 'dice')}."


@_says("DiceRerolled")
def _rerolled(d: dict[str, Any], n: Names) -> str:
    return f"{n.seat(d['seat'])} rerolls {counted(len(d.get('dice') or []), 'die', 'dice')}."


@_says("DiceKept")
def _kept(d: dict[str, Any], n: Names) -> str:
    return f"{n.seat(d['seat'])} keeps the dice."


@_says("TestResolved")
def _test(d: dict[str, Any], n: Names) -> str:
    result = "passes" if d["success"] else "fails"
    return f"{n.seat(d['seat'])} {result} the test with {counted(d['hits'], 'hit')} against difficulty {d['difficulty']}."


@_says("FightStarted", "TaskFightStarted")
def _fight(d: dict[str, Any], n: Names) -> str:
    return f"{n.seat(d['seat'])} fights {n.enemy(d['enemy'])}."


@_says("FightBoosted")
def _boosted(d: dict[str, Any], n: Names) -> str:
    return f"{n.seat(d['seat'])} strengthens the fight with {n.card(d['card'])}."


@_says("FightDiceRolling")
def _fight_dice(d: dict[str, Any], n: Names) -> str:
    return f"{n.seat(d['seat'])} rolls for the fight."


@_says("FightResolved")
def _fought(d: dict[str, Any], n: Names) -> str:
    killed = " and kills it" if d.get("enemy_killed") else ""
    hurt = [f"{d['damage']} damage"] * bool(d.get("damage")) + [counted(d["rads"], "rad")] * bool(d.get("rads"))
    suffers = f", and suffers {listed(hurt)}" if hurt else ""
    return f"{n.seat(d['seat'])} scores {counted(d['hits'], 'hit')} on {n.enemy(d['enemy'])}{killed}{suffers}."


@_says("AttacksEnded")
def _attacks_ended(d: dict[str, Any], n: Names) -> str:
    return f"No more enemies attack {n.seat(d['seat'])}."


# -- decisions, encounters, quests ---------------------------------------------------------------


@_says("DecisionRequested")
def _requested(d: dict[str, Any], n: Names) -> str:
    return f"{n.seat(d['seat'])} must decide: {KINDS.get(d['kind'], plain(d['kind']))}."


@_says("DecisionMade")
def _made(d: dict[str, Any], n: Names) -> str:
    command = d.get("command") or {}
    if set(command) <= {"type"} and command.get("type") not in PLAIN:
        return f"{n.seat(d['seat'])} decides ({KINDS.get(d['kind'], plain(d['kind']))})."
    return f"{n.seat(d['seat'])} chooses to {command_words(command, n)}."


@_says("ResultsQueued")
def _queued(d: dict[str, Any], n: Names) -> str:
    source = f" of {n.card(d['source'])}" if d.get("source") else ""
    who = f" for {n.seat(d['seat'])}" if d.get("seat") is not None else ""
    return f"The results{source} take effect{who}."


@_says("ResultResolving")
def _resolving(d: dict[str, Any], n: Names) -> str:
    result = d["result"]
    # A result is a name ("unexhaust") or a one-key mapping ({"recover": 2}) of the effects vocabulary.
    key, value = (next(iter(result.items())) if result else ("nothing", None)) if isinstance(result, dict) else (result, None)
    amount = f" {value}" if isinstance(value, int) and not isinstance(value, bool) else ""
    return f"Resolving: {plain(key)}{amount}."


@_says("ResultsResolved")
def _resolved(d: dict[str, Any], n: Names) -> str:
    source = f" of {n.card(d['source'])}" if d.get("source") else ""
    return f"The results{source} are done."


@_says("AttemptStarted")
def _attempt(d: dict[str, Any], n: Names) -> str:
    return f"{n.seat(d['seat'])} attempts {counted(len(d.get('tasks') or []), 'task')}."


@_says("TaskDone")
def _task(d: dict[str, Any], n: Names) -> str:
    return f"{n.seat(d['seat'])} {'succeeds at' if d['success'] else 'fails'} a task."


@_says("AttemptEnded")
def _attempt_ended(d: dict[str, Any], n: Names) -> str:
    return f"{n.seat(d['seat'])}'s attempt {'succeeds' if d['success'] else 'fails'}."


@_says("EncounterDrawn")
def _encounter(d: dict[str, Any], n: Names) -> str:
    title = (d.get("read_aloud") or {}).get("title")
    return (f"{n.seat(d['seat'])} has a {plain(d['deck'])} encounter at {n.space(d['space'])}"
            f"{f': {title}' if title else ''}.")  # fmt: skip


@_says("EncounterOptionChosen")
def _option(d: dict[str, Any], n: Names) -> str:
    return f"{n.seat(d['seat'])} chooses: {d['label']}"


@_says("EncounterOutcome")
def _outcome(d: dict[str, Any], n: Names) -> str:
    return d.get("text") or f"{n.seat(d['seat'])}'s choice plays out."


@_says("EncounterEnded")
def _encounter_ended(d: dict[str, Any], n: Names) -> str:
    return f"{n.seat(d['seat'])}'s encounter ends."


@_says("QuestActionTaken")
def _quest(d: dict[str, Any], n: Names) -> str:
    return f"{n.seat(d['seat'])} works on {n.quest(d['quest'])}."


@_says("QuestActionResolved")
def _quest_done(d: dict[str, Any], n: Names) -> str:
    return f"{n.seat(d['seat'])} {'succeeds at' if d['success'] else 'fails'} {n.quest(d['quest'])}."


@_says("ObjectiveCompleted")
def _objective(d: dict[str, Any], n: Names) -> str:
    return f"{n.seat(d['seat'])} completes an objective of {n.quest(d['quest'])}."


@_says("TriggerLapsed")
def _lapsed(d: dict[str, Any], n: Names) -> str:
    return f"An objective of {n.quest(d['quest'])} can no longer be triggered by {n.seat(d['seat'])}."
