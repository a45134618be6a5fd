/*
 * GET /metrics: the daemon's counters in Prometheus's text exposition
 * format (version 0.0.4), every name prefixed ludus_: the turns and the
 * commits of group commit, with histograms of the writes each COMMIT
 * made durable and of its time (from the end of the pass, pass_stats()),
 * conflicts, connections and subscribers of both protocols, what the
 * security checks and the quotas refused, the game cache, store errors,
 * and the games of each kind.  Counters end in
 * _total; a read of the store (the games) ends the open pass first, as
 * every HTTP read does.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "game/kind.h"
#include "http/http.h"
#include "net/conn.h"
#include "util/svg.h"

#define METRICS_TYPE	"text/plain; version=0.0.4; charset=utf-8"

/* # HELP and # TYPE of a metric, then its samples. */
static void
family(struct svg *o, const char *name, const char *type, const char *help)
{
	svg_printf(o, "# HELP ludus_%s %s\n# TYPE ludus_%s %s\n", name, help,
	    name, type);
}

static void
sample(struct svg *o, const char *name, const char *labels, uint64_t v)
{
	svg_printf(o, "ludus_%s%s %llu\n", name, labels,
	    (unsigned long long)v);
}

/* A family of one sample. */
static void
single(struct svg *o, const char *name, const char *type, const char *help,
    uint64_t v)
{
	family(o, name, type, help);
	sample(o, name, "", v);
}

/* A histogram of pass.c's, its bounds divided by scale (1e6: seconds). */
static void
histogram(struct svg *o, const char *name, const char *help,
    const struct pass_hist *h, double scale)
{
	uint64_t	 below = 0;
	size_t		 i;

	family(o, name, "histogram", help);
	for (i = 0; i < h->nbounds; i++) {
		below += h->counts[i];
		svg_printf(o, "ludus_%s_bucket{le=\"%g\"} %llu\n", name,
		    (double)h->bounds[i] / scale, (unsigned long long)below);
	}
	svg_printf(o, "ludus_%s_bucket{le=\"+Inf\"} %llu\n", name,
	    (unsigned long long)h->count);
	svg_printf(o, "ludus_%s_sum %.6f\n", name, (double)h->sum / scale);
	svg_printf(o, "ludus_%s_count %llu\n", name,
	    (unsigned long long)h->count);
}

static void
commits(struct svg *o, const struct server *srv)
{
	const struct cmd_env	*env = &srv->env;
	const struct pass_stats	*ps = pass_stats(srv);

	single(o, "turns_total", "counter", "Moves committed.", env->turns);
	single(o, "commits_total", "counter", "Transactions committed.",
	    env->commits);
	single(o, "batch_failures_total", "counter",
	    "Group commits whose COMMIT failed.", env->batch_failures);
	histogram(o, "batch_size", "Writes made durable by one COMMIT of "
	    "group commit.", &ps->writes, 1);
	histogram(o, "commit_duration_seconds", "Time of one COMMIT of group "
	    "commit, its fsync included.", &ps->usec, 1e6);
	single(o, "conflicts_total", "counter", "Requests whose COMMIT found "
	    "a row changed by another writer (INFO's conflicts).",
	    env->conflicts);
	single(o, "store_errors_total", "counter", "Store operations that "
	    "failed.", env->store_errors);
}

