/*
 * The replay driver: a plain main() for the fuzz harnesses, so that
 * `make check` runs every seed and every crash ever found through the same
 * code and checks without clang or libFuzzer.
 *
 *	replay_NAME [file | directory] ...
 *
 * feeds each file (each regular file of a directory, in name order) to
 * LLVMFuzzerTestOneInput() and prints TAP: the plan first, then
 * "# file" before and "ok N - file" after each.  A broken invariant
 * aborts, which the TAP driver reports as an error (too few tests run);
 * the last "# file" in the log names the input.
 *
 * Without arguments it replays $top_srcdir/tests/fuzz/corpus/NAME and
 * $top_srcdir/tests/fuzz/regress/NAME (NAME compiled in as FUZZ_NAME),
 * which is how `make check` runs it.  Names starting with a dot or with
 * "README" are not inputs.
 */
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "util/util.h"

#ifndef FUZZ_NAME
#error "FUZZ_NAME must name the harness (\"resp\", \"cmd\", \"engine\")"
#endif

/* Bigger than any input worth keeping (libFuzzer's -max_len is 4096). */
#define FILE_MAX	(16 * 1024 * 1024)

struct list {
	char	**path;
	size_t	  n;
	size_t	  cap;
};

static void
list_add(struct list *l, char *path)
{
	if (l->n == l->cap) {
		l->cap = l->cap == 0 ? 64 : l->cap * 2;
		l->path = xrealloc(l->path, l->cap * sizeof(*l->path));
	}
	l->path[l->n++] = path;
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int
skipped(const char *name)
{
	return name[0] == '.' || strncmp(name, "README", 6) == 0;
}

/* Adds a file, or the regular files of a directory in name order. */
static int
collect(struct list *l, const char *arg)
{
	struct stat	 sb;
	struct dirent	*de;
	DIR		*d;
	struct list	 sub = { NULL, 0, 0 };
	char		*path;
	size_t		 i;

	if (stat(arg, &sb) == -1) {
		fprintf(stderr, "replay: %s: %s\n", arg, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(sb.st_mode)) {
		list_add(l, xstrdup(arg));
		return 0;
	}
	if ((d = opendir(arg)) == NULL) {
		fprintf(stderr, "replay: %s: %s\n", arg, strerror(errno));
		return -1;
	}
	while ((de = readdir(d)) != NULL) {
		if (skipped(de->d_name))
			continue;
		xasprintf(&path, "%s/%s", arg, de->d_name);
		if (stat(path, &sb) == 0 && S_ISREG(sb.st_mode))
			list_add(&sub, path);
		else
			free(path);
	}
	closedir(d);
	if (sub.n > 0)
		qsort(sub.path, sub.n, sizeof(*sub.path), cmp_str);
	for (i = 0; i < sub.n; i++)
		list_add(l, sub.path[i]);
	free(sub.path);
	return 0;
}

/* Reads a whole file into a buffer of exactly its size; NULL on error. */
static uint8_t *
slurp(const char *path, size_t *len)
{
	struct stat	 sb;
	FILE		*f;
	uint8_t		*buf;
	size_t		 n;

	if ((f = fopen(path, "rb")) == NULL)
		return NULL;
	if (fstat(fileno(f), &sb) == -1 || sb.st_size > FILE_MAX) {
		fclose(f);
		errno = EFBIG;	/* or fstat failed on an open file */
		return NULL;
	}
	n = (size_t)sb.st_size;
	/* Exact size (at least one byte), so ASan sees a read past it. */
	buf = xmalloc(n > 0 ? n : 1);
	if (fread(buf, 1, n, f) != n) {
		errno = EIO;
		fclose(f);
		free(buf);
		return NULL;
	}
	fclose(f);
	*len = n;
	return buf;
}

int
main(int argc, char **argv)
{
	struct list	 l = { NULL, 0, 0 };
	const char	*top;
	char		*dir;
	uint8_t		*data;
	size_t		 i, len;
	int		 a, failed = 0;

	if (argc > 1) {
		for (a = 1; a < argc; a++)
			if (collect(&l, argv[a]) == -1)
				failed = 1;
	} else {
		if ((top = getenv("top_srcdir")) == NULL)
			top = ".";
		xasprintf(&dir, "%s/tests/fuzz/corpus/%s", top, FUZZ_NAME);
		failed |= collect(&l, dir) == -1;
		free(dir);
		xasprintf(&dir, "%s/tests/fuzz/regress/%s", top, FUZZ_NAME);
		failed |= collect(&l, dir) == -1;
		free(dir);
	}
	if (failed) {
		printf("Bail out! cannot read the inputs\n");
		return 1;
	}

	printf("1..%zu\n", l.n);
	fflush(stdout);
	for (i = 0; i < l.n; i++) {
		if ((data = slurp(l.path[i], &len)) == NULL) {
			printf("not ok %zu - %s: %s\n", i + 1, l.path[i],
			    strerror(errno));
			failed = 1;
		} else {
			/* Names the input in the log should it abort. */
			printf("# %s\n", l.path[i]);
			fflush(stdout);
			LLVMFuzzerTestOneInput(data, len);
			free(data);
			printf("ok %zu - %s\n", i + 1, l.path[i]);
		}
		fflush(stdout);
		free(l.path[i]);
	}
	free(l.path);
	return failed;
}
