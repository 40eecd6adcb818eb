"""Recording a scenario by playing: the table as it is becomes the setup, and
every action after it becomes a step whose expectations are what happened.
The file it writes follows spec/scenario-format.md, so `tabletop ruling`
passes it unchanged."""

from __future__ import annotations

import random
import re

from tabletop.engine.model import CONTROLLED, ORDERED
from tabletop.scenario.loader import FORMAT


def _toml_str(s: str) -> str:
    out = s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t")
    return f'"{out}"'


def _toml(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        return _toml_str(v)
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_toml(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{_toml_key(k)} = {_toml(x)}" for k, x in v.items()) + " }" \
            if v else "{}"
    raise TypeError(f"cannot write {type(v).__name__} to TOML")


def _toml_key(k: str) -> str:
    return k if re.fullmatch(r"[A-Za-z0-9_-]+", k) else _toml_str(k)


class Recorder:
    """Captures the table now; ``record(...)`` adds a step for each action after it."""

    def __init__(self, table, title: str = "Recorded scenario", seed: int | None = None):
        self.table = table
        self.title = title
        self.seed = seed if seed is not None else random.randrange(1, 2**31)
        # shuffles and random picks from here on replay exactly from the file's seed
        table.rng.seed(self.seed)
        self.labels: dict[int, str] = {}
        self.cards: list[tuple[str, dict]] = []
        self.steps: list[dict] = []
        self.skipped: list[str] = []
        self._capture()

    def _label(self, cid: int, name: str) -> str:
        base = re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_") or "card"
        label, n = base, 1
        taken = set(self.labels.values())
        while label in taken:
            n += 1
            label = f"{base}_{n}"
        self.labels[cid] = label
        return label

    def _spec(self, obj) -> dict:
        card = obj.card
        d = {"name": card.name, "types": list(card.types)}
        if card.subtypes:
            d["subtypes"] = list(card.subtypes)
        if card.supertypes:
            d["supertypes"] = list(card.supertypes)
        d["owner"] = obj.owner
        return d

    def _capture(self) -> None:
        t = self.table
        for key, ids in t.zones.items():
            for oid in reversed(ids):  # top first: the file lists ordered zones top first
                obj = t.objs[oid]
                if obj.kind in ("ability", "emblem"):
                    self.skipped.append(f"{obj.card.name} ({obj.kind}) is not a card")
                    continue
                label = self._label(obj.cid, obj.card.name)
                d = self._spec(obj)
                d["zone"] = key[1]
                if key[1] in CONTROLLED and obj.controller != obj.owner:
                    d["controller"] = obj.controller
                if key[0] is not None and key[0] != obj.owner:
                    self.skipped.append(f"{obj.card.name} sits in {key[0]}'s {key[1]}")
                for flag in ("token", "tapped", "face_down"):
                    if getattr(obj, flag):
                        d[flag] = True
                if obj.counters:
                    d["counters"] = dict(obj.counters)
                if obj.modifications:
                    d["modifications"] = [{"effect": m[0], "origin": m[1]} for m in obj.modifications]
                if obj.choices:
                    d["choices"] = [str(c) for c in obj.choices]
                if obj.pile:
                    d["pile"] = obj.pile
                self.cards.append((label, d))
        by_id = {t.obj_of(cid).id: label for cid, label in self.labels.items()}
        for label, d in self.cards:
            cid = next(c for c, lab in self.labels.items() if lab == label)
            target = t.obj_of(cid).attached_to
            if target in by_id:
                d["attached_to"] = by_id[target]
        self.effects = [e.to_json() for e in t.effects]

    # ---- steps ------------------------------------------------------------------------
    def _expect(self, cid: int, events, keys=("zone", "player", "new_object")) -> dict:
        t = self.table
        obj = t.objs.get(t.current.get(cid))
        live = obj is not None and obj.zone is not None
        mine = [e for e in events if e.cid == cid]
        exp = {"card": self.labels[cid]}
        for k in keys:
            if k == "zone":
                exp["zone"] = obj.zone[1] if live else "none"
            elif k == "player" and live and t.player_of(obj) is not None:
                exp["player"] = t.player_of(obj)
            elif k == "new_object":
                exp["new_object"] = any(e.prev is not None and e.obj != e.prev for e in mine)
            elif k in ("tapped", "face_down") and live:
                exp[k] = getattr(obj, k)
            elif k == "counters" and live:
                exp["counters"] = dict(obj.counters)
        if any(e.kind == "rejected" for e in mine):
            exp["rejected"] = True
        cites = []
        for e in mine:
            cites += [c for c in e.cites if c not in cites]
        if cites:
            exp["cites"] = cites
        if live and obj.zone[1] in ORDERED:
            exp["position"] = t.position(obj)
        if not live:
            exp["exists"] = False
        return exp

    def record(self, action: str, result=None, say: str = "", **args) -> None:
        """Add a step for an action the table has just done (its result's events)."""
        t = self.table
        events = result.events if result is not None else ()
        L = self.labels
        step: dict = {}
        if action == "move":
            cid = args["cid"]
            step = {"move": L[cid], "to": args["zone"]}
            if args.get("player"):
                step["player"] = args["player"]
            if args.get("position", "top") != "top":
                step["position"] = args["position"]
            step["expect"] = self._expect(cid, events)
        elif action in ("tap", "untap"):
            step = {action: L[args["cid"]], "expect": self._expect(args["cid"], events, ("tapped",))}
        elif action == "counters":
            step = {"counters": L[args["cid"]], "add": {args["kind"]: args["n"]},
                    "expect": self._expect(args["cid"], events, ("counters",))}
        elif action == "turn_face":
            step = {"turn_face": L[args["cid"]], "face": "down" if args["down"] else "up",
                    "expect": self._expect(args["cid"], events, ("face_down", "new_object"))}
        elif action == "draw":
            drawn = [e.cid for e in events if e.cid in L]
            step = {"draw": args["player"]}
            if args.get("n", 1) != 1:
                step["count"] = args["n"]
            p = args["player"]
            exp = [{"counts": {f"{p}:hand": len(t.zones[(p, 'hand')]),
                               f"{p}:library": len(t.zones[(p, 'library')])}}]
            exp += [self._expect(c, events) for c in drawn]
            step["expect"] = exp
        elif action == "shuffle":
            p = args["player"]
            step = {"shuffle": p, "expect": {"counts": {f"{p}:library": len(t.zones[(p, "library")])}}}
        elif action == "create_token":
            cid = next(e.cid for e in events if e.kind == "created")
            obj = t.obj_of(cid)
            label = self._label(cid, obj.card.name)
            step = {"create_token": label, **self._spec(obj)}
            if obj.controller != obj.owner:
                step["controller"] = obj.controller
            step["expect"] = self._expect(cid, events, ("zone", "player"))
        elif action == "undo":
            step = {"undo": 1}
            if args.get("cid") in L:
                step["expect"] = self._expect(args["cid"], (), ("zone",))
        elif action == "next_turn":
            step = {"next_turn": True}
        elif action == "cleanup":
            gone = [e.cid for e in events if e.cid in L and e.kind != "unchanged"]
            step = {"cleanup": args["player"]}
            if gone:
                step["discard"] = [L[c] for c in gone]
            step["expect"] = [self._expect(c, events) for c in gone] or \
                {"counts": {f"{args['player']}:hand": len(t.zones[(args["player"], "hand")])}}
        elif action == "ability":
            cid = next(e.cid for e in events if e.kind == "created")
            label = self._label(cid, "ability")
            step = {"ability": label, "label": args["text"], "player": args["player"]}
            if args.get("source") in L:
                step["source"] = L[args["source"]]
            step["expect"] = self._expect(cid, events, ("zone", "player"))
        elif action == "reveal":
            step = {"reveal": L[args["cid"]], "on": args["on"],
                    "expect": self._expect(args["cid"], events, ("zone",))}
        else:
            return  # not expressible in the format: left out
        if say:
            step = {"say": say, **step}
        self.steps.append(step)

    # ---- writing ------------------------------------------------------------------------
    def text(self) -> str:
        t = self.table
        out = [f"format = {_toml(FORMAT)}", f"title = {_toml(self.title)}",
               f"edition = {_toml(t.edition.id)}", f"seed = {self.seed}",
               f"players = {_toml(list(t.players))}"]
        if t.ante:
            out.append("ante = true")
        for label, d in self.cards:
            out.append("")
            out.append(f"[cards.{_toml_key(label)}]")
            out += [f"{_toml_key(k)} = {_toml(v)}" for k, v in d.items()]
        for e in self.effects:
            out += ["", "[[effects]]"]
            e = dict(e)
            if e.get("affects", "").startswith("cid:"):
                cid = int(e["affects"][4:])
                e["affects"] = f"card:{self.labels[cid]}" if cid in self.labels else "any"
            out += [f"{k} = {_toml(v)}" for k, v in e.items()]
        for step in self.steps:
            out += ["", "[[steps]]"]
            for k, v in step.items():
                if k == "expect" and isinstance(v, list):
                    out.append("expect = [")
                    out += [f"  {_toml(x)}," for x in v]
                    out.append("]")
                else:
                    out.append(f"{_toml_key(k)} = {_toml(v)}")
        return "\n".join(out) + "\n"
