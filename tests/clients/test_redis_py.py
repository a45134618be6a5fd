#!/usr/bin/env python3
"""redis-py (Debian's python3-redis, 4.3) against a real ludusd, through
the library's own API: execute_command, its helpers (ping, echo, info),
non-transactional pipelines, errors, and its reconnects after a restart
of the server.  Run by tests/clients/run, TAP on stdout.

Then the library's own APIs for what a game client needs: transactional
pipelines (MULTI/EXEC, WATCH), pubsub(), streams (xrange, xread with
block), connection options (client_name, db, password), two accounts
that find each other (MATCH.JOIN, a blocked MATCH.WAIT, the account's
channel), play and are rated, and, last, the program the clients issue
asks for: it plays a game with transactional
pipelines, follows another through pubsub(), and after a kill -9 of
ludusd resumes through xread from its last id, seeing every move once.
"""

import random
import signal
import threading
import time

from ludus_harness import Daemon, Suite, pubsub_gets_a_move, \
    redis_client, require

redis = require("redis", "redis-py", "python3-redis")
from redis.backoff import ConstantBackoff  # noqa: E402
from redis.retry import Retry  # noqa: E402

# Bots move 5 ms apart, not 300: the followed game of the last case.
suite = Suite("redis-py", "--bot-delay", "5")

STATE0 = ["turn,red", "winner,NONE", "red,1,YARD,-1", "red,2,YARD,-1",
          "red,3,YARD,-1", "red,4,YARD,-1", "blue,1,YARD,-1",
          "blue,2,YARD,-1", "blue,3,YARD,-1", "blue,4,YARD,-1"]


def client(t, **kw):
    """A client of the suite's daemon, closed when the case ends."""
    return redis_client(t, redis, **kw)


def expect_error(fn, code):
    """fn() raises the error code (redis-py drops the code word ERR, and
    prefixes the errors of a pipeline with the command's place)."""
    try:
        fn()
    except redis.ResponseError as e:
        text = str(e).split(" caused error: ")[-1]
        assert text.startswith(code + " ") or code == "ERR", \
            "error %r, not %s" % (e, code)
        return e
    raise AssertionError("no %s error" % code)


# ------------------------------------------------------- plain commands

@suite.case("LUDO.CREATE, PLAY and STATE through execute_command")
def _(t):
    r = client(t)
    assert r.execute_command("LUDO.CREATE", "py-1", "red", "blue") == "OK"
    assert r.execute_command("LUDO.STATE", "py-1") == STATE0
    assert r.execute_command("LUDO.PLAY", "py-1", "red", 6, 1) == "MOVED"
    assert r.execute_command("LUDO.PLAY", "py-1", "red", 3, 1) == "MOVED"
    state = r.execute_command("LUDO.STATE", "py-1")
    assert state[0] == "turn,blue" and state[2] == "red,1,TRACK,3", state
    assert r.execute_command("HISTORY", "py-1") == [
        "1,red,6:1,MOVED", "2,red,3:1,MOVED"]


@suite.case("bytes replies without decode_responses")
def _(t):
    r = client(t, decode_responses=False)
    assert r.execute_command("SNL.CREATE", "py-snl", 2) == b"OK"
    assert r.execute_command("SNL.ROLL", "py-snl", 4) == b"P1 4"
    assert r.execute_command("SNL.STATE", "py-snl")[0].startswith(b"turn,")


@suite.case("a refused move is a reply, a bad request a ResponseError")
def _(t):
    r = client(t)
    r.execute_command("LUDO.CREATE", "py-2", "red", "blue")
    assert r.execute_command("LUDO.PLAY", "py-2", "red", 3, 1) == \
        "INVALID_MOVE"
    expect_error(lambda: r.execute_command("LUDO.STATE", "nope"), "NOGAME")
    expect_error(lambda: r.execute_command("LUDO.CREATE", "py-2", "a", "b"),
                 "EXISTS")
    expect_error(lambda: r.execute_command("LUDO.PLAY", "py-2", "red", 9,
                                           1), "BADARG")
    e = expect_error(lambda: r.execute_command("NOSUCH"), "ERR")
    assert "unknown command" in str(e)
    assert r.ping() is True  # the connection is still in step


