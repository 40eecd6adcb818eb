"""Network play (issue 18) against a real `tabletop serve` process on 127.0.0.1:
seats and room codes, the host's engine deciding, each seat's own view, rejoining
after a drop, a server killed and restarted, hostile frames."""

from __future__ import annotations

import json
import random

import pytest

from tabletop.net.client import ClientError

pytestmark = pytest.mark.timeout(120)


def zone(view, player, name):
    return next(z["cards"] for z in view["zones"] if z["player"] == player and z["zone"] == name)


def seat_up(clients, url, players=("Alice", "Bob")):
    host = clients(url)
    room, code = host.create(list(players), seed=3)
    seats = {}
    for p in players:
        c = clients(url)
        c.join(room, code, p, invite=host.invites[p])
        seats[p] = c
    for c in seats.values():
        c.drain()
    return room, code, seats


def without_ids(zones):
    return [{**z, "cards": [{k: v for k, v in c.items() if k not in ("id", "host")}
                            for c in z["cards"]]} for z in zones]


def room_printed(stdout):
    """(room, code, {seat: invitation}) from what `tabletop room` prints: the watching
    invitation, then a line for each seat with its own."""
    from urllib.parse import parse_qs, urlsplit
    lines = stdout.strip().splitlines()
    room, code = lines[0].split("/")[-2:]
    invites = {}
    for line in lines[1:]:
        seat, _, link = line.partition(": ")
        query = parse_qs(urlsplit(link.split()[0]).query)
        assert query["seat"] == [seat]
        invites[seat] = query["invite"][0]
    return room, code, invites


def test_two_players_each_see_their_own_view_and_the_host_decides(server, clients):
    room, code, s = seat_up(clients, server.url)
    alice, bob = s["Alice"], s["Bob"]
    va = alice.view
    hand = zone(va, "Alice", "hand")
    assert hand and all(not c["hidden"] and c["name"] for c in hand)
    # Bob sees Alice's hand as cards with no name, no id of a card, no characteristic
    hidden = zone(bob.view, "Alice", "hand")
    assert len(hidden) == len(hand) and all(c["hidden"] for c in hidden)
    assert all("name" not in c and "types" not in c and "cid" not in c for c in hidden)
    # Alice plays a land: the engine decides, both are sent the new table
    land = next(c for c in hand if "Land" in c.get("types", []))
    after = alice.act("move", id=land["id"], zone="battlefield")
    assert any(c["name"] == land["name"] for c in zone(after, None, "battlefield"))
    bob.drain()
    assert any(c.get("name") == land["name"] for c in zone(bob.view, None, "battlefield"))
    assert any(land["name"] in line["text"] for line in bob.view["log"])
    # Bob may not move Alice's cards, draw for her, or act as the judge
    target = zone(bob.view, None, "battlefield")[0]  # by the id Bob was sent
    with pytest.raises(ClientError, match="may not handle") as not_his:
        bob.act("move", id=target["id"], zone="graveyard")
    assert not_his.value.code == "not-your-seat"
    mine = zone(alice.view, None, "battlefield")[0]["id"]  # Alice's id names nothing for Bob
    with pytest.raises(ClientError) as unknown:
        bob.act("move", id=mine, zone="graveyard")
    assert unknown.value.code == "gone" or mine == target["id"]
    with pytest.raises(ClientError, match="judge's seat"):
        clients(server.url).join(room, code, "judge")
    with pytest.raises(ClientError, match="wrong room code"):
        clients(server.url).join(room, "WRONGCODE", "spectator")
    # an instant onto the battlefield: the rules refuse it, and say which rule
    instant = next(c for c in zone(alice.view, "Alice", "hand")
                   if {"Instant", "Sorcery"} & set(c.get("types", [])))
    with pytest.raises(ClientError, match=r"instant or sorcery.*\(400\.4a\)"):
        alice.act("move", id=instant["id"], zone="battlefield")
    # another player's last action is undone only when every player agrees
    asked = bob.act("undo")
    assert asked["undo_request"] == {"by": "Bob", "agreed": ["Bob"]}
    assert zone(asked, None, "battlefield")  # nothing undone yet
    alice.drain()
    assert alice.view["undo_request"]["by"] == "Bob"  # shown to all
    kept = alice.act("refuse_undo")
    assert kept["undo_request"] is None and zone(kept, None, "battlefield")
    bob.act("undo")
    alice.drain()
    undone = alice.act("agree_undo")
    assert not zone(undone, None, "battlefield") and undone["undo_request"] is None
    with pytest.raises(ClientError, match="no one has asked"):
        alice.act("agree_undo")


