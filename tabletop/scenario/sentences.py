"""Every scenario step as a sentence, even without `say`: "Alice moves Hill Giant,
Llanowar Elves, Shock and a Soldier token to Alice's graveyard". The words for each
kind of step are declared with the kind (``words`` in steps.py); this module walks a
scenario, keeping track of what each label names, and gives them what they need.

A sentence says what the step does (the intention), in the edition's zone names; what
the engine then made of it is the events' own sentences."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

from tabletop.engine import editions
from tabletop.engine.model import Zone

if TYPE_CHECKING:
    from tabletop.engine.editions import Edition
    from tabletop.scenario.model import Check, Scenario, Step

NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
           "ten")


def count(n: int, thing: str, plural: str | None = None) -> str:
    """2, "card" -> "two cards"; 1 -> "a card"."""
    if n == 1:
        return f"{'an' if thing[:1].lower() in 'aeiou' else 'a'} {thing}"
    word = NUMBERS[n] if 0 <= n < len(NUMBERS) else f"{n:,}"
    return f"{word} {plural or thing + 's'}"


def ordinal(n: int) -> str:
    words = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
             "ninth", "tenth")
    if 1 <= n <= len(words):
        return words[n - 1]
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def listing(items: list[str]) -> str:
    if not items:
        return "nothing"
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + " and " + items[-1]


class Words:
    """What the sentences of one scenario need: each label's card, owner and controller
    as the file set them up (and as steps made them), the players and the edition."""

    def __init__(self, scenario: Scenario) -> None:
        self.ed = editions.get(scenario.edition)
        self.players = list(scenario.players)
        self.cards: dict[str, dict[str, Any]] = {}
        for label, spec in scenario.cards.items():
            self.cards[label] = {"name": spec.get("name", label), "owner": spec.get("owner"),
                                 "controller": spec.get("controller"),
                                 "token": bool(spec.get("token")), "zone": spec.get("zone")}

    def learn(self, label: str, name: str, owner: str | None, token: bool = False,
              kind: str = "card") -> None:
        """A label a step made (a token, a wished card, an ability, an emblem)."""
        self.cards[label] = {"name": name, "owner": owner, "controller": owner,
                             "token": token, "zone": None, "kind": kind}

    def name(self, label: str) -> str:
        c = self.cards.get(label)
        if c is None:
            return str(label)
        if c.get("kind") == "ability":
            return f"the ability “{c['name']}”"
        return f"a {c['name']} token" if c["token"] else str(c["name"])

    def names(self, labels: Iterable[str]) -> str:
        return listing([self.name(lab) for lab in labels])

    def owner(self, label: str) -> str | None:
        c = self.cards.get(label)
        owner = c["owner"] if c else None
        return owner if isinstance(owner, str) else None

    def actor(self, label: str) -> str:
        """Who handles the card: its controller, else its owner, else "someone"."""
        c = self.cards.get(label) or {}
        return str(c.get("controller") or c.get("owner") or "someone")

    def place(self, zone: Zone, player: str | None = None) -> str:
        if zone in self.ed.per_player:
            return self.ed.place(zone, player)
        return self.ed.place(zone)

    def zone(self, zone: Zone) -> str:
        return self.ed.zone_name(zone).lower()


# each kind of step's sentence (steps.py declares them as it declares the kinds)
SAYINGS: dict[str, Callable[[Words, Step], str]] = {}


def sentences(scenario: Scenario) -> list[str]:
    """One sentence per step of the scenario, in order."""
    w = Words(scenario)
    out = []
    for st in scenario.steps:
        say = SAYINGS.get(st.action)
        text = say(w, st) if say is not None else None
        out.append(text or f"{st.action.replace('_', ' ')} {st.subject}")
    return out


def line(step: Step, sentence: str) -> str:
    """The step as a person reads it: its `say` when it has one, else the sentence."""
    return step.say or sentence


def expectation_words(check: Check, name: str, place: Callable[[Zone], str]) -> str:
    """An expectation as a plain sentence: "Hill Giant is in Bob's graveyard"."""
    k, v = check.key, check.expected
    it = name or "it"
    if k == "zone":
        return f"{it} is in {place(Zone(v))}"
    if k == "player":
        return f"{it} is on {v}'s side of the table"
    if k == "exists":
        return f"{it} still exists" if v else f"{it} no longer exists"
    if k == "new_object":
        return f"{it} is a new object" if v else f"{it} is the same object as before"
    if k == "rejected":
        return "the move is refused" if v else "the move is not refused"
    if k == "position":
        return f"{it} is number {v} from the top"
    if k == "cites":
        return f"the step cites {', '.join(map(str, v))}" if v else "the step cites no rule"
    if k == "not_cites":
        return f"the step does not cite {', '.join(map(str, v))}"
    if k in ("tapped", "face_down"):
        words = {"tapped": ("tapped", "untapped"), "face_down": ("face down", "face up")}[k]
        return f"{it} is {words[0] if v else words[1]}"
    if k == "counters":
        if not v:
            return f"{it} has no counters"
        return f"{it} has " + ", ".join(f"{n} × {kind}" for kind, n in dict(v).items())
    if k == "lineage":
        return f"{it} has been in " + " → ".join(map(str, v))
    if k == "counts":
        return "the zones hold " + ", ".join(f"{n} in {z}" for z, n in dict(v).items())
    if k == "outside_game":
        return f"{it} is outside the game" if v else f"{it} is in the game"
    return f"{it}: {k} is {v}"


def expectation_lines(checks: Sequence[Check], names: dict[str, str],
                      edition: Edition) -> list[tuple[bool, str]]:
    """Each expectation of a step as (held, sentence); a card's zone and whose zone it is
    read as one sentence ("Hill Giant is in Bob's graveyard")."""
    owners = {c.card: c for c in checks if c.key == "player"}
    out = []
    for c in checks:
        name = names.get(c.card, c.card) if c.card else ""
        if c.key == "player" and any(x.card == c.card and x.key == "zone" for x in checks):
            continue  # said with the zone
        if c.key == "zone":
            who = owners.get(c.card)
            zone = Zone(str(c.expected))
            per = zone in edition.per_player and who is not None
            where = edition.place(zone, str(who.expected)) if per and who is not None \
                else edition.place(zone)
            held = c.held and (who is None or who.held)
            if who is not None and not per:  # the battlefield: whose side
                where += f", on {who.expected}'s side"
            out.append((held, f"{name or 'it'} is in {where}"))
            continue
        out.append((c.held, expectation_words(c, name, edition.place)))
    return out
