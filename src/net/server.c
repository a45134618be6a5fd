/*
 * The server: listening sockets (the plain port and the TLS one), the
 * signals, the store shared by every connection, and the orderly stop.
 * On SIGTERM or SIGINT it stops accepting, lets every connection flush
 * the replies it owes (a move is committed before its reply is queued,
 * so nothing in flight is lost), waits at most shutdown-timeout seconds
 * for slow readers, then returns from the loop so that main closes the
 * store.
 */
#include <sys/types.h>
#include <sys/socket.h>

#include <netinet/in.h>
#include <arpa/inet.h>

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event2/event.h>
#include <event2/listener.h>

#include "net/conn.h"
#include "net/log.h"
#include "util/util.h"

#define ACCEPT_PAUSE_MS	100	/* out of descriptors: try again after */

static void
accept_cb(struct evconnlistener *l, evutil_socket_t fd, struct sockaddr *sa,
    int socklen, void *arg)
{
	(void)l;
	conn_accept(arg, fd, sa, socklen, CONN_PLAIN);
}

static void
accept_tls_cb(struct evconnlistener *l, evutil_socket_t fd,
    struct sockaddr *sa, int socklen, void *arg)
{
	(void)l;
	conn_accept(arg, fd, sa, socklen, CONN_TLS);
}

/* What a listener is for: its port (the one bound once known) and how
 * its clients talk. */
struct listen_kind {
	int			*port;
	evconnlistener_cb	 cb;
	const char		*what;		/* for the log: "", " (TLS)" */
};

static void
accept_resume_cb(evutil_socket_t fd, short what, void *arg)
{
	struct server	*srv = arg;
	int		 i;

	(void)fd;
	(void)what;
	for (i = 0; i < srv->nlisteners; i++)
		evconnlistener_enable(srv->listeners[i]);
}

/*
 * Out of file descriptors the listening socket stays readable and would
 * spin the loop: stop accepting for a moment instead.
 */
static void
accept_error_cb(struct evconnlistener *l, void *arg)
{
	struct server	*srv = arg;
	struct timeval	 tv = { 0, ACCEPT_PAUSE_MS * 1000 };
	int		 err = EVUTIL_SOCKET_ERROR(), i;

	(void)l;
	log_warning("accept: %s", evutil_socket_error_to_string(err));
	if (err != EMFILE && err != ENFILE && err != ENOBUFS && err != ENOMEM)
		return;
	for (i = 0; i < srv->nlisteners; i++)
		evconnlistener_disable(srv->listeners[i]);
	evtimer_add(srv->accept_timer, &tv);
}

static void
listeners_free(struct server *srv)
{
	int	 i;

	for (i = 0; i < srv->nlisteners; i++)
		evconnlistener_free(srv->listeners[i]);
	free(srv->listeners);
	srv->listeners = NULL;
	srv->nlisteners = 0;
}

static int
listen_addr(struct server *srv, const struct addrinfo *ai,
    const struct listen_kind *k, char *err, size_t errlen)
{
	struct evconnlistener	*l;
	char			 where[INET6_ADDRSTRLEN + 16];
	int			 fd;

	fd = listen_socket(ai, k->port, where, sizeof where, err, errlen);
	if (fd == -1)
		return -1;
	l = evconnlistener_new(srv->base, k->cb, srv,
	    LEV_OPT_CLOSE_ON_FREE | LEV_OPT_CLOSE_ON_EXEC, 0, fd);
	if (l == NULL) {
		snprintf(err, errlen, "cannot listen on %s: out of memory",
		    where);
		close(fd);
		return -1;
	}
	evconnlistener_set_error_cb(l, accept_error_cb);
	srv->listeners = xrealloc(srv->listeners,
	    (size_t)(srv->nlisteners + 1) * sizeof *srv->listeners);
	srv->listeners[srv->nlisteners++] = l;
	log_info("listening on %s%s", where, k->what);
	return 0;
}

/* Listens on every address a bind value names ("localhost": both). */
static int
listen_bind(struct server *srv, const char *host,
    const struct listen_kind *k, char *err, size_t errlen)
{
	struct addrinfo	 *res, *ai;

	if (listen_resolve(host, *k->port, &res, err, errlen) == -1)
		return -1;
	for (ai = res; ai != NULL; ai = ai->ai_next) {
		if (listen_addr(srv, ai, k, err, errlen) == -1) {
			freeaddrinfo(res);
			return -1;
		}
	}
	freeaddrinfo(res);
	return 0;
}

/* The addresses of bind on one port (0: any free one), unless off: the
 * port is left at 0 then. */
static int
listen_port(struct server *srv, int on, int want,
    const struct listen_kind *k)
{
	char	 err[512];
	int	 i;

	*k->port = on ? want : 0;
	for (i = 0; on && i < srv->cfg->nbind; i++) {
		if (listen_bind(srv, srv->cfg->bind[i], k, err, sizeof err) ==
		    -1) {
			log_warning("%s", err);
			return -1;
		}
	}
	return 0;
}

