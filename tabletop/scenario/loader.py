"""Reading scenario files (``tabletop-scenario/1``, see spec/scenario-format.md).

Everything is checked before anything runs: a file that breaks the contract
raises one ``InputError`` naming the file and the step or key."""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Collection
from pathlib import Path
from typing import Any, NoReturn

from tabletop.engine import editions
from tabletop.engine.editions import Edition
from tabletop.engine.errors import InputError, NoSuchZoneError
from tabletop.engine.model import ZONE_IDS, Zone
from tabletop.scenario import steps as steps_mod
from tabletop.scenario.model import Scenario, Step

__all__ = ["FORMAT", "Scenario", "Step", "load"]

FORMAT = "tabletop-scenario/1"
MAX_BYTES = 4 * 1024 * 1024
MAX_STEPS = 10_000  # a scenario's steps, checked before any runs (docs/scenarios.md)
MAX_CARDS = 10_000  # cards a scenario sets up

TOP_KEYS = {"format", "title", "edition", "summary", "seed", "players", "ante", "cards",
            "effects", "steps"}
CARD_KEYS = steps_mod.CARD_KEYS
EFFECT_KEYS = {"label", "source", "watch", "from", "instead", "affects", "optional"}
EXPECT_KEYS = {"card", "zone", "player", "exists", "new_object", "rejected", "position",
               "cites", "not_cites", "tapped", "face_down", "counters", "lineage", "zones",
               "counts", "outside_game"}
COMMON_STEP_KEYS = {"say", "expect"}
# action -> (other keys allowed, required keys): from the one step registry
ACTIONS = steps_mod.actions()


# checks one key of a file's table: (where, key, value) -> the value, checked
KeyCheck = Callable[[str, str, Any], str]


class _Checker:
    """Small helpers that raise InputError with the file and place in it."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def fail(self, where: str, what: str, error: type[InputError] = InputError) -> NoReturn:
        raise error(f"{self.path}: {where}: {what}" if where else f"{self.path}: {what}")

    def typed(self, where: str, key: str, value: Any, kind: type | tuple[type, ...],
              name: str) -> Any:
        ok = isinstance(value, kind) and not (kind is int and isinstance(value, bool)) \
            and not (kind == (int, float) and isinstance(value, bool))
        if not ok:
            self.fail(where, f"key {key!r} must be {name}, not {_show(value)}")
        return value

    def strings(self, where: str, key: str, value: Any) -> list[str]:
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            self.fail(where, f"key {key!r} must be an array of strings, not {_show(value)}")
        return value

    def unknown(self, where: str, table: dict[str, Any], allowed: set[str]) -> None:
        extra = sorted(set(table) - allowed)
        if extra:
            self.fail(where, f"unknown key {extra[0]!r} (allowed: {', '.join(sorted(allowed))})")


def _show(v: object) -> str:
    text = repr(v)
    return text if len(text) <= 40 else text[:37] + "..."


def read_toml(path: Path) -> dict[str, Any]:
    from tabletop.engine.files import read_bounded
    raw = read_bounded(path, MAX_BYTES)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise InputError(f"{path}: not a text file (invalid UTF-8 at byte {e.start})") from None
    if "\x00" in text:
        raise InputError(f"{path}: not a text file (it holds NUL bytes)")
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise InputError(f"{path}: TOML syntax error: {e}") from None
    except RecursionError:
        raise InputError(f"{path}: arrays or tables nested too deeply") from None


def load(path: str | Path, edition: str | None = None) -> Scenario:
    """Read and check a scenario file; ``edition`` overrides the file's."""
    path = Path(path)
    data = read_toml(path)
    return parse(data, path, edition)


