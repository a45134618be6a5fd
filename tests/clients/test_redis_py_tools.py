#!/usr/bin/env python3
"""redis-py (Debian's python3-redis, 4.3) against a real ludusd, through
what monitoring tools and a library's own helpers reach for: the order
of a game command's refusals, client_info() and client_list(), info()'s
Redis fields, memory_usage(), xinfo_stream(), monitor(), the CLIENT
subcommands that mean nothing here (unpause, getredir, trackinginfo), and the refusal of a client over
maxclients.  Run by tests/clients/run, TAP on stdout.
"""

import threading
import time

from ludus_harness import Daemon, Suite, redis_client, require

redis = require("redis", "redis-py", "python3-redis")

# Bots move 5 ms apart: a Ludo game of two bots ends in seconds.
suite = Suite("redis-py tools", "--bot-delay", "5")


def client(t, **kw):
    """A client of the suite's daemon, closed when the case ends."""
    return redis_client(t, redis, **kw)


def error_of(fn):
    """The text of the ResponseError fn() raises."""
    try:
        fn()
    except redis.ResponseError as e:
        return str(e)
    raise AssertionError("no error")


def finished_ludo(t, r, game):
    """A Ludo game red/blue that two bots have played to its end."""
    r.execute_command("LUDO.CREATE", game, "red", "blue",
                      "bots=red:first,blue:first", "dice=server")
    deadline = time.monotonic() + 25
    while time.monotonic() < deadline:
        state = r.execute_command("LUDO.STATE", game)
        if state[1] != "winner,NONE":
            return state
        time.sleep(0.05)
    raise AssertionError("the bots did not finish %s" % game)


# ------------------------------------------------ the order of refusals

@suite.case("a player not in the game is BADARG, finished game or not")
def _(t):
    r = client(t)
    r.execute_command("LUDO.CREATE", "bo-live", "red", "blue",
                      "dice=server")
    live = error_of(lambda: r.execute_command("LUDO.PLAY", "bo-live", "zz",
                                              6, 1))
    assert live.startswith("BADARG player 'zz' is not in game"), live
    live = error_of(lambda: r.execute_command("LUDO.ROLL", "bo-live", "zz"))
    assert live.startswith("BADARG player 'zz' is not in game"), live
    finished_ludo(t, r, "bo-over")
    over = error_of(lambda: r.execute_command("LUDO.PLAY", "bo-over", "zz",
                                              6, 1))
    assert over.startswith("BADARG player 'zz' is not in game"), over
    over = error_of(lambda: r.execute_command("LUDO.ROLL", "bo-over", "zz"))
    assert over.startswith("BADARG player 'zz' is not in game"), over
    # A player of the finished game still hears that it is over.
    assert r.execute_command("LUDO.PLAY", "bo-over", "red", 6, 1) == \
        "GAME_OVER"
    n = len(r.execute_command("HISTORY", "bo-over", 1, 10000))
    assert n == r.execute_command("XLEN", "bo-over"), n


# ------------------------------------------------ CLIENT INFO and LIST

@suite.case("client_info() and client_list() parse every field")
def _(t):
    r = client(t)
    r.client_setname("tools")
    info = r.client_info()
    assert info["name"] == "tools" and info["cmd"] == "client", info
    assert info["qbuf"] >= 0 and info["qbuf-free"] >= 0, info
    assert info["argv-mem"] > 0, info  # CLIENT INFO's own arguments
    assert info["tot-mem"] > info["argv-mem"] + info["omem"], info
    assert info["laddr"].endswith(":%d" % t.daemon.port), info
    # A client in MULTI holds its queue.
    other = client(t)
    other_id = other.client_id()
    assert other.execute_command("MULTI") == "OK"
    assert other.execute_command("LUDO.STATE", "nosuch") == "QUEUED"
    listed = {int(c["id"]): c for c in r.client_list()}
    assert listed[other_id]["multi"] == "1", listed[other_id]
    assert int(listed[other_id]["multi-mem"]) > 0, listed[other_id]
    assert other.execute_command("DISCARD") == "OK"
    for c in r.client_list():
        for key in ("qbuf", "qbuf-free", "argv-mem", "tot-mem", "omem"):
            assert int(c[key]) >= 0, c


# ------------------------------------------------------------ maxclients

@suite.case("one client over maxclients is a ConnectionError, as with Redis")
def _(t):
    d = Daemon("--maxclients", "2")
    t.defer(d.close)
    t.defer(d.stop)
    d.start()
    kw = dict(host="127.0.0.1", port=d.port, decode_responses=True,
              socket_timeout=10)
    a, b, c = (redis.Redis(**kw) for _ in range(3))
    for x in (a, b, c):
        t.defer(x.close)
    assert a.ping() and b.ping()
    # The refusal comes before any request; redis-py's parser maps Redis's
    # words to a ConnectionError (the pool says "Connection not ready"
    # when the words are there before its first request).
    conn = redis.Connection(host="127.0.0.1", port=d.port, socket_timeout=10)
    t.defer(conn.disconnect)
    conn.connect()
    try:
        conn.read_response()
    except redis.ConnectionError as e:
        assert "max number of clients reached" in str(e), e
    else:
        raise AssertionError("no refusal")
    try:
        c.ping()
    except redis.ConnectionError:
        pass
    else:
        raise AssertionError("a third client was served")
    a.connection_pool.disconnect()
    # Once one has gone, a newcomer is served.
    deadline = time.monotonic() + 5
    while True:
        try:
            assert c.ping()
            break
        except redis.ConnectionError:
            assert time.monotonic() < deadline, "no room made"
            time.sleep(0.05)