def test_a_dropped_player_rejoins_its_seat_and_the_seat_is_held(server, clients):
    room, code, s = seat_up(clients, server.url)
    alice, bob = s["Alice"], s["Bob"]
    token = bob.token
    bob.close()
    land = next(c for c in zone(alice.view, "Alice", "hand") if "Land" in c.get("types", []))
    alice.act("move", id=land["id"], zone="battlefield")  # made while Bob was away
    with pytest.raises(ClientError, match="taken"):
        clients(server.url).join(room, code, "Bob")  # no token: the seat stays Bob's
    back = clients(server.url)
    view = back.join(room, code, "Bob", token=token)
    assert any(c.get("name") == land["name"] for c in zone(view, None, "battlefield"))
    assert any(land["name"] in line["text"] for line in view["log"])  # what happened meanwhile
    assert "Bob" in view["connected"] and "Alice" in view["connected"]


def test_a_killed_server_restores_its_rooms_and_players_rejoin(server, clients):
    room, code, s = seat_up(clients, server.url)
    alice = s["Alice"]
    land = next(c for c in zone(alice.view, "Alice", "hand") if "Land" in c.get("types", []))
    alice.act("move", id=land["id"], zone="battlefield")
    tokens = {p: c.token for p, c in s.items()}
    server.kill()  # SIGKILL: no chance to save anything more
    port = server.port
    server.start(port)
    again = clients(server.url)
    view = again.join(room, code, "Alice", token=tokens["Alice"])
    assert [c["name"] for c in zone(view, None, "battlefield")] == [land["name"]]
    assert len(zone(view, "Alice", "hand")) == len(zone(alice.view, "Alice", "hand"))
    bob = clients(server.url)
    bob.join(room, code, "Bob", token=tokens["Bob"])
    assert zone(bob.view, None, "battlefield")[0]["name"] == land["name"]


def test_hidden_cards_never_reach_another_seat(server, clients):
    """Every frame sent to Bob during random play: no name of a card Bob may not see.
    Alice's cards stay in her hand and library (hidden from Bob) except those she plays
    (then public), and the check looks only at cards that were never public."""
    room, code, s = seat_up(clients, server.url)
    alice, bob = s["Alice"], s["Bob"]
    rng = random.Random(7)
    public: set[str] = set()
    for _ in range(40):
        choice = rng.random()
        hand = zone(alice.view, "Alice", "hand")
        try:
            if choice < 0.3:
                alice.act("draw")
            elif choice < 0.45:
                alice.act("shuffle")
            elif choice < 0.6 and hand:
                card = rng.choice(hand)
                alice.act("move", id=card["id"], zone="library", position="bottom")
            elif choice < 0.7 and hand:
                card = rng.choice([c for c in hand if "Land" in c.get("types", [])] or hand)
                public.add(card["name"])
                alice.act("move", id=card["id"], zone="battlefield")
            else:
                bob.act("roll", sides=6)
        except ClientError:
            pass  # a refusal is part of play
        bob.drain(0.05)
    bob.drain()
    names = {c["name"] for z in alice.view["zones"] for c in z["cards"] if not c["hidden"]}
    secret = {n for n in names if n not in public}
    # Alice's own library and hand names, as she knows them from her hand over the game
    for frame in alice.frames:
        msg = json.loads(frame)
        if msg.get("type") == "view":
            secret |= {c["name"] for c in zone(msg, "Alice", "hand")
                       if c["name"] not in public}
    assert secret, "the test must have secrets to keep"
    sent_to_bob = "\n".join(bob.frames)
    leaked = sorted(n for n in secret if json.dumps(n)[1:-1] in sent_to_bob)
    assert leaked == []
    assert any(json.dumps(n)[1:-1] in sent_to_bob for n in public)  # the check can see names
    # the updates Alice merged add up to the table as a fresh full view shows it
    alice.drain()
    fresh = clients(server.url).join(room, code, "Alice", token=alice.token)

    def table(v):
        return sorted((str(z["player"]), z["zone"], json.dumps(z["cards"], sort_keys=True))
                      for z in v["zones"])
    assert table(alice.view) == table(fresh)
    assert alice.view["life"] == fresh["life"] and alice.view["log"][-5:] == fresh["log"][-5:]