def parse(data: dict[str, Any], path: Path, edition_override: str | None = None) -> Scenario:
    c = _Checker(path)
    c.unknown("", data, TOP_KEYS)
    fmt = data.get("format")
    if fmt != FORMAT:
        c.fail("key 'format'", f"must be {FORMAT!r}, not {_show(fmt)}"
               if fmt is not None else f"missing; it must be {FORMAT!r}")
    title = c.typed("", "title", data.get("title", path.stem), str, "a string")
    ed_id = c.typed("", "edition", data.get("edition", editions.NEWEST), str, "a string")
    if ed_id not in editions.EDITION_IDS:
        c.fail("key 'edition'", f"unknown edition {ed_id!r} (editions: {', '.join(editions.EDITION_IDS)})")
    if edition_override is not None:
        if edition_override not in editions.EDITION_IDS:
            raise InputError(f"unknown edition {edition_override!r} (editions: "
                             f"{', '.join(editions.EDITION_IDS)})")
        ed_id = edition_override
    ed = editions.get(ed_id)
    summary = c.typed("", "summary", data.get("summary", ""), str, "a string")
    seed = c.typed("", "seed", data.get("seed", 0), int, "an integer")
    ante = c.typed("", "ante", data.get("ante", False), bool, "true or false")
    if "players" not in data:
        c.fail("", "key 'players' is missing")
    players = c.strings("", "players", data["players"])
    if not 1 <= len(players) <= 8:
        c.fail("key 'players'", f"a table seats 1 to 8 players, not {len(players)}")
    if len(set(players)) != len(players) or not all(players):
        c.fail("key 'players'", "player names must be distinct and non-empty")

    def zone_id(where: str, key: str, value: Any) -> str:
        c.typed(where, key, value, str, "a zone id")
        if value not in ZONE_IDS:
            c.fail(where, f"unknown zone {value!r} (zones: {', '.join(ZONE_IDS)})")
        if not ed.has_zone(value):
            c.fail(where, f"the {ed.id} edition has no {value!r} zone", NoSuchZoneError)
        return str(value)  # checked to be one

    def player(where: str, key: str, value: Any) -> str:
        c.typed(where, key, value, str, "a player name")
        if value not in players:
            c.fail(where, f"unknown player {value!r} (players: {', '.join(players)})")
        return str(value)  # checked to be one

    cards = c.typed("", "cards", data.get("cards", {}), dict, "a table of tables")
    if len(cards) > MAX_CARDS:
        c.fail("", f"{len(cards):,} cards; a scenario sets up at most {MAX_CARDS:,}")
    labels = set()
    checked_cards = {}
    for label, spec in cards.items():
        where = f"card {label!r}"
        c.typed(where, label, spec, dict, "a table")
        checked_cards[label] = _card_spec(c, where, spec, zone_id, player, with_zone=True)
        if spec.get("zone") == Zone.ANTE and not ante:
            c.fail(where, "key 'zone': this table is not played for ante, so it has no ante "
                          "zone (set ante = true at the top of the file)")
        labels.add(label)
    for label, spec in checked_cards.items():
        target = spec.get("attached_to")
        if target is not None and target not in labels:
            c.fail(f"card {label!r}", f"key 'attached_to': unknown label {target!r}")

    effects = c.typed("", "effects", data.get("effects", []), list, "an array of tables")
    effect_labels: set[str] = set()
    for n, e in enumerate(effects, 1):
        where = f"effect {n}"
        c.typed(where, "effects", e, dict, "a table")
        c.unknown(where, e, EFFECT_KEYS)
        check_effect(c, where, e, labels, zone_id, player)
        lab = e["label"]
        if lab in effect_labels:
            c.fail(where, f"duplicate effect label {lab!r}")
        effect_labels.add(lab)

    steps_raw = c.typed("", "steps", data.get("steps", []), list, "an array of tables")
    if len(steps_raw) > MAX_STEPS:
        c.fail("", f"{len(steps_raw):,} steps; a scenario has at most {MAX_STEPS:,} (a "
                   f"demonstration is a few dozen)")
    checker = _StepChecker(c, labels, effect_labels, ed, zone_id, player)
    steps = []
    done = 0  # steps that an undo could take back
    for n, raw in enumerate(steps_raw, 1):
        where = f"step {n}"
        c.typed(where, "steps", raw, dict, "a table")
        actions = [k for k in raw if k in ACTIONS]
        if len(actions) != 1:
            c.fail(where, "needs exactly one action key (" + ", ".join(ACTIONS) + ")"
                   + (f", found {', '.join(actions)}" if actions else ""))
        action = actions[0]
        allowed, required = ACTIONS[action]
        c.unknown(where, raw, allowed | COMMON_STEP_KEYS | {action})
        for key in sorted(required):
            if key not in raw:
                c.fail(where, f"{action}: key {key!r} is missing")
        subject = raw[action]
        args = {k: v for k, v in raw.items() if k not in COMMON_STEP_KEYS and k != action}
        say = c.typed(where, "say", raw.get("say", ""), str, "a string")

        subject = steps_mod.REGISTRY[action].validate(checker, where, subject, args)
        if action == "undo":
            if subject > done:
                c.fail(where, f"cannot undo {subject} step(s): only {done} to take back")
            done -= subject
        if action not in ("undo", "redo"):
            done += 1
        expect = raw.get("expect", [])
        if isinstance(expect, dict):
            expect = [expect]
        c.typed(where, "expect", expect, list, "a table or an array of tables")
        for e in expect:
            _check_expect(c, where, e, labels, players, zone_id, ed)
        steps.append(Step(n, action, subject, args, say, expect))

    return Scenario(path, title, ed_id, summary, seed, players, ante, checked_cards,
                    effects, steps)