@suite.case("ping, echo, info, command and command_count helpers")
def _(t):
    r = client(t)
    assert r.ping() is True
    assert r.echo("hello there") == "hello there"
    info = r.info()
    assert info["ludus_version"], info
    assert isinstance(info["games_total"], int), info
    assert r.info("games")["games_total"] == info["games_total"]
    commands = r.command()
    assert commands["ludo.play"]["arity"] == -5, commands["ludo.play"]
    assert r.command_count() == len(commands)


@suite.case("HELLO 2 answers the map as a flat list")
def _(t):
    hello = client(t).execute_command("HELLO", "2")
    fields = dict(zip(hello[::2], hello[1::2]))
    assert fields["server"] == "ludus" and fields["proto"] == 2, fields


@suite.case("RESP3 (protocol=3)",
            skip=None if int(redis.__version__.split(".")[0]) >= 5 else
            "redis-py %s speaks RESP2 only (RESP3: redis-py 5)" %
            redis.__version__)
def _(t):
    r = client(t, protocol=3)
    assert r.execute_command("LUDO.CREATE", "py-3", "red", "blue") == "OK"
    assert r.execute_command("LUDO.STATE", "py-3") == STATE0


# ------------------------------------------------------------ pipelines

@suite.case("pipeline(transaction=False): replies in order")
def _(t):
    r = client(t)
    p = r.pipeline(transaction=False)
    p.execute_command("LUDO.CREATE", "py-p", "red", "blue")
    p.execute_command("LUDO.PLAY", "py-p", "red", 6, 1)
    p.execute_command("LUDO.PLAY", "py-p", "red", 3, 1)
    p.execute_command("LUDO.PLAY", "py-p", "blue", 4, 0)
    p.execute_command("HISTORY", "py-p")
    assert p.execute() == ["OK", "MOVED", "MOVED", "PASSED", [
        "1,red,6:1,MOVED", "2,red,3:1,MOVED", "3,blue,4:0,PASSED"]]


@suite.case("pipeline(transaction=False): an error stays in its place")
def _(t):
    r = client(t)
    p = r.pipeline(transaction=False)
    p.execute_command("LUDO.CREATE", "py-e", "red", "blue")
    p.execute_command("LUDO.STATE", "nope")
    p.execute_command("LUDO.PLAY", "py-e", "red", 6, 1)
    out = p.execute(raise_on_error=False)
    assert out[0] == "OK" and out[2] == "MOVED", out
    assert isinstance(out[1], redis.ResponseError), out
    p.execute_command("LUDO.STATE", "nope")
    p.execute_command("LUDO.PLAY", "py-e", "red", 3, 1)
    expect_error(p.execute, "NOGAME")
    # The move after the error was played all the same.
    assert r.execute_command("HISTORY", "py-e")[-1] == "2,red,3:1,MOVED"


@suite.case("a pipeline of 500 commands")
def _(t):
    r = client(t)
    p = r.pipeline(transaction=False)
    p.execute_command("DANDY.CREATE", "py-d", 2, "abcd")
    for i in range(499):
        p.execute_command("DANDY.DRAW", "py-d", "abcd"[i % 4])
    out = p.execute()
    assert out[0] == "OK" and len(out) == 500, len(out)
    assert len(r.execute_command("HISTORY", "py-d", 1, 10000)) == 499


# ------------------------------------------------------------ restarts

@suite.case("a pooled connection reconnects after a restart (SIGTERM)")
def _(t):
    r = client(t)
    r.execute_command("LUDO.CREATE", "py-r", "red", "blue")
    r.execute_command("LUDO.PLAY", "py-r", "red", 6, 1)
    t.daemon.restart()
    assert r.execute_command("LUDO.PLAY", "py-r", "red", 3, 1) == "MOVED"
    assert r.execute_command("HISTORY", "py-r") == [
        "1,red,6:1,MOVED", "2,red,3:1,MOVED"]


@suite.case("and after kill -9, with the acknowledged moves kept")
def _(t):
    r = client(t)
    r.execute_command("LUDO.CREATE", "py-k", "red", "blue")
    assert r.execute_command("LUDO.PLAY", "py-k", "red", 6, 1) == "MOVED"
    t.daemon.restart(signal.SIGKILL)
    assert r.execute_command("HISTORY", "py-k") == ["1,red,6:1,MOVED"]