def test_hostile_frames_get_error_frames_and_change_nothing(server, clients):
    _room, _code, s = seat_up(clients, server.url)
    alice = s["Alice"]
    before = json.dumps([alice.view["zones"], alice.view["life"]])
    bad = ["", "{", "[]", "null", "1e999", '{"v":1}', '{"v":2,"type":"ping"}',
           '{"v":1,"type":"nope"}', '{"v":1,"type":"act"}',
           '{"v":1,"type":"act","action":"move","id":"x"}',
           '{"v":1,"type":"act","action":"explode"}',
           '{"v":1,"type":"act","action":"move","id":99999999,"zone":"graveyard"}',
           '{"v":1,"type":"act","action":"draw","count":1000000}',
           '{"v":1,"type":"chat","text":"' + "x" * 600 + '"}',
           '{"v":1,"type":"join","room":"r","code":"c","seat":"Alice","extra":1}',
           "[" * 5000 + "]" * 5000, b"\xff\xfe\x00", NotImplemented]
    rng = random.Random(1)
    bad[-1] = "".join(chr(rng.randrange(1, 0x2FF)) for _ in range(300))
    errors = 0
    for frame in bad:
        alice.send_raw(frame)
        msg = alice.until("error", "update")
        errors += msg["type"] == "error"
    assert errors == len(bad)
    alice.send("ping")
    assert alice.until("pong")["type"] == "pong"  # still served
    alice.send("chat", text="hello")
    alice.until("update")
    after_chat = alice.view
    assert json.dumps([after_chat["zones"], after_chat["life"]]) == before
    assert after_chat["chat"][-1] == ["Alice", "hello"]
    # a frame over the size limit closes that connection, not the server
    big = clients(server.url)
    big.send_raw("x" * (70 * 1024))
    from websockets.exceptions import ConnectionClosed
    with pytest.raises(ConnectionClosed) as closed:
        big.until("pong", timeout=5)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009  # too big
    fresh = clients(server.url)
    fresh.send("ping")
    assert fresh.until("pong")["type"] == "pong"
    assert server.alive()


def test_a_flood_is_slowed_and_then_closed(server, clients):
    from websockets.exceptions import ConnectionClosed
    c = clients(server.url)
    closed = False
    try:  # the server may close the connection before all 200 are sent
        for _ in range(200):
            c.send("ping")
    except ConnectionClosed:
        closed = True
    kinds = []
    try:  # the server's close waits for its handshake: up to protocol.CLOSE_TIMEOUT
        for _ in range(200):
            kinds.append(c.recv(20)["type"])
    except ConnectionClosed:
        closed = True
    except TimeoutError:
        pass
    # the burst is answered, the rest gets error frames, and 20 of those close it
    assert "pong" in kinds and kinds.count("error") >= 1 and closed
    ok = clients(server.url)
    ok.send("ping")
    assert ok.until("pong")["type"] == "pong"


