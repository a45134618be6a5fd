/*
 * The key table, private to the configuration (config.c, config_keys.c).
 */
#ifndef LUDUS_CONFIG_INT_H
#define LUDUS_CONFIG_INT_H

#include <stddef.h>

#include "net/config.h"

typedef int (*config_setter)(struct config *, int, char **, const char **);

/* How CONFIG GET shows a value: the field at off, or by the key. */
enum config_kind {
	V_INT64,		/* int64_t */
	V_SIZE,			/* size_t */
	V_STR,			/* char * */
	V_BOOL,			/* int, yes or no */
	V_OTHER,		/* lists, ports, names of values */
	V_SECRET		/* never shown */
};

struct config_key {
	const char	*name;
	config_setter	 set;
	int		 multi;		/* takes one value or more */
	const char	*arg;		/* value syntax, for --help */
	const char	*help;		/* meaning (default) */
	enum config_kind kind;
	size_t		 off;		/* in struct config */
};

/* Sorted by name: looked up with bsearch. */
extern const struct config_key	config_keys[];
extern const size_t		config_nkeys;

#endif
