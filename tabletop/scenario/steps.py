"""The step vocabulary, once: every kind of scenario step declares here which keys it
takes, how a file's step is checked, how it is performed on a table, what it reads
as in words, and how it is recovered from an action in the engine's history.

The loader checks files with it, the runner performs steps with it, and the
recorder turns ``table.history`` back into steps with it, so a kind of step
cannot be known to one of them and unknown to another."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tabletop.engine import Card, Result, chooser_from_labels
from tabletop.engine.errors import IllegalActionError, InputError, NoSuchZoneError
from tabletop.engine.model import CardId, Event, EventKind, Zone, split_pt
from tabletop.scenario import sentences
from tabletop.scenario.model import Context, Recording, Step, StepChecker

if TYPE_CHECKING:
    from tabletop.engine.table import Action
    from tabletop.scenario.sentences import Words

Args = dict[str, Any]  # a step's keys as a file gives them
Performed = tuple[list[Event], list[CardId]]  # (events, the card ids the step is about)


@dataclass(frozen=True)
class StepKind:
    name: str
    keys: frozenset[str]  # the other keys a step of this kind may carry
    required: frozenset[str]
    validate: Callable[..., Any]  # (checker, where, subject, args) -> the subject, checked
    perform: Callable[..., Performed]  # (context, step) -> (events, subject cids)
    engine: tuple[str, ...] = ()  # names of the engine actions it is recovered from
    recover: Callable[..., Args | None] | None = None  # (recording, action) -> step
    project: bool = False  # a key the project adds to the contract's vocabulary
    words: Callable[..., str] | None = None  # (sentences.Words, step) -> a sentence


REGISTRY: dict[str, StepKind] = {}


def kind(name: str, keys: Iterable[str] = (), required: Iterable[str] = (), *,
         engine: Iterable[str] = (), project: bool = False) -> Callable[[type], type]:
    def wrap(cls: type) -> type:
        REGISTRY[name] = StepKind(name, frozenset(keys), frozenset(required),
                                  getattr(cls, "validate"), getattr(cls, "perform"),  # noqa: B009
                                  tuple(engine), getattr(cls, "recover", None),
                                  project, getattr(cls, "words", None))
        words = REGISTRY[name].words
        if words is not None:  # its sentence, for sentences.py
            sentences.SAYINGS[name] = words
        return cls
    return wrap


def actions() -> dict[str, tuple[set[str], set[str]]]:
    """kind -> (keys allowed, keys required), for the loader."""
    return {k.name: (set(k.keys), set(k.required)) for k in REGISTRY.values()}


def by_engine_action() -> dict[str, StepKind]:
    return {e: k for k in REGISTRY.values() for e in k.engine}


CARD_KEYS = {"name", "types", "subtypes", "supertypes", "owner", "zone", "controller",
             "token", "face_down", "tapped", "counters", "attached_to", "commander",
             # project additions
             "mana_cost", "power", "toughness", "colors", "modifications", "choices", "pile",
             "stickers"}


def _show(v: object) -> str:
    return repr(v) if isinstance(v, str) else str(v)


def _events(res: Result) -> list[Event]:
    return list(res.events)


def _cids(res: Result) -> list[CardId]:
    return [e.cid for e in res.events if e.cid is not None]


def _cid(e: Event) -> CardId:
    """The card an event is about, for events that always name one."""
    if e.cid is None:
        raise ValueError(f"a {e.kind} event names no card")
    return e.cid


def _created(events: Iterable[Event]) -> list[CardId]:
    return [_cid(e) for e in events if e.kind == EventKind.CREATED]


def _card_json(card: Card, owner: str) -> dict[str, Any]:
    d = {"name": card.name, "types": list(card.types)}
    for k in ("subtypes", "supertypes", "colors"):
        if getattr(card, k):
            d[k] = list(getattr(card, k))
    for k in ("mana_cost", "power", "toughness"):
        if getattr(card, k):
            d[k] = getattr(card, k)
    d["owner"] = owner
    return d


# ---- moving ------------------------------------------------------------------------
@kind("move", {"to", "player", "position", "face_down", "apply", "order", "by", "pile",
               "allowed_by"}, {"to"}, engine=("move",))
class Move:
    @staticmethod
    def words(w: Words, step: Step) -> str:
        a, labels = step.args, step.subject
        labels = labels if isinstance(labels, list) else [labels]
        who = a.get("by") or w.actor(labels[0])
        zone = a["to"]
        if a.get("player") or zone not in w.ed.per_player:
            where = w.place(zone, a.get("player"))
        else:
            owners = {w.owner(lab) for lab in labels}
            where = w.place(zone, owners.pop()) if len(owners) == 1 else \
                f"their owners' {w.zone(zone)}s"
        pos = a.get("position", "top")
        if zone == Zone.LIBRARY:
            verb = "puts"
            if pos == "bottom":
                where = f"on the bottom of {where}"
            elif isinstance(pos, int) and pos > 1:
                where = f"{sentences.ordinal(pos)} from the top of {where}"
            else:
                where = f"on top of {where}"
        else:
            verb = "moves"
            where = f"into {where}" if where == "play" else f"to {where}"
        down = " face down" if a.get("face_down") else ""
        pile = f" (the exile pile of {a['pile']})" if a.get("pile") else ""
        allowed = f", as {a['allowed_by']} allows" if a.get("allowed_by") else ""
        return f"{who} {verb} {w.names(labels)}{down} {where}{pile}{allowed}"

    @staticmethod
    def validate(v: StepChecker, where: str, subject: Any, args: Args) -> Any:
        c = v.c
        subs = subject if isinstance(subject, list) else [subject]
        if not subs:
            c.fail(where, "key 'move': needs at least one label")
        for s in subs:
            v.label_ref(where, s)
        if len(set(subs)) != len(subs):
            c.fail(where, "key 'move': a label is listed twice")
        v.zone_id(where, "to", args["to"])
        if "player" in args:
            v.player(where, "player", args["player"])
        if "by" in args:
            v.player(where, "by", args["by"])
        pos = args.get("position", "top")
        if not (pos in ("top", "bottom") or (isinstance(pos, int) and not isinstance(pos, bool)
                                             and pos >= 1)):
            c.fail(where, f"key 'position' must be \"top\", \"bottom\" or an integer from 1, "
                          f"not {_show(pos)}")
        c.typed(where, "face_down", args.get("face_down", False), bool, "true or false")
        c.typed(where, "pile", args.get("pile", ""), str, "a string")
        c.typed(where, "allowed_by", args.get("allowed_by", ""), str,
                "the name of the card whose text allows the move")
        for lab in c.strings(where, "apply", args.get("apply", [])):
            if lab not in v.effect_labels and lab != "commander":  # the rules' own (903.9b)
                c.fail(where, f"key 'apply': unknown effect {lab!r}")
        for lab in c.strings(where, "order", args.get("order", [])):
            if lab not in subs:
                c.fail(where, f"key 'order': {lab!r} is not one of the objects moved")
        return subs

    @staticmethod
    def perform(x: Context, step: Step) -> Performed:
        t, a, L = x.table, step.args, x.labels
        cids = [L[s] for s in step.subject]
        res = t.move_many(cids, a["to"], a.get("player"), position=a.get("position", "top"),
                          order=[L[s] for s in a.get("order", [])],
                          face_down=a.get("face_down", False),
                          chooser=chooser_from_labels(a["apply"]) if "apply" in a else None,
                          by=a.get("by"), pile=a.get("pile"), allowed_by=a.get("allowed_by"))
        return _events(res), cids

    @staticmethod
    def recover(rec: Recording, action: Action) -> Args | None:
        p = action.params
        step = {"move": [rec.label(c) for c in p["cids"]], "to": p["zone"]}
        if len(step["move"]) == 1:
            step["move"] = step["move"][0]
        for k in ("player", "position", "face_down", "by", "pile", "allowed_by"):
            if k in p:
                step[k] = p[k]
        if p.get("order"):
            step["order"] = [rec.label(c) for c in p["order"]]
        if "apply" in p:
            step["apply"] = list(p["apply"])
        return step


# ---- a player's library and hand ---------------------------------------------------------
@kind("draw", {"count"}, engine=("draw",))
class Draw:
    @staticmethod
    def words(w: Words, step: Step) -> str:
        return f"{step.subject} draws {sentences.count(step.args.get('count', 1), 'card')}"

    @staticmethod
    def validate(v: StepChecker, where: str, subject: Any, args: Args) -> Any:
        v.player(where, "draw", subject)
        cnt = v.c.typed(where, "count", args.get("count", 1), int, "an integer")
        if cnt < 0:
            v.c.fail(where, "key 'count' must not be negative")
        return subject

    @staticmethod
    def perform(x: Context, step: Step) -> Performed:
        res = x.table.draw(step.subject, step.args.get("count", 1))
        return _events(res), _cids(res)

    @staticmethod
    def recover(rec: Recording, action: Action) -> Args | None:
        p = action.params
        step = {"draw": p["player"]}
        if p.get("count", 1) != 1:
            step["count"] = p["count"]
        return step


@kind("shuffle", {"seed"}, engine=("shuffle",))
class Shuffle:
    @staticmethod
    def words(w: Words, step: Step) -> str:
        return f"{step.subject} shuffles {w.place(Zone.LIBRARY, step.subject)}"

    @staticmethod
    def validate(v: StepChecker, where: str, subject: Any, args: Args) -> Any:
        v.player(where, "shuffle", subject)
        v.c.typed(where, "seed", args.get("seed", 0), int, "an integer")
        return subject

    @staticmethod
    def perform(x: Context, step: Step) -> Performed:
        return _events(x.table.shuffle(step.subject, seed=step.args.get("seed"))), []

    @staticmethod
    def recover(rec: Recording, action: Action) -> Args | None:
        return {"shuffle": action.params["player"], "seed": action.params["seed"]}


@kind("mulligan", {Zone.HAND, "seed"}, engine=("mulligan",), project=True)
class Mulligan:
    @staticmethod
    def words(w: Words, step: Step) -> str:
        hand = step.args.get("hand", 7)
        return (f"{step.subject} takes a mulligan: the hand goes back, and "
                f"{sentences.count(hand, 'card')} are drawn anew")

    @staticmethod
    def validate(v: StepChecker, where: str, subject: Any, args: Args) -> Any:
        v.player(where, "mulligan", subject)
        if v.c.typed(where, "hand", args.get("hand", 7), int, "an integer") < 0:
            v.c.fail(where, "key 'hand' must not be negative")
        v.c.typed(where, "seed", args.get("seed", 0), int, "an integer")
        return subject

    @staticmethod
    def perform(x: Context, step: Step) -> Performed:
        res = x.table.mulligan(step.subject, step.args.get("hand", 7), seed=step.args.get("seed"))
        return _events(res), _cids(res)

    @staticmethod
    def recover(rec: Recording, action: Action) -> Args | None:
        p = action.params
        return {"mulligan": p["player"], "hand": p["hand"], "seed": p["seed"]}


@kind("cleanup", {"discard"}, engine=("cleanup",), project=True)
class Cleanup:
    @staticmethod
    def words(w: Words, step: Step) -> str:
        discard = step.args.get("discard", [])
        tail = f", discarding {w.names(discard)}" if discard else ""
        return f"{step.subject} discards down to the maximum hand size in the cleanup step{tail}"

    @staticmethod
    def validate(v: StepChecker, where: str, subject: Any, args: Args) -> Any:
        v.player(where, "cleanup", subject)
        for lab in v.c.strings(where, "discard", args.get("discard", [])):
            v.label_ref(where, lab, "discard")
        return subject

    @staticmethod
    def perform(x: Context, step: Step) -> Performed:
        res = x.table.cleanup(step.subject, [x.labels[s] for s in step.args.get("discard", [])]
                              or None)
        return _events(res), _cids(res)

    @staticmethod
    def recover(rec: Recording, action: Action) -> Args | None:
        p = action.params
        step = {"cleanup": p["player"]}
        if p.get("discard"):
            step["discard"] = [rec.label(c) for c in p["discard"]]
        return step


@kind("reveal_top", {"on"}, engine=("reveal_top",), project=True)
class RevealTop:
    @staticmethod
    def words(w: Words, step: Step) -> str:
        lib = w.place(Zone.LIBRARY, step.subject)
        if step.args.get("on", True):
            return f"{step.subject} plays with the top card of {lib} revealed"
        return f"{step.subject} stops revealing the top card of {lib}"

    @staticmethod
    def validate(v: StepChecker, where: str, subject: Any, args: Args) -> Any:
        v.player(where, "reveal_top", subject)
        v.c.typed(where, "on", args.get("on", True), bool, "true or false")
        return subject

    @staticmethod
    def perform(x: Context, step: Step) -> Performed:
        return _events(x.table.reveal_top(step.subject, step.args.get("on", True))), []

    @staticmethod
    def recover(rec: Recording, action: Action) -> Args | None:
        return {"reveal_top": action.params["player"], "on": action.params["on"]}


@kind("whole_zone", {"from", "to", "then_shuffle", "position", "seed"}, {"from", "to"},
      engine=("move_all",), project=True)
class WholeZone:
    @staticmethod
    def words(w: Words, step: Step) -> str:
        a, p = step.args, step.subject
        then = ", then shuffles it" if a.get("then_shuffle") else ""
        return (f"{p} puts every card of {w.place(a['from'], p)} into "
                f"{w.place(a['to'], p)}{then}")

    @staticmethod
    def validate(v: StepChecker, where: str, subject: Any, args: Args) -> Any:
        v.player(where, "whole_zone", subject)
        v.zone_id(where, "from", args["from"])
        v.zone_id(where, "to", args["to"])
        v.c.typed(where, "then_shuffle", args.get("then_shuffle", False), bool, "true or false")
        v.c.typed(where, "seed", args.get("seed", 0), int, "an integer")
        return subject

    @staticmethod
    def perform(x: Context, step: Step) -> Performed:
        a = step.args
        res = x.table.zone_to_zone(step.subject, a["from"], a["to"],
                                   shuffle=a.get("then_shuffle", False),
                                   position=a.get("position", "top"), seed=a.get("seed"))
        return _events(res), _cids(res)

    @staticmethod
    def recover(rec: Recording, action: Action) -> Args | None:
        p = action.params
        step = {"whole_zone": p["player"], "from": p["from"], "to": p["to"]}
        if p.get("shuffle"):
            step["then_shuffle"] = True
            step["seed"] = p["seed"]
        if p.get("position", "top") != "top":
            step["position"] = p["position"]
        if p.get("attached_to") is not None:
            step["attached_to"] = rec.label(p["attached_to"])
        return step


# ---- one object's status ---------------------------------------------------------------
@kind("turn_face", {"face"}, engine=("face",))
class TurnFace:
    @staticmethod
    def words(w: Words, step: Step) -> str:
        face = step.args.get("face")
        how = f"face {face}" if face else "over"
        return f"{w.actor(step.subject)} turns {w.name(step.subject)} {how}"

    @staticmethod
    def validate(v: StepChecker, where: str, subject: Any, args: Args) -> Any:
        v.label_ref(where, subject, "turn_face")
        if args.get("face", "up") not in ("up", "down"):
            v.c.fail(where, f"key 'face' must be \"up\" or \"down\", not {_show(args['face'])}")
        return subject

    @staticmethod
    def perform(x: Context, step: Step) -> Performed:
        cid = x.labels[step.subject]
        a = step.args
        down = a["face"] == "down" if "face" in a else not x.table.obj_of(cid).face_down
        return _events(x.table.turn_face(cid, down)), [cid]

    @staticmethod
    def recover(rec: Recording, action: Action) -> Args | None:
        p = action.params
        return {"turn_face": rec.label(p["cid"]), "face": "down" if p["face_down"] else "up"}


def _status(name: str) -> type:
    @kind(name, engine=(name,))
    class Status:
        @staticmethod
        def words(w: Words, step: Step) -> str:
            return f"{w.actor(step.subject)} {name}s {w.name(step.subject)}"

        @staticmethod
        def validate(v: StepChecker, where: str, subject: Any, args: Args) -> Any:
            return v.label_ref(where, subject, name)

        @staticmethod
        def perform(x: Context, step: Step) -> Performed:
            cid = x.labels[step.subject]
            return _events(x.table.set_tapped(cid, name == "tap")), [cid]

        @staticmethod
        def recover(rec: Recording, action: Action) -> Args | None:
            return {name: rec.label(action.params["cid"])}
    return Status


_status("tap")
_status("untap")


@kind("commander_returns", engine=("commander_returns",))
class CommanderReturns:
    """903.9a (cr-2025): the owner puts their commander from a graveyard or exile into
    the command zone, a state-based action; refused where the rules do not allow it."""

    @staticmethod
    def words(w: Words, step: Step) -> str:
        who = w.owner(step.subject) or w.actor(step.subject)
        return f"{who} puts {w.name(step.subject)} into the command zone"

    @staticmethod
    def validate(v: StepChecker, where: str, subject: Any, args: Args) -> Any:
        return v.label_ref(where, subject, "commander_returns")

    @staticmethod
    def perform(x: Context, step: Step) -> Performed:
        cid = x.labels[step.subject]
        return _events(x.table.commander_returns(cid)), [cid]

    @staticmethod
    def recover(rec: Recording, action: Action) -> Args | None:
        return {"commander_returns": rec.label(action.params["cid"])}


@kind("counters", {"add"}, {"add"}, engine=("counters",))
class Counters:
    @staticmethod
    def words(w: Words, step: Step) -> str:
        parts = []
        for kind, n in step.args["add"].items():
            what = sentences.count(abs(n), f"{kind} counter")
            parts.append(f"puts {what} on" if n >= 0 else f"removes {what} from")
        who = w.actor(step.subject)
        return f"{who} {sentences.listing(parts)} {w.name(step.subject)}"

    @staticmethod
    def validate(v: StepChecker, where: str, subject: Any, args: Args) -> Any:
        v.label_ref(where, subject, "counters")
        add = v.c.typed(where, "add", args["add"], dict, "a table of counter kinds to numbers")
        for k, n in add.items():
            v.c.typed(where, f"add.{k}", n, int, "an integer")
        return subject

    @staticmethod
    def perform(x: Context, step: Step) -> Performed:
        cid = x.labels[step.subject]
        return _events(x.table.add_counters(cid, step.args["add"])), [cid]

    @staticmethod
    def recover(rec: Recording, action: Action) -> Args | None:
        p = action.params
        return {"counters": rec.label(p["cid"]), "add": dict(p["changes"])}


@kind("modify", {"effect", "origin"}, engine=("modify",))
class Modify:
    @staticmethod
    def words(w: Words, step: Step) -> str:
        a = step.args
        origin = a.get("origin", "spell")
        article = "an" if origin[:1] in "aeiou" else "a"
        return (f"{article.capitalize()} {origin} affects {w.name(step.subject)}: "
                f"{a.get('effect', '')}")

    @staticmethod
    def validate(v: StepChecker, where: str, subject: Any, args: Args) -> Any:
        v.label_ref(where, subject, "modify")
        v.c.typed(where, "effect", args.get("effect", ""), str, "a string")
        if args.get("origin", "spell") not in ("spell", "ability", "static"):
            v.c.fail(where, f"key 'origin' must be \"spell\", \"ability\" or \"static\", "
                            f"not {_show(args.get('origin'))}")
        return subject

    @staticmethod
    def perform(x: Context, step: Step) -> Performed:
        cid = x.labels[step.subject]
        a = step.args
        return _events(x.table.modify(cid, a.get("effect", ""), a.get("origin", "spell"))), [cid]

    @staticmethod
    def recover(rec: Recording, action: Action) -> Args | None:
        p = action.params
        return {"modify": rec.label(p["cid"]), "effect": p["effect"], "origin": p["origin"]}


@kind("choices", {"values"}, {"values"}, engine=("choices",), project=True)
class Choices:
    @staticmethod
    def words(w: Words, step: Step) -> str:
        return (f"Choices made as {w.name(step.subject)} was cast: "
                f"{'; '.join(step.args['values']) or 'none'}")

    @staticmethod
    def validate(v: StepChecker, where: str, subject: Any, args: Args) -> Any:
        v.label_ref(where, subject, "choices")
        v.c.strings(where, "values", args["values"])
        return subject

    @staticmethod
    def perform(x: Context, step: Step) -> Performed:
        cid = x.labels[step.subject]
        return _events(x.table.set_choices(cid, step.args["values"])), [cid]

    @staticmethod
    def recover(rec: Recording, action: Action) -> Args | None:
        p = action.params
        return {"choices": rec.label(p["cid"]), "values": list(p["values"])}


@kind("attach", {"to"}, {"to"}, engine=("attach",), project=True)
class Attach:
    @staticmethod
    def words(w: Words, step: Step) -> str:
        return (f"{w.actor(step.subject)} attaches {w.name(step.subject)} to "
                f"{w.name(step.args['to'])}")

    @staticmethod
    def validate(v: StepChecker, where: str, subject: Any, args: Args) -> Any:
        v.label_ref(where, subject, "attach")
        v.label_ref(where, args["to"], "to")
        return subject

    @staticmethod
    def perform(x: Context, step: Step) -> Performed:
        cid = x.labels[step.subject]
        return _events(x.table.attach(cid, x.labels[step.args["to"]])), [cid]

    @staticmethod
    def recover(rec: Recording, action: Action) -> Args | None:
        p = action.params
        if p.get("to") is None:
            return None  # detaching has no step
        return {"attach": rec.label(p["cid"]), "to": rec.label(p["to"])}


@kind("reveal", {"on"}, engine=("reveal",), project=True)
class Reveal:
    @staticmethod
    def words(w: Words, step: Step) -> str:
        verb = "reveals" if step.args.get("on", True) else "stops revealing"
        return f"{w.owner(step.subject) or 'Its owner'} {verb} {w.name(step.subject)}"

    @staticmethod
    def validate(v: StepChecker, where: str, subject: Any, args: Args) -> Any:
        v.label_ref(where, subject, "reveal")
        v.c.typed(where, "on", args.get("on", True), bool, "true or false")
        return subject

    @staticmethod
    def perform(x: Context, step: Step) -> Performed:
        cid = x.labels[step.subject]
        return _events(x.table.reveal(cid, step.args.get("on", True))), [cid]

    @staticmethod
    def recover(rec: Recording, action: Action) -> Args | None:
        p = action.params
        return {"reveal": rec.label(p["cid"]), "on": p["on"]}


@kind("set_pt", {"pt"}, {"pt"}, engine=("pt",), project=True)
class SetPT:
    """``set_pt = "giant", pt = "5/5"``; ``pt = ""``: back to the printed ones."""

    @staticmethod
    def words(w: Words, step: Step) -> str:
        pt = step.args["pt"]
        if not pt:
            return f"{w.name(step.subject)}'s power and toughness go back to the printed ones"
        return f"An effect sets {w.name(step.subject)}'s power and toughness to {pt}"

    @staticmethod
    def validate(v: StepChecker, where: str, subject: Any, args: Args) -> Any:
        v.label_ref(where, subject, "set_pt")
        pt = v.c.typed(where, "pt", args["pt"], str, 'a power/toughness such as "3/3"')
        if pt and split_pt(pt) is None:
            v.c.fail(where, f'key \'pt\' must read like "3/3" or "*/4", not {_show(pt)}')
        return subject

    @staticmethod
    def perform(x: Context, step: Step) -> Performed:
        cid = x.labels[step.subject]
        return _events(x.table.set_pt(cid, step.args["pt"] or None)), [cid]

    @staticmethod
    def recover(rec: Recording, action: Action) -> Args | None:
        p = action.params
        return {"set_pt": rec.label(p["cid"]), "pt": p["pt"] or ""}


@kind("note", {"text"}, {"text"}, engine=("note",), project=True)
class Note:
    @staticmethod
    def words(w: Words, step: Step) -> str:
        text = step.args["text"]
        who = w.actor(step.subject)
        if not text:
            return f"{who} removes the note on {w.name(step.subject)}"
        return f"{who} notes on {w.name(step.subject)}: {text}"

    @staticmethod
    def validate(v: StepChecker, where: str, subject: Any, args: Args) -> Any:
        v.label_ref(where, subject, "note")
        if len(v.c.typed(where, "text", args["text"], str, "a text")) > 300:
            v.c.fail(where, "key 'text' must be at most 300 characters")
        return subject

    @staticmethod
    def perform(x: Context, step: Step) -> Performed:
        cid = x.labels[step.subject]
        return _events(x.table.set_note(cid, step.args["text"])), [cid]

    @staticmethod
    def recover(rec: Recording, action: Action) -> Args | None:
        p = action.params
        return {"note": rec.label(p["cid"]), "text": p["text"]}


@kind("sticker", {"text"}, {"text"}, engine=("sticker",), project=True)
class StickerStep:
    """``sticker = LABEL, text = "name: Dark"``: its owner puts a sticker on it (123)."""

    @staticmethod
    def words(w: Words, step: Step) -> str:
        who = w.owner(step.subject) or w.actor(step.subject)
        return f"{who} puts a sticker on {w.name(step.subject)}: {step.args['text']}"

    @staticmethod
    def validate(v: StepChecker, where: str, subject: Any, args: Args) -> Any:
        v.label_ref(where, subject, "sticker")
        text = v.c.typed(where, "text", args["text"], str, "a text")
        if not 0 < len(text.strip()) <= 60:
            v.c.fail(where, "key 'text' must be 1 to 60 characters")
        return subject

    @staticmethod
    def perform(x: Context, step: Step) -> Performed:
        cid = x.labels[step.subject]
        return _events(x.table.add_sticker(cid, step.args["text"])), [cid]

    @staticmethod
    def recover(rec: Recording, action: Action) -> Args | None:
        p = action.params
        return {"sticker": rec.label(p["cid"]), "text": p["text"]}


@kind("merge", {"onto", "on_top"}, {"onto"}, engine=("merge",), project=True)
class MergeStep:
    """``merge = LABEL, onto = LABEL``: it merges with that permanent (mutate, 728.2),
    under it, or with ``on_top = true`` on top of it."""

    @staticmethod
    def words(w: Words, step: Step) -> str:
        where = "on top of" if step.args.get("on_top") else "under"
        return f"{w.name(step.subject)} merges {where} {w.name(step.args['onto'])}"

    @staticmethod
    def validate(v: StepChecker, where: str, subject: Any, args: Args) -> Any:
        v.label_ref(where, subject, "merge")
        v.label_ref(where, args["onto"], "onto")
        v.c.typed(where, "on_top", args.get("on_top", False), bool, "true or false")
        return subject

    @staticmethod
    def perform(x: Context, step: Step) -> Performed:
        cid, onto = x.labels[step.subject], x.labels[step.args["onto"]]
        res = x.table.merge(cid, onto, bool(step.args.get("on_top", False)))
        return _events(res), [cid, onto]

    @staticmethod
    def recover(rec: Recording, action: Action) -> Args | None:
        p = action.params
        step: Args = {"merge": rec.label(p["cid"]), "onto": rec.label(p["onto"])}
        if p.get("on_top"):
            step["on_top"] = True
        return step


@kind("arrow", {"by", "to", "to_player"}, {"by"}, engine=("arrow",), project=True)
class ArrowStep:
    """``arrow = "giant", by = "Alice"``, with ``to = "elves"`` (a card) or
    ``to_player = "Bob"``."""

    @staticmethod
    def words(w: Words, step: Step) -> str:
        a = step.args
        to = w.name(a["to"]) if "to" in a else a["to_player"]
        return f"{a['by']} points from {w.name(step.subject)} to {to}"

    @staticmethod
    def validate(v: StepChecker, where: str, subject: Any, args: Args) -> Any:
        v.label_ref(where, subject, "arrow")
        v.player(where, "by", args["by"])
        if ("to" in args) == ("to_player" in args):
            v.c.fail(where, "an arrow points at a card ('to') or at a player ('to_player')")
        if "to" in args:
            v.label_ref(where, args["to"], "to")
        else:
            v.player(where, "to_player", args["to_player"])
        return subject

    @staticmethod
    def perform(x: Context, step: Step) -> Performed:
        a = step.args
        cid = x.labels[step.subject]
        to = x.labels[a["to"]] if "to" in a else a["to_player"]
        return _events(x.table.arrow(a["by"], cid, to)), [cid]

    @staticmethod
    def recover(rec: Recording, action: Action) -> Args | None:
        p = action.params
        step = {"arrow": rec.label(p["cid"]), "by": p["player"]}
        if isinstance(p["to"], str):
            step["to_player"] = p["to"]
        else:
            step["to"] = rec.label(p["to"])
        return step


@kind("clear_arrows", engine=("clear_arrows",), project=True)
class ClearArrows:
    """``clear_arrows = "Alice"`` (hers), or ``clear_arrows = true`` (everyone's)."""

    @staticmethod
    def words(w: Words, step: Step) -> str:
        if step.subject is True:
            return "Every arrow on the table is cleared"
        return f"{step.subject} clears their arrows"

    @staticmethod
    def validate(v: StepChecker, where: str, subject: Any, args: Args) -> Any:
        if subject is not True:
            v.player(where, "clear_arrows", subject)
        return subject

    @staticmethod
    def perform(x: Context, step: Step) -> Performed:
        who = None if step.subject is True else step.subject
        return _events(x.table.clear_arrows(who)), []

    @staticmethod
    def recover(rec: Recording, action: Action) -> Args | None:
        who = action.params["player"]
        return {"clear_arrows": True if who is None else who}


# ---- new objects ------------------------------------------------------------------------
def _new_label(v: StepChecker, where: str, subject: Any, name: str) -> None:
    v.c.typed(where, name, subject, str, "a new label")
    if subject in v.labels:
        v.c.fail(where, f"label {subject!r} is already used")


def token_labels(label: str, count: int) -> list[str]:
    """The labels of ``count`` tokens made by one step: the label, then label_2..."""
    return [label] + [f"{label}_{i}" for i in range(2, count + 1)]


@kind("create_token", (CARD_KEYS - {"zone"}) | {"count"}, {"name", "owner"},
      engine=("token",))
class CreateToken:
    @staticmethod
    def words(w: Words, step: Step) -> str:
        a = step.args
        n = a.get("count", 1)
        for label in token_labels(step.subject, n):
            w.learn(label, a["name"], a["owner"], token=True)
        what = sentences.count(n, f"{a['name']} token")
        extra = []
        if a.get("tapped"):
            extra.append("tapped")
        if a.get("controller") and a["controller"] != a["owner"]:
            extra.append(f"under {a['controller']}'s control")
        if a.get("attached_to"):
            extra.append(f"attached to {w.name(a['attached_to'])}")
        return f"{a['owner']} creates {what}" + (", " + ", ".join(extra) if extra else "")

    @staticmethod
    def validate(v: StepChecker, where: str, subject: Any, args: Args) -> Any:
        _new_label(v, where, subject, "create_token")
        spec = v.card_spec(where, {k: a for k, a in args.items() if k != "count"},
                           with_zone=False)
        if spec.get("attached_to") is not None and spec["attached_to"] not in v.labels:
            v.c.fail(where, f"key 'attached_to': unknown label {spec['attached_to']!r}")
        count = v.c.typed(where, "count", args.get("count", 1), int, "a whole number")
        if not 1 <= count <= 100:
            v.c.fail(where, "key 'count' must be from 1 to 100")
        if count > 1 and args.get("attached_to"):
            v.c.fail(where, "key 'attached_to' takes one token, not a count")
        for label in token_labels(subject, count):
            if label in v.labels:
                v.c.fail(where, f"label {label!r} is already used")
            v.labels.add(label)
        return subject

    @staticmethod
    def perform(x: Context, step: Step) -> Performed:
        a = step.args
        card = x.card({k: v for k, v in a.items() if k != "count"},
                      f"{x.path}: step {step.index}")
        t = x.table
        count = a.get("count", 1)
        res = t.create_token(card, a["owner"], a.get("controller"), tapped=a.get("tapped", False),
                             counters=a.get("counters"), face_down=a.get("face_down", False),
                             count=count)
        cids = _created(res.events)
        for label, cid in zip(token_labels(step.subject, count), cids, strict=True):
            x.name(label, cid)
        events = _events(res)
        if a.get("attached_to"):
            events += _events(t.attach(cids[0], x.labels[a["attached_to"]]))
        return events, cids

    @staticmethod
    def recover(rec: Recording, action: Action) -> Args | None:
        p = action.params
        cids = _created(action.events)
        card = Card.from_json(p["card"])
        label = rec.new_label(cids[0], card.name)
        step = {"create_token": label, **_card_json(card, p["owner"])}
        if len(cids) > 1:
            labels = token_labels(label, len(cids))
            taken = set(rec.labels.values()) - {label}
            if taken & set(labels[1:]):
                return None  # the labels a count makes are taken: reported, not written
            for cid, lab in zip(cids[1:], labels[1:], strict=True):
                rec.labels[cid] = lab
            step["count"] = len(cids)
        if p.get("controller") and p["controller"] != p["owner"]:
            step["controller"] = p["controller"]
        for k in ("tapped", "face_down"):
            if p.get(k):
                step[k] = True
        if p.get("counters"):
            step["counters"] = dict(p["counters"])
        return step


@kind("wish", (CARD_KEYS - {"zone", "controller", "token", "tapped", "attached_to"})
      | {"to", "player"}, {"name", "owner"}, engine=("bring_in",), project=True)
class Wish:
    @staticmethod
    def words(w: Words, step: Step) -> str:
        a = step.args
        w.learn(step.subject, a["name"], a["owner"])
        to = a.get("to", Zone.HAND)
        return (f"{a['owner']} brings {a['name']} into the game from outside it, to "
                f"{w.place(to, a.get('player') or a['owner'])}")

    @staticmethod
    def validate(v: StepChecker, where: str, subject: Any, args: Args) -> Any:
        _new_label(v, where, subject, "wish")
        v.card_spec(where, {k: a for k, a in args.items() if k not in ("to", "player")},
                    with_zone=False)
        v.zone_id(where, "to", args.get("to", Zone.HAND))
        if "player" in args:
            v.player(where, "player", args["player"])
        v.labels.add(subject)
        return subject

    @staticmethod
    def perform(x: Context, step: Step) -> Performed:
        a = step.args
        spec = {k: val for k, val in a.items() if k not in ("to", "player")}
        card = x.card(spec, f"{x.path}: step {step.index}")
        res = x.table.bring_in(card, a["owner"], a.get("to", Zone.HAND), a.get("player"))
        cid = _cid(res.events[0])
        x.name(step.subject, cid)
        return _events(res), [cid]

    @staticmethod
    def recover(rec: Recording, action: Action) -> Args | None:
        p = action.params
        cid = _cid(action.events[0])
        card = Card.from_json(p["card"])
        step = {"wish": rec.new_label(cid, card.name), **_card_json(card, p["owner"]),
                "to": p["zone"]}
        if p.get("player"):
            step["player"] = p["player"]
        return step


# ---- setting the table up as the story goes on (a judge's workbench) ---------------
@kind("add_card", CARD_KEYS | {"position", "player"}, {"name", "owner", "zone"},
      engine=("add_card",), project=True)
class AddCard:
    """``add_card = LABEL`` with a card's keys (as ``[cards]`` has them): a card put on
    the table partway through, as a judge sets a demonstration up (not a rule's move)."""

    @staticmethod
    def words(w: Words, step: Step) -> str:
        a = step.args
        w.learn(step.subject, a["name"], a["owner"], token=bool(a.get("token")))
        w.cards[step.subject]["controller"] = a.get("controller") or a["owner"]
        whose = a.get("player") or a["owner"]
        into = "onto" if a["zone"] in (Zone.BATTLEFIELD, Zone.STACK) else "into"
        extra = []
        if a.get("controller") and a["controller"] != a["owner"]:
            extra.append(f"{a['owner']}'s, under {a['controller']}'s control")
        for flag, said in (("tapped", "tapped"), ("face_down", "face down")):
            if a.get(flag):
                extra.append(said)
        return (f"{a['name']} is put {into} {w.place(Zone(a['zone']), whose)}"
                + (f" ({', '.join(extra)})" if extra else "") + " to set the table up")

    @staticmethod
    def validate(v: StepChecker, where: str, subject: Any, args: Args) -> Any:
        _new_label(v, where, subject, "add_card")
        spec = v.card_spec(where, {k: a for k, a in args.items()
                                   if k not in ("position", "player")}, with_zone=True)
        if "player" in args:
            v.player(where, "player", args["player"])
        pos = args.get("position", "top")
        if pos not in ("top", "bottom") and (not isinstance(pos, int) or isinstance(pos, bool)
                                             or pos < 1):
            v.c.fail(where, "key 'position' must be \"top\", \"bottom\" or a whole number "
                            "from 1")
        if spec.get("attached_to") is not None and spec["attached_to"] not in v.labels:
            v.c.fail(where, f"key 'attached_to': unknown label {spec['attached_to']!r}")
        v.labels.add(subject)
        return subject

    @staticmethod
    def perform(x: Context, step: Step) -> Performed:
        a = step.args
        card = x.card(a, f"{x.path}: step {step.index}")
        t = x.table
        obj = t.add_card(card, a["owner"], Zone(a["zone"]), player=a.get("player"),
                         controller=a.get("controller"), token=a.get("token", False),
                         tapped=a.get("tapped", False), face_down=a.get("face_down", False),
                         counters=a.get("counters"), position=a.get("position", "top"),
                         commander=bool(a.get("commander", False)),
                         attached_to=x.labels[a["attached_to"]] if a.get("attached_to")
                         else None)
        x.name(step.subject, obj.cid)
        return list(t.history[-1].events), [obj.cid]

    @staticmethod
    def recover(rec: Recording, action: Action) -> Args | None:
        p = action.params
        if "card" not in p:
            return None  # a save from before the setup was recorded whole
        cid = _cid(action.events[0])
        label = rec.new_label(cid, str(p["card"].get("name", "card")))
        return {"add_card": label, **added_card(p, rec.label)}


def added_card(p: Args, label: Callable[[CardId], str]) -> Args:
    """An ``add_card`` action's card as the format's card keys (``[cards.LABEL]``, or an
    ``add_card`` step's), with ``player`` and ``position`` where they are not the
    defaults; ``label`` names the card it is attached to."""
    out: Args = {**_card_json(Card.from_json(p["card"]), p["owner"]), "zone": p["zone"]}
    if p.get("player") and p["player"] != p["owner"]:
        out["player"] = p["player"]
    if p.get("controller") and p["controller"] != p["owner"]:
        out["controller"] = p["controller"]
    for k in ("token", "tapped", "face_down", "commander"):
        if p.get(k):
            out[k] = True
    if p.get("counters"):
        out["counters"] = dict(p["counters"])
    if p.get("position", "top") != "top":
        out["position"] = p["position"]
    if p.get("attached_to") is not None:
        out["attached_to"] = label(p["attached_to"])
    return out


@kind("remove_card", engine=("remove_card",), project=True)
class Remove:
    """``remove_card = LABEL``: the card is taken off the table (setting it up)."""

    @staticmethod
    def words(w: Words, step: Step) -> str:
        return f"{w.name(step.subject)} is taken off the table"

    @staticmethod
    def validate(v: StepChecker, where: str, subject: Any, args: Args) -> Any:
        return v.label_ref(where, subject, "remove_card")

    @staticmethod
    def perform(x: Context, step: Step) -> Performed:
        cid = x.labels[step.subject]
        try:
            return _events(x.table.remove_card(cid)), [cid]
        except IllegalActionError as e:
            return _events(x.table.refuse(x.table.obj_of(cid), str(e))), [cid]

    @staticmethod
    def recover(rec: Recording, action: Action) -> Args | None:
        return {"remove_card": rec.label(action.params["cid"])}


EFFECT_STEP_KEYS = frozenset({"source", "watch", "from", "instead", "affects", "optional"})


def _effect_json(x: Context, label: str, a: Args) -> Any:
    from tabletop.engine.model import Effect
    affects = a.get("affects", "any")
    if affects.startswith("card:"):
        affects = f"cid:{x.labels[affects[5:]]}"
    return Effect(label=label, watch=Zone(a["watch"]), instead=Zone(a["instead"]),
                  source=a.get("source", ""), origin=a.get("from", "any"), affects=affects,
                  optional=a.get("optional", False))


@kind("add_effect", EFFECT_STEP_KEYS, {"watch", "instead"}, engine=("add_effect",),
      project=True)
class PutEffect:
    """``add_effect = LABEL`` with an ``[[effects]]`` table's keys: a replacement effect
    comes into force partway through (its source arrived, or a judge sets it up)."""

    @staticmethod
    def words(w: Words, step: Step) -> str:
        a = step.args
        return (f"{a.get('source') or step.subject} is in force: a card put into "
                f"{w.zone(Zone(a['watch']))} goes to {w.zone(Zone(a['instead']))} instead")

    @staticmethod
    def validate(v: StepChecker, where: str, subject: Any, args: Args) -> Any:
        v.effect(where, {"label": subject, **args})
        v.effect_labels.add(subject)
        return subject

    @staticmethod
    def perform(x: Context, step: Step) -> Performed:
        t = x.table
        try:
            return _events(t.add_effect(_effect_json(x, step.subject, step.args))), []
        except IllegalActionError as e:
            return _events(t.refuse(None, str(e))), []

    @staticmethod
    def recover(rec: Recording, action: Action) -> Args | None:
        e = dict(action.params["effect"])
        step: Args = {"add_effect": e.pop("label")}
        affects = e.get("affects", "any")
        if affects.startswith("cid:"):
            e["affects"] = f"card:{rec.label(int(affects[4:]))}"
        defaults = {"source": "", "from": "any", "affects": "any", "optional": False}
        step.update({k: val for k, val in e.items() if defaults.get(k, object()) != val})
        return step


@kind("end_effect", engine=("end_effect",), project=True)
class EndEffect:
    """``end_effect = LABEL``: that replacement effect is no longer in force."""

    @staticmethod
    def words(w: Words, step: Step) -> str:
        return f"The effect {step.subject!r} ends"

    @staticmethod
    def validate(v: StepChecker, where: str, subject: Any, args: Args) -> Any:
        v.c.typed(where, "end_effect", subject, str, "an effect's label")
        if subject not in v.effect_labels:
            v.c.fail(where, f"key 'end_effect': unknown effect label {subject!r}")
        return subject

    @staticmethod
    def perform(x: Context, step: Step) -> Performed:
        t = x.table
        try:
            return _events(t.end_effect(step.subject)), []
        except IllegalActionError as e:
            return _events(t.refuse(None, str(e))), []

    @staticmethod
    def recover(rec: Recording, action: Action) -> Args | None:
        return {"end_effect": action.params["label"]}


@kind("ability", {"player", "source", "label"}, {"player", "label"}, engine=("ability",),
      project=True)
class Ability:
    @staticmethod
    def words(w: Words, step: Step) -> str:
        a = step.args
        w.learn(step.subject, a["label"], a["player"], kind="ability")
        source = f" of {w.name(a['source'])}" if a.get("source") else ""
        return f"{a['player']} puts an ability{source} on the stack: “{a['label']}”"

    @staticmethod
    def validate(v: StepChecker, where: str, subject: Any, args: Args) -> Any:
        _new_label(v, where, subject, "ability")
        v.player(where, "player", args["player"])
        v.c.typed(where, "label", args["label"], str, "a string")
        if "source" in args:
            v.label_ref(where, args["source"], "source")
        if not v.ed.has_zone(Zone.STACK):
            v.c.fail(where, f"the {v.ed.id} edition has no 'stack' zone", NoSuchZoneError)
        v.labels.add(subject)
        return subject

    @staticmethod
    def perform(x: Context, step: Step) -> Performed:
        a = step.args
        source = x.labels.get(a["source"]) if "source" in a else None
        res = x.table.put_ability(a["label"], a["player"], source)
        cid = _cid(res.events[0])
        x.name(step.subject, cid)
        return _events(res), [cid]

    @staticmethod
    def recover(rec: Recording, action: Action) -> Args | None:
        p = action.params
        cid = _cid(action.events[0])
        step = {"ability": rec.new_label(cid, "ability"), "label": p["text"],
                "player": p["controller"]}
        if p.get("source") is not None:
            step["source"] = rec.label(p["source"])
        return step


@kind("emblem", {"name", "owner"}, {"name", "owner"}, engine=("emblem",), project=True)
class Emblem:
    @staticmethod
    def words(w: Words, step: Step) -> str:
        a = step.args
        w.learn(step.subject, a["name"], a["owner"])
        return f"{a['owner']} gets the emblem {a['name']}"

    @staticmethod
    def validate(v: StepChecker, where: str, subject: Any, args: Args) -> Any:
        _new_label(v, where, subject, "emblem")
        v.c.typed(where, "name", args["name"], str, "a string")
        v.player(where, "owner", args["owner"])
        if not v.ed.has_zone(Zone.COMMAND):
            v.c.fail(where, f"the {v.ed.id} edition has no 'command' zone", NoSuchZoneError)
        v.labels.add(subject)
        return subject

    @staticmethod
    def perform(x: Context, step: Step) -> Performed:
        res = x.table.create_emblem(step.args["name"], step.args["owner"])
        cid = _cid(res.events[0])
        x.name(step.subject, cid)
        return _events(res), [cid]

    @staticmethod
    def recover(rec: Recording, action: Action) -> Args | None:
        p = action.params
        cid = _cid(action.events[0])
        return {"emblem": rec.new_label(cid, p["name"]), "name": p["name"], "owner": p["owner"]}


# ---- the game --------------------------------------------------------------------------
def _flag(v: StepChecker, where: str, subject: Any, name: str) -> Any:
    v.c.typed(where, name, subject, bool, "true")
    return subject


@kind("ante_start", {"seed"}, engine=(Zone.ANTE,), project=True)
class AnteStart:
    @staticmethod
    def words(w: Words, step: Step) -> str:
        return "Each player antes the top card of their library"

    @staticmethod
    def validate(v: StepChecker, where: str, subject: Any, args: Args) -> Any:
        _flag(v, where, subject, "ante_start")
        v.c.typed(where, "seed", args.get("seed", 0), int, "an integer")
        if not v.ed.has_zone(Zone.ANTE):
            v.c.fail(where, f"the {v.ed.id} edition has no 'ante' zone", NoSuchZoneError)
        return subject

    @staticmethod
    def perform(x: Context, step: Step) -> Performed:
        res = x.table.ante_start(seed=step.args.get("seed"))
        return _events(res), _cids(res)

    @staticmethod
    def recover(rec: Recording, action: Action) -> Args | None:
        return {"ante_start": True, "seed": action.params["seed"]}


@kind("award_ante", engine=("award_ante",), project=True)
class AwardAnte:
    @staticmethod
    def words(w: Words, step: Step) -> str:
        return f"{step.subject} wins the game and every card in the ante"

    @staticmethod
    def validate(v: StepChecker, where: str, subject: Any, args: Args) -> Any:
        return v.player(where, "award_ante", subject)

    @staticmethod
    def perform(x: Context, step: Step) -> Performed:
        res = x.table.award_ante(step.subject)
        return _events(res), _cids(res)

    @staticmethod
    def recover(rec: Recording, action: Action) -> Args | None:
        return {"award_ante": action.params["winner"]}


@kind("next_turn", {"then_untap"}, engine=("next_turn",), project=True)
class NextTurn:
    @staticmethod
    def words(w: Words, step: Step) -> str:
        then = ", and that player's permanents untap" if step.args.get("then_untap") else ""
        return f"The next player's turn begins{then}"

    @staticmethod
    def validate(v: StepChecker, where: str, subject: Any, args: Args) -> Any:
        v.c.typed(where, "then_untap", args.get("then_untap", False), bool, "true or false")
        return _flag(v, where, subject, "next_turn")

    @staticmethod
    def perform(x: Context, step: Step) -> Performed:
        res = x.table.next_turn(untap=step.args.get("then_untap", False))
        return _events(res), _cids(res)

    @staticmethod
    def recover(rec: Recording, action: Action) -> Args | None:
        step = {"next_turn": True}
        if action.params.get("untap"):
            step["then_untap"] = True
        return step


@kind("phase", {"then_draw"}, engine=("phase",), project=True)
class Phase:
    @staticmethod
    def words(w: Words, step: Step) -> str:
        then = ", and the active player draws a card" if step.args.get("then_draw") else ""
        return f"The turn moves to {PHASE_PROSE.get(step.subject, step.subject)}{then}"

    @staticmethod
    def validate(v: StepChecker, where: str, subject: Any, args: Args) -> Any:
        from tabletop.engine.actions import PHASES
        v.c.typed(where, "phase", subject, str, "a step of the turn")
        if subject not in PHASES:
            v.c.fail(where, f"key 'phase': {subject!r} is not a step (steps: "
                            f"{', '.join(PHASES)})")
        v.c.typed(where, "then_draw", args.get("then_draw", False), bool, "true or false")
        return subject

    @staticmethod
    def perform(x: Context, step: Step) -> Performed:
        res = x.table.set_phase(step.subject, draw=step.args.get("then_draw", False))
        return _events(res), _cids(res)

    @staticmethod
    def recover(rec: Recording, action: Action) -> Args | None:
        step = {"phase": action.params["phase"]}
        if action.params.get("draw"):
            step["then_draw"] = True
        return step


@kind("roll", {"sides", "seed"}, engine=("roll",), project=True)
class Roll:
    @staticmethod
    def words(w: Words, step: Step) -> str:
        sides = step.args.get("sides", 6)
        return f"{step.subject} flips a coin" if sides == 2 else \
            f"{step.subject} rolls a {sides}-sided die"

    @staticmethod
    def validate(v: StepChecker, where: str, subject: Any, args: Args) -> Any:
        v.player(where, "roll", subject)
        if v.c.typed(where, "sides", args.get("sides", 6), int, "an integer") < 2:
            v.c.fail(where, "key 'sides' must be at least 2")
        v.c.typed(where, "seed", args.get("seed", 0), int, "an integer")
        return subject

    @staticmethod
    def perform(x: Context, step: Step) -> Performed:
        a = step.args
        return _events(x.table.roll(step.subject, a.get("sides", 6), seed=a.get("seed"))), []

    @staticmethod
    def recover(rec: Recording, action: Action) -> Args | None:
        p = action.params
        return {"roll": p["player"], "sides": p["sides"], "seed": p["seed"]}


@kind("life", {"total"}, {"total"}, engine=("life",), project=True)
class Life:
    @staticmethod
    def words(w: Words, step: Step) -> str:
        return f"{step.subject}'s life total becomes {step.args['total']}"

    @staticmethod
    def validate(v: StepChecker, where: str, subject: Any, args: Args) -> Any:
        v.player(where, "life", subject)
        v.c.typed(where, "total", args["total"], int, "an integer")
        return subject

    @staticmethod
    def perform(x: Context, step: Step) -> Performed:
        return _events(x.table.set_life(step.subject, step.args["total"])), []

    @staticmethod
    def recover(rec: Recording, action: Action) -> Args | None:
        return {"life": action.params["player"], "total": action.params["life"]}


@kind("player_counter", {"kind", "value"}, {"kind", "value"}, engine=("player_counter",),
      project=True)
class PlayerCounter:
    @staticmethod
    def words(w: Words, step: Step) -> str:
        a = step.args
        if a["kind"].startswith("commander damage"):
            return f"{step.subject} has taken {a['value']} {a['kind']}"
        return f"{step.subject} has {sentences.count(a['value'], a['kind'] + ' counter')}"

    @staticmethod
    def validate(v: StepChecker, where: str, subject: Any, args: Args) -> Any:
        v.player(where, "player_counter", subject)
        name = v.c.typed(where, "kind", args["kind"], str, "a kind of counter")
        if not name.strip() or len(name) > 60:
            v.c.fail(where, "key 'kind' must be a name of 1 to 60 characters")
        if abs(v.c.typed(where, "value", args["value"], int, "an integer")) > 10 ** 9:
            v.c.fail(where, "key 'value' is too large")
        return subject

    @staticmethod
    def perform(x: Context, step: Step) -> Performed:
        a = step.args
        return _events(x.table.set_player_counter(step.subject, a["kind"], a["value"])), []

    @staticmethod
    def recover(rec: Recording, action: Action) -> Args | None:
        p = action.params
        return {"player_counter": p["player"], "kind": p["kind"], "value": p["value"]}


@kind("look", {Zone.LIBRARY, "count"}, engine=("look",), project=True)
class Look:
    @staticmethod
    def words(w: Words, step: Step) -> str:
        a, p = step.args, step.subject
        lib = w.place(Zone.LIBRARY, a.get("library", p))
        if "count" not in a:
            return f"{p} searches {lib}"
        return f"{p} looks at the top {sentences.count(a['count'], 'card')} of {lib}"

    @staticmethod
    def validate(v: StepChecker, where: str, subject: Any, args: Args) -> Any:
        v.player(where, "look", subject)
        if "library" in args:
            v.player(where, "library", args["library"])
        if "count" in args and v.c.typed(where, "count", args["count"], int,
                                         "a whole number of cards") < 0:
            v.c.fail(where, "key 'count' must be at least 0")
        return subject

    @staticmethod
    def perform(x: Context, step: Step) -> Performed:
        a = step.args
        return _events(x.table.look(step.subject, a.get("library", step.subject),
                                    a.get("count"))), []

    @staticmethod
    def recover(rec: Recording, action: Action) -> Args | None:
        p = action.params
        step = {"look": p["player"], "library": p["whose"]}
        if p["count"] is not None:
            step["count"] = p["count"]
        return step


@kind("show", {"cards", "to"}, {"cards"}, engine=("show",), project=True)
class Show:
    @staticmethod
    def words(w: Words, step: Step) -> str:
        to = step.args.get("to")
        return f"{step.subject} reveals {w.names(step.args['cards'])} to {to or 'everyone'}"

    @staticmethod
    def validate(v: StepChecker, where: str, subject: Any, args: Args) -> Any:
        v.player(where, "show", subject)
        cards = v.c.strings(where, "cards", args["cards"])
        if not cards:
            v.c.fail(where, "key 'cards': needs at least one label")
        for lab in cards:
            v.label_ref(where, lab, "cards")
        if "to" in args:
            v.player(where, "to", args["to"])
        return subject

    @staticmethod
    def perform(x: Context, step: Step) -> Performed:
        a = step.args
        cids = [x.labels[lab] for lab in a["cards"]]
        return _events(x.table.show(step.subject, cids, a.get("to"))), cids

    @staticmethod
    def recover(rec: Recording, action: Action) -> Args | None:
        p = action.params
        step = {"show": p["player"], "cards": [rec.label(c) for c in p["cids"]]}
        if p["to"] is not None:
            step["to"] = p["to"]
        return step


# ---- taking back -------------------------------------------------------------------------
@kind("undo")
class Undo:
    @staticmethod
    def words(w: Words, step: Step) -> str:
        n = step.subject
        return "Take back the last step" if n == 1 else \
            f"Take back the last {sentences.count(n, 'step')}"

    @staticmethod
    def validate(v: StepChecker, where: str, subject: Any, args: Args) -> Any:
        v.c.typed(where, "undo", subject, int, "a whole number of steps")
        if subject < 1:
            v.c.fail(where, "key 'undo' must be at least 1")
        return subject

    @staticmethod
    def perform(x: Context, step: Step) -> Performed:
        t, events = x.table, []
        for _ in range(step.subject):
            mark = x.marks.pop()
            count = 0
            while len(t.history) > mark:
                action = t.undo()
                assert action is not None  # the history is longer than the mark
                count += 1
                events.append(Event(EventKind.UNDONE, text=f"undo: {t.action_title(action)}"))
            x.redo_marks.append(count)
        return events, []


@kind("redo", project=True)
class Redo:
    @staticmethod
    def words(w: Words, step: Step) -> str:
        n = step.subject
        return "Do again the step taken back" if n == 1 else \
            f"Do again {sentences.count(n, 'step')} taken back"

    @staticmethod
    def validate(v: StepChecker, where: str, subject: Any, args: Args) -> Any:
        v.c.typed(where, "redo", subject, int, "a whole number of steps")
        if subject < 1:
            v.c.fail(where, "key 'redo' must be at least 1")
        return subject

    @staticmethod
    def perform(x: Context, step: Step) -> Performed:
        t, events = x.table, []
        for _ in range(step.subject):
            if not x.redo_marks:
                break
            x.marks.append(len(t.history))
            for _ in range(x.redo_marks.pop()):
                action = t.redo()
                assert action is not None  # as many actions as were undone
                events.append(Event(EventKind.REDONE, text=f"redo: {t.action_title(action)}"))
        return events, []


PHASE_PROSE = {"untap": "the untap step", "upkeep": "the upkeep step", "draw": "the draw step",
               "main1": "the first main phase", "combat": "the beginning of combat step",
               "attackers": "the declare attackers step",
               "blockers": "the declare blockers step", "damage": "the combat damage step",
               "end_combat": "the end of combat step", "main2": "the second main phase",
               "end": "the end step", "cleanup": "the cleanup step"}


# steps that act on an object the file labels, and so on nothing once its creation is undone
ON_AN_OBJECT = frozenset({"move", "turn_face", "tap", "untap", "counters", "modify",
                          "choices", "attach", "reveal", "set_pt", "note", "arrow", "remove_card"})


def perform(x: Context, step: Step) -> Performed:
    """Perform a checked step; ``x`` is the run's context (table, labels, marks)."""
    k = REGISTRY.get(step.action)
    if k is None:
        raise InputError(f"{x.path}: step {step.index}: unknown action {step.action!r}")
    return k.perform(x, step)