static void
clients(struct svg *o, const struct server *srv)
{
	struct http_events_stats es;
	const struct conn	*c;
	uint64_t		 watching = 0;

	TAILQ_FOREACH(c, &srv->conns, entry)
		if (c->nwatch > 0)
			watching++;
	http_events_stats(srv->http, &es);
	family(o, "connections", "gauge", "Client connections open now.");
	sample(o, "connections", "{protocol=\"resp\"}",
	    (uint64_t)srv->nclients);
	sample(o, "connections", "{protocol=\"http\"}",
	    (uint64_t)srv->http->nconns);
	single(o, "connections_received_total", "counter", "RESP connections "
	    "accepted.", srv->conns_total);
	single(o, "connections_rejected_total", "counter", "RESP connections "
	    "refused: one over maxclients.", srv->conns_rejected);
	single(o, "commands_total", "counter", "RESP commands run.",
	    srv->commands);
	single(o, "http_requests_total", "counter", "HTTP requests served.",
	    srv->http->requests);
	single(o, "http_refused_total", "counter", "HTTP requests refused by "
	    "the checks every request passes.", srv->http->refused);
	single(o, "http_writes_total", "counter", "Commands run for HTTP "
	    "writes.", srv->http->writes);
	family(o, "subscribers", "gauge", "Clients following games live.");
	sample(o, "subscribers", "{kind=\"watch\"}", watching);
	sample(o, "subscribers", "{kind=\"events\"}", es.open);
	single(o, "events_sent_total", "counter", "Server-Sent Events sent.",
	    es.sent);
	single(o, "events_dropped_total", "counter", "Event streams dropped: "
	    "a reader too slow.", es.dropped);
	single(o, "ticket_streams", "gauge", "HTTP streams waiting on a "
	    "ticket's match.", (uint64_t)http_tickets_open(srv->http));
}

/* What the security checks refused (doc/security.md): foreign
 * connections on the RESP port, the quotas' refusals by config key. */
static void
refusals(struct svg *o, const struct server *srv)
{
	char	 labels[64];
	int	 l;

	single(o, "foreign_closed_total", "counter", "Connections closed on "
	    "the RESP port for an HTTP request or a TLS handshake.",
	    srv->foreign_closed);
	single(o, "foreign_unlogged_total", "counter", "Of those, not logged: "
	    "over the log's rate.", quota_unlogged(srv));
	family(o, "limit_refused_total", "counter", "Requests refused by a "
	    "quota (-LIMIT, 429), by its config key.");
	for (l = 0; l < QUOTA_COUNT; l++) {
		snprintf(labels, sizeof labels, "{limit=\"%s\"}",
		    quota_name((enum quota_limit)l));
		sample(o, "limit_refused_total", labels, quota_refused(srv,
		    (enum quota_limit)l));
	}
}

static void
cache(struct svg *o, const struct server *srv)
{
	struct store_cache_stats cs;

	store_game_cache_stats(srv->env.store, &cs);
	single(o, "game_cache_hits_total", "counter", "Game loads answered "
	    "by the game cache.", cs.hits);
	single(o, "game_cache_misses_total", "counter", "Game loads that "
	    "read the rows.", cs.misses);
	single(o, "game_cache_games", "gauge", "Games in the game cache.",
	    (uint64_t)cs.used);
}

static void
games(struct svg *o, const int64_t counts[KIND_COUNT])
{
	char	 labels[64];
	int	 k;

	family(o, "games", "gauge", "Games stored, by kind.");
	for (k = KIND_NONE + 1; k < KIND_COUNT; k++) {
		snprintf(labels, sizeof labels, "{kind=\"%s\"}",
		    game_kind_name((enum game_kind)k));
		sample(o, "games", labels, (uint64_t)counts[k]);
	}
}

void
page_metrics(struct http_ctx *x)
{
	struct server	*srv = x->srv;
	struct svg	 o;
	int64_t		 counts[KIND_COUNT];

	if (http_query_none(x) == -1)
		return;
	http_reads_committed(srv);
	if (store_count_games(srv->env.store, counts) == STORE_ERR) {
		http_store_error(x);
		return;
	}
	svg_init(&o);
	commits(&o, srv);
	clients(&o, srv);
	refusals(&o, srv);
	cache(&o, srv);
	games(&o, counts);
	single(&o, "autoplay_games", "gauge", "Games the server has a move "
	    "armed for (bots, turn deadlines).", autoplay_pending(srv));
	single(&o, "uptime_seconds", "gauge", "Seconds since the start.",
	    (uint64_t)(time(NULL) - srv->started));
	http_reply(x, 200, METRICS_TYPE, "no-store", svg_str(&o), o.len);
	svg_free(&o);
}