def test_a_long_game_survives_a_kill_from_its_snapshot_and_log(server, clients):
    """More intentions than one snapshot holds: the room comes back as the snapshot
    plus the logged intentions carried out again, the same table to the last card."""
    room, code, s = seat_up(clients, server.url)
    alice, bob = s["Alice"], s["Bob"]
    rng = random.Random(5)
    for i in range(75):
        c = alice if i % 2 == 0 else bob
        c.drain(0.01)
        hand = zone(c.view, c.seat, "hand")
        try:
            if hand and rng.random() < 0.4:
                c.act("move", id=rng.choice(hand)["id"], zone=rng.choice(
                    ["battlefield", "graveyard", "library"]))
            elif rng.random() < 0.5:
                c.act("draw")
            else:
                c.act("life", delta=-1)
        except ClientError:
            pass
    alice.drain()
    before = clients(server.url).join(room, code, "Alice", token=alice.token)
    files = sorted(p.name for p in server.folder.joinpath("server").iterdir())
    assert files == ["journal-000001.log", f"room-{room}.json"]
    logged = server.folder.joinpath("server", "journal-000001.log").read_text().splitlines()
    assert logged and all(json.loads(line)["room"] == room for line in logged)
    server.kill()
    server.start(server.port)
    after = clients(server.url).join(room, code, "Alice", token=alice.token)
    for key in ("life", "turn", "active"):
        assert after[key] == before[key], key
    # the same cards in the same places (a restarted server sends each seat new ids)
    assert without_ids(after["zones"]) == without_ids(before["zones"])


def test_a_room_opened_from_the_command_line_is_joined_with_its_invitation(server, clients):
    from tests.helpers import run_cli
    r = run_cli("room", server.url, "--players", "Ann,Ben", "--seed", "7")
    assert r.returncode == 0, r.stderr
    room, code, invites = room_printed(r.stdout)
    assert r.stdout.startswith(f"{server.url}/{room}/{code}\n")  # to watch
    assert set(invites) == {"Ann", "Ben"} and invites["Ann"] != invites["Ben"]
    with pytest.raises(ClientError, match="invitation") as no_invite:
        clients(server.url).join(room, code, "Ann")
    assert no_invite.value.code == "invite-needed"
    ann = clients(server.url)
    view = ann.join(room, code, "Ann", invite=invites["Ann"])
    assert view["players"] == ["Ann", "Ben"] and zone(view, "Ann", "hand")
    refused = run_cli("room", server.url, "--players", "Ann,Ann")
    assert refused.returncode == 2 and "refused" in refused.stderr
    closed = run_cli("room", "ws://127.0.0.1:9", "--players", "Ann")
    assert closed.returncode == 2 and "cannot reach ws://127.0.0.1:9/" in closed.stderr


