#!/usr/bin/env python3
"""redis-py (Debian's python3-redis, 4.3) against a real ludusd, through
the library's own API: execute_command, its helpers (ping, echo, info),
non-transactional pipelines, errors, and its reconnects after a restart
of the server.  Run by tests/clients/run, TAP on stdout.

The todo cases are what the library does that the server cannot answer
yet (MULTI/EXEC, pub/sub, streams, connection options); see
ludus_harness.py for how a todo case becomes a plain one.
"""

import signal
import threading
import time

from ludus_harness import Suite, require

redis = require("redis", "redis-py", "python3-redis")
from redis.backoff import ConstantBackoff  # noqa: E402
from redis.retry import Retry  # noqa: E402

suite = Suite("redis-py")

STATE0 = ["turn,red", "winner,NONE", "red,1,YARD,-1", "red,2,YARD,-1",
          "red,3,YARD,-1", "red,4,YARD,-1", "blue,1,YARD,-1",
          "blue,2,YARD,-1", "blue,3,YARD,-1", "blue,4,YARD,-1"]


def client(t, **kw):
    """A client of the suite's daemon, closed when the case ends."""
    kw.setdefault("decode_responses", True)
    kw.setdefault("socket_timeout", 10)
    r = redis.Redis(host="127.0.0.1", port=t.daemon.port, **kw)
    t.defer(r.close)
    return r


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
            skip=None if redis.__version__ >= "5" else
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


# ------------------------------------------- what the server lacks yet

@suite.case("pipeline() (MULTI/EXEC) commits its moves together")
def _(t):
    r = client(t)
    r.execute_command("LUDO.CREATE", "py-tx", "red", "blue")
    p = r.pipeline()
    p.execute_command("LUDO.PLAY", "py-tx", "red", 6, 1)
    p.execute_command("LUDO.PLAY", "py-tx", "red", 3, 1)
    assert p.execute() == ["MOVED", "MOVED"]


@suite.case("pubsub() receives a game's moves")
def _(t):
    r = client(t)
    r.execute_command("LUDO.CREATE", "py-ps", "red", "blue")
    ps = r.pubsub()
    t.defer(ps.close)
    ps.subscribe("py-ps")
    assert ps.get_message(timeout=2)["type"] == "subscribe"
    r.execute_command("LUDO.PLAY", "py-ps", "red", 6, 1)
    m = ps.get_message(timeout=2)
    assert m and m["type"] == "message" and m["data"] == "1,red,6:1,MOVED", m


@suite.case("xrange reads a game's history as a stream")
def _(t):
    r = client(t)
    r.execute_command("LUDO.CREATE", "py-x", "red", "blue")
    r.execute_command("LUDO.PLAY", "py-x", "red", 6, 1)
    assert r.xrange("py-x") == [
        ("1-0", {"player": "red", "action": "6:1", "result": "MOVED"})]


@suite.case("client_name= and select(0) on connect")
def _(t):
    r = client(t, client_name="py-client")
    assert r.client_getname() == "py-client"
    assert r.execute_command("SELECT", 0) is True  # redis-py: bool_ok


if __name__ == "__main__":
    suite.run()
