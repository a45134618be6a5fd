/*
 * Quotas: what one client may take of the server, so that a client that
 * means harm (or a program gone wrong) cannot fill the disk or the
 * memory for the others.  Each cap reached is refused with -LIMIT (over
 * HTTP, 429 LIMIT), changes nothing, and is counted: INFO's
 * limit_refused_*, /metrics's ludus_limit_refused_total{limit}.
 *
 *	create-rate		games a RESP connection may create a
 *	http-create-rate	minute, and an HTTP client (its peer
 *				address, an IPv6 one by its /64, since it
 *				may open a connection per request): a
 *				burst of that many, then one every minute
 *				/ the rate (a GCRA, util/rate.h); a create
 *				that makes nothing (a taken id) does not
 *				count.  Off for RESP unless set (protected
 *				mode and requirepass gate those clients),
 *				600 for HTTP.
 *	max-games		games in play (max-games-finished: stored)
 *				in all, counted from the store at the first
 *				create, then kept as creates succeed, and
 *				counted again after a store failure (a
 *				COMMIT that failed took creates back).
 *				Games finish, and are deleted, without the
 *				count hearing of it, and another process
 *				(ludus --db on the same file) makes games:
 *				a create that finds the count at the cap
 *				has the store count again, at most once in
 *				RECOUNT_US, before it is refused.  Off
 *				unless set.
 *	max-subscriptions	channels, patterns, GAME.WATCH games and the
 *				keys of an XREAD BLOCK of one connection:
 *				each costs the daemon memory while it lasts.
 *	multi-max-commands	commands one MULTI may queue (its queue is
 *				memory until EXEC).
 *	http-maxclients-per-address
 *				HTTP connections one peer (its address,
 *				or its /64) holds at once: the HTTP side
 *				(http_conn.c) counts each connection on
 *				its peer here, from its accept to its
 *				close, so that one address cannot take
 *				every slot of http-maxclients.
 *
 * A create's quota is asked by the command layer (env->create_admit,
 * once the create's words are checked, before the store is touched), for
 * the client the daemon says runs the command (quota_enter_*), the way
 * Redis knows its current client.
 *
 * And the log lines of what the security checks refuse (an HTTP request
 * or a TLS handshake on the RESP port, an HTTP request refused for its
 * Host, Origin or type), rate-limited as Redis limits its "possible
 * SECURITY ATTACK" line: a page that opens connections in a loop must
 * not fill the disk with them.  Per kind, LOG_BURST lines at once, then
 * one a second; the next line written says how many were left out.
 * Every refusal is made and counted all the same.
 */
#include <sys/types.h>
#include <sys/socket.h>

#include <netinet/in.h>
#include <arpa/inet.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "net/conn.h"
#include "net/log.h"
#include "util/idmap.h"
#include "util/rate.h"
#include "util/util.h"

#define MINUTE_US	(60LL * 1000 * 1000)
#define PEERS_KEPT	1024		/* HTTP peers before idle ones go */
#define LOG_BURST	10		/* refusals' log lines at once */
#define LOG_EVERY_US	(1000LL * 1000)	/* ... then one a second */
#define RECOUNT_US	(1000LL * 1000)	/* max-games counted again */

/* One HTTP peer (its address, or its /64): its create rate and the
 * connections it holds.  Kept while it holds any. */
struct quota_peer {
	struct rate	 rate;
	int64_t		 conns;
	char		 key[INET6_ADDRSTRLEN + 4];
};

struct quota {
	/* The client running commands: a RESP connection's rate, or an
	 * HTTP peer's key (looked up at its first create); neither: the
	 * server itself (a bot), which no rate limits. */
	struct rate	*rate;
	char		 peer[INET6_ADDRSTRLEN + 4];
	const char	*who;			/* for the log */
	int64_t		 retry_us;		/* of its last rate refusal */
	struct idmap	*peers;			/* key -> quota_peer */
	size_t		 sweep_at;		/* peers when idle ones go */
	int64_t		 games;			/* counted; -1: to count */
	uint64_t	 epoch;			/* store failures then */
	int64_t		 counted_us;		/* when */
	uint64_t	 refused[QUOTA_COUNT];
	struct rate	 log_rate[QUOTA_LOG_KINDS];	/* refusals' log */
	uint64_t	 log_left[QUOTA_LOG_KINDS];	/* ... left out */
	uint64_t	 unlogged;		/* foreign connections */
};

