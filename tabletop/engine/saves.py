"""Saving and loading a whole game (state and history) as versioned JSON.

The file reproduces the table exactly: undo, redo, the random generator and
object ids carry on from where they were. Saves are atomic (temporary file,
flush, fsync, rename); loading never runs code and refuses newer versions."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

from tabletop.engine.actions import Table
from tabletop.engine.errors import InputError
from tabletop.engine.model import Card, Effect, Event, LineageEntry, Obj
from tabletop.engine.table import Action

FORMAT = "tabletop-save"
VERSION = 1
MAX_BYTES = 256 * 1024 * 1024

_TUPLE_ATTRS = {"modifications", "choices"}


def _key(k):
    return None if k is None else [k[0], k[1]]


def _unkey(v):
    return None if v is None else (v[0], v[1])


def _enc(attr, v):
    if attr == "zone":
        return _key(v)
    if attr in _TUPLE_ATTRS:
        return [list(m) if isinstance(m, tuple) else m for m in v]
    return v


def _dec(attr, v):
    if attr == "zone":
        return _unkey(v)
    if attr in _TUPLE_ATTRS:
        return tuple(tuple(m) if isinstance(m, list) else m for m in v)
    return v


def _enc_op(op):
    tag = op[0]
    if tag == "set":
        return ["set", op[1], op[2], _enc(op[2], op[3]), _enc(op[2], op[4])]
    if tag in ("ins", "del"):
        return [tag, _key(op[1]), op[2], op[3]]
    if tag == "zone":
        return ["zone", _key(op[1]), list(op[2]), list(op[3])]
    if tag == "lin":
        return ["lin", op[1], op[2].to_json()]
    if tag == "eff":
        return ["eff", op[1].to_json()]
    if tag == "meta" and op[1] == "revealed_tops":
        return ["meta", op[1], sorted(op[2]), sorted(op[3])]
    return list(op)


def _dec_op(op):
    tag = op[0]
    if tag == "set":
        return ("set", op[1], op[2], _dec(op[2], op[3]), _dec(op[2], op[4]))
    if tag in ("ins", "del"):
        return (tag, _unkey(op[1]), op[2], op[3])
    if tag == "zone":
        return ("zone", _unkey(op[1]), tuple(op[2]), tuple(op[3]))
    if tag == "lin":
        return ("lin", op[1], LineageEntry.from_json(op[2]))
    if tag == "eff":
        return ("eff", Effect.from_json(op[1]))
    if tag == "meta" and op[1] == "revealed_tops":
        return ("meta", op[1], frozenset(op[2]), frozenset(op[3]))
    if tag in ("cur", "meta", "life"):
        return tuple(op)
    raise ValueError(f"unknown change {tag!r}")


def _enc_action(a: Action) -> dict:
    return {"name": a.name, "params": a.params, "events": [e.to_json() for e in a.events],
            "ops": [_enc_op(op) for op in a.ops]}


def _dec_action(d: dict) -> Action:
    return Action(d["name"], d["params"], tuple(Event.from_json(e) for e in d["events"]),
                  [_dec_op(op) for op in d["ops"]])


def to_json(t: Table) -> dict:
    cards: dict[Card, int] = {}
    objs = []
    for o in t.objs.values():
        ci = cards.setdefault(o.card, len(cards))
        objs.append([o.id, o.cid, ci, o.owner, _key(o.zone), o.controller, o.tapped, o.face_down,
                     o.counters, o.attached_to, _enc("modifications", o.modifications),
                     _enc("choices", o.choices), o.token, o.kind, o.pile, o.revealed, o.prev])
    from tabletop import __version__
    return {
        "format": FORMAT, "version": VERSION, "app": __version__,
        "edition": t.edition.id, "players": list(t.players), "active": t.active,
        "seed": t.seed, "ante": t.ante, "max_hand": t.max_hand, "life": dict(t.life),
        "rng": [t.rng.getstate()[0], list(t.rng.getstate()[1]), t.rng.getstate()[2]],
        "next_id": t.next_id, "next_cid": t.next_cid,
        "cards": [c.to_json() for c in cards],
        "objects": objs,
        "current": [[c, o] for c, o in t.current.items()],
        "lineage": [[c, [e.to_json() for e in es]] for c, es in t.lineage.items()],
        "zones": [[k[0], k[1], list(v)] for k, v in t.zones.items()],
        "effects": [e.to_json() for e in t.effects],
        "revealed_tops": sorted(t.revealed_tops),
        "sideboards": {p: [c.to_json() for c in cs] for p, cs in t.sideboards.items()},
        "history": [_enc_action(a) for a in t.history],
        "redo": [_enc_action(a) for a in t.redo_stack],
    }


def from_json(d: dict, source: str = "save") -> Table:
    if not isinstance(d, dict) or d.get("format") != FORMAT:
        raise InputError(f"{source}: not a Tabletop save file")
    version = d.get("version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise InputError(f"{source}: the save has no valid version number")
    if version > VERSION:
        raise InputError(f"{source}: saved by a newer Tabletop (save version {version}; this "
                         f"version reads up to {VERSION}); update Tabletop to open it")
    try:
        t = Table(d["players"], d["edition"], seed=d["seed"], ante=d["ante"],
                  max_hand=d["max_hand"])
        t.active = d["active"]
        if t.active not in t.players:
            raise ValueError(f"active player {t.active!r} is not at the table")
        t.life = {p: int(d["life"][p]) for p in t.players}
        st = d["rng"]
        t.rng.setstate((st[0], tuple(st[1]), st[2]))
        t.next_id, t.next_cid = int(d["next_id"]), int(d["next_cid"])
        cards = [Card.from_json(c) for c in d["cards"]]
        for r in d["objects"]:
            o = Obj(id=r[0], cid=r[1], card=cards[r[2]], owner=r[3], zone=_unkey(r[4]),
                    controller=r[5], tapped=r[6], face_down=r[7], counters=dict(r[8]),
                    attached_to=r[9], modifications=_dec("modifications", r[10]),
                    choices=_dec("choices", r[11]), token=r[12], kind=r[13], pile=r[14],
                    revealed=r[15], prev=r[16])
            t.objs[o.id] = o
        t.current = {int(c): int(o) for c, o in d["current"]}
        t.lineage = {int(c): [LineageEntry.from_json(e) for e in es] for c, es in d["lineage"]}
        zones = {}
        for p, z, ids in d["zones"]:
            key = (p, z)
            if key not in t.zones:
                raise ValueError(f"zone {z!r} of {p!r} does not belong to this table")
            zones[key] = [int(i) for i in ids]
        t.zones.update(zones)
        t.effects = [Effect.from_json(e) for e in d["effects"]]
        t.revealed_tops = frozenset(d["revealed_tops"])
        t.sideboards = {p: [Card.from_json(c) for c in cs] for p, cs in d["sideboards"].items()}
        t.history = [_dec_action(a) for a in d["history"]]
        t.redo_stack = [_dec_action(a) for a in d["redo"]]
        _check_consistent(t)
    except InputError as e:
        raise InputError(f"{source}: {e}") from None
    except (KeyError, IndexError, TypeError, ValueError, AttributeError) as e:
        raise InputError(f"{source}: the save is damaged ({type(e).__name__}: {e})") from None
    return t


def _check_consistent(t: Table) -> None:
    seen = set()
    for key, ids in t.zones.items():
        for i in ids:
            if i in seen or i not in t.objs or t.objs[i].zone != key:
                raise ValueError(f"object {i} is not where its zone says")
            seen.add(i)
    if any(o.zone is not None and o.id not in seen for o in t.objs.values()):
        raise ValueError("an object is in no zone list")


def dumps(t: Table) -> str:
    return json.dumps(to_json(t), separators=(",", ":"), ensure_ascii=False)


def loads(text: str, source: str = "save") -> Table:
    try:
        d = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as e:
        raise InputError(f"{source}: not valid JSON ({e})") from None
    return from_json(d, source)


def save(t: Table, path) -> None:
    atomic_write(Path(path), dumps(t).encode("utf-8"))


def load(path) -> Table:
    path = Path(path)
    try:
        size = path.stat().st_size
        if size > MAX_BYTES:
            raise InputError(f"{path}: the file is larger than {MAX_BYTES >> 20} MiB")
        raw = path.read_bytes()
    except OSError as e:
        raise InputError(f"{path}: cannot read the file: {e.strerror or e}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError(f"{path}: not a Tabletop save file (not UTF-8 text)") from None
    return loads(text, str(path))


def atomic_write(path: Path, data: bytes) -> None:
    """Write a file so that it is either the old one or the whole new one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    try:
        dfd = os.open(path.parent, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(dfd)
    except OSError:
        pass
    finally:
        os.close(dfd)
