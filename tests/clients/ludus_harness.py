"""The client-library suites' Python half: a real ludusd on a free
loopback port with a fresh database, which a case may restart or kill,
and a TAP runner whose cases are plain functions.

A suite is a list of cases; adding a test is adding a function:

    suite = Suite("redis-py")

    @suite.case("plain commands")
    def _(t):
        ...

    @suite.case("MULTI/EXEC", todo="the server has no MULTI yet")
    def _(t):
        ...

    suite.run()

Each case gets the suite's Daemon (t.daemon) and a time limit; an
exception or an assertion fails it.  A todo case is expected to fail
(TAP "# TODO"): Automake counts it XFAIL, and XPASS (a failure of the
suite) once the server does what it tests, so whoever builds the feature
turns the case into a plain one.
"""

import atexit
import ctypes
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import traceback

START_S = 20        # a daemon that has not written its port file by then
STOP_S = 15         # SIGTERM to exit; then SIGKILL
CASE_S = 30         # one case, unless it says otherwise
PR_SET_PDEATHSIG = 1


def in_ci():
    return os.environ.get("CI", "") not in ("", "0", "false", "no")


def require(module, what, package):
    """Imports module, or ends the suite: FAIL in CI, SKIP elsewhere."""
    try:
        return __import__(module)
    except ImportError as e:
        if in_ci():
            print("not ok 1 - %s: %s # install: %s" % (what, e, package))
            print("1..1")
            sys.exit(1)
        print("1..0 # SKIP %s not installed (install: %s)" % (what, package))
        sys.exit(0)


def redis_client(t, redis, **kw):
    """A redis-py client of the case's daemon, closed when the case ends."""
    kw.setdefault("decode_responses", True)
    kw.setdefault("socket_timeout", 10)
    r = redis.Redis(host="127.0.0.1", port=t.daemon.port, **kw)
    t.defer(r.close)
    return r


def pubsub_gets_a_move(t, r, game):
    """A redis-py client r's pubsub() subscribed to a new Ludo game gets
    its first move as a message (the plain and the TLS suites check it)."""
    r.execute_command("LUDO.CREATE", game, "red", "blue")
    ps = r.pubsub()
    t.defer(ps.close)
    ps.subscribe(game)
    assert ps.get_message(timeout=2)["type"] == "subscribe"
    r.execute_command("LUDO.PLAY", game, "red", 6, 1)
    m = ps.get_message(timeout=2)
    assert m and m["type"] == "message" and m["data"] == "1,red,6:1,MOVED", m


def _die_with_parent():
    # The daemon is killed if this process dies without cleaning up.  The
    # "parent" is the thread that started it: start daemons from the main
    # thread only.
    try:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG,
                                                 signal.SIGKILL)
    except (OSError, AttributeError):
        pass