static const char *const names[QUOTA_COUNT] = {
	[QUOTA_CREATE_RATE] = "create-rate",
	[QUOTA_HTTP_CREATE_RATE] = "http-create-rate",
	[QUOTA_MAX_GAMES] = "max-games",
	[QUOTA_SUBSCRIPTIONS] = "max-subscriptions",
	[QUOTA_MULTI] = "multi-max-commands",
	[QUOTA_HTTP_PER_ADDRESS] = "http-maxclients-per-address",
};

static int64_t
now_us(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* A refusal: -LIMIT and the message in out (rejected: it read nothing
 * of the open transaction's), counted and logged (info). */
static void
refuse(struct server *srv, enum quota_limit l, const char *who,
    struct reply *out, const char *fmt, ...)
{
	va_list	 ap;
	char	 msg[256];

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	srv->quota->refused[l]++;
	log_info("%s: refused: %s", who != NULL ? who : "-", msg);
	reply_error(out, "LIMIT", "%s", msg);
	out->rejected = 1;
}

/* ------------------------------------------------------------ peers */

/* An HTTP peer's key: its address, an IPv6 one cut to its /64 (one
 * host usually has a whole /64), an IPv4-mapped one as IPv4. */
static void
peer_key(const char *addr, char *key, size_t len)
{
	struct in6_addr	 a;
	char		 buf[INET6_ADDRSTRLEN];

	if (inet_pton(AF_INET6, addr, &a) != 1) {
		str_copy(key, len, addr);
		return;
	}
	if (IN6_IS_ADDR_V4MAPPED(&a)) {
		inet_ntop(AF_INET, &a.s6_addr[12], buf, sizeof buf);
		str_copy(key, len, buf);
		return;
	}
	memset(&a.s6_addr[8], 0, 8);
	inet_ntop(AF_INET6, &a, buf, sizeof buf);
	snprintf(key, len, "%s/64", buf);
}

/* Drops the peers whose rate is whole again (a new one is the same)
 * and that hold no connection, once there are twice as many as after
 * the last time. */
static void
peers_sweep(struct quota *q, int64_t now)
{
	struct quota_peer	*p, **idle;
	size_t		 pos = 0, n = 0, i;

	if (idmap_count(q->peers) < q->sweep_at)
		return;
	idle = xcalloc(idmap_count(q->peers), sizeof *idle);
	while ((p = idmap_next(q->peers, &pos)) != NULL)
		if (p->conns == 0 && rate_idle(&p->rate, now))
			idle[n++] = p;
	for (i = 0; i < n; i++) {
		idmap_del(q->peers, idle[i]->key);
		free(idle[i]);
	}
	free(idle);
	q->sweep_at = 2 * idmap_count(q->peers);
	if (q->sweep_at < PEERS_KEPT)
		q->sweep_at = PEERS_KEPT;
}

/* The peer of that key, made when there is none. */
static struct quota_peer *
peer_get(struct quota *q, const char *key, int64_t now)
{
	struct quota_peer	*p;

	if ((p = idmap_get(q->peers, key)) == NULL) {
		peers_sweep(q, now);
		p = xcalloc(1, sizeof *p);
		str_copy(p->key, sizeof p->key, key);
		idmap_put(q->peers, p->key, p);
	}
	return p;
}

/* The rate of the client running commands; NULL: none applies. */
static struct rate *
current_rate(struct quota *q, int64_t now)
{
	if (q->rate != NULL || q->peer[0] == '\0')
		return q->rate;
	q->rate = &peer_get(q, q->peer, now)->rate;
	return q->rate;
}

/* ---------------------------------------------- HTTP peers' conns */

struct quota_peer *
quota_peer_open(struct server *srv, const char *addr, int64_t *held)
{
	struct quota_peer	*p;
	char			 key[INET6_ADDRSTRLEN + 4];

	peer_key(addr, key, sizeof key);
	p = peer_get(srv->quota, key, now_us());
	*held = ++p->conns;
	return p;
}

void
quota_peer_close(struct quota_peer *p)
{
	p->conns--;
}

void
quota_count(struct server *srv, enum quota_limit l)
{
	srv->quota->refused[l]++;
}

/* ----------------------------------------------------------- creates */

/* The games max-games counts (see above); -1 if the store cannot say. */
static int64_t
games_counted(struct server *srv, int64_t now)
{
	struct quota	*q = srv->quota;
	uint64_t	 epoch = srv->env.batch_failures + srv->env.store_errors;
	int64_t		 n[KIND_COUNT];
	int		 rc;

	if (q->games >= 0 && q->epoch == epoch)
		return q->games;
	if (srv->cfg->max_games_finished) {
		rc = store_count_games(srv->env.store, n);
		q->games = n[KIND_NONE];
	} else
		rc = store_count_in_play(srv->env.store, &q->games);
	if (rc != STORE_OK) {
		q->games = -1;
		log_warning("max-games: cannot count the games: %s",
		    store_errmsg(srv->env.store));
		return -1;
	}
	q->epoch = epoch;
	q->counted_us = now;
	return q->games;
}

/* A create would take the games over max-games. */
static int
over_max_games(struct server *srv, int64_t now)
{
	struct quota	*q = srv->quota;
	int64_t		 cap = srv->cfg->max_games;

	if (cap == 0 || games_counted(srv, now) < cap)
		return 0;
	if (now - q->counted_us >= RECOUNT_US) {
		q->games = -1;
		return games_counted(srv, now) >= cap;
	}
	return 1;
}

/* The rate of the client running commands (NULL: none), and its cap. */
static struct rate *
client_rate(struct server *srv, int64_t now, int64_t *cap,
    enum quota_limit *l)
{
	struct quota	*q = srv->quota;

	*l = q->peer[0] != '\0' ? QUOTA_HTTP_CREATE_RATE : QUOTA_CREATE_RATE;
	*cap = *l == QUOTA_HTTP_CREATE_RATE ? srv->cfg->http_create_rate :
	    srv->cfg->create_rate;
	return *cap == 0 ? NULL : current_rate(q, now);
}

/* env->create_admit: max-games, then the client's create rate (which a
 * refusal of the first does not spend). */
static int
create_admit(void *arg, struct reply *out)
{
	struct server		*srv = arg;
	struct quota		*q = srv->quota;
	enum quota_limit	 l;
	struct rate		*r;
	int64_t			 now = now_us(), wait, cap;

	if (over_max_games(srv, now)) {
		refuse(srv, QUOTA_MAX_GAMES, q->who, out, "max number of games "
		    "reached (max-games %lld)", (long long)srv->cfg->max_games);
		return -1;
	}
	if ((r = client_rate(srv, now, &cap, &l)) == NULL ||
	    rate_take(r, now, MINUTE_US / cap, cap, &wait))
		return 0;
	q->retry_us = wait;
	refuse(srv, l, q->who, out, "max number of games created a minute "
	    "reached (%s %lld): try again in %lld s", names[l],
	    (long long)cap, (long long)(wait + 999999) / 1000000);
	return -1;
}

/* env->created: one more game stored; or none, and the create rate it
 * took is given back (a create of a taken id makes nothing). */
static void
created(void *arg, int made)
{
	struct server		*srv = arg;
	struct quota		*q = srv->quota;
	enum quota_limit	 l;
	struct rate		*r;
	int64_t			 cap;

	if (made && q->games >= 0)
		q->games++;
	else if (!made && (r = client_rate(srv, now_us(), &cap, &l)) != NULL)
		rate_give_back(r, MINUTE_US / cap);
}

/* The lobby's: accounts and tickets, on the same create rate as games
 * (each is a row a client makes; max-games has no part in it), the
 * RESP connection's create-rate or the HTTP address's
 * http-create-rate. */
int
quota_lobby_admit(struct server *srv, struct reply *out)
{
	struct quota		*q = srv->quota;
	enum quota_limit	 l;
	struct rate		*r;
	int64_t			 now = now_us(), wait, cap;

	if ((r = client_rate(srv, now, &cap, &l)) == NULL ||
	    rate_take(r, now, MINUTE_US / cap, cap, &wait))
		return 0;
	q->retry_us = wait;
	refuse(srv, l, q->who, out, "max number of games, accounts and "
	    "tickets made a minute reached (%s %lld): try again in %lld s",
	    names[l], (long long)cap, (long long)(wait + 999999) / 1000000);
	return -1;
}

void
quota_lobby_made(struct server *srv, int ok)
{
	enum quota_limit	 l;
	struct rate		*r;
	int64_t			 cap;

	if (!ok && (r = client_rate(srv, now_us(), &cap, &l)) != NULL)
		rate_give_back(r, MINUTE_US / cap);
}

void
quota_enter_conn(struct server *srv, struct conn *c)
{
	srv->quota->rate = &c->create_rate;
	srv->quota->peer[0] = '\0';
	srv->quota->who = c->addr;
	srv->quota->retry_us = 0;
}

void
quota_enter_peer(struct server *srv, const char *addr)
{
	struct quota	*q = srv->quota;

	q->rate = NULL;
	peer_key(addr, q->peer, sizeof q->peer);
	q->who = q->peer;
	q->retry_us = 0;
}

void
quota_leave(struct server *srv)
{
	srv->quota->rate = NULL;
	srv->quota->peer[0] = '\0';
	srv->quota->who = NULL;
}

int64_t
quota_retry_after(const struct server *srv)
{
	return (srv->quota->retry_us + 999999) / 1000000;
}

/* ------------------------------------------------ connections' caps */

int
quota_subscribe(struct conn *c, int64_t more, struct reply *err)
{
	int64_t	 cap = c->srv->cfg->max_subscriptions;
	int64_t	 have = (int64_t)c->nchannels + c->npatterns + c->nwatch;

	if (cap == 0 || more <= 0 || have + more <= cap)
		return 0;
	refuse(c->srv, QUOTA_SUBSCRIPTIONS, c->addr, err, "max number of "
	    "subscriptions reached (max-subscriptions %lld)", (long long)cap);
	return -1;
}

int
quota_queue(struct conn *c, size_t queued, struct reply *err)
{
	int64_t	 cap = c->srv->cfg->multi_max_commands;

	if ((int64_t)queued < cap)
		return 0;
	refuse(c->srv, QUOTA_MULTI, c->addr, err, "max number of queued "
	    "commands reached (multi-max-commands %lld)", (long long)cap);
	return -1;
}

/* ------------------------------------------------------- foreign log */

int
quota_log(struct server *srv, enum quota_log kind, uint64_t *left)
{
	struct quota	*q = srv->quota;

	if (!rate_take(&q->log_rate[kind], now_us(), LOG_EVERY_US, LOG_BURST,
	    NULL)) {
		q->log_left[kind]++;
		q->unlogged += kind != QUOTA_LOG_WEB;
		return 0;
	}
	*left = q->log_left[kind];
	q->log_left[kind] = 0;
	return 1;
}

/* ---------------------------------------------------------- counters */

const char *
quota_name(enum quota_limit l)
{
	return names[l];
}

uint64_t
quota_refused(const struct server *srv, enum quota_limit l)
{
	return srv->quota->refused[l];
}

uint64_t
quota_unlogged(const struct server *srv)
{
	return srv->quota->unlogged;
}

void
quota_reset_stats(struct server *srv)
{
	memset(srv->quota->refused, 0, sizeof srv->quota->refused);
	srv->quota->unlogged = 0;
}

/* -------------------------------------------------------------- life */

void
quota_init(struct server *srv)
{
	struct quota	*q = xcalloc(1, sizeof *q);

	q->peers = idmap_new();
	q->sweep_at = PEERS_KEPT;
	q->games = -1;
	srv->quota = q;
	srv->env.create_admit = create_admit;
	srv->env.created = created;
	srv->env.quota_arg = srv;
}

void
quota_free(struct server *srv)
{
	struct quota	*q = srv->quota;
	struct quota_peer	*p;
	size_t		 pos = 0;

	if (q == NULL)
		return;
	while ((p = idmap_next(q->peers, &pos)) != NULL)
		free(p);
	idmap_free(q->peers);
	free(q);
	srv->quota = NULL;
	srv->env.create_admit = NULL;
	srv->env.created = NULL;
}