@suite.case("with retry, a command sent while the server is down waits")
def _(t):
    # Refused connections are OSErrors until redis-py wraps them.
    r = client(t, retry=Retry(ConstantBackoff(0.05), 200),
               retry_on_error=[redis.ConnectionError, OSError])
    r.execute_command("LUDO.CREATE", "py-w", "red", "blue")
    t.daemon.stop(signal.SIGKILL)
    out = []
    play = threading.Thread(target=lambda: out.append(
        r.execute_command("LUDO.PLAY", "py-w", "red", 6, 1)))
    play.start()
    time.sleep(0.5)
    t.daemon.start(t.daemon.port)
    play.join(10)
    assert out == ["MOVED"], out


# ------------------------------------------------- MULTI/EXEC, WATCH

@suite.case("pipeline() (MULTI/EXEC) commits its moves together")
def _(t):
    r = client(t)
    r.execute_command("LUDO.CREATE", "py-tx", "red", "blue")
    p = r.pipeline()
    p.execute_command("LUDO.PLAY", "py-tx", "red", 6, 1)
    p.execute_command("LUDO.PLAY", "py-tx", "red", 3, 1)
    assert p.execute() == ["MOVED", "MOVED"]


@suite.case("pipeline(): a refused move is its reply, an error raises")
def _(t):
    r = client(t)
    r.execute_command("LUDO.CREATE", "py-tx2", "red", "blue")
    p = r.pipeline()
    p.execute_command("LUDO.PLAY", "py-tx2", "red", 6, 1)
    p.execute_command("LUDO.PLAY", "py-tx2", "blue", 6, 1)
    p.execute_command("LUDO.PLAY", "py-tx2", "red", 9, 1)
    p.execute_command("LUDO.PLAY", "py-tx2", "red", 3, 1)
    out = p.execute(raise_on_error=False)
    assert out[:2] == ["MOVED", "INVALID_MOVE"] and out[3] == "MOVED", out
    assert isinstance(out[2], redis.ResponseError), out
    assert r.execute_command("HISTORY", "py-tx2") == [
        "1,red,6:1,MOVED", "2,red,3:1,MOVED"]
    # A command refused when queued aborts it all (EXECABORT).
    p = r.pipeline()
    p.execute_command("LUDO.PLAY", "py-tx2", "blue", 4, 0)
    p.execute_command("LUDO.PLAY", "py-tx2")
    try:
        p.execute()
        raise AssertionError("no error")
    except redis.ResponseError as e:
        assert "EXECABORT" in str(e) or "wrong number" in str(e), e
    assert len(r.execute_command("HISTORY", "py-tx2")) == 2


@suite.case("pipeline().watch(): WatchError when the game moved")
def _(t):
    r, other = client(t), client(t)
    r.execute_command("LUDO.CREATE", "py-w1", "red", "blue")
    with r.pipeline() as p:
        p.watch("py-w1")
        moves = int(dict(x.split(",") for x in p.execute_command(
            "GAME.INFO", "py-w1"))["moves"])
        p.multi()
        p.execute_command("LUDO.PLAY", "py-w1", "red", 6, 1, "AT", moves)
        assert p.execute() == ["MOVED"]
    with r.pipeline() as p:
        p.watch("py-w1")
        other.execute_command("LUDO.PLAY", "py-w1", "red", 3, 1)
        p.multi()
        p.execute_command("LUDO.PLAY", "py-w1", "red", 5, 1)
        try:
            p.execute()
            raise AssertionError("no WatchError")
        except redis.WatchError:
            pass
    assert r.execute_command("HISTORY", "py-w1") == [
        "1,red,6:1,MOVED", "2,red,3:1,MOVED"]
    # The connection went back to the pool in a sane state.
    assert r.ping() is True


# ------------------------------------------------------------- pub/sub

@suite.case("pubsub() receives a game's moves")
def _(t):
    pubsub_gets_a_move(t, client(t), "py-ps")


