"""What happens to a stalker's body and mind, short of the stamina track: damage arriving,
healing, fatigue, reputation and roubles.

Zona §"RODZAJE OBRAŻEŃ", §"LECZENIE", §"ZMĘCZENIE", §"REPUTACJA".

Damage is only pushed here (a ``damage`` frame: one protection window, then
the track); ``damage.py`` resolves it, with the items that protect. This
module needs no item, so items (an artifact's emanation) can hurt through it.
"""

from __future__ import annotations

from typing import Any

from domain.zona.effects import Address, effect
from domain.zona.model import REPUTATIONS
from domain.zona.resolution import ZonaResolution
from domain.zona.state import MAX_FATIGUE, MIN_FATIGUE


def suffer(res: ZonaResolution, seat: int, amounts: dict[str, int], by: str, fatigue: int = 0,
           unpreventable: bool = False) -> None:
    """Damage entries of one effect arrive together: one protection window, then the track."""
    amounts = {k: v for k, v in amounts.items() if v > 0}
    if not amounts and not fatigue:
        return
    res.push("damage", seat=seat, amounts=amounts, fatigue=fatigue, by=by, unpreventable=unpreventable, used=[])


def heal(res: ZonaResolution, seat: int, amount: int) -> None:
    """Zona §"LECZENIE": remove damage tokens from the stamina track."""
    s = res.stalker(seat)
    if amount > 0 and s["damage"] > 0:
        res.set("Healed", seat, damage=max(0, s["damage"] - amount), change=-min(amount, s["damage"]))


def heal_injury(res: ZonaResolution, seat: int) -> None:
    """Zona §"URAZY": an injury token is discarded. With more than one, the player chooses which
    attribute recovers: a ``heal_injury`` frame, asked by ``damage.py`` as the injuries are."""
    s = res.stalker(seat)
    if len(s["injuries"]) == 1:
        res.set("InjuryHealed", seat, injuries=[])
    elif s["injuries"]:
        res.push("heal_injury", seat=seat)


def change_fatigue(res: ZonaResolution, seat: int, change: int, by: str) -> None:
    """Zona §"ZMĘCZENIE": 0-5; each point past 5 is a damage no protection stops."""
    s = res.stalker(seat)
    wanted = s["fatigue"] + change
    value = max(MIN_FATIGUE, min(MAX_FATIGUE, wanted))
    if value != s["fatigue"]:
        res.set("FatigueChanged", seat, fatigue=value, change=value - s["fatigue"], by=by)
    if wanted > MAX_FATIGUE:
        res.push("damage", seat=seat, amounts={"wound": wanted - MAX_FATIGUE}, fatigue=0, by="fatigue",
                 unpreventable=True, used=[])


def max_out_fatigue(res: ZonaResolution, seat: int) -> None:
    """Fatigue set to the maximum; already there, nothing changes and nothing hurts."""
    s = res.stalker(seat)
    if s["fatigue"] < MAX_FATIGUE:
        res.set("FatigueChanged", seat, fatigue=MAX_FATIGUE, change=MAX_FATIGUE - s["fatigue"], by="effect")


def change_reputation(res: ZonaResolution, seat: int, step: int) -> None:
    """Zona §"REPUTACJA": one step along bad - neutral - good; past good, 1 fatigue off;
    past bad, 1 fatigue more (our ruling on the lost icon; option ``worsen_at_bad``)."""
    s = res.stalker(seat)
    for _ in range(abs(step)):
        at = REPUTATIONS.index(s["reputation"])
        to = at + (1 if step > 0 else -1)
        if 0 <= to < len(REPUTATIONS):
            res.set("ReputationChanged", seat, reputation=REPUTATIONS[to], change=1 if step > 0 else -1)
        elif step > 0:
            change_fatigue(res, seat, -1, by="reputation")
        elif res.state.options["worsen_at_bad"] == "damage":
            suffer(res, seat, {"wound": 1}, by="reputation")
        else:
            change_fatigue(res, seat, 1, by="reputation")
        s = res.stalker(seat)


def pay(res: ZonaResolution, seat: int, amount: int) -> None:
    s = res.stalker(seat)
    res.set("RoublesChanged", seat, roubles=max(0, s["roubles"] + amount), change=amount)


# -- the vocabulary's effects on the body ------------------------------------------------


@effect("damage")
def _damage(res: ZonaResolution, seat: int, e: dict[str, Any], at: Address) -> None:
    suffer(res, seat, dict(e["damage"]), by="effect")


@effect("fatigue")
def _fatigue(res: ZonaResolution, seat: int, e: dict[str, Any], at: Address) -> None:
    change_fatigue(res, seat, e["fatigue"], by="effect")


@effect("fatigue_max")
def _fatigue_max(res: ZonaResolution, seat: int, e: dict[str, Any], at: Address) -> None:
    max_out_fatigue(res, seat)


@effect("reputation")
def _reputation(res: ZonaResolution, seat: int, e: dict[str, Any], at: Address) -> None:
    change_reputation(res, seat, e["reputation"])


@effect("heal")
def _heal(res: ZonaResolution, seat: int, e: dict[str, Any], at: Address) -> None:
    heal(res, seat, e["heal"])


@effect("heal_injury")
def _heal_injury(res: ZonaResolution, seat: int, e: dict[str, Any], at: Address) -> None:
    heal_injury(res, seat)


@effect("roubles")
def _roubles(res: ZonaResolution, seat: int, e: dict[str, Any], at: Address) -> None:
    pay(res, seat, e["roubles"])