class Daemon:
    """ludusd ($LUDUSD) in a temporary directory of its own."""

    def __init__(self, *extra):
        self.path = os.environ.get("LUDUSD") or os.path.join(
            os.environ.get("top_builddir", "."), "src", "ludusd")
        self.path = os.path.abspath(self.path)
        self.extra = list(extra)
        self.dir = tempfile.mkdtemp(prefix="ludus-clients.")
        self.db = os.path.join(self.dir, "games.db")
        self.log = os.path.join(self.dir, "ludusd.log")
        self.portfile = os.path.join(self.dir, "port")
        self.port = 0
        self.proc = None
        atexit.register(self.close)

    def start(self, port=0):
        """Starts it (port 0: any free one) and waits until it listens."""
        if os.path.exists(self.portfile):
            os.unlink(self.portfile)
        with open(self.log, "ab") as log:
            self.proc = subprocess.Popen(
                # No HTTP port: the default one (7421) would be shared
                # by the suites that run side by side under make -j.
                [self.path, "--bind", "127.0.0.1", "--port", str(port),
                 "--portfile", self.portfile, "--http-port", "0",
                 "--db", self.db] + self.extra,
                cwd=self.dir, stdin=subprocess.DEVNULL, stdout=log,
                stderr=log, preexec_fn=_die_with_parent)
        end = time.monotonic() + START_S
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                break
            try:
                with open(self.portfile) as f:
                    text = f.read().strip()
                if text:
                    self.port = int(text)
                    return self
            except FileNotFoundError:
                pass
            time.sleep(0.01)
        raise RuntimeError("ludusd did not start:\n" + self.log_text())

    def running(self):
        return self.proc is not None and self.proc.poll() is None

    def stop(self, sig=signal.SIGTERM):
        """Stops it with sig; its exit status (-n for a death by n)."""
        if self.proc is None:
            return 0
        self.proc.send_signal(sig)
        try:
            rc = self.proc.wait(STOP_S)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            rc = self.proc.wait()
        self.proc = None
        return rc

    def restart(self, sig=signal.SIGTERM):
        """Stops it (SIGTERM, or SIGKILL for a crash) and starts it again
        on the same port and database, as clients expect of a restart."""
        rc = self.stop(sig)
        if sig == signal.SIGTERM and rc != 0:
            raise RuntimeError("ludusd exited %d on SIGTERM:\n%s" %
                               (rc, self.log_text()))
        return self.start(self.port)

    def log_text(self):
        try:
            with open(self.log, errors="replace") as f:
                return f.read()[-4000:]
        except OSError:
            return "(no log)"

    def close(self):
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
            self.proc = None
        shutil.rmtree(self.dir, ignore_errors=True)


class CaseTimeout(Exception):
    pass


def _alarm(signum, frame):
    raise CaseTimeout("the case ran out of time")


class Case:
    def __init__(self, suite, limit):
        self.daemon = suite.daemon
        self.limit = limit
        self._cleanups = []

    def defer(self, fn, *args):
        """Runs fn(*args) when the case ends, pass or fail."""
        self._cleanups.append((fn, args))

    def _cleanup(self):
        for fn, args in reversed(self._cleanups):
            try:
                fn(*args)
            except Exception:
                pass


class Suite:
    def __init__(self, name, *daemon_flags):
        self.name = name
        self.flags = daemon_flags
        self.cases = []
        self.daemon = None

    def case(self, name, todo=None, skip=None, limit=CASE_S):
        def add(fn):
            self.cases.append((name, fn, todo, skip, limit))
            return fn
        return add

    def _one(self, n, name, fn, todo, limit):
        t = Case(self, limit)
        signal.signal(signal.SIGALRM, _alarm)
        signal.setitimer(signal.ITIMER_REAL, limit)
        err = None
        try:
            fn(t)
        except Exception:
            err = traceback.format_exc()
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            t._cleanup()
        if not self.daemon.running():
            # A case that failed half-way must not fail the next ones.
            print("# ludusd was down after the case: started again")
            self.daemon.start(self.daemon.port)
        directive = " # TODO %s" % todo if todo else ""
        print("%s %d - %s%s" % ("not ok" if err else "ok", n, name,
                                directive))
        if err:
            for line in err.rstrip().splitlines()[-12:]:
                print("# " + line)
        return err is None or todo is not None

    def run(self):
        self.daemon = Daemon(*self.flags).start()
        good = True
        n = 0
        for name, fn, todo, skip, limit in self.cases:
            n += 1
            if skip:
                print("ok %d - %s # SKIP %s" % (n, name, skip))
            else:
                good = self._one(n, name, fn, todo, limit) and good
            sys.stdout.flush()
        # A leak or a sanitizer report in the daemon shows in its status.
        n += 1
        rc = self.daemon.stop()
        print("%s %d - ludusd exits 0 on SIGTERM" %
              ("ok" if rc == 0 else "not ok", n))
        if rc != 0:
            good = False
            for line in self.daemon.log_text().splitlines()[-20:]:
                print("# " + line)
        print("1..%d" % n)
        self.daemon.close()
        sys.exit(0 if good else 1)
