#!/usr/bin/env python3
"""redis-py (Debian's python3-redis) through ludusd's tls-port, with a
throwaway CA and certificates (tests/lib/certs.sh): ssl=True plays a game
and reads it back, the host name is checked, a wrong CA is refused, and
a certificate replaced on disk and SIGHUP is used by the next connection
while an old connection keeps working and keeps its certificate; a
reload that fails keeps the certificate in use; pubsub() gets a game's
moves as messages through TLS.  Run by
tests/clients/run, TAP on stdout.
"""

import hashlib
import os
import shutil
import signal
import ssl
import subprocess
import sys
import tempfile
import time

from ludus_harness import Suite, in_ci, pubsub_gets_a_move, require

redis = require("redis", "redis-py", "python3-redis")

if shutil.which("openssl") is None:
    if in_ci():
        print("not ok 1 - openssl not found # install: openssl")
        print("1..1")
        sys.exit(1)
    print("1..0 # SKIP openssl not found (install: openssl)")
    sys.exit(0)

HERE = os.path.dirname(os.path.abspath(__file__))
PKI = tempfile.mkdtemp(prefix="ludus-pki.")
subprocess.run(["sh", os.path.join(HERE, "..", "lib", "certs.sh"), PKI],
               check=True)
# The daemon reads copies, which a case replaces to make it reload.
CERT = os.path.join(PKI, "in-use.crt")
KEY = os.path.join(PKI, "in-use.key")
shutil.copy(os.path.join(PKI, "server.crt"), CERT)
shutil.copy(os.path.join(PKI, "server.key"), KEY)
CA = os.path.join(PKI, "ca.crt")
TLS_PORTFILE = os.path.join(PKI, "tls-port")

suite = Suite("redis-py TLS", "--tls-port", "any", "--tls-portfile",
              TLS_PORTFILE, "--tls-cert-file", CERT, "--tls-key-file", KEY)


def tls_port():
    """The daemon's TLS port, written before the port file it waits for
    (and again at a restart)."""
    with open(TLS_PORTFILE) as f:
        return int(f.read())


def client(t, host="127.0.0.1", **kw):
    """A TLS client of the suite's daemon, closed when the case ends."""
    kw.setdefault("decode_responses", True)
    kw.setdefault("socket_timeout", 10)
    kw.setdefault("ssl_ca_certs", CA)
    r = redis.Redis(host=host, port=tls_port(), ssl=True, **kw)
    t.defer(r.close)
    return r


def fingerprint(path):
    """The SHA-256 of a PEM certificate's DER form."""
    with open(path) as f:
        der = ssl.PEM_cert_to_DER_cert(f.read())
    return hashlib.sha256(der).hexdigest()


def served(r):
    """The fingerprint of the certificate r's one connection was shown."""
    der = r.connection._sock.getpeercert(binary_form=True)
    return hashlib.sha256(der).hexdigest()


def sighup_and_wait(t, line):
    """SIGHUP, then until the log has one more line containing line."""
    before = t.daemon.log_text().count(line)
    t.daemon.proc.send_signal(signal.SIGHUP)
    for _ in range(500):
        if t.daemon.log_text().count(line) > before:
            return
        time.sleep(0.01)
    raise AssertionError("no %r in the log:\n%s" % (line, t.daemon.log_text()))


@suite.case("ssl=True plays a game and reads it back")
def _(t):
    r = client(t)
    assert r.execute_command("LUDO.CREATE", "tls-1", "red", "blue") == "OK"
    assert r.execute_command("LUDO.PLAY", "tls-1", "red", 6, 1) == "MOVED"
    assert r.execute_command("LUDO.PLAY", "tls-1", "red", 3, 1) == "MOVED"
    assert r.execute_command("LUDO.PLAY", "tls-1", "blue", 4, 0) == "PASSED"
    assert r.execute_command("LUDO.STATE", "tls-1")[2] == "red,1,TRACK,3"
    assert r.execute_command("HISTORY", "tls-1") == [
        "1,red,6:1,MOVED", "2,red,3:1,MOVED", "3,blue,4:0,PASSED"]
    # A pipeline's replies come back in order through TLS too.
    p = r.pipeline(transaction=False)
    for _ in range(50):
        p.ping()
    assert p.execute() == [True] * 50


@suite.case("ssl_check_hostname: the certificate names localhost")
def _(t):
    r = client(t, host="localhost", ssl_check_hostname=True)
    assert r.ping()


@suite.case("a wrong CA is refused")
def _(t):
    r = client(t, ssl_ca_certs=os.path.join(PKI, "other-ca.crt"))
    try:
        r.ping()
    except redis.ConnectionError as e:
        assert "certificate verify failed" in str(e), e
        return
    raise AssertionError("connected with a wrong CA")


@suite.case("a certificate replaced and SIGHUP: the next connection uses "
            "it, an old one keeps working")
def _(t):
    old = client(t, single_connection_client=True)
    assert old.execute_command("LUDO.CREATE", "tls-hup", "red", "blue")
    assert served(old) == fingerprint(os.path.join(PKI, "server.crt"))
    shutil.copy(os.path.join(PKI, "server2.crt"), CERT)
    shutil.copy(os.path.join(PKI, "server2.key"), KEY)
    sighup_and_wait(t, "TLS certificates reloaded")
    new = client(t, single_connection_client=True)
    assert new.ping()
    assert served(new) == fingerprint(os.path.join(PKI, "server2.crt"))
    # The old connection is the same one, still served, its certificate
    # the old one.
    assert old.execute_command("LUDO.PLAY", "tls-hup", "red", 6, 1) == \
        "MOVED"
    assert served(old) == fingerprint(os.path.join(PKI, "server.crt"))


@suite.case("a reload that fails keeps the certificate in use")
def _(t):
    with open(KEY, "w") as f:
        f.write("not a key\n")
    sighup_and_wait(t, "TLS certificates not reloaded")
    assert "tls-key-file %s" % KEY in t.daemon.log_text()
    r = client(t, single_connection_client=True)
    assert r.ping()
    assert served(r) == fingerprint(os.path.join(PKI, "server2.crt"))
    shutil.copy(os.path.join(PKI, "server2.key"), KEY)


@suite.case("pubsub() receives a game's moves through TLS", limit=5)
def _(t):
    pubsub_gets_a_move(t, client(t), "tls-ps")


try:
    suite.run()
finally:
    shutil.rmtree(PKI, ignore_errors=True)