# ------------------------------------------------------------------ INFO

@suite.case("info(): redis_version, used_memory, blocked_clients, keyspace")
def _(t):
    r = client(t)
    for g in ("in-1", "in-2"):
        r.execute_command("SNL.CREATE", g, 2)
    info = r.info()
    assert info["redis_version"].count(".") == 2, info["redis_version"]
    assert info["used_memory"] > 0 and info["used_memory_rss"] > 0, info
    assert info["blocked_clients"] == 0, info
    assert info["db0"]["keys"] == r.dbsize() >= 2, info.get("db0")
    assert r.info("keyspace") == {"db0": info["db0"]}
    # An XREAD BLOCK waiting is a blocked client.
    reader = client(t)
    out = []
    th = threading.Thread(target=lambda: out.append(
        reader.xread({"in-1": "$"}, block=10000)))
    th.start()
    deadline = time.monotonic() + 5
    while r.info("clients")["blocked_clients"] != 1:
        assert time.monotonic() < deadline, "never blocked"
        time.sleep(0.02)
    r.execute_command("SNL.ROLL", "in-1", 3)
    th.join(10)
    assert out and out[0][0][0] == "in-1", out
    assert r.info("clients")["blocked_clients"] == 0


# ------------------------------------------------- XREAD BLOCK in MULTI

@suite.case("xread(block=) in a transaction is queued and does not block")
def _(t):
    r = client(t)
    r.execute_command("SNL.CREATE", "xm", 2)
    p = r.pipeline(transaction=True)
    p.xread({"xm": "$"}, block=0)
    p.execute_command("SNL.ROLL", "xm", 3)
    p.xread({"xm": "0"}, block=0)
    start = time.monotonic()
    out = p.execute()
    assert time.monotonic() - start < 5, "EXEC blocked"
    assert out[0] in (None, []) and out[1] == "P1 3", out
    assert out[2][0][0] == "xm" and out[2][0][1][0][0] == "1-0", out


# ----------------------------------------------------------------- XINFO

@suite.case("xinfo_stream(): a game as a stream, first and last entries")
def _(t):
    r = client(t)
    r.execute_command("SNL.CREATE", "xi", 2)
    empty = r.xinfo_stream("xi")
    assert empty["length"] == 0 and empty["first-entry"] is None, empty
    r.execute_command("SNL.ROLL", "xi", 3)
    r.execute_command("SNL.ROLL", "xi", 5)
    info = r.xinfo_stream("xi")
    assert info["length"] == r.xlen("xi") == 2, info
    assert info["last-generated-id"] == "2-0" and info["groups"] == 0, info
    assert info["first-entry"] == ("1-0", {"player": "P1", "action": "3",
                                           "result": "P1 3"}), info
    assert info["last-entry"][0] == "2-0", info
    assert info["last-entry"] == r.xrevrange("xi", count=1)[0], info
    assert r.xinfo_groups("xi") == []
    e = error_of(lambda: r.xinfo_stream("nosuch"))
    assert e == "no such key", e


# --------------------------------------------------------------- MONITOR

@suite.case("monitor(): game commands shown, seat keys never")
def _(t):
    r = client(t)
    player = client(t)
    keys = player.execute_command("LUDO.CREATE", "mon", "red", "blue",
                                  "seats=secure")
    key = dict(k.split(",") for k in keys)["red"]
    with r.monitor() as m:
        player.execute_command("SEAT", "mon", "red", key)
        player.execute_command("LUDO.PLAY", "mon", "red", 6, 1)
        player.execute_command("ECHO", 'a "quoted"\nword')
        fresh = player.execute_command("SEAT.EXCHANGE", "mon", "red", key)
        seen = [m.next_command() for _ in range(4)]
    port = str(player.client_info()["addr"].rsplit(":", 1)[1])
    assert all(x["client_port"] == port and x["db"] == 0 for x in seen), seen
    assert seen[0]["command"] == "SEAT (redacted) (redacted) (redacted)", \
        seen[0]
    assert seen[1]["command"] == "LUDO.PLAY mon red 6 1", seen[1]
    assert seen[2]["command"] == 'ECHO a "quoted"\\nword', seen[2]
    assert seen[3]["command"] == \
        "SEAT.EXCHANGE (redacted) (redacted) (redacted)", seen[3]
    assert len(fresh) == 32 and fresh != key, fresh
    assert all(key not in x["command"] and fresh not in x["command"]
               for x in seen), seen
    assert abs(seen[1]["time"] - time.time()) < 60, seen[1]


# ------------------------------------------- CLIENT subcommands as no-ops

@suite.case("client_unpause(), client_getredir(), client_trackinginfo()")
def _(t):
    r = client(t)
    assert r.client_unpause() == "OK"
    assert r.client_getredir() == -1
    assert r.client_trackinginfo() == ["flags", ["off"], "redirect", -1,
                                       "prefixes", []]
    assert r.ping() is True


# ---------------------------------------------------------- MEMORY USAGE

@suite.case("memory_usage(): a game's bytes grow with its history")
def _(t):
    r = client(t)
    r.execute_command("DANDY.CREATE", "mem", 2, "abcd")
    before = r.memory_usage("mem")
    for i in range(40):
        r.execute_command("DANDY.DRAW", "mem", "abcd"[i % 4])
    after = r.memory_usage("mem", samples=0)
    assert isinstance(before, int) and before > 0, before
    assert after > before + 40 * 10, (before, after)
    assert r.memory_usage("mem") > before
    assert r.memory_usage("nosuch") is None


if __name__ == "__main__":
    suite.run()
