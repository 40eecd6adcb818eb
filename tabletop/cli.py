"""`tabletop`: the GUI by default, and headless subcommands.

    tabletop                         open the table
    tabletop ruling FILE... [--json] [--edition ID]
    tabletop editions
    tabletop rules EDITION [NUMBER]
    tabletop scenarios [WORDS]       the bundled scenarios, by name
    tabletop --version | --screenshot FILE | --self-test

Bad input gets one line naming the file and what is wrong, and exit status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import Any, NoReturn

from tabletop import __version__
from tabletop.engine.model import Zone

SUBCOMMANDS = ("ruling", "editions", "rules", "cards", "deck", "scenarios", "serve", "room")


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # usage errors exit 2 with one line, as argparse does
        self.exit(2, f"{self.prog}: error: {message}\n")


def _out(text: str) -> None:
    try:
        sys.stdout.write(text + "\n")
    except UnicodeEncodeError:
        sys.stdout.write(text.encode("ascii", "replace").decode() + "\n")


def cmd_compare(args: argparse.Namespace) -> int:
    from tabletop.engine.errors import TabletopError
    from tabletop.scenario import compare
    eds = [e.strip() for e in args.compare.split(",") if e.strip()]
    status = 0
    docs = []
    for f in args.files:
        try:
            c = compare.compare(f, eds)
        except TabletopError as e:
            print(f"tabletop ruling: {e}", file=sys.stderr)
            status = 2
            continue
        if args.json:
            docs.append({"file": c.path, "title": c.title, "editions": c.editions,
                         "steps": [{"index": s.index, "action": s.action, "outcomes": s.outcomes,
                                    "outcome_differs": s.outcome_differs,
                                    "rules_differ": s.rules_differ,
                                    "renumbered": s.renumbered} for s in c.steps]})
        else:
            _out(compare.text(c))
    if args.json:
        _out(json.dumps({"comparisons": docs}, ensure_ascii=False, indent=1))
    return status


REPORT_STEPS = 2_000  # a report's size and time stay bounded


def cmd_ruling(args: argparse.Namespace) -> int:
    from tabletop.engine.errors import InputError, TabletopError
    from tabletop.scenario import Session, load, run
    from tabletop.scenario.library import resolve
    from tabletop.scenario.report import text_report
    args.files = [resolve(f) for f in args.files]  # a bundled scenario's name works too
    if args.compare:
        return cmd_compare(args)
    if args.report and len(args.files) != 1:
        print("tabletop ruling: --report takes exactly one scenario file", file=sys.stderr)
        return 2
    if args.report:
        from pathlib import Path

        from tabletop.scenario.ruling_report import REPORT_SUFFIXES
        if Path(args.report).suffix.lower() not in REPORT_SUFFIXES:
            print(f"tabletop ruling: {args.report}: a report is .html, .md or .pdf",
                  file=sys.stderr)
            return 2
    status = 0
    docs = []
    for f in args.files:
        try:
            if args.report:
                from tabletop.ui.render import report_pictures
                scenario = load(f, args.edition)
                if len(scenario.steps) > REPORT_STEPS:
                    raise InputError(f"{f}: {len(scenario.steps):,} steps; a report takes at "
                                     f"most {REPORT_STEPS:,} (run it without --report)")
                session = Session(scenario)
                pictures = report_pictures(session)
                r = session.run
                try:
                    from tabletop.scenario.ruling_report import write_report
                    from tabletop.ui.render import write_pdf
                    write_report(args.report, r, pictures, write_pdf)
                except OSError as e:
                    print(f"tabletop ruling: cannot write the report {args.report}: "
                          f"{e.strerror or e}", file=sys.stderr)
                    return 2
            else:
                r = run(load(f, args.edition))
        except TabletopError as e:
            status = 2
            print(f"tabletop ruling: {e}", file=sys.stderr)
            docs.append({"file": f, "passed": False, "error": str(e)})
            continue
        except (RecursionError, MemoryError, ValueError, TypeError, KeyError, IndexError,
                AttributeError) as e:  # a bug of ours: still one line, never a traceback
            status = 2
            msg = f"{f}: internal error ({type(e).__name__}: {e}); please report this file"
            print(f"tabletop ruling: {msg}", file=sys.stderr)
            docs.append({"file": f, "passed": False, "error": msg})
            continue
        if not r.passed and status == 0:
            status = 1
        if args.json:
            docs.append(r.to_json())
        else:
            _out(text_report(r))
    if args.json:
        _out(json.dumps({"files": docs}, ensure_ascii=False, indent=1))
    return status


def cmd_editions(args: argparse.Namespace) -> int:
    from tabletop.engine import editions
    for ed in editions.all_editions():
        zones = ", ".join(ed.zone_name(z) for z in ed.zones)
        source = f"seed {ed.seed}" if ed.seed else f"source: {ed.source_text}"
        _out(f"{ed.id}  {ed.title}\n    {source}; zones: {zones}")
    return 0


def cmd_rules(args: argparse.Namespace) -> int:
    from tabletop.engine import editions, rulestext
    from tabletop.engine.errors import InputError
    if args.import_file:
        try:
            rt, dest = rulestext.import_file(args.import_file)
        except InputError as e:
            print(f"tabletop rules: {e}", file=sys.stderr)
            return 2
        except OSError as e:
            print(f"tabletop rules: cannot store the rules text: {e}", file=sys.stderr)
            return 2
        _out(f"Imported {rt.describe()} into {dest}")
        return 0
    if args.imported:
        kept = rulestext.imported()
        for p, what in kept:
            _out(f"{what}  ({p})")
        if not kept:
            _out("No rules text imported (tabletop rules --import FILE).")
        return 0
    if not args.edition:
        print("tabletop rules: name an edition (or --import FILE)", file=sys.stderr)
        return 2
    try:
        ed = editions.get(args.edition)
    except InputError as e:
        print(f"tabletop rules: {e}", file=sys.stderr)
        return 2
    numbers = [args.number] if args.number else sorted(ed.rules, key=ed.sort_key)
    if args.number and ed.summary(args.number) is None:
        print(f"tabletop rules: {ed.id} has no rule {args.number!r}", file=sys.stderr)
        return 2
    for number in numbers:
        _out(f"{ed.mark(number)}  {ed.rules[number]}")
        if ed.source(number) and args.number:
            _out(f"    not in this edition's text: {ed.source(number)}")
        v = rulestext.for_edition(number, ed)
        if v and args.number and v.shown:
            _out(f"    imported text: {v.text}\n    source: {v.label()}")
        elif v and args.number:
            _out(f"    imported text: {v.label()}")
    return 0


def _progress_bar(label: str) -> Callable[[int, int, int], None]:
    """A progress bar on standard error (only when it is a terminal)."""
    import time
    state = {"last": 0.0}

    def show(done: int, read: int, total: int) -> None:
        if not sys.stderr.isatty():
            return
        now = time.monotonic()
        if now - state["last"] < 0.1 and read < total:
            return
        state["last"] = now
        frac = read / total if total else 1.0
        bar = "#" * int(30 * frac)
        sys.stderr.write(f"\r{label} [{bar:<30}] {frac:4.0%} {done:,} cards")
        if read >= total:
            sys.stderr.write("\n")
        sys.stderr.flush()
    return show


def cmd_cards(args: argparse.Namespace) -> int:
    from tabletop.cards.db import CardDataError, default
    from tabletop.engine.errors import TabletopError
    db = default()
    if args.rebuild:
        aside = db.rebuild()
        _out(f"A new card database is at {db.path}" + (f"; the old one is kept as {aside}"
                                                        if aside else ""))
        return 0
    try:
        return _cards(args, db)
    except CardDataError as e:
        print(f"tabletop cards: {e}", file=sys.stderr)
        return 2
    except TabletopError as e:
        print(f"tabletop cards: {e}", file=sys.stderr)
        return 2


def _cards(args: argparse.Namespace, db: Any) -> int:
    from tabletop.engine.errors import InputError
    if args.download is not None:
        from tabletop.cards import download
        url = args.download or download.DEFAULT_URL
        bar = _progress_bar("Downloading")
        try:
            n = download.download_and_import(
                db, url, lambda stage, r, t: bar(0, r, t) if stage == "download" else None)
        except download.Offline as e:
            print(f"tabletop cards: {e}. Download the file another way and import it with "
                  f"tabletop cards --import FILE", file=sys.stderr)
            return 2
        except InputError as e:
            print(f"tabletop cards: {e}", file=sys.stderr)
            return 2
        except (OSError, __import__("sqlite3").Error) as e:
            print(f"tabletop cards: cannot write the card database {db.path}: {e}",
                  file=sys.stderr)
            return 2
        _out(f"Downloaded and imported {n:,} card{'s' * (n != 1)} into {db.path}")
        return 0
    if args.import_file:
        try:
            n = db.import_file(args.import_file, _progress_bar("Importing"))
        except InputError as e:
            print(f"tabletop cards: {e}", file=sys.stderr)
            return 2
        except (OSError, __import__("sqlite3").Error) as e:
            print(f"tabletop cards: cannot write the card database {db.path}: {e}", file=sys.stderr)
            return 2
        _out(f"Imported {n:,} card{'s' * (n != 1)} into {db.path}")
        return 0
    if args.search is not None:
        from tabletop.textsafe import terminal
        names = db.search(args.search)  # SearchError (exit 2) names the part unread
        if args.json:
            _out(json.dumps([db.info(n) or {"name": n} for n in names], ensure_ascii=False,
                            indent=1))
        else:
            for n in names:
                _out(terminal(n))
        return 0
    if not args.name:
        _out(f"{db.count():,} cards known (built-in and imported); "
             f"database: {db.path}")
        return 0
    name = " ".join(args.name)
    d = db.info(name)
    if d is None:
        print(f"tabletop cards: no card named {name!r}", file=sys.stderr)
        return 1
    if args.json:
        _out(json.dumps(d, ensure_ascii=False, indent=1))
        return 0
    from tabletop.engine.model import Card
    c = Card.from_json(d)
    pt = f"  {c.power}/{c.toughness}" if c.power is not None else ""
    loyalty = f"  loyalty {d['loyalty']}" if d.get("loyalty") else ""
    _out(f"{c.name}  {c.mana_cost}\n  {c.type_line}{pt}{loyalty}\n  layout: {d.get('layout', 'normal')}"
         + (f"; colours: {''.join(c.colors)}" if c.colors else ""))
    for face in d.get("faces", ()):
        fc = Card.from_json(face)
        fpt = f"  {fc.power}/{fc.toughness}" if fc.power is not None else ""
        _out(f"  face: {fc.name}  {fc.mana_cost}  {fc.type_line}{fpt}")
    text = db.text(c.name)
    if text:
        _out("\n".join("  | " + line for line in text.splitlines()))
    return 0


def cmd_deck(args: argparse.Namespace) -> int:
    from tabletop.cards import decks
    from tabletop.engine.errors import InputError
    try:
        deck = decks.load(args.file)
    except InputError as e:
        print(f"tabletop deck: {e}", file=sys.stderr)
        return 2
    if args.check:
        from tabletop.cards import legality
        from tabletop.cards.db import default
        from tabletop.textsafe import terminal
        problems = legality.check(deck, args.check, default().info)
        name = terminal(deck.name)
        if not problems:
            _out(f"{name}: legal in {terminal(args.check)}")
            return 0
        _out(f"{name}: not legal in {terminal(args.check)}:")
        for p in problems:
            _out("  " + terminal(p.line()))
        return 1
    if args.write or args.export:
        try:
            fmt = decks.export_format(args.write or "deck.txt", args.export)
            if args.write:
                decks.save(deck, args.write, fmt)
            else:  # to standard output
                sys.stdout.write(decks.export(deck, fmt))
                return 0
        except InputError as e:
            print(f"tabletop deck: {e}", file=sys.stderr)
            return 2
        except OSError as e:
            print(f"tabletop deck: cannot write {args.write}: {e.strerror or e}", file=sys.stderr)
            return 2
    if args.json:
        _out(json.dumps(deck.to_json(), ensure_ascii=False, indent=1))
        return 0
    _out(f"{deck.name}")
    for section, entries in deck.sections.items():
        if entries:
            n = sum(x.count for x in entries)
            _out(f"  {section} ({n} card{'s' * (n != 1)})")
            for x in entries:
                _out(f"    {x.count} {x.name}")
    for note in deck.notes:
        print(note, file=sys.stderr)
    for f, line, name in deck.unknown:
        print(f"{f}:{line or '?'}: unknown card {name!r}", file=sys.stderr)
    return 0


def cmd_scenarios(args: argparse.Namespace) -> int:
    from tabletop.scenario.library import bundled_scenarios
    words = [w.lower() for w in args.words]
    shown = 0
    for e in bundled_scenarios():
        line = f"{e['name']}  [{e['edition']}]  {e['title']}"
        hay = (line + " " + " ".join(e["rules"])).lower()
        if all(w in hay for w in words):
            _out(line)
            shown += 1
    if not shown:
        print("tabletop scenarios: none matches " + " ".join(args.words), file=sys.stderr)
        return 1
    _out(f"({shown} scenario{'s' * (shown != 1)}; run one with: tabletop ruling NAME, or open it with "
         f"tabletop --scenario NAME)")
    return 0


def _sub_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="tabletop", description="Tabletop: a rules-checked Magic table")
    sub = p.add_subparsers(dest=Zone.COMMAND, required=True, parser_class=_Parser)
    r = sub.add_parser("ruling", help="run scenario files headless and check their expectations")
    r.add_argument("files", nargs="+", metavar="FILE")
    r.add_argument("--json", action="store_true", help="print one JSON document")
    r.add_argument("--edition", help="rerun the files under another edition")
    r.add_argument("--compare", metavar="ED1,ED2",
                   help="run each file under these editions and mark the steps that differ")
    r.add_argument("--report", metavar="OUT.html|OUT.md|OUT.pdf",
                   help="write a ruling report with a picture of the table after each step")
    r.set_defaults(func=cmd_ruling)
    cp = sub.add_parser("cards", help="look up a card, or import card data")
    cp.add_argument("name", nargs="*")
    cp.add_argument("--import", dest="import_file", metavar="FILE",
                    help="import MTGJSON AtomicCards.json (.gz, .xz) or Scryfall oracle cards")
    cp.add_argument("--download", nargs="?", const="", metavar="URL",
                    help="download card data (default: MTGJSON's AtomicCards.json.gz), "
                         "check the SHA-256 published beside it (URL.sha256) and import it")
    cp.add_argument("--search", metavar="QUERY",
                    help="the cards a query finds, one name a line, sorted (Scryfall's "
                         "syntax: words, t:, o:, c:, id:, mv, pow, tou, loy, f:, is:commander, "
                         "\"phrases\", -negation, OR)")
    cp.add_argument("--json", action="store_true")
    cp.add_argument("--rebuild", action="store_true",
                    help="set a damaged card database aside and start a new one")
    cp.set_defaults(func=cmd_cards)
    dp = sub.add_parser("deck", help="read a deck list (text, Arena, .cod, .dek)")
    dp.add_argument("file")
    dp.add_argument("--json", action="store_true")
    dp.add_argument("--check", metavar="FORMAT", help="whether the deck is legal in a format "
                    "(standard, modern, commander...): each problem names the card and the "
                    "rule; exit 1 when it is not legal")
    dp.add_argument("--write", metavar="OUT", help="write the deck to a file: its format is "
                    "--export's, else the suffix's (.txt Arena, .dek MTGO, .cod Cockatrice, "
                    ".dck Forge)")
    dp.add_argument("--export", metavar="FORMAT", help="arena, mtgo, cockatrice, forge or text "
                    "(printed, or written with --write)")
    dp.set_defaults(func=cmd_deck)
    sc = sub.add_parser("scenarios", help="list the bundled scenarios (by name, title, rule)")
    sc.add_argument("words", nargs="*", help="only those whose name, title or rules match")
    sc.set_defaults(func=cmd_scenarios)
    e = sub.add_parser("editions", help="list the rules editions")
    e.set_defaults(func=cmd_editions)
    ru = sub.add_parser("rules", help="print rule summaries of an edition")
    ru.add_argument("edition", nargs="?")
    ru.add_argument("number", nargs="?")
    ru.add_argument("--import", dest="import_file", metavar="FILE",
                    help="import the published rules text (stored in the user data folder)")
    ru.add_argument("--imported", action="store_true",
                    help="list the rules texts imported so far (each kept under its date)")
    ru.set_defaults(func=cmd_rules)
    sv = sub.add_parser("serve", help="run a network server for games played on several "
                        "machines (headless; rooms saved and restored)")
    sv.add_argument("--host", default="127.0.0.1",
                    help="the address to listen on (0.0.0.0: every interface)")
    sv.add_argument("--port", type=int, default=8765, help="the port (0: any free one)")
    sv.add_argument("--announce", action="store_true",
                    help="announce each room on the local network (mDNS), so File > Join "
                         "a game lists it; its room code is never announced")
    sv.add_argument("--rooms-per-hour", type=int, default=20, metavar="N",
                    help="rooms one client address may create in an hour (default 20)")
    sv.add_argument("--room-idle", type=float, default=24.0, metavar="HOURS",
                    help="a room nobody has been connected to for this long is removed, "
                         "with its files (default 24)")
    sv.add_argument("--rooms-per-address", type=int, default=40, metavar="N",
                    help="rooms one client address opened that are kept at once "
                         "(default 40); one network (an IPv6 /48, an IPv4 /24) keeps "
                         "four times that")
    sv.add_argument("--lines-per-address", type=int, default=300_000, metavar="N",
                    help="log lines the rooms one client address opened may hold together "
                         "(default 300000; a game of an evening has a few thousand)")
    sv.add_argument("--max-connections", type=int, default=2000, metavar="N",
                    help="open connections in all (default 2000)")
    sv.add_argument("--per-address", type=int, default=32, metavar="N",
                    help="open connections from one client address (default 32)")
    sv.add_argument("--trusted-proxy", action="append", default=[], metavar="ADDRESS",
                    help="a reverse proxy's address or network (10.0.0.0/8): the client "
                         "address is the last one in X-Forwarded-For that is not a trusted "
                         "proxy's (repeat for several)")
    sv.add_argument("--address-rate", type=float, default=60.0, metavar="N",
                    help="messages a second all the connections of one client address may "
                         "send together (twice as many at once; default 60)")
    sv.add_argument("--spectators", type=int, default=50, metavar="N",
                    help="spectators one room may have at once (default 50)")
    sv.add_argument("--max-unread", type=int, default=4 * 1024 * 1024, metavar="BYTES",
                    help="a connection with this much sent to it and not yet read is "
                         "closed (default 4 MiB)")
    sv.add_argument("--join-timeout", type=float, default=30.0, metavar="SECONDS",
                    help="a connection that has not taken a seat by then is closed "
                         "(default 30)")
    sv.add_argument("--certfile", help="serve wss:// with this certificate chain (PEM)")
    sv.add_argument("--keyfile", help="the certificate's private key (PEM)")
    sv.add_argument("--event-loop", choices=["uvloop", "asyncio"], default=None,
                    help="the event loop to serve on (default: uvloop where it is "
                         "installed, else asyncio's own)")
    sv.set_defaults(func=cmd_serve)
    rm = sub.add_parser("room", help="open a room with a new game on a running server and "
                        "print its invitation (for File > Join a game)")
    rm.add_argument("url", metavar="URL", help="the server: ws://HOST:PORT or wss://HOST")
    rm.add_argument("--players", required=True,
                    help="the players' names, comma-separated (1 to 8)")
    rm.add_argument("--edition", default=None,
                    help="the rules edition (default: the newest, the rules in force)")
    rm.add_argument("--seed", type=int, default=None, help="shuffle seed (default: random)")
    rm.add_argument("--judge", action="store_true",
                    help="open a judge's seat, which sees every card")
    rm.add_argument("--deck", action="append", default=[], metavar="PLAYER=FILE",
                    help="a player's deck (any deck file Tabletop reads); give one for every "
                         "player, or none for the demo decks")
    rm.set_defaults(func=cmd_room)
    return p


def cmd_room(args: argparse.Namespace) -> int:
    from tabletop.net.client import Client, ClientError, failures
    from tabletop.textsafe import terminal as clean
    url = args.url.rstrip("/") + "/"
    if not url.startswith(("ws://", "wss://")):
        url = "ws://" + url
    players = [p.strip() for p in args.players.split(",") if p.strip()]
    decks = {}
    for given in args.deck:  # read here: the server is sent the names and counts
        from tabletop.cards import decks as deck_files
        from tabletop.engine.errors import TabletopError
        player, sep, path = given.partition("=")
        if not sep or player not in players:
            print(f"tabletop room: --deck {clean(given)!r}: give it as PLAYER=FILE, PLAYER "
                  f"one of {', '.join(players)}", file=sys.stderr)
            return 2
        try:
            deck = deck_files.load(path)
        except TabletopError as e:
            print(f"tabletop room: {clean(str(e))}", file=sys.stderr)
            return 2
        decks[player] = {section: [[e.count, e.name] for e in entries]
                         for section, entries in deck.sections.items()
                         if entries and section != "maybeboard"}  # not played: not sent
    if decks and set(decks) != set(players):
        print("tabletop room: give a deck for every player (or none, for the demo decks)",
              file=sys.stderr)
        return 2
    try:
        client = Client(url, timeout=10)
    except failures() as e:
        print(f"tabletop room: cannot reach {clean(url)}: {clean(str(e) or type(e).__name__)}",
              file=sys.stderr)
        return 2
    try:  # no seed: the server draws one, and tells nobody
        room, code = client.create(players, judge_sees_all=args.judge,
                                   **({"edition": args.edition} if args.edition else {}),
                                   **({"seed": args.seed} if args.seed is not None else {}),
                                   **({"decks": decks} if decks else {}))
    except (ClientError, OSError) as e:
        print(f"tabletop room: the server refused: {clean(str(e))}", file=sys.stderr)
        return 2
    finally:
        client.close()
    from urllib.parse import urlencode
    _out(f"{url}{room}/{code}")  # to watch (spectators); each seat's own invitation after
    for seat, invite in client.invites.items():
        _out(f"{clean(seat)}: {url}{room}/{code}?{urlencode({'seat': seat, 'invite': invite})}"
             f"  (or the code {invite})")
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    from tabletop import paths
    from tabletop.net.server import main as serve
    if not 0 <= args.port <= 65535:
        print(f"tabletop serve: no port {args.port}", file=sys.stderr)
        return 2
    from tabletop.net.server import Limits
    for option in ("rooms_per_hour", "max_connections", "per_address", "spectators",
                   "max_unread", "lines_per_address", "rooms_per_address", "room_idle",
                   "join_timeout", "address_rate"):
        value = getattr(args, option)
        if not value > 0:  # (NaN too)
            print(f"tabletop serve: --{option.replace('_', '-')} must be positive, not "
                  f"{value}", file=sys.stderr)
            return 2
    from tabletop.net.server import trusted_networks
    try:
        trusted_networks(tuple(args.trusted_proxy))
    except ValueError as e:
        print(f"tabletop serve: --trusted-proxy {e}", file=sys.stderr)
        return 2
    if bool(args.keyfile) and not args.certfile:
        print("tabletop serve: --keyfile goes with --certfile", file=sys.stderr)
        return 2
    limits = Limits(rooms_per_hour=args.rooms_per_hour, room_idle=args.room_idle * 3600,
                    connections=args.max_connections, per_address=args.per_address,
                    join_timeout=args.join_timeout, address_rate=args.address_rate,
                    spectators=args.spectators, max_unread=args.max_unread,
                    lines_per_address=args.lines_per_address,
                    rooms_per_address=args.rooms_per_address,
                    trusted_proxies=tuple(args.trusted_proxy))
    from tabletop.net.server import EventLoop
    return serve(args.host, args.port, paths.data_dir() / "server", args.announce, limits,
                 args.certfile, args.keyfile,
                 EventLoop(args.event_loop) if args.event_loop else None)


def _gui_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="tabletop", description="Tabletop: a rules-checked Magic table. "
                "Subcommands: " + ", ".join(SUBCOMMANDS))
    p.add_argument("file", nargs="?", metavar="FILE",
                   help="a saved game (.tabletop) or a scenario (.toml) to open")
    p.add_argument("--version", action="version", version=f"tabletop {__version__}")
    p.add_argument("--screenshot", metavar="FILE", help="render the window to a PNG and exit")
    p.add_argument("--scenario", metavar="FILE", help="open a scenario file")
    p.add_argument("--viewpoint", metavar="NAME", help="a player's name, or judge")
    p.add_argument("--edition", help="rules edition of a new table")
    p.add_argument("--self-test", action="store_true",
                   help="open offscreen, make one accepted and one refused drop, exit 0 if both "
                        "ended as the engine said")
    p.add_argument("--data-dir", metavar="DIR",
                   help="keep everything (autosave, card data, rules texts, settings, logs) "
                        "under DIR")
    p.add_argument("--scripted-session", type=int, metavar="N", help=argparse.SUPPRESS)
    p.add_argument("--restore-last", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--then-wait", action="store_true", help=argparse.SUPPRESS)  # SIGTERM test
    p.add_argument("--report-first-frame", action="store_true", help=argparse.SUPPRESS)  # benchmark
    return p


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    from tabletop import paths, textsafe
    textsafe.install()  # file text never drives the terminal
    textsafe.names_from_outside(argv)  # nor does a file name with a line feed in it
    rest, i = [], 0
    while i < len(argv):  # --data-dir DIR anywhere: for the window and every subcommand
        a = argv[i]
        if a.startswith("--data-dir="):
            paths.set_data_dir(a.split("=", 1)[1])
        elif a == "--data-dir" and i + 1 < len(argv):
            paths.set_data_dir(argv[i + 1])
            i += 1
        else:
            rest.append(a)
        i += 1
    argv = rest
    if argv and argv[0] in SUBCOMMANDS:
        args = _sub_parser().parse_args(argv)
        from tabletop.engine.errors import TabletopError
        try:
            status: int = args.func(args)
            return status
        except TabletopError as e:  # e.g. a damaged card database met while reading a deck
            print(f"tabletop {argv[0]}: {e}", file=sys.stderr)
            return 2
        except BrokenPipeError:  # `tabletop scenarios | head`: the reader has gone
            import os
            devnull = os.open(os.devnull, os.O_WRONLY)
            if sys.__stdout__ is not None:
                os.dup2(devnull, sys.__stdout__.fileno())
            return 0
    args = _gui_parser().parse_args(argv)
    from tabletop.ui.app import run_gui
    return run_gui(args)


if __name__ == "__main__":
    sys.exit(main())
