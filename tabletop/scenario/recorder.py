"""Recording a scenario by playing: the table as it is becomes the setup, and
every action after it becomes a step whose expectations are what happened.
The file it writes follows spec/scenario-format.md, so `tabletop ruling`
passes it unchanged."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tabletop.engine import views
from tabletop.engine.errors import InputError
from tabletop.engine.model import CONTROLLED, ORDERED, CardId, EventKind, Zone
from tabletop.scenario import steps
from tabletop.scenario.loader import FORMAT

if TYPE_CHECKING:
    from tabletop.engine import Table
    from tabletop.engine.model import Obj
    from tabletop.engine.table import Action
    from tabletop.scenario.runner import Run, StepReport

_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\t": "\\t", "\r": "\\r",
            "\b": "\\b", "\f": "\\f"}


def _toml_str(s: str) -> str:
    """A TOML basic string: every control character escaped (TOML allows none raw)."""
    out = []
    for ch in s:
        if ch in _ESCAPES:
            out.append(_ESCAPES[ch])
        elif ch < " " or ch == "\x7f":
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def _toml(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return repr(v) if v == v and v not in (float("inf"), float("-inf")) else \
            ("nan" if v != v else "inf" if v > 0 else "-inf")
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


def toml_steps(steps_: Iterable[dict[str, Any]]) -> list[str]:
    """``[[steps]]`` tables as a file writes them: each key on its line, expectations one
    a line."""
    out: list[str] = []
    for step in steps_:
        out += ["", "[[steps]]"]
        for k, v in step.items():
            if k == "expect" and isinstance(v, list):
                out.append("expect = [")
                out += [f"  {_toml(x)}," for x in v]
                out.append("]")
            else:
                out.append(f"{_toml_key(k)} = {_toml(v)}")
    return out


def step_words(step: dict[str, Any], names: dict[str, str] | None = None) -> str:
    """A recorded step in a few words, for the list a judge watches while recording
    ("move Serra Angel → graveyard"); ``names``: label -> card name."""
    kind = next((k for k in step if k in steps.REGISTRY), "step")
    subject = step.get(kind)
    named = names or {}
    what = [named.get(str(x), str(x)) for x in (subject if isinstance(subject, list)
                                                 else [subject])]
    said = f"{kind.replace('_', ' ')} {', '.join(what)}"
    for key in ("to", "zone", "instead"):
        if key in step:
            said += f" → {step[key]}"
            break
    return said


def expectation_words(x: dict[str, Any]) -> str:
    """An expectation the recorder proposes, in a line ("serra_angel: in exile, a new
    object, citing 400.6, 400.7")."""
    if "counts" in x:
        return "cards in hands and libraries: " + ", ".join(
            f"{k} {v}" for k, v in x["counts"].items())
    parts = []
    if "zone" in x:
        parts.append("in no zone" if x["zone"] == "none" else f"in {x['zone']}")
    if "player" in x:
        parts.append(f"{x['player']}'s")
    if x.get("new_object"):
        parts.append("a new object")
    if x.get("rejected"):
        parts.append("refused")
    if x.get("exists") is False:
        parts.append("no longer exists")
    for k in ("tapped", "face_down", "counters", "position"):
        if k in x:
            parts.append(f"{k.replace('_', ' ')} {x[k]}")
    if x.get("cites"):
        parts.append("citing " + ", ".join(x["cites"]))
    return f"{x.get('card', 'the card')}: " + ", ".join(parts)


class Recorder:
    """Captures the table now; every action the table records from then on becomes a
    step, recovered from ``table.history`` through the step registry (steps.py). An
    action no step can express is reported in ``problems``, never silently dropped."""

    def __init__(self, table: Table, title: str = "Recorded scenario") -> None:
        self.table = table
        self.title = title
        self.start = len(table.history)
        # the last action before recording: if it is undone, the setup no longer holds
        self._anchor = table.history[-1] if table.history else None
        # refused attempts already made are not part of the recording
        self._refused_before = [a for _, a in table.refused]
        self.summary = ""
        self.says: dict[int, str] = {}  # step number (1 the first) -> its narration
        self.wanted: dict[int, list[CardId]] = {}  # step number -> cards "Expect this" named
        # each step's expectations as the last text() proposed them, by step number
        self.proposed: dict[int, list[dict[str, Any]]] = {}
        self.labels: dict[CardId, str] = {}
        self.cards: list[tuple[str, dict[str, Any]]] = []
        self.skipped: list[str] = []
        self.problems: list[str] = []
        self._capture()
        self._setup_labels = dict(self.labels)
        self._captured = (list(self.cards), list(self.effects))
        self.seed = table.seed if isinstance(table.seed, int) else 0
        # the active player first: a file's first player is the active one
        i = table.players.index(table.active)
        self.players = list(table.players[i:] + table.players[:i])
        self.opening = [{"say": f"{p}'s life total when the recording started",
                         "life": p, "total": n,
                         "expect": {"counts": {f"{p}:hand": len(table.zones[(p, Zone.HAND)])}}}
                        for p, n in table.life.items() if n != 20]

    # what a step kind's ``recover`` uses
    def label(self, cid: CardId) -> str:
        return self.labels[cid]

    def new_label(self, cid: CardId, name: str) -> str:
        return self.labels.get(cid) or self._label(cid, name)

    def _label(self, cid: CardId, name: str) -> str:
        base = re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_") or "card"
        label, n = base, 1
        taken = set(self.labels.values())
        while label in taken:
            n += 1
            label = f"{base}_{n}"
        self.labels[cid] = label
        return label

    def _spec(self, obj: Obj) -> dict[str, Any]:
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
    @property
    def steps(self) -> list[dict[str, Any]]:
        """The steps so far, recovered from the history (without expectations)."""
        return self._recover()[0]

    def _recover(self) -> tuple[list[dict[str, Any]], list[str]]:
        """The steps the history holds since recording started, and what no step can
        express. Labels of objects made during the recording are given afresh."""
        t = self.table
        self.labels = dict(self._setup_labels)
        self.cards, self.effects = list(self._captured[0]), list(self._captured[1])
        if len(t.history) < self.start or (
                self.start and t.history[self.start - 1] is not self._anchor):
            return [], ["actions from before the recording started were undone: the file's "
                        "setup is the table as it was when recording started"]
        kinds = steps.by_engine_action()
        out, problems = [], []
        # the rules' refusals belong to the story too: a judge shows what is not allowed
        before = self._refused_before
        tried: dict[int, list[Action]] = {}
        for n, a in t.refused:
            if n >= self.start and not any(a is b for b in before):
                tried.setdefault(n, []).append(a)
        story = []
        for n in range(self.start, len(t.history) + 1):
            story += tried.get(n, [])
            if n < len(t.history):
                story.append(t.history[n])
        setting_up = True  # until the first step, cards and effects are the setup
        for i, action in enumerate(story, 1):
            if action.name == "place":
                continue  # where a permanent sits is the table's layout: no rule, no step
            if setting_up and not any(e.kind == EventKind.REJECTED for e in action.events) \
                    and self._set_up(action):
                continue
            setting_up = False
            k = kinds.get(action.name)
            step = None
            if k is not None and k.recover is not None:
                try:
                    step = k.recover(self, action)
                except (LookupError, StopIteration):  # a label or a parameter not there
                    step = None
            if step is None:
                problems.append(f"action {i} ({t.action_title(action)}) can't be written to a "
                                f"scenario file; it is left out, so the file may not replay "
                                f"the table exactly")
                continue
            out.append(step)
        return out, problems

    def _set_up(self, action: Action) -> bool:
        """Before the first step, a card added or taken off and an effect put in force or
        ended change the file's setup (``[cards]``, ``[[effects]]``); False when the
        action is not one of those, or the setup cannot say it (then it is a step)."""
        p = action.params
        if action.name == "add_card" and "card" in p:
            if p.get("position", "top") not in ("top", "bottom") or (
                    p.get("player") not in (None, p["owner"])):
                return False  # where only a step can put it
            cid = next((e.cid for e in action.events if e.cid is not None), None)
            if cid is None:
                return False
            d = steps.added_card(p, self.label)
            entry = (self._label(cid, str(d["name"])), d)
            same = [n for n, (_, x) in enumerate(self.cards)
                    if x["zone"] == d["zone"] and x["owner"] == d["owner"]]
            if p.get("position", "top") == "top" and same and d["zone"] in ORDERED:
                self.cards.insert(same[0], entry)  # the file lists a zone top first
            else:
                self.cards.append(entry)
            return True
        if action.name == "remove_card":
            label = self.labels.get(p["cid"])
            if label is None:
                return False
            self.cards = [(lab, {k: v for k, v in d.items()
                                 if not (k == "attached_to" and v == label)})
                          for lab, d in self.cards if lab != label]
            return True
        if action.name == "add_effect" and "effect" in p:
            self.effects.append(dict(p["effect"]))
            return True
        if action.name == "end_effect":
            kept = [e for e in self.effects if e["label"] != p["label"]]
            if len(kept) == len(self.effects):
                return False
            self.effects = kept
            return True
        return False

    def _expectations(self, run: Run, rep: StepReport, step: dict[str, Any],
                      subjects: Iterable[CardId]) -> list[dict[str, Any]]:
        """What the replay shows after a step, as the step's expectations."""
        t = run.table
        kind = next(k for k in step if k in steps.REGISTRY)
        extra = {"tap": ("tapped",), "untap": ("tapped",), "counters": ("counters",),
                 "turn_face": ("face_down",)}.get(kind, ())
        out = []
        for cid in dict.fromkeys(subjects):
            if cid not in run.names:
                continue
            obj = t.live(cid)  # None: it no longer exists
            mine = [e for e in rep.events if e.cid == cid]
            exp: dict[str, Any] = {"card": run.names[cid],
                                   "zone": obj.zone[1] if obj is not None and obj.zone else "none"}
            if obj is not None and t.player_of(obj) is not None:
                exp["player"] = t.player_of(obj)
            exp["new_object"] = any((e.prev is not None and e.obj != e.prev)
                                    or e.kind == EventKind.CREATED for e in mine)
            if mine and all(e.kind == EventKind.REJECTED for e in mine):
                exp["rejected"] = True
            cites: list[str] = []
            for e in mine:
                cites += [c for c in e.cites if c not in cites]
            if cites:
                exp["cites"] = cites
            if obj is not None and obj.zone is not None and obj.zone[1] in ORDERED:
                exp["position"] = t.position(obj)
            if obj is None:
                exp["exists"] = False
            for k in extra:
                if obj is not None:
                    exp[k] = dict(obj.counters) if k == "counters" else getattr(obj, k)
            out.append(exp)
        counts = {}
        for p in t.players:
            for z in (Zone.HAND, Zone.LIBRARY):
                counts[f"{p}:{z}"] = len(t.zones[(p, z)])
        out.append({"counts": counts})
        return out

    def _differences(self, run: Run) -> list[str]:
        """Where the replayed table differs from the table recorded."""
        live, t = self.table, run.table
        out = []
        mine = {label: cid for cid, label in self.labels.items()}  # label -> cid here
        for label, cid in run.labels.items():
            if label not in mine:
                out.append(f"{label} is not on the table recorded")
                continue
            a, b = live.live(mine[label]), t.live(cid)
            if (a is None) != (b is None):
                out.append(f"{label} exists in one and not the other")
                continue
            if a is None or b is None:
                continue
            for what in ("zone", "controller", "tapped", "face_down", "counters", "owner",
                         "pt", "note"):
                if getattr(a, what) != getattr(b, what):
                    out.append(f"{label}: {what} differs")
            if a.zone is not None and a.zone == b.zone and live.position(a) != t.position(b):
                out.append(f"{label}: its place in {a.zone[1]} differs")
        for key, ids in live.zones.items():  # cards no label follows count too
            if len(ids) != len(t.zones.get(key, ())):
                who = f"{key[0]}'s " if key[0] else ""
                out.append(f"{who}{key[1]} holds {len(ids)} card{'s' * (len(ids) != 1)}, "
                           f"the replay "
                           f"{len(t.zones.get(key, ()))}")
        if live.life != t.life:
            out.append("life totals differ")
        if live.player_counters != t.player_counters:
            out.append("players' counters differ")
        if (live.active, live.turn, live.phase) != (t.active, t.turn, t.phase):
            out.append("the turn differs")
        if len(views.arrows(live)) != len(views.arrows(t)):
            out.append("the arrows differ")
        return out

    # ---- writing ------------------------------------------------------------------------
    def expect(self, cid: CardId) -> int:
        """"Expect this": the card's state after the last step recorded becomes one of
        that step's expectations. Returns the step's number (0: no step yet)."""
        n = len(self.steps)
        if n:
            wanted = self.wanted.setdefault(n, [])
            if cid not in wanted:
                wanted.append(cid)
        return n

    def text(self, keep: Callable[[int, int], bool] | None = None) -> str:
        """The scenario file: the setup, then each step with what a replay of the file
        shows after it as its expectations (so `tabletop ruling` passes it); ``keep(step,
        i)`` drops the proposed expectations the judge did not keep (``proposed`` holds
        them). Where the replay ends somewhere other than the table recorded,
        ``problems`` says so."""
        from tabletop.scenario import loader
        from tabletop.scenario.runner import Session
        recovered, self.problems = self._recover()
        for n, step in enumerate(recovered, 1):
            if self.says.get(n):
                step["say"] = self.says[n]
        base = self._write(recovered)
        self.proposed = {}
        try:
            session = Session(loader.parse(tomllib.loads(base), Path("recording.toml")))
            for _ in self.opening:
                session.advance()
            for n, step in enumerate(recovered, 1):
                rep = session.advance()
                assert rep is not None  # one report for each step the file has
                run_labels, mine = session.run.labels, self.labels
                extra = [run_labels[mine[c]] for c in self.wanted.get(n, ())
                         if c in mine and mine[c] in run_labels]
                proposed = self._expectations(session.run, rep, step,
                                              [*rep.subjects, *extra])
                self.proposed[n] = proposed
                step["expect"] = [x for i, x in enumerate(proposed)
                                  if keep is None or keep(n, i)]
                if not step["expect"]:
                    del step["expect"]
            self.problems += [f"the replay differs from the table: {d}"
                              for d in self._differences(session.run)]
        except (InputError, tomllib.TOMLDecodeError) as e:
            self.problems.append(f"the recording does not replay ({e})")
            return base
        return self._write(recovered)

    def _write(self, recovered: list[dict[str, Any]]) -> str:
        t = self.table
        out = [f"format = {_toml(FORMAT)}", f"title = {_toml(self.title)}",
               *([f"summary = {_toml(self.summary)}"] if self.summary else []),
               f"edition = {_toml(t.edition.id)}", f"seed = {self.seed}",
               f"players = {_toml(self.players)}"]
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
                cid = CardId(int(e["affects"][4:]))
                e["affects"] = f"card:{self.labels[cid]}" if cid in self.labels else "any"
            out += [f"{k} = {_toml(v)}" for k, v in e.items()]
        out += toml_steps(self.opening + recovered)
        return "\n".join(out) + "\n"