def _card_spec(c: _Checker, where: str, spec: dict[str, Any], zone_id: KeyCheck,
               player: KeyCheck, with_zone: bool) -> dict[str, Any]:
    c.unknown(where, spec, CARD_KEYS if with_zone else CARD_KEYS - {"zone"})
    for key in ("name", "owner") + (("zone",) if with_zone else ()):
        if key not in spec:
            c.fail(where, f"key {key!r} is missing")
    c.typed(where, "name", spec["name"], str, "a string")
    player(where, "owner", spec["owner"])
    for key in ("types", "subtypes", "supertypes", "colors"):
        if key in spec:
            c.strings(where, key, spec[key])
    for key in ("mana_cost", "power", "toughness", "pile"):
        if key in spec:
            c.typed(where, key, spec[key], (str, int), "a string")
    for key in ("token", "face_down", "tapped", "commander"):
        c.typed(where, key, spec.get(key, False), bool, "true or false")
    if spec.get("commander") and spec.get("token"):
        c.fail(where, "a token cannot be a commander: a commander is a card (903.3)")
    counters = c.typed(where, "counters", spec.get("counters", {}), dict, "a table")
    for k, v in counters.items():
        c.typed(where, f"counters.{k}", v, int, "an integer")
        if v < 0:
            c.fail(where, f"key 'counters.{k}' must not be negative")
    if "attached_to" in spec:
        c.typed(where, "attached_to", spec["attached_to"], str, "a label")
    zone = zone_id(where, "zone", spec["zone"]) if with_zone else Zone.BATTLEFIELD
    if "controller" in spec:
        player(where, "controller", spec["controller"])
        if zone not in (Zone.BATTLEFIELD, Zone.STACK):
            c.fail(where, f"key 'controller': only objects on the battlefield or the stack have "
                          f"a controller, and this card is in {zone!r}")
    if spec.get("token") and zone != Zone.BATTLEFIELD:
        c.fail(where, f"a token cannot start in {zone!r}: tokens exist only on the battlefield")
    if spec.get("tapped") and zone != Zone.BATTLEFIELD:
        c.fail(where, f"key 'tapped': only permanents on the battlefield can be tapped, "
                      f"and this card is in {zone!r}")
    if "modifications" in spec:
        mods = c.typed(where, "modifications", spec["modifications"], list, "an array")
        for m in mods:
            if not (isinstance(m, dict) and isinstance(m.get("effect"), str)
                    and m.get("origin", "spell") in ("spell", "ability", "static")):
                c.fail(where, "key 'modifications': each is { effect = TEXT, origin = "
                              "\"spell\"|\"ability\"|\"static\" }")
    if "choices" in spec:
        c.strings(where, "choices", spec["choices"])
    if "stickers" in spec:
        stickers = c.strings(where, "stickers", spec["stickers"])
        if zone in (Zone.LIBRARY, Zone.HAND) and stickers:
            c.fail(where, f"key 'stickers': a card in {zone!r} has none (a hidden zone, 123.5)")
        if len(stickers) > 20 or not all(0 < len(x.strip()) <= 60 for x in stickers):
            c.fail(where, "key 'stickers': at most 20, each of 1 to 60 characters")
    return dict(spec)