/*
 * Redis's protected mode: with no password, ludusd serves loopback
 * clients only.  It refuses to start, before it binds anything, rather
 * than listen where anyone may reach it, and says how to go on.  (HTTP
 * listens on the same addresses, after these.)
 */
static int
protected_refuses(struct server *srv)
{
	const struct config	*cfg = srv->cfg;
	char			 where[128], err[512];
	int			 rc, port;

	if (!cfg->protected_mode || auth_required(srv->auth))
		return 0;
	port = cfg->port != PORT_OFF ? cfg->port : cfg->tls_port;
	rc = listen_beyond_loopback(cfg->bind, cfg->nbind, port > 0 ? port : 0,
	    where, sizeof where, err, sizeof err);
	if (rc == 0)
		return 0;
	if (rc == -1) {
		log_warning("%s", err);
		return 1;
	}
	log_warning("refusing to listen on %s: protected mode is on and no "
	    "password is set.  Set one (requirepass PASSWORD in ludusd.conf, "
	    "or --requirepass PASSWORD; clients then AUTH), or listen on "
	    "loopback only (bind 127.0.0.1 ::1), or, if every client that can "
	    "reach %s is trusted, turn protected mode off (protected-mode "
	    "no)", where, where);
	return 1;
}

int
server_listen(struct server *srv)
{
	const struct config	*cfg = srv->cfg;
	const struct listen_kind plain = { &srv->port, accept_cb, "" };
	const struct listen_kind tls = { &srv->tls_port, accept_tls_cb,
	    " (TLS)" };

	if (protected_refuses(srv))
		return -1;
	if (listen_port(srv, cfg->port != PORT_OFF, cfg->port, &plain) == -1 ||
	    listen_port(srv, srv->tls != NULL, cfg->tls_port == TLS_PORT_ANY ?
	    0 : cfg->tls_port, &tls) == -1) {
		listeners_free(srv);
		return -1;
	}
	return 0;
}

/* ---------------------------------------------------------------- stop */

static void
stop_timeout_cb(evutil_socket_t fd, short what, void *arg)
{
	struct server	*srv = arg;

	(void)fd;
	(void)what;
	log_notice("%lld client(s) did not read their replies in time",
	    (long long)srv->nclients);
	event_base_loopbreak(srv->base);
}

static void
server_stop(struct server *srv, const char *why)
{
	struct timeval	 tv = { (time_t)srv->cfg->shutdown_timeout, 0 };
	struct conn	*c;

	if (srv->stopping) {
		log_notice("%s again: stopping now", why);
		event_base_loopbreak(srv->base);
		return;
	}
	srv->stopping = 1;
	log_notice("%s: shutting down (%lld clients)", why,
	    (long long)srv->nclients);
	/* The turns served so far commit (or fail) and their replies are
	 * queued before the connections start closing. */
	if (pass_writes(srv) > 0)
		log_info("%s: ending the open batch of %zu turn(s)", why,
		    pass_writes(srv));
	pass_barrier(srv);
	listeners_free(srv);
	TAILQ_FOREACH(c, &srv->conns, entry)
		conn_close_after_flush(c);
	if (TAILQ_EMPTY(&srv->conns))
		event_base_loopbreak(srv->base);
	else
		evtimer_add(srv->stop_timer, &tv);
}

void
server_conn_gone(struct server *srv)
{
	if (srv->stopping && TAILQ_EMPTY(&srv->conns))
		event_base_loopbreak(srv->base);
}

static void
signal_cb(evutil_socket_t sig, short what, void *arg)
{
	struct server	*srv = arg;

	(void)what;
	switch (sig) {
	case SIGHUP:
		if (log_reopen() == 0)
			log_notice("SIGHUP: log file reopened");
		tls_reload(srv);
		break;
	case SIGINT:
		server_stop(srv, "SIGINT");
		break;
	default:
		server_stop(srv, "SIGTERM");
		break;
	}
}

/* ---------------------------------------------------------------- life */

/*
 * The loop's timers on the precise monotonic clock.  libevent's default
 * on Linux is CLOCK_MONOTONIC_COARSE, up to a tick (4 ms here) behind:
 * a timer armed for bot-delay then fires up to a tick early, and a
 * server's move comes before its time by as much.  The precise clock
 * costs a vDSO read, and a timerfd, a turn of the loop.
 */
static struct event_base *
base_new(void)
{
	struct event_config	*ec;
	struct event_base	*base;

	if ((ec = event_config_new()) == NULL)
		return NULL;
	if (event_config_set_flag(ec, EVENT_BASE_FLAG_PRECISE_TIMER) != 0) {
		event_config_free(ec);
		return NULL;
	}
	base = event_base_new_with_config(ec);
	event_config_free(ec);
	return base;
}

