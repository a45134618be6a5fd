/*
 * jget: reads one JSON document on stdin (with jansson, as the daemon
 * writes it) and prints the value at a path, for the shell tests of the
 * HTTP side and the WebDriver replies of the browser test:
 *
 *	jget games.0.id		a member, an array index: a string bare,
 *				anything else as compact JSON
 *	jget -n games		the size of an array or object
 *	jget -k state		the keys of an object, one a line
 *
 * The empty path is the document.  Exit 1 when the input is not JSON or
 * the path names nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

static json_t *
walk(json_t *j, char *path)
{
	char	*seg, *end;
	long	 i;

	for (seg = strtok(path, "."); seg != NULL && j != NULL;
	    seg = strtok(NULL, ".")) {
		if (json_is_array(j)) {
			i = strtol(seg, &end, 10);
			j = *end == '\0' && i >= 0 ? json_array_get(j,
			    (size_t)i) : NULL;
		} else
			j = json_object_get(j, seg);
	}
	return j;
}

static int
print(const json_t *j, int mode)
{
	const char	*key;
	json_t		*v;
	char		*s;

	if (mode == 'n') {
		printf("%zu\n", json_is_array(j) ? json_array_size(j) :
		    json_object_size(j));
		return 0;
	}
	if (mode == 'k') {
		json_object_foreach((json_t *)j, key, v)
			printf("%s\n", key);
		return 0;
	}
	if (json_is_string(j)) {
		printf("%s\n", json_string_value(j));
		return 0;
	}
	s = json_dumps(j, JSON_COMPACT | JSON_ENCODE_ANY);
	if (s == NULL)
		return 1;
	printf("%s\n", s);
	free(s);
	return 0;
}

int
main(int argc, char **argv)
{
	json_error_t	 err;
	json_t		*doc, *j;
	char		*path;
	int		 mode = 0, rc;

	if (argc > 1 && (strcmp(argv[1], "-n") == 0 ||
	    strcmp(argv[1], "-k") == 0)) {
		mode = argv[1][1];
		argc--;
		argv++;
	}
	if (argc > 2) {
		fprintf(stderr, "usage: jget [-n | -k] [path]\n");
		return 2;
	}
	doc = json_loadf(stdin, JSON_DECODE_ANY, &err);
	if (doc == NULL) {
		fprintf(stderr, "jget: not JSON: %s (line %d)\n", err.text,
		    err.line);
		return 1;
	}
	path = strdup(argc > 1 ? argv[1] : "");
	j = walk(doc, path);
	rc = j != NULL ? print(j, mode) : 1;
	free(path);
	json_decref(doc);
	return rc;
}