class _StepChecker:
    """What a step kind's ``validate`` may use to check a step (steps.py)."""

    def __init__(self, c: _Checker, labels: set[str], effect_labels: set[str],
                 ed: Edition, zone_id: KeyCheck, player: KeyCheck) -> None:
        self.c, self.labels, self.effect_labels, self.ed = c, labels, effect_labels, ed
        self.zone_id, self.player = zone_id, player

    def label_ref(self, where: str, value: Any, key: str = "label") -> str:
        self.c.typed(where, key, value, str, "a label")
        if value not in self.labels:
            self.c.fail(where, f"key {key!r}: unknown label {value!r}")
        return str(value)  # checked to be one

    def card_spec(self, where: str, spec: dict[str, Any], with_zone: bool) -> dict[str, Any]:
        return _card_spec(self.c, where, spec, self.zone_id, self.player, with_zone)

    def effect(self, where: str, e: dict[str, Any]) -> None:
        check_effect(self.c, where, e, self.labels, self.zone_id, self.player)


def check_effect(c: _Checker, where: str, e: dict[str, Any], labels: Collection[str],
                 zone_id: KeyCheck, player: KeyCheck) -> None:
    """A replacement effect's keys (an ``[[effects]]`` table, or an ``effect`` step's)."""
    for key in ("label", "watch", "instead"):
        if key not in e:
            c.fail(where, f"key {key!r} is missing")
    c.typed(where, "label", e["label"], str, "a string")
    c.typed(where, "source", e.get("source", ""), str, "a string")
    zone_id(where, "watch", e["watch"])
    zone_id(where, "instead", e["instead"])
    if e.get("from", "any") != "any":
        zone_id(where, "from", e["from"])
    c.typed(where, "optional", e.get("optional", False), bool, "true or false")
    aff = c.typed(where, "affects", e.get("affects", "any"), str, "a string")
    kind, _, arg = aff.partition(":")
    if aff in ("any", "tokens", "nontokens"):
        pass
    elif kind in ("owner", "opponents-of") and arg:
        player(where, "affects", arg)
    elif kind == "card" and arg:
        if arg not in labels:
            c.fail(where, f"key 'affects': unknown label {arg!r}")
    else:
        c.fail(where, f"key 'affects': {aff!r} is not any, owner:NAME, opponents-of:NAME, "
                      "card:LABEL, tokens or nontokens")


def _check_expect(c: _Checker, where: str, e: Any, labels: Collection[str],
                  players: Collection[str], zone_id: KeyCheck, ed: Edition) -> None:
    c.typed(where, "expect", e, dict, "a table")
    c.unknown(where + ": expect", e, EXPECT_KEYS)
    w = where + ": expect"
    if "card" in e:
        c.typed(w, "card", e["card"], str, "a label")
        if e["card"] not in labels:
            c.fail(w, f"key 'card': unknown label {e['card']!r}")
    if "zone" in e and e["zone"] != "none":
        zone_id(w, "zone", e["zone"])
    if "player" in e:
        c.typed(w, "player", e["player"], str, "a player name")
        if e["player"] not in players:
            c.fail(w, f"unknown player {e['player']!r}")
    for key in ("exists", "new_object", "rejected", "tapped", "face_down", "outside_game"):
        if key in e:
            c.typed(w, key, e[key], bool, "true or false")
    if "position" in e:
        c.typed(w, "position", e["position"], int, "an integer")
    for key in ("cites", "not_cites"):
        if key in e:
            c.strings(w, key, e[key])
    if "counters" in e:
        for k, v in c.typed(w, "counters", e["counters"], dict, "a table").items():
            c.typed(w, f"counters.{k}", v, int, "an integer")
    if "lineage" in e:
        for z in c.strings(w, "lineage", e["lineage"]):
            zone_id(w, "lineage", z)
    for key in ("zones", "counts"):
        if key in e:
            table = c.typed(w, key, e[key], dict, "a table")
            for zk, v in table.items():
                who, _, zone = zk.rpartition(":")
                zone_id(w, f"{key}.{zk}", zone)
                if who and who not in players:
                    c.fail(w, f"key '{key}': unknown player {who!r} in {zk!r}")
                if key == "zones":
                    for lab in c.strings(w, f"zones.{zk}", v):
                        if lab not in labels:
                            c.fail(w, f"key 'zones.{zk}': unknown label {lab!r}")
                else:
                    c.typed(w, f"counts.{zk}", v, int, "an integer")