def test_a_room_with_the_players_own_decks(server, clients, tmp_path):
    """`tabletop room --deck PLAYER=FILE`: the decks are read where the command runs
    (any format), sent as names and counts, and dealt from the server's card data; a
    card the server does not know is refused with its name."""
    from tests.helpers import ROOT, run_cli
    stompy = ROOT / "tests" / "data" / "decks" / "arena.txt"  # has an unknown card
    ann = tmp_path / "ann.txt"
    ann.write_text("Deck\n20 Forest\n4 Llanowar Elves\n4 Grizzly Bears\n\n"
                   "Sideboard\n2 Naturalize\n", encoding="utf-8")
    ben = tmp_path / "ben.txt"
    ben.write_text("// a plain list\n20 Mountain\n4 Lightning Bolt\nSB: 1 Shock\n",
                   encoding="utf-8")
    r = run_cli("room", server.url, "--players", "Ann,Ben", "--deck", f"Ann={ann}",
                "--deck", f"Ben={ben}", "--seed", "3")
    assert r.returncode == 0, r.stderr
    room, code, invites = room_printed(r.stdout)
    view = clients(server.url).join(room, code, "Ann", invite=invites["Ann"])
    hand = {c["name"] for c in zone(view, "Ann", "hand")}
    assert len(zone(view, "Ann", "hand")) == 7 and hand <= {"Forest", "Llanowar Elves",
                                                          "Grizzly Bears"}
    assert len(zone(view, "Ann", "library")) == 28 - 7
    assert [c["name"] for c in view["sideboards"]["Ann"]] == ["Naturalize"] * 2
    assert view["sideboards"]["Ben"] == 1 and len(zone(view, "Ben", "library")) == 24 - 7
    unknown = run_cli("room", server.url, "--players", "Ann,Ben", "--deck", f"Ann={stompy}",
                      "--deck", f"Ben={ben}")
    assert unknown.returncode == 2 and "Totally Unknown Card" in unknown.stderr
    one = run_cli("room", server.url, "--players", "Ann,Ben", "--deck", f"Ann={ann}")
    assert one.returncode == 2 and "every player" in one.stderr
    bad = run_cli("room", server.url, "--players", "Ann,Ben", "--deck", f"Cid={ann}")
    assert bad.returncode == 2 and "PLAYER=FILE" in bad.stderr
    missing = run_cli("room", server.url, "--players", "Ann", "--deck", "Ann=/nonexistent.txt")
    assert missing.returncode == 2 and "nonexistent.txt" in missing.stderr


def test_a_served_room_is_announced_on_the_local_network(tmp_path):
    """`tabletop serve --announce`: each room is found by mDNS (on loopback here, as
    TABLETOP_MDNS says in the tests), with its address and players, never its code."""
    import threading

    from tabletop.net import discovery
    from tests.helpers import run_cli
    from tests.net.conftest import ServerProcess
    s = ServerProcess(tmp_path / "data")
    s.extra = ["--announce"]
    s.start()
    try:
        r = run_cli("room", s.url, "--players", "Ann,Ben", "--seed", "1")
        assert r.returncode == 0, r.stderr
        room, code = r.stdout.strip().split("/")[-2:]
        found, seen = threading.Event(), []

        def added(game):
            seen.append(game)
            if game.room == room:
                found.set()
        browser = discovery.Browser(added, lambda name: None)
        try:
            assert found.wait(15), seen
        finally:
            browser.close()
        game = next(g for g in seen if g.room == room)
        assert game.url == s.url + "/" and game.players == ("Ann", "Ben")
        assert code not in repr(game)
    finally:
        s.kill()


def test_updates_written_together_arrive_whole_and_in_order(server, clients):
    """Four players send many intentions at once, without waiting: the server writes a
    connection's updates that became durable together in one piece. Each connection
    still gets every update, each once and in order (seq 1, 2, 3 ...), and its view,
    merged from them, is the view a new connection of the same seat is sent."""
    players = ("Ann", "Ben", "Cat", "Dan")
    host = clients(server.url)
    room, code = host.create(list(players), seed=5)
    seats = {}
    for p in players:
        c = clients(server.url)
        c.join(room, code, p, invite=host.invites[p], changes="cards")
        seats[p] = c
    for c in seats.values():
        c.drain()
    sent_before = {p: len(c.frames) for p, c in seats.items()}
    asked = 0
    played: set[int] = set()
    for i in range(15):  # every seat's intentions go out before any answer is read
        for p, c in seats.items():
            lands = [x for x in zone(c.view, p, "hand") if "Land" in x.get("types", [])
                     and x["id"] not in played]
            if i % 3 == 0 and lands:
                played.add(lands[0]["id"])
                c.send("act", rid=f"{p}{i}", action="move", id=lands[0]["id"],
                       zone="battlefield")
            else:
                c.send("act", rid=f"{p}{i}", action="roll" if i % 2 else "life",
                       **({"sides": 20} if i % 2 else {"delta": -1}))
            asked += 1
    answered = 0
    for p, c in seats.items():
        c.drain(1.0)
        frames = [json.loads(f) for f in c.frames[sent_before[p]:]]
        updates = [f for f in frames if f["type"] == "update"]
        answered += sum(1 for f in frames if str(f.get("rid", "")).startswith(p))
        seqs = [u["seq"] for u in updates]
        assert seqs == list(range(seqs[0], seqs[0] + len(seqs))), (p, seqs)
        assert len(updates) == asked  # every seat hears of every intention
    assert answered == asked
    for p, c in seats.items():  # merged, as a fresh join of the seat is sent the table
        fresh = clients(server.url)
        view = fresh.join(room, code, p, token=c.token, changes="cards")
        assert without_ids(c.view["zones"]) == without_ids(view["zones"]), p


