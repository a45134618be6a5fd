/*
 * ludus copy (copy.c): every game of one store into another.
 */
#ifndef LUDUS_CLI_COPY_H
#define LUDUS_CLI_COPY_H

/* The words after "copy": [--force] FROM TO.  The exit status: 0, 1 when
 * the copy or its AUDIT failed, 2 for a usage error. */
int	cli_copy(int argc, char **argv);

#endif /* LUDUS_CLI_COPY_H */