int
server_init(struct server *srv, const struct config *cfg)
{
	char	 err[512];

	memset(srv, 0, sizeof *srv);
	srv->cfg = cfg;
	srv->maxclients = cfg->maxclients;
	srv->started = time(NULL);
	TAILQ_INIT(&srv->conns);
	TAILQ_INIT(&srv->wpend);
	if ((srv->base = base_new()) == NULL) {
		log_warning("cannot create the event loop");
		return -1;
	}
	srv->env.store = store_open(cfg->store != NULL ? cfg->store : cfg->db,
	    cfg->durability, err, sizeof err);
	if (srv->env.store == NULL) {
		log_warning("cannot open database %s: %s", cfg->db, err);
		return -1;
	}
	/* Waiting for another process's write lock (SQLite), or for a row
	 * another node is committing (PostgreSQL), stalls every client. */
	store_set_lock_wait(srv->env.store, (int)cfg->busy_timeout);
	if (store_set_game_cache(srv->env.store, cfg->game_cache) !=
	    STORE_OK) {
		log_warning("cannot set up the game cache: %s",
		    store_errmsg(srv->env.store));
		return -1;
	}
	/* First: the loop's priorities must be set before any event. */
	if (pass_init(srv) == -1) {
		log_warning("cannot set up group commit");
		return -1;
	}
	srv->watches = watch_registry_new();
	srv->pubsub = pubsub_new();
	srv->streams = streams_new();
	srv->env.on_move = watch_on_move;
	srv->env.on_move_arg = srv;
	srv->env.require_seats = cfg->require_seats;
	if ((srv->auth = auth_new(cfg->requirepass)) == NULL) {
		log_warning("cannot set up the password (libsodium)");
		return -1;
	}
	/* The quotas (quota.c): hooks of the command layer's creates. */
	quota_init(srv);
	srv->sig_term = evsignal_new(srv->base, SIGTERM, signal_cb, srv);
	srv->sig_int = evsignal_new(srv->base, SIGINT, signal_cb, srv);
	srv->sig_hup = evsignal_new(srv->base, SIGHUP, signal_cb, srv);
	srv->stop_timer = evtimer_new(srv->base, stop_timeout_cb, srv);
	srv->accept_timer = evtimer_new(srv->base, accept_resume_cb, srv);
	if (srv->sig_term == NULL || srv->sig_int == NULL ||
	    srv->sig_hup == NULL || srv->stop_timer == NULL ||
	    srv->accept_timer == NULL || evsignal_add(srv->sig_term, NULL) ||
	    evsignal_add(srv->sig_int, NULL) || evsignal_add(srv->sig_hup,
	    NULL)) {
		log_warning("cannot set up signal handling");
		return -1;
	}
	if (autoplay_init(srv) == -1 || tls_init(srv) == -1 ||
	    retire_init(srv) == -1)
		return -1;
	if (lobby_init(srv) == -1) {
		log_warning("cannot set up the matchmaker");
		return -1;
	}
	if (cluster_init(srv) == -1) {
		log_warning("cannot set up the feed of other nodes' moves");
		return -1;
	}
	return 0;
}

int
server_run(struct server *srv)
{
	if (event_base_dispatch(srv->base) == -1) {
		log_warning("the event loop failed");
		return 1;
	}
	return 0;
}

static void
event_drop(struct event **ev)
{
	if (*ev != NULL)
		event_free(*ev);
	*ev = NULL;
}

void
server_free(struct server *srv)
{
	struct conn	*c;

	/* Stopping: conn_free must not break a loop that is over. */
	srv->stopping = 1;
	/* An open transaction commits (its replies are released) before
	 * the connections go; the store closes after. */
	pass_barrier(srv);
	listeners_free(srv);
	while ((c = TAILQ_FIRST(&srv->conns)) != NULL)
		conn_free(c);
	retire_free(srv);
	backup_free();
	pass_free(srv);
	cluster_free(srv);
	lobby_free(srv);
	autoplay_free(srv);
	watch_registry_free(srv->watches);
	srv->watches = NULL;
	pubsub_free(srv->pubsub);
	srv->pubsub = NULL;
	streams_free(srv->streams);
	srv->streams = NULL;
	auth_free(srv->auth);
	srv->auth = NULL;
	quota_free(srv);
	if (srv->env.store != NULL) {
		store_close(srv->env.store);
		srv->env.store = NULL;
	}
	event_drop(&srv->sig_term);
	event_drop(&srv->sig_int);
	event_drop(&srv->sig_hup);
	event_drop(&srv->stop_timer);
	event_drop(&srv->accept_timer);
	tls_free(srv);
	resp_buf_free(&srv->enc);
	if (srv->base != NULL)
		event_base_free(srv->base);
	srv->base = NULL;
}
