/*
 * INFO, as Redis writes it: "# Section" lines and "field:value" lines,
 * CRLF-ended, every section unless some are named.  The fields are
 * ludusd's, plus those of Redis's that tools read (redis-cli --stat:
 * used_memory, blocked_clients, the "# Keyspace" section's keys; the
 * libraries: redis_version), each with what it means here.
 */
#include <sys/types.h>

#include <malloc.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cmd/cmd_lobby.h"
#include "net/conn.h"
#include "net/log.h"
#include "util/util.h"

/* The Redis release whose replies these are. */
#define REDIS_VERSION	"7.2.0"

static long long	rss_bytes(void);

/* A reply built here, sent, and freed. */
static void
send_reply(struct conn *c, struct reply *r)
{
	conn_reply(c, r);
	reply_free(r);
}

struct text {
	char	*s;
	size_t	 len;
};

static void
text_add(struct text *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void
text_add(struct text *t, const char *fmt, ...)
{
	va_list	 ap;
	char	*line;
	int	 n;

	va_start(ap, fmt);
	n = vasprintf(&line, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	t->s = xrealloc(t->s, t->len + (size_t)n + 3);
	memcpy(t->s + t->len, line, (size_t)n);
	t->len += (size_t)n;
	memcpy(t->s + t->len, "\r\n", 3);
	t->len += 2;
	free(line);
}

static void
info_server(struct conn *c, struct text *t)
{
	struct server	*srv = c->srv;
	time_t		 up = time(NULL) - srv->started;

	text_add(t, "# Server");
	/* The Redis whose commands and replies ludusd answers as Redis
	 * does (HELLO 3, CLIENT SETINFO): tools read it to choose. */
	text_add(t, "redis_version:%s", REDIS_VERSION);
	text_add(t, "ludus_version:%s", PACKAGE_VERSION);
	text_add(t, "process_id:%ld", (long)getpid());
	text_add(t, "tcp_port:%d", srv->port);
	text_add(t, "uptime_in_seconds:%lld", (long long)up);
	text_add(t, "uptime_in_days:%lld", (long long)up / 86400);
}

static void
info_clients(struct conn *c, struct text *t)
{
	struct server	*srv = c->srv;
	struct conn	*o;
	int64_t		 watching = 0, blocked = 0;

	TAILQ_FOREACH(o, &srv->conns, entry) {
		if (o->nwatch > 0)
			watching++;
		if (stream_blocked(o))
			blocked++;
	}
	text_add(t, "# Clients");
	text_add(t, "connected_clients:%lld", (long long)srv->nclients);
	text_add(t, "watching_clients:%lld", (long long)watching);
	text_add(t, "watched_games:%llu",
	    (unsigned long long)watch_games(srv));
	text_add(t, "maxclients:%lld", (long long)srv->maxclients);
	text_add(t, "blocked_clients:%lld", (long long)blocked);
}

/* What the security checks refused: foreign connections (an HTTP
 * request or a TLS handshake on the RESP port, sniff.h), those left out
 * of the log, and each quota's refusals (limit_refused_create_rate ...). */
static void
info_refusals(struct server *srv, struct text *t)
{
	char	 name[64];
	size_t	 i;
	int	 l;

	text_add(t, "foreign_connections_closed:%llu",
	    (unsigned long long)srv->foreign_closed);
	text_add(t, "foreign_connections_unlogged:%llu",
	    (unsigned long long)quota_unlogged(srv));
	for (l = 0; l < QUOTA_COUNT; l++) {
		str_copy(name, sizeof name, quota_name((enum quota_limit)l));
		for (i = 0; name[i] != '\0'; i++)
			if (name[i] == '-')
				name[i] = '_';
		text_add(t, "limit_refused_%s:%llu", name,
		    (unsigned long long)quota_refused(srv,
		    (enum quota_limit)l));
	}
}

static void
info_stats(struct conn *c, struct text *t)
{
	struct server	*srv = c->srv;

	text_add(t, "# Stats");
	text_add(t, "total_connections_received:%llu",
	    (unsigned long long)srv->conns_total);
	text_add(t, "rejected_connections:%llu",
	    (unsigned long long)srv->conns_rejected);
	text_add(t, "total_commands_processed:%llu",
	    (unsigned long long)srv->commands);
	text_add(t, "turns_committed:%llu",
	    (unsigned long long)srv->env.turns);
	text_add(t, "games_finished:%llu",
	    (unsigned long long)srv->env.finished);
	text_add(t, "commits:%llu", (unsigned long long)srv->env.commits);
	text_add(t, "batches:%llu", (unsigned long long)srv->env.batches);
	text_add(t, "batch_failures:%llu",
	    (unsigned long long)srv->env.batch_failures);
	text_add(t, "conflicts:%llu", (unsigned long long)srv->env.conflicts);
	text_add(t, "largest_batch:%llu",
	    (unsigned long long)srv->env.batch_max);
	text_add(t, "batch_max_turns:%lld",
	    (long long)srv->cfg->batch_max_turns);
	text_add(t, "batch_max_usec:%lld",
	    (long long)srv->cfg->batch_max_usec);
	text_add(t, "total_net_input_bytes:%llu",
	    (unsigned long long)srv->bytes_in);
	text_add(t, "total_net_output_bytes:%llu",
	    (unsigned long long)srv->bytes_out);
	text_add(t, "protocol_errors:%llu",
	    (unsigned long long)srv->proto_errors);
	info_refusals(srv, t);
}

static void
info_persistence(struct conn *c, struct text *t)
{
	struct server		*srv = c->srv;
	struct store_cache_stats cs;
	struct backup_stats	 bs;

	text_add(t, "# Persistence");
	text_add(t, "db:%s", srv->cfg->db);
	text_add(t, "durability:%s", durability_name(srv->cfg->durability));
	text_add(t, "schema_version:%lld",
	    (long long)store_schema_version(srv->env.store));
	text_add(t, "finished_retention:%lld",
	    (long long)srv->cfg->finished_retention);
	text_add(t, "retired_games:%llu",
	    (unsigned long long)retire_stats(srv)->retired);
	text_add(t, "retire_pace:%d", retire_stats(srv)->pace);
	text_add(t, "games_finishing_per_sec:%llu",
	    (unsigned long long)retire_stats(srv)->finish_rate);
	text_add(t, "retire_archives:%llu",
	    (unsigned long long)retire_stats(srv)->archives);
	text_add(t, "reclaimed_pages:%llu",
	    (unsigned long long)retire_stats(srv)->reclaimed);
	text_add(t, "free_pages:%lld",
	    (long long)retire_stats(srv)->free_pages);
	backup_stats(&bs);
	text_add(t, "backup_in_progress:%d", bs.running);
	text_add(t, "backups:%llu", (unsigned long long)bs.count);
	text_add(t, "backup_last_status:%s", bs.last_ok < 0 ? "none" :
	    bs.last_ok ? "ok" : "err");
	text_add(t, "backup_last_seconds:%.3f", bs.last_secs);
	text_add(t, "store_size:%lld", (long long)store_size(srv->env.store));
	text_add(t, "store_errors:%llu",
	    (unsigned long long)srv->env.store_errors);
	store_game_cache_stats(srv->env.store, &cs);
	text_add(t, "game_cache:%lld", (long long)cs.games);
	text_add(t, "game_cache_used:%lld", (long long)cs.used);
	text_add(t, "game_cache_hits:%llu", (unsigned long long)cs.hits);
	text_add(t, "game_cache_misses:%llu",
	    (unsigned long long)cs.misses);
	text_add(t, "game_cache_flushes:%llu",
	    (unsigned long long)cs.flushes);
	text_add(t, "game_cache_mismatches:%llu",
	    (unsigned long long)cs.mismatches);
	text_add(t, "game_cache_oversize:%llu",
	    (unsigned long long)cs.oversize);
}

/*
 * The bytes the daemon has allocated (glibc's count, which Redis's
 * used_memory is to its allocator), else its resident size: also when
 * glibc counts nothing, as under an allocator of its own (a sanitizer's
 * replaces malloc, and mallinfo2() then says 0).  -1 when neither can be
 * known.
 */
static long long
used_memory(void)
{
#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 33)
	struct mallinfo2	 mi = mallinfo2();

	if (mi.uordblks + mi.hblkhd > 0)
		return (long long)(mi.uordblks + mi.hblkhd);
#endif
	return rss_bytes();
}

/* The resident size, from /proc (Linux); -1 elsewhere. */
static long long
rss_bytes(void)
{
	FILE		*f;
	long long	 size, rss = -1;
	long		 page = sysconf(_SC_PAGESIZE);

	if ((f = fopen("/proc/self/statm", "r")) == NULL)
		return -1;
	if (fscanf(f, "%lld %lld", &size, &rss) != 2 || page <= 0)
		rss = -1;
	else
		rss *= page;
	fclose(f);
	return rss;
}

static void
human(char *buf, size_t len, long long n)
{
	if (n >= 1024LL * 1024 * 1024)
		snprintf(buf, len, "%.2fG", (double)n / (1024.0 * 1024 * 1024));
	else if (n >= 1024 * 1024)
		snprintf(buf, len, "%.2fM", (double)n / (1024.0 * 1024));
	else if (n >= 1024)
		snprintf(buf, len, "%.2fK", (double)n / 1024.0);
	else
		snprintf(buf, len, "%lldB", n);
}

static void
info_memory(struct conn *c, struct text *t)
{
	long long	 used = used_memory(), rss = rss_bytes();
	char		 h[32];

	(void)c;
	text_add(t, "# Memory");
	if (used >= 0) {
		text_add(t, "used_memory:%lld", used);
		human(h, sizeof h, used);
		text_add(t, "used_memory_human:%s", h);
	}
	if (rss >= 0)
		text_add(t, "used_memory_rss:%lld", rss);
}

/* The games of each kind, and in all; -1 and why when the store fails. */
static int64_t
count_games(struct conn *c, int64_t n[KIND_COUNT])
{
	int64_t	 total = 0;
	int	 k;

	memset(n, 0, sizeof(int64_t) * KIND_COUNT);
	if (store_count_games(c->srv->env.store, n) != STORE_OK)
		return -1;
	for (k = KIND_NONE + 1; k < KIND_COUNT; k++)
		total += n[k];
	return total;
}

static void
info_games(struct conn *c, struct text *t)
{
	int64_t	 n[KIND_COUNT], total;
	int	 k;

	text_add(t, "# Games");
	if ((total = count_games(c, n)) == -1) {
		text_add(t, "games_error:%s",
		    store_errmsg(c->srv->env.store));
		return;
	}
	for (k = KIND_NONE + 1; k < KIND_COUNT; k++)
		text_add(t, "games_%s:%lld", game_kind_name((enum game_kind)k),
		    (long long)n[k]);
	text_add(t, "games_total:%lld", (long long)total);
	/* Games with a bot to move or a turn deadline armed. */
	text_add(t, "games_autoplay:%zu", autoplay_pending(c->srv));
}

/* Redis's view of the games: one database, whose keys they are (as SCAN
 * and DBSIZE see them); nothing expires.  No line when it is empty, as
 * Redis writes it. */
static void
info_keyspace(struct conn *c, struct text *t)
{
	int64_t	 n[KIND_COUNT], total;

	text_add(t, "# Keyspace");
	if ((total = count_games(c, n)) > 0)
		text_add(t, "db0:keys=%lld,expires=0,avg_ttl=0",
		    (long long)total);
}

/* The matchmaker: what its commits announced, what this node runs. */
static void
info_lobby(struct conn *c, struct text *t)
{
	const struct cmd_lobby	*l;
	struct lobby_stats	 st;

	text_add(t, "# Lobby");
	if ((l = lobby_stats(c->srv, &st)) == NULL)
		return;
	text_add(t, "tickets_joined:%llu", (unsigned long long)l->joined);
	text_add(t, "tickets_matched:%llu", (unsigned long long)l->matched);
	text_add(t, "games_matched:%llu", (unsigned long long)l->games);
	text_add(t, "match_runs:%llu", (unsigned long long)st.runs);
	text_add(t, "match_waits:%llu", (unsigned long long)st.waits);
	text_add(t, "match_waited_tickets:%zu", st.waited);
	text_add(t, "match_queues:%zu", st.queues);
	text_add(t, "match_queues_held:%zu", st.held);
}

static const struct {
	const char	*name;
	void		(*fn)(struct conn *, struct text *);
} info_sections[] = {
	{ "server", info_server },
	{ "clients", info_clients },
	{ "stats", info_stats },
	{ "memory", info_memory },
	{ "persistence", info_persistence },
	{ "games", info_games },
	{ "lobby", info_lobby },
	{ "keyspace", info_keyspace },
};

/* INFO [section ...]: every section when none is named.  A barrier:
 * its counters and game counts are then exact. */
static const struct cmd_arg info_args[] = { CMD_ARG_STR_ANY("section") };

static int
info_wanted(const struct cmd_parsed *p, const char *section)
{
	const char	*w;
	int		 i;

	if (p->v[0].n == 0)
		return 1;
	for (i = 0; i < p->v[0].n; i++) {
		w = cmd_word(p, 0, i);
		if (strcaseeq(w, section) || strcaseeq(w, "all") ||
		    strcaseeq(w, "default") || strcaseeq(w, "everything"))
			return 1;
	}
	return 0;
}

static void
info_cmd(struct conn *c, const struct cmd_parsed *a)
{
	struct text	 t = { NULL, 0 };
	struct reply	 r = { 0 };
	size_t		 i;

	for (i = 0; i < sizeof info_sections / sizeof info_sections[0]; i++) {
		if (!info_wanted(a, info_sections[i].name))
			continue;
		if (t.len > 0)
			text_add(&t, "%s", "");
		info_sections[i].fn(c, &t);
	}
	reply_bulk(&r, t.s != NULL ? t.s : "", t.len);
	free(t.s);
	send_reply(c, &r);
}

const struct cmd_def conn_info_entry = { .name = "INFO",
    .spec = CMD_ARGS(info_args, 0),
    .flags = CMD_READONLY | CMD_BARRIER | CMD_NO_MULTI, .conn = info_cmd };