def test_a_game_announced_with_lying_words_is_listed_as_plain_short_text():
    """Anyone on the network can announce a game: its title and player names are another
    machine's words. The Join dialog lists them without controls or the marks that turn
    a line around, each name short, at most eight of them; a record that is not one of
    ours (no version, no room, no IPv4 address) is not listed."""
    from types import SimpleNamespace

    from tabletop.net import discovery

    def record(**props):
        return SimpleNamespace(name="x._tabletop._tcp.local.", port=8765,
                               addresses=[bytes([192, 168, 1, 9])],
                               properties={k.encode(): v.encode() for k, v in props.items()})
    names = ",".join(["\u202eAnn\x07", "B" * 300, "", " \u200f ", *"CDEFGHIJ"])
    game = discovery.found_from(record(v="1", room="R00m!<b>", title="\x1b[31mFun\u202e night",
                                       players=names))
    assert game is not None
    assert game.title == "[31mFun night" and game.room == "R00mb"
    assert game.players == ("Ann", "B" * 40, "C", "D", "E", "F", "G", "H")
    assert discovery.found_from(record(room="R", title="t", players="A")) is None
    assert discovery.found_from(record(v="1", title="t", players="A")) is None


def test_an_invitation_alone_takes_the_seat_it_is_for(server, clients):
    """A person read out only their invitation code need not know the seat's name: a
    join with the invitation and no seat takes the seat the invitation is for (the
    judge's too). An invitation of no seat is refused, and counts against the address
    like a wrong one given with a seat; a seat already taken is not taken again; a join
    with neither a seat nor an invitation is not a join."""
    host = clients(server.url)
    room, code = host.create(["Ann", "Ben"], seed=5, judge_sees_all=True)
    ben = clients(server.url)
    typed = " ".join(host.invites["Ben"].lower().split("-"))  # as a person types it
    view = ben.join(room, code, None, invite=typed)
    assert ben.seat == "Ben" and ben.token
    assert not any(c["hidden"] for c in zone(view, "Ben", "hand"))  # his own hand
    assert all(c["hidden"] for c in zone(view, "Ann", "hand"))
    judge = clients(server.url)
    judge.join(room, code, None, invite=host.invites["judge"])
    assert judge.seat == "judge"
    with pytest.raises(ClientError) as taken:  # Ben's seat is held: its token, not this
        clients(server.url).join(room, code, None, invite=host.invites["Ben"])
    assert taken.value.code == "seat-taken"
    again = clients(server.url)
    again.join(room, code, None, token=ben.token, invite=host.invites["Ben"])
    assert again.seat == "Ben"  # Ben back after a drop, with his token
    with pytest.raises(ClientError) as neither:
        clients(server.url).join(room, code, None)
    assert neither.value.code == "bad-frame"
    wrong = []
    for _ in range(20):  # the address's allowance of wrong guesses, 1 spent above
        try:
            clients(server.url).join(room, code, None, invite="AAAA-BBBB-CCCC")
        except ClientError as e:
            wrong.append(e.code)
    assert wrong[:19] == ["invite-needed"] * 19 and wrong[19:] == ["rate-limited"]
    with pytest.raises(ClientError) as limited:
        clients(server.url).join(room, code, None, invite=host.invites["Ann"])
    assert limited.value.code == "rate-limited"
