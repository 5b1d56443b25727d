"""Words that address their reader: "You end the turn", "Your turn begins", "Marek attacks you".

A game's words name each seat by its character; the reader's own seat is
named ``YOU`` instead (a mark no name holds), and ``addressed`` turns a
finished sentence into the second person: the mark as a subject takes "You"
and its verb loses the third person's s, before "'s" it is "your", anywhere
else "you". The reader's seat is all it reads, so a sentence still depends
only on the log up to it and on who reads it (DESIGN.md, invariant 8).
"""

from __future__ import annotations

import functools
import re

#: How a game's names call the reader's own seat, until ``addressed`` words it.
YOU = "\x00"

_IRREGULAR = {"is": "are", "has": "have", "does": "do", "goes": "go", "was": "were"}
#: Words after the subject that are no verb of it ("You and Marek trade").
_NOT_VERBS = frozenset({"and", "or", "as", "alone"})
#: Second verbs of the same subject a sentence joins with "and" ("recover 2 HP and shed a rad").
_SECOND_VERBS = frozenset({
    "sheds", "goes", "kills", "suffers", "recovers", "gains", "takes", "is", "loses", "moves", "turns", "draws", "plays",
    "picks", "keeps", "discards", "wins",
})

_SUBJECT = re.compile(r"(^|[.;:!?] +|\n)" + YOU + r" ([A-Za-z]+)")
_POSSESSIVE = re.compile(r"(^|[.;:!?] +)?" + YOU + "'s")
_AND = re.compile(r"\band ([a-z]+)\b")


def base_form(verb: str) -> str:
    """A verb's form after "you": ``ends`` → ``end``, ``carries`` → ``carry``, ``is`` → ``are``."""
    if verb in _IRREGULAR:
        return _IRREGULAR[verb]
    if verb.endswith("ies") and len(verb) > 4:
        return verb[:-3] + "y"
    if verb.endswith(("ches", "shes", "sses", "xes", "zes")):
        return verb[:-2]
    if verb.endswith("s") and not verb.endswith(("ss", "us")):
        return verb[:-1]
    return verb


def _subject(match: re.Match[str]) -> str:
    before, word = match.group(1), match.group(2)
    you = "you" if before.strip() in (";", ":") else "You"
    return f"{before}{you} {word if word in _NOT_VERBS else base_form(word)}"


def _second_verb(match: re.Match[str]) -> str:
    word = match.group(1)
    return f"and {base_form(word)}" if word in _SECOND_VERBS else match.group(0)


@functools.lru_cache(maxsize=4096)  # a pure function of its text; a game's sentences repeat, and each answer words them
def addressed(text: str) -> str:
    """``text`` with the reader's mark (``YOU``) worded in the second person."""
    if YOU not in text:
        return text
    out = []
    for sentence in re.split(r"(?<=[.!?]) +", text):
        if sentence.startswith(YOU + " "):
            sentence = _AND.sub(_second_verb, sentence)
        sentence = _POSSESSIVE.sub(lambda m: f"{m.group(1)}Your" if m.group(1) is not None else "your", sentence)
        sentence = _SUBJECT.sub(_subject, sentence)
        out.append(sentence.replace(YOU, "you"))
    return " ".join(out)