@suite.case("pubsub(): psubscribe patterns and listen()")
def _(t):
    r = client(t)
    ps = r.pubsub()
    t.defer(ps.close)
    ps.psubscribe("py-pat-*")
    r.execute_command("SNL.CREATE", "py-pat-1", 1)
    r.execute_command("SNL.CREATE", "py-other", 1)
    r.execute_command("SNL.ROLL", "py-other", 2)
    r.execute_command("SNL.ROLL", "py-pat-1", 3)
    r.execute_command("SNL.ROLL", "py-pat-1", 4)
    got = []
    for m in ps.listen():
        got.append((m["type"], m.get("pattern"), m["channel"], m["data"]))
        if len(got) == 3:
            break
    assert got == [("psubscribe", None, "py-pat-*", 1),
                   ("pmessage", "py-pat-*", "py-pat-1", "1,P1,3,P1 3"),
                   ("pmessage", "py-pat-*", "py-pat-1", "2,P1,4,P1 7")], got


# ------------------------------------------------------------- streams

@suite.case("xrange reads a game's history as a stream")
def _(t):
    r = client(t)
    r.execute_command("LUDO.CREATE", "py-x", "red", "blue")
    r.execute_command("LUDO.PLAY", "py-x", "red", 6, 1)
    assert r.xrange("py-x") == [
        ("1-0", {"player": "red", "action": "6:1", "result": "MOVED"})]
    r.execute_command("LUDO.PLAY", "py-x", "red", 3, 1)
    assert r.xlen("py-x") == 2
    assert [e[0] for e in r.xrevrange("py-x")] == ["2-0", "1-0"]
    assert r.xrange("py-x", "(1-0", "+") == r.xrange("py-x", 2, 2)
    assert r.xread({"py-x": "1-0"}) == [
        ["py-x", [("2-0", {"player": "red", "action": "3:1",
                           "result": "MOVED"})]]]


def blocked(r, name):
    """Waits until the connection named name waits in XREAD BLOCK."""
    end = time.monotonic() + 10
    while time.monotonic() < end:
        for c in r.client_list():
            if c.get("name") == name and "b" in c.get("flags", ""):
                return
        time.sleep(0.005)
    raise AssertionError("%s never blocked" % name)


@suite.case("xread(block=...) waits for the next move")
def _(t):
    r = client(t)
    w = client(t, client_name="py-reader")
    r.execute_command("DANDY.CREATE", "py-xb", 2, "abcd")
    out = []
    th = threading.Thread(target=lambda: out.append(
        w.xread({"py-xb": "$"}, block=10000)))
    th.start()
    blocked(r, "py-reader")
    r.execute_command("DANDY.DRAW", "py-xb", "c")
    th.join(10)
    assert out == [[["py-xb", [("1-0", {"player": "P1", "action": "c",
                                        "result": "P1 3 0"})]]]], out
    # A timeout is no reply: xread gives [].
    assert w.xread({"py-xb": "$"}, block=10) in ([], None)


# ---------------------------------------------------- connection options

@suite.case("client_name= and select(0) on connect")
def _(t):
    r = client(t, client_name="py-client")
    assert r.client_getname() == "py-client"
    assert r.execute_command("SELECT", 0) is True  # redis-py: bool_ok
    assert client(t, db=0).ping() is True
    try:
        client(t, db=1).ping()
        raise AssertionError("db=1 accepted")
    except redis.ResponseError as e:
        assert "DB index is out of range" in str(e), e
    me = [c for c in r.client_list() if c["name"] == "py-client"]
    assert len(me) == 1 and me[0]["db"] == "0", me
    assert int(r.client_id()) > 0


@suite.case("dbsize, exists, type, scan_iter, time and config_get")
def _(t):
    r = client(t)
    r.execute_command("SNL.CREATE", "py-sc1", 1)
    r.execute_command("SNL.CREATE", "py-sc2", 1)
    assert r.dbsize() == len(r.execute_command("GAMES", "LIMIT", 10000))
    assert r.exists("py-sc1", "py-sc2", "py-nope") == 2
    assert r.type("py-sc1") == "stream" and r.type("py-nope") == "none"
    assert sorted(r.scan_iter(match="py-sc*", count=1)) == [
        "py-sc1", "py-sc2"]
    assert sorted(r.scan_iter()) == sorted(
        r.execute_command("GAMES", "LIMIT", 10000))
    assert r.time()[0] > 1700000000
    assert r.config_get("save") == {"save": ""}


