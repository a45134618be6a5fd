/*
 * What a ludusd with the toy kind (tests/lib/toykind.c) would answer, for
 * tests/web/test_toykind.sh to serve to the page: GET /api/kinds (toyjson
 * kinds), GET /api/games/t1 (toyjson game) and the board of
 * GET /games/t1.svg (toyjson svg), each made by the server's own code
 * from the kind table (src/http/json_kind.c, json.c, the kind's
 * render_svg).  The game: t1, three players on a race to 10 at squares
 * 3, 1 and 0 after four moves, P2 to move.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "http/json.h"
#include "toykind.h"
#include "util/svg.h"

int
main(int argc, char **argv)
{
	static const int pos[] = { 3, 1, 0 };
	struct game	 g;
	struct svg	 s;
	json_t		*j = NULL;
	char		*text;

	web_json_init();
	toy_game(&g, "t1", 3, pos, 10, 1, -1, 4);
	if (argc == 2 && strcmp(argv[1], "kinds") == 0)
		j = json_kinds();
	else if (argc == 2 && strcmp(argv[1], "game") == 0)
		j = json_game(&g);
	else if (argc == 2 && strcmp(argv[1], "svg") == 0) {
		svg_init(&s);
		if (toy_kind.render_svg(&g, &s) == -1)
			return 1;
		fputs(svg_str(&s), stdout);
		svg_free(&s);
		return 0;
	} else {
		fprintf(stderr, "usage: toyjson kinds|game|svg\n");
		return 2;
	}
	if (j == NULL)
		return 1;
	text = json_text(j, NULL);
	fputs(text, stdout);
	free(text);
	json_decref(j);
	return 0;
}
