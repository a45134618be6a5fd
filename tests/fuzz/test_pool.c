/*
 * The command fuzzer's SQLite allocator (sqlite_pool.c) keeps what ASan
 * would catch in SQLite's memory (TAP): each case runs in a child that
 * installs the pool, then makes one bad access (a block read after its
 * free, a write past what was asked, a column's text read after its
 * statement is finalized); the child must die with ASan's report of a
 * use of poisoned memory.  The same child without the bad access must
 * exit 0, so that a case tells the pool from a child that dies anyway.
 * Without ASan the pool is not installed and there is nothing to check.
 */
#include <sys/types.h>
#include <sys/wait.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "sqlite_pool.h"

#define REPORT		"use-after-poison"

static volatile char	 sink;

/* A block read after sqlite3_free(). */
static void
read_freed(int bad)
{
	char	*p = sqlite3_malloc(100);

	if (p == NULL)
		exit(2);
	memset(p, 'x', 100);
	sqlite3_free(p);
	if (!bad)
		return;
	sink = ((volatile char *)p)[10];
}

/* A write one byte past what was asked, within the block's class (96:
 * SQLite rounds what it asks of the allocator up to 8 bytes). */
static void
write_past(int bad)
{
	volatile char	*p = sqlite3_malloc(96);

	if (p == NULL)
		exit(2);
	p[95] = 'x';
	if (bad)
		p[96] = 'x';
	sqlite3_free((void *)p);
}

/* A column's text kept past sqlite3_finalize(): longer than a lookaside
 * slot, so that it is the pool's. */
static void
text_after_finalize(int bad)
{
	sqlite3		*db;
	sqlite3_stmt	*st;
	const unsigned char *t;
	char		 c;

	if (sqlite3_open(":memory:", &db) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, "SELECT printf('%4000s', 'x')", -1, &st,
	    NULL) != SQLITE_OK || sqlite3_step(st) != SQLITE_ROW ||
	    (t = sqlite3_column_text(st, 0)) == NULL)
		exit(2);
	c = (char)t[2000];
	sqlite3_finalize(st);
	if (bad)
		c = ((volatile const unsigned char *)t)[2000];
	sink = c;
	sqlite3_close(db);
}

static const struct {
	const char	*what;
	void		(*run)(int);
} cases[] = {
	{ "a block read after its free", read_freed },
	{ "a write past what was asked", write_past },
	{ "a column's text read after its statement is finalized",
	  text_after_finalize },
};
#define NCASES	(sizeof(cases) / sizeof(cases[0]))

/* Runs case i in a child: 0 when it exited 0, else 1; what it wrote on
 * stderr in out. */
static int
child(size_t i, int bad, char *out, size_t outsz)
{
	int	 fd[2], status;
	size_t	 n = 0;
	ssize_t	 k;
	pid_t	 pid;

	fflush(stdout);
	if (pipe(fd) != 0 || (pid = fork()) == -1) {
		perror("test_pool");
		exit(1);
	}
	if (pid == 0) {
		close(fd[0]);
		dup2(fd[1], 2);
		sqlite_pool_install();
		cases[i].run(bad);
		exit(0);
	}
	close(fd[1]);
	while (n + 1 < outsz && (k = read(fd[0], out + n, outsz - n - 1)) > 0)
		n += (size_t)k;
	out[n] = '\0';
	close(fd[0]);
	if (waitpid(pid, &status, 0) != pid)
		return 1;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
}

int
main(void)
{
	static char	 out[65536];
	size_t		 i;
	int		 failed = 0, good, died;

#ifndef SQLITE_POOL_ASAN
	printf("1..0 # SKIP not built with AddressSanitizer: the pool is "
	    "not installed\n");
	return 0;
#endif
	printf("1..%zu\n", NCASES);
	for (i = 0; i < NCASES; i++) {
		good = child(i, 0, out, sizeof(out)) == 0;
		if (!good)
			printf("# without the bad access: %s\n", out);
		died = child(i, 1, out, sizeof(out)) != 0;
		if (good && died && strstr(out, REPORT) != NULL)
			printf("ok %zu - ASan reports %s\n", i + 1,
			    cases[i].what);
		else {
			printf("not ok %zu - ASan reports %s\n# %s, %s\n# %s\n",
			    i + 1, cases[i].what, good ? "the control exits 0" :
			    "the control failed", died ? "the case died" :
			    "the case exited 0", out);
			failed++;
		}
	}
	return failed > 0;
}