@suite.case("password= authenticates; without it, NOAUTH")
def _(t):
    d = Daemon("--requirepass", "py secret").start()
    t.defer(d.close)
    t.defer(d.stop)
    kw = {"host": "127.0.0.1", "port": d.port, "decode_responses": True,
          "socket_timeout": 10}
    r = redis.Redis(password="py secret", **kw)
    t.defer(r.close)
    assert r.execute_command("LUDO.CREATE", "g", "red", "blue") == "OK"
    bad = redis.Redis(**kw)
    t.defer(bad.close)
    try:
        bad.execute_command("GAME.INFO", "g")
        raise AssertionError("no NOAUTH")
    except (redis.AuthenticationError, redis.ResponseError) as e:
        assert "Authentication required" in str(e), e
    wrong = redis.Redis(password="nope", **kw)
    t.defer(wrong.close)
    try:
        wrong.ping()
        raise AssertionError("a wrong password was taken")
    except (redis.AuthenticationError, redis.ResponseError) as e:
        assert "WRONGPASS" in str(e) or "invalid" in str(e), e


# ------------------------------------------------- players and matches

def lobby_play(players, game):
    """Plays the Ludo game to its end: each turn on the connection of the
    account whose seat it is (players: name -> client), the server's
    dice, the last legal token or a pass."""
    any_client = next(iter(players.values()))
    for _ in range(20000):
        state = any_client.execute_command("LUDO.STATE", game)
        turn = state[0].split(",")[1]
        if turn == "NONE":
            return
        r = players[turn]
        dice = r.execute_command("LUDO.ROLL", game, turn)
        legal = r.execute_command("LUDO.LEGAL", game, dice)
        result = r.execute_command("LUDO.PLAY", game, turn, dice,
                                   legal[-1] if legal else 0)
        assert result != "INVALID_MOVE", (turn, dice, legal)
    raise AssertionError("the game did not end")


@suite.case("two accounts log in, join, wait (MATCH.WAIT and the account's "
            "channel), play, and are rated", limit=120)
def _(t):
    boot = client(t)
    keys = {n: boot.execute_command("PLAYER.CREATE", n)
            for n in ("py-ann", "py-bob")}
    assert all(len(k) == 32 for k in keys.values()), keys
    players = {}
    for n, k in keys.items():
        # Logged in: the connection is the account's, so one connection.
        players[n] = client(t, single_connection_client=True)
        assert players[n].execute_command("PLAYER.LOGIN", n, k) == "OK"
    expect_error(lambda: boot.execute_command("MATCH.JOIN", "ludo"),
                 "NOLOGIN")
    expect_error(lambda: players["py-ann"].execute_command(
        "MATCH.JOIN", "ludo", "players=9"), "BADARG")
    ps = boot.pubsub()
    ps.subscribe("player:py-ann")
    assert ps.get_message(timeout=5)["type"] == "subscribe"
    t1 = players["py-ann"].execute_command("MATCH.JOIN", "ludo",
                                           "players=2")
    assert players["py-ann"].execute_command("MATCH.WAIT", t1, 50) is None
    answer = {}

    def wait_ann():
        answer["ann"] = players["py-ann"].execute_command("MATCH.WAIT", t1)
    th = threading.Thread(target=wait_ann)
    th.start()
    time.sleep(0.2)
    t2 = players["py-bob"].execute_command("MATCH.JOIN", "ludo",
                                           "players=2")
    game, seat, names = players["py-bob"].execute_command("MATCH.WAIT", t2)
    th.join(10)
    assert seat == "py-bob" and sorted(names) == ["py-ann", "py-bob"]
    assert answer["ann"] == [game, "py-ann", names], (answer, game)
    m = ps.get_message(timeout=5)
    while m is not None and m["type"] != "message":
        m = ps.get_message(timeout=5)
    assert m["channel"] == "player:py-ann", m
    assert m["data"].startswith("matched,%d,%s," % (t1, game)), m
    ps.close()
    # A reconnecting client asks PLAYER.GAMES: whose turn it is.
    mine = boot.execute_command("PLAYER.GAMES", "py-ann", "ACTIVE")
    assert mine[0][:3] == [game, "ludo", "py-ann"], mine
    lobby_play(players, game)
    board = boot.execute_command("LEADERBOARD", "ludo")
    assert sorted(row[1] for row in board) == ["py-ann", "py-bob"], board
    assert [row[0] for row in board] == [1, 2]
    for n in players:
        info = boot.execute_command("PLAYER.INFO", n)
        ludo = [x for x in info if x.startswith("rating,ludo,")][0]
        rating, rd, _vol, games, won = ludo.split(",")[2:]
        assert games == "1" and float(rd) < 350, ludo
        assert (float(rating) > 1500) == (won == "1"), ludo
    assert boot.execute_command("PLAYER.GAMES", "py-bob",
                                "FINISHED")[0][3] == "NONE"


