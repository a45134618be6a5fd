/*
 * See pg_helper.h.
 */
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pg_helper.h"

const char *
pg_test_uri(void)
{
	const char	*uri = getenv("LUDUS_TEST_STORE");

	if (uri == NULL || (strncmp(uri, "postgresql://", 13) != 0 &&
	    strncmp(uri, "postgres://", 11) != 0))
		return NULL;
	return uri;
}

static int
run(const char *sql, int quiet)
{
	PGconn		*pc;
	PGresult	*r;
	int		 ok;

	if (pg_test_uri() == NULL)
		return 0;
	pc = PQconnectdb(pg_test_uri());
	if (PQstatus(pc) != CONNECTION_OK) {
		fprintf(stderr, "pg_helper: %s", PQerrorMessage(pc));
		PQfinish(pc);
		return -1;
	}
	r = PQexec(pc, sql);
	ok = PQresultStatus(r) == PGRES_COMMAND_OK ||
	    PQresultStatus(r) == PGRES_TUPLES_OK;
	if (!ok && !quiet)
		fprintf(stderr, "pg_helper: %s: %s", sql,
		    PQresultErrorMessage(r));
	PQclear(r);
	PQfinish(pc);
	return ok || quiet ? 0 : -1;
}

int
pg_test_empty(void)
{
	/* The bots' accounts are the schema's own: kept. */
	return run("SET client_min_messages = warning; TRUNCATE games,"
	    " players, tokens, jumps, history, meta, ludus_nodes, tickets,"
	    " ratings, game_accounts; DELETE FROM accounts WHERE bot IS NULL",
	    1);
}

int
pg_test_exec(const char *sql)
{
	return run(sql, 0);
}
