/*
 * What clients read of each command, as tests/lib/commands.txt has it:
 * its name, its arity and its usage line (test_cmd_args, test_conn).
 */
#ifndef LUDUS_SHOWN_H
#define LUDUS_SHOWN_H

#include <stddef.h>

struct shown {
	char	 name[32];
	int	 arity;
	char	 usage[512];
};

/* Every line of the file, in its order (by name), into a calloc'd array
 * (free it); the count.  Fails the test if the file cannot be read or
 * a line is not "NAME<tab>ARITY<tab>USAGE". */
size_t	shown_read(struct shown **);
/* The command named so in the n lines; NULL if none. */
const struct shown *shown_find(const struct shown *, size_t n,
	    const char *name);

#endif /* LUDUS_SHOWN_H */