# ------------------------------------------------ the done-when

def ludo_turn(r, game, players, rng):
    """One turn of game through a transactional pipeline: the dice, a
    legal token (or a pass), played AT the seq seen, with GAME.INFO in
    the same EXEC.  Returns the move's result and the moves after it."""
    info = dict(x.split(",") for x in r.execute_command("GAME.INFO", game))
    if info["winner"] != "NONE":
        return None, int(info["moves"])
    dice = rng.randint(1, 6)
    legal = r.execute_command("LUDO.LEGAL", game, dice)
    p = r.pipeline()
    p.execute_command("LUDO.PLAY", game, info["turn"], dice,
                      legal[0] if legal else 0, "AT", info["moves"])
    p.execute_command("GAME.INFO", game)
    result, after = p.execute()
    return result, int(dict(x.split(",") for x in after)["moves"])


@suite.case("play with pipelines, follow with pubsub(), resume with xread "
            "after kill -9: every move once", limit=120)
def _(t):
    rng = random.Random(12)
    r = client(t, retry_on_timeout=True)
    ps = r.pubsub()
    ps.subscribe("py-bots")
    assert ps.get_message(timeout=5)["type"] == "subscribe"
    r.execute_command("LUDO.CREATE", "py-mine", "red", "blue", "green")
    r.execute_command("LUDO.CREATE", "py-bots", "a", "b",
                      "bots=a:expert,b:aggressive", "dice=server")
    seen = []           # the followed game's seqs, in the order seen
    played = []         # my moves' results

    def follow():
        # Only what has already come, and never past the tenth: the
        # bots move every few milliseconds, so waiting for a quiet gap
        # would follow their whole game and leave nothing to resume.
        while len(seen) < 10:
            m = ps.get_message(timeout=0)
            if m is None:
                return
            if m["type"] == "message":
                seen.append(int(m["data"].split(",")[0]))

    # Play until the bots' game is some way in (it is far from over).
    while len(seen) < 10 and len(played) < 500:
        played.append(ludo_turn(r, "py-mine", 3, rng)[0])
        follow()
    by_pubsub = len(seen)
    t.daemon.restart(signal.SIGKILL)
    ps.close()
    # Resume: from the last id seen, until the bots' game is over.
    last = seen[-1]
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        out = r.xread({"py-bots": "%d-0" % last}, block=2000)
        for _stream, entries in out or []:
            for eid, _fields in entries:
                seen.append(int(eid.split("-")[0]))
                last = seen[-1]
        info = dict(x.split(",") for x in
                    r.execute_command("GAME.INFO", "py-bots"))
        if info["winner"] != "NONE" and int(info["moves"]) == last:
            break
    assert seen == list(range(1, last + 1)), (seen[:5], len(seen), last)
    assert last == r.xlen("py-bots") and last > by_pubsub
    print("# the bots' game: %d moves by pubsub(), %d by xread after the "
          "kill" % (by_pubsub, last - by_pubsub))
    # And my game: every move played once, in its place.
    for _ in range(20):
        played.append(ludo_turn(r, "py-mine", 3, rng)[0])
    hist = r.execute_command("HISTORY", "py-mine", 1, 10000)
    assert [h.split(",")[3] for h in hist] == [
        x for x in played if x not in ("INVALID_MOVE", None)], hist


if __name__ == "__main__":
    suite.run()
