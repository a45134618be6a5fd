-- ludus upgrade fixture pg-v2: written by commit d40d42e's
-- ludus --store (tests/upgrade/make-fixtures.sh), dumped by pg_dump.
--
-- PostgreSQL database dump
--

\restrict yubRwWFmuMKPKrvL9Yp7vo9JroeKCZThRZRJNsiGo2CQhz2n6lnqItzuHECXAek


SET statement_timeout = 0;
SET lock_timeout = 0;
SET idle_in_transaction_session_timeout = 0;
SET client_encoding = 'UTF8';
SET standard_conforming_strings = on;
SELECT pg_catalog.set_config('search_path', '', false);
SET check_function_bodies = false;
SET xmloption = content;
SET client_min_messages = warning;
SET row_security = off;

SET default_tablespace = '';

SET default_table_access_method = heap;

--
-- Name: games; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.games (
    id text NOT NULL,
    kind integer NOT NULL,
    nplayers integer NOT NULL,
    turn integer NOT NULL,
    winner integer NOT NULL,
    aux bigint DEFAULT 0 NOT NULL,
    moves bigint DEFAULT 0 NOT NULL,
    created bigint NOT NULL,
    updated bigint NOT NULL,
    ludo_preset integer,
    six_bonus integer,
    capture_bonus integer,
    three_sixes integer,
    board text,
    has_deck integer,
    deck text,
    seats integer DEFAULT 0 NOT NULL,
    dice integer DEFAULT 0 NOT NULL,
    turn_timeout bigint DEFAULT 0 NOT NULL,
    deadline bigint,
    roll integer,
    roll_player integer,
    stamp bigint NOT NULL,
    CONSTRAINT dandy_game CHECK (((kind <> 3) OR COALESCE((((nplayers >= 1) AND (nplayers <= 8)) AND (ludo_preset IS NULL) AND (six_bonus IS NULL) AND (capture_bonus IS NULL) AND (three_sixes IS NULL) AND (board ~ '^[a-i]{1,36}$'::text) AND (((has_deck = 0) AND (deck IS NULL)) OR ((has_deck = 1) AND (length(deck) <= 1024) AND (deck ~ '^[a-i1-9]*$'::text)))), false))),
    CONSTRAINT dandy_play CHECK (((kind <> 3) OR COALESCE(((winner = '-1'::integer) AND ((has_deck = 0) OR (aux <= octet_length(deck)))), false))),
    CONSTRAINT game_aux CHECK ((aux >= 0)),
    CONSTRAINT game_deadline CHECK (((deadline IS NULL) OR (deadline >= 0))),
    CONSTRAINT game_dice CHECK ((dice = ANY (ARRAY[0, 1]))),
    CONSTRAINT game_id CHECK ((id ~ '^[a-z0-9-]{1,50}$'::text)),
    CONSTRAINT game_kind CHECK ((kind = ANY (ARRAY[1, 2, 3]))),
    CONSTRAINT game_moves CHECK ((moves >= 0)),
    CONSTRAINT game_nplayers CHECK ((nplayers >= 1)),
    CONSTRAINT game_roll CHECK (((roll IS NULL) OR ((kind = 1) AND ((roll >= 1) AND (roll <= 6))))),
    CONSTRAINT game_roll_player CHECK ((((roll IS NULL) = (roll_player IS NULL)) AND ((roll_player IS NULL) OR ((roll_player >= 0) AND (roll_player <= (nplayers - 1)))))),
    CONSTRAINT game_seats CHECK ((seats = ANY (ARRAY[0, 1]))),
    CONSTRAINT game_turn CHECK (((turn >= '-1'::integer) AND (turn <= (nplayers - 1)))),
    CONSTRAINT game_turn_timeout CHECK ((turn_timeout >= 0)),
    CONSTRAINT game_winner CHECK (((winner >= '-1'::integer) AND (winner <= (nplayers - 1)))),
    CONSTRAINT ludo_game CHECK (((kind <> 1) OR COALESCE((((nplayers >= 2) AND (nplayers <= 4)) AND (ludo_preset = ANY (ARRAY[0, 1, 2])) AND (six_bonus = ANY (ARRAY[0, 1])) AND (capture_bonus = ANY (ARRAY[0, 1])) AND (three_sixes = ANY (ARRAY[0, 1])) AND (board IS NULL) AND (has_deck IS NULL) AND (deck IS NULL)), false))),
    CONSTRAINT snl_game CHECK (((kind <> 2) OR COALESCE((((nplayers >= 1) AND (nplayers <= 64)) AND (ludo_preset IS NULL) AND (six_bonus IS NULL) AND (capture_bonus IS NULL) AND (three_sixes IS NULL) AND (board IS NULL) AND (has_deck IS NULL) AND (deck IS NULL)), false))),
    CONSTRAINT snl_play CHECK (((kind <> 2) OR (aux = ANY (ARRAY[(0)::bigint, (1)::bigint]))))
);


--
-- Name: history; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.history (
    game text NOT NULL,
    seq bigint NOT NULL,
    player text NOT NULL,
    action text NOT NULL,
    result text NOT NULL,
    at bigint NOT NULL,
    automatic integer DEFAULT 0 NOT NULL,
    txn bigint DEFAULT 0 NOT NULL,
    CONSTRAINT move_action CHECK (((length(action) >= 1) AND (length(action) <= 15))),
    CONSTRAINT move_automatic CHECK ((automatic = ANY (ARRAY[0, 1, 2]))),
    CONSTRAINT move_player CHECK (((length(player) >= 1) AND (length(player) <= 50))),
    CONSTRAINT move_result CHECK (((length(result) >= 1) AND (length(result) <= 63))),
    CONSTRAINT move_seq CHECK ((seq >= 1))
);


--
-- Name: jumps; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.jumps (
    game text NOT NULL,
    cell integer NOT NULL,
    target integer NOT NULL,
    CONSTRAINT jump_cell CHECK (((cell >= 1) AND (cell <= 99))),
    CONSTRAINT jump_target CHECK ((((target >= 1) AND (target <= 100)) AND (target <> cell)))
);


--
-- Name: ludus_nodes; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.ludus_nodes (
    node bigint NOT NULL,
    txn bigint DEFAULT 0 NOT NULL,
    seen timestamp with time zone DEFAULT now() NOT NULL
);


--
-- Name: ludus_schema; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.ludus_schema (
    version integer NOT NULL
);


--
-- Name: meta; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.meta (
    key text NOT NULL,
    value bytea NOT NULL
);


--
-- Name: players; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.players (
    game text NOT NULL,
    idx integer NOT NULL,
    name text NOT NULL,
    bot integer,
    seat bytea,
    CONSTRAINT player_bot CHECK (((bot IS NULL) OR ((bot >= 0) AND (bot <= 2)))),
    CONSTRAINT player_idx CHECK (((idx >= 0) AND (idx <= 63))),
    CONSTRAINT player_name CHECK ((name ~ '^[A-Za-z0-9-]{1,50}$'::text)),
    CONSTRAINT player_seat CHECK (((seat IS NULL) OR (octet_length(seat) = 32)))
);


--
-- Name: tokens; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.tokens (
    game text NOT NULL,
    player integer NOT NULL,
    token integer NOT NULL,
    pos integer NOT NULL,
    points integer DEFAULT 0 NOT NULL,
    CONSTRAINT token_number CHECK (((token >= 0) AND (token <= 4))),
    CONSTRAINT token_points CHECK ((points >= 0)),
    CONSTRAINT token_pos CHECK (((pos >= '-1'::integer) AND (pos <= 100)))
);


--
-- Data for Name: games; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.games VALUES ('ludo-done', 1, 2, 0, -1, 3, 3, 1796197419, 1796197419, 0, 1, 0, 0, NULL, NULL, NULL, 0, 0, 0, NULL, NULL, NULL, 6713416996104229637);
INSERT INTO public.games VALUES ('ludo-four', 1, 4, 0, -1, 0, 8, 1796197419, 1796197419, 0, 1, 0, 0, NULL, NULL, NULL, 0, 0, 0, NULL, NULL, NULL, 7107743989377576612);
INSERT INTO public.games VALUES ('ludo-new', 1, 3, 0, -1, 0, 0, 1796197419, 1796197419, 0, 1, 0, 0, NULL, NULL, NULL, 0, 0, 0, NULL, NULL, NULL, 9143104134410398945);
INSERT INTO public.games VALUES ('snl-done', 2, 2, -1, 0, 1, 3, 1796197419, 1796197419, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 0, 0, 0, NULL, NULL, NULL, 5153475723502144842);
INSERT INTO public.games VALUES ('snl-six', 2, 6, 1, -1, 1, 7, 1796197419, 1796197419, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 0, 0, 0, NULL, NULL, NULL, 183012270082472931);
INSERT INTO public.games VALUES ('snl-play', 2, 3, 2, -1, 1, 8, 1796197419, 1796197420, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 0, 0, 0, NULL, NULL, NULL, 7214131551828936125);
INSERT INTO public.games VALUES ('dandy-deck', 3, 2, 1, -1, 5, 5, 1796197420, 1796197420, NULL, NULL, NULL, NULL, 'abcabcghi', 1, 'abcdefghi123', 0, 0, 0, NULL, NULL, NULL, 8514350153564878347);
INSERT INTO public.games VALUES ('dandy-hand', 3, 3, 0, -1, 0, 6, 1796197420, 1796197420, NULL, NULL, NULL, NULL, 'aabbccddeeffgghhii', 0, NULL, 0, 0, 0, NULL, NULL, NULL, 4889951862131507666);
INSERT INTO public.games VALUES ('ludo-seats', 1, 2, 0, -1, 0, 0, 1796197420, 1796197420, 0, 1, 0, 0, NULL, NULL, NULL, 1, 1, 3600, 1796201020415, NULL, NULL, 6735189842245292275);
INSERT INTO public.games VALUES ('snl-bots', 2, 2, -1, 1, 1, 54, 1796197420, 1796197420, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 0, 1, 0, NULL, NULL, NULL, 8970972032622621044);


--
-- Data for Name: history; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.history VALUES ('ludo-done', 1, 'red', '6:1', 'MOVED', 1796197419, 0, 2881105024091666583);
INSERT INTO public.history VALUES ('ludo-done', 2, 'red', '6:1', 'MOVED', 1796197419, 0, 2341228400582061852);
INSERT INTO public.history VALUES ('ludo-done', 3, 'red', '6:1', 'MOVED', 1796197419, 0, 3675551152208717827);
INSERT INTO public.history VALUES ('ludo-four', 1, 'a', '6:1', 'MOVED', 1796197419, 0, 5511056131764594950);
INSERT INTO public.history VALUES ('ludo-four', 2, 'a', '3:1', 'MOVED', 1796197419, 0, 5734348682014118526);
INSERT INTO public.history VALUES ('ludo-four', 3, 'b', '6:2', 'MOVED', 1796197419, 0, 1701734963758602400);
INSERT INTO public.history VALUES ('ludo-four', 4, 'b', '2:2', 'MOVED', 1796197419, 0, 7489900862422152078);
INSERT INTO public.history VALUES ('ludo-four', 5, 'c', '5:0', 'PASSED', 1796197419, 0, 7699097105280890088);
INSERT INTO public.history VALUES ('ludo-four', 6, 'd', '6:4', 'MOVED', 1796197419, 0, 6335459395133744169);
INSERT INTO public.history VALUES ('ludo-four', 7, 'd', '6:4', 'MOVED', 1796197419, 0, 3735801469122898584);
INSERT INTO public.history VALUES ('ludo-four', 8, 'd', '1:4', 'MOVED', 1796197419, 0, 8645325734181301355);
INSERT INTO public.history VALUES ('snl-done', 1, 'P1', '4', 'P1 97', 1796197419, 0, 2137254944436365868);
INSERT INTO public.history VALUES ('snl-done', 2, 'P2', '3', 'P2 3', 1796197419, 0, 8357385312610385407);
INSERT INTO public.history VALUES ('snl-done', 3, 'P1', '3', 'P1 WINS', 1796197419, 0, 1759328588075180580);
INSERT INTO public.history VALUES ('snl-six', 1, 'P1', '3', 'P1 3', 1796197419, 0, 3540087095203551237);
INSERT INTO public.history VALUES ('snl-six', 2, 'P2', '4', 'P2 4', 1796197419, 0, 974114769258396889);
INSERT INTO public.history VALUES ('snl-six', 3, 'P3', '5', 'P3 5', 1796197419, 0, 5108561110792544788);
INSERT INTO public.history VALUES ('snl-six', 4, 'P4', '6', 'P4 6', 1796197419, 0, 7915378356412242398);
INSERT INTO public.history VALUES ('snl-six', 5, 'P5', '1', 'P5 1', 1796197419, 0, 6391873594161712040);
INSERT INTO public.history VALUES ('snl-six', 6, 'P6', '2', 'P6 2', 1796197419, 0, 8205163406756979401);
INSERT INTO public.history VALUES ('snl-six', 7, 'P1', '3', 'P1 6', 1796197419, 0, 5846135052557838550);
INSERT INTO public.history VALUES ('snl-play', 1, 'P1', '6', 'P1 6', 1796197419, 0, 3993594063492331998);
INSERT INTO public.history VALUES ('snl-play', 2, 'P2', '6', 'P2 6', 1796197420, 0, 4591052424408144972);
INSERT INTO public.history VALUES ('snl-play', 3, 'P3', '6', 'P3 6', 1796197420, 0, 1208480011189136065);
INSERT INTO public.history VALUES ('snl-play', 4, 'P1', '5', 'P1 11', 1796197420, 0, 2337485245176329102);
INSERT INTO public.history VALUES ('snl-play', 5, 'P2', '4', 'P2 10', 1796197420, 0, 6863956386254563049);
INSERT INTO public.history VALUES ('snl-play', 6, 'P3', '3', 'P3 9', 1796197420, 0, 285976511318952622);
INSERT INTO public.history VALUES ('snl-play', 7, 'P1', '2', 'P1 13', 1796197420, 0, 8567193729680051084);
INSERT INTO public.history VALUES ('snl-play', 8, 'P2', '1', 'P2 11', 1796197420, 0, 312492118963017139);
INSERT INTO public.history VALUES ('dandy-deck', 1, 'P1', 'a', 'P1 1 0', 1796197420, 0, 1732001409321676977);
INSERT INTO public.history VALUES ('dandy-deck', 2, 'P2', 'b', 'P2 2 0', 1796197420, 0, 6842495742159019086);
INSERT INTO public.history VALUES ('dandy-deck', 3, 'P1', 'c', 'P1 3 0', 1796197420, 0, 6613519043170453296);
INSERT INTO public.history VALUES ('dandy-deck', 4, 'P2', 'd', 'P2 1 0', 1796197420, 0, 6987298013051728367);
INSERT INTO public.history VALUES ('dandy-deck', 5, 'P1', 'e', 'P1 2 0', 1796197420, 0, 89885007508039276);
INSERT INTO public.history VALUES ('dandy-hand', 1, 'P1', 'a', 'P1 1 0', 1796197420, 0, 1601110377087748679);
INSERT INTO public.history VALUES ('dandy-hand', 2, 'P2', 'b', 'P2 3 0', 1796197420, 0, 5161451453066047616);
INSERT INTO public.history VALUES ('dandy-hand', 3, 'P3', 'c', 'P3 5 0', 1796197420, 0, 5140209379391315551);
INSERT INTO public.history VALUES ('dandy-hand', 4, 'P1', '1', 'P1 2 0', 1796197420, 0, 4204931972623656752);
INSERT INTO public.history VALUES ('dandy-hand', 5, 'P2', 'd', 'P2 7 0', 1796197420, 0, 7164324046263665301);
INSERT INTO public.history VALUES ('dandy-hand', 6, 'P3', 'e', 'P3 9 0', 1796197420, 0, 3691878495888046109);
INSERT INTO public.history VALUES ('snl-bots', 1, 'P1', '1', 'P1 1', 1796197420, 1, 124643075865332054);
INSERT INTO public.history VALUES ('snl-bots', 2, 'P2', '6', 'P2 6', 1796197420, 1, 4098828435138581557);
INSERT INTO public.history VALUES ('snl-bots', 3, 'P1', '4', 'P1 5', 1796197420, 1, 8905256735322004612);
INSERT INTO public.history VALUES ('snl-bots', 4, 'P2', '6', 'P2 12', 1796197420, 1, 126077672857593025);
INSERT INTO public.history VALUES ('snl-bots', 5, 'P1', '5', 'P1 10', 1796197420, 1, 4281159023999995875);
INSERT INTO public.history VALUES ('snl-bots', 6, 'P2', '6', 'P2 18', 1796197420, 1, 8560108102955744681);
INSERT INTO public.history VALUES ('snl-bots', 7, 'P1', '1', 'P1 11', 1796197420, 1, 5425150352323982751);
INSERT INTO public.history VALUES ('snl-bots', 8, 'P2', '1', 'P2 19', 1796197420, 1, 734089056909950);
INSERT INTO public.history VALUES ('snl-bots', 9, 'P1', '1', 'P1 12', 1796197420, 1, 6542483757861698088);
INSERT INTO public.history VALUES ('snl-bots', 10, 'P2', '5', 'P2 24', 1796197420, 1, 5787544553799967650);
INSERT INTO public.history VALUES ('snl-bots', 11, 'P1', '3', 'P1 15', 1796197420, 1, 1071481381540664089);
INSERT INTO public.history VALUES ('snl-bots', 12, 'P2', '4', 'P2 28', 1796197420, 1, 5293688877126296981);
INSERT INTO public.history VALUES ('snl-bots', 13, 'P1', '1', 'P1 16', 1796197420, 1, 5585551693957460333);
INSERT INTO public.history VALUES ('snl-bots', 14, 'P2', '2', 'P2 30', 1796197420, 1, 2868557444284711005);
INSERT INTO public.history VALUES ('snl-bots', 15, 'P1', '3', 'P1 19', 1796197420, 1, 4091666743814858634);
INSERT INTO public.history VALUES ('snl-bots', 16, 'P2', '6', 'P2 36', 1796197420, 1, 5318643888290225846);
INSERT INTO public.history VALUES ('snl-bots', 17, 'P1', '3', 'P1 22', 1796197420, 1, 7319233190415322898);
INSERT INTO public.history VALUES ('snl-bots', 18, 'P2', '4', 'P2 40', 1796197420, 1, 1523666432969013941);
INSERT INTO public.history VALUES ('snl-bots', 19, 'P1', '5', 'P1 27', 1796197420, 1, 6760705103502571659);
INSERT INTO public.history VALUES ('snl-bots', 20, 'P2', '1', 'P2 41', 1796197420, 1, 5880205384025609301);
INSERT INTO public.history VALUES ('snl-bots', 21, 'P1', '5', 'P1 32', 1796197420, 1, 3066244421339855474);
INSERT INTO public.history VALUES ('snl-bots', 22, 'P2', '5', 'P2 46', 1796197420, 1, 5010760381397083232);
INSERT INTO public.history VALUES ('snl-bots', 23, 'P1', '1', 'P1 33', 1796197420, 1, 321977271494183902);
INSERT INTO public.history VALUES ('snl-bots', 24, 'P2', '5', 'P2 51', 1796197420, 1, 3855265018016047483);
INSERT INTO public.history VALUES ('snl-bots', 25, 'P1', '3', 'P1 36', 1796197420, 1, 1443854760528941180);
INSERT INTO public.history VALUES ('snl-bots', 26, 'P2', '1', 'P2 52', 1796197420, 1, 1647067317799115403);
INSERT INTO public.history VALUES ('snl-bots', 27, 'P1', '5', 'P1 41', 1796197420, 1, 5281247866394963749);
INSERT INTO public.history VALUES ('snl-bots', 28, 'P2', '4', 'P2 56', 1796197420, 1, 4799826024232680277);
INSERT INTO public.history VALUES ('snl-bots', 29, 'P1', '3', 'P1 44', 1796197420, 1, 7323522778224670638);
INSERT INTO public.history VALUES ('snl-bots', 30, 'P2', '4', 'P2 60', 1796197420, 1, 2985221832137077326);
INSERT INTO public.history VALUES ('snl-bots', 31, 'P1', '4', 'P1 48', 1796197420, 1, 6750513098740471108);
INSERT INTO public.history VALUES ('snl-bots', 32, 'P2', '3', 'P2 63', 1796197420, 1, 9162554246083647743);
INSERT INTO public.history VALUES ('snl-bots', 33, 'P1', '1', 'P1 49', 1796197420, 1, 6366395041984448239);
INSERT INTO public.history VALUES ('snl-bots', 34, 'P2', '6', 'P2 69', 1796197420, 1, 5871468857443973013);
INSERT INTO public.history VALUES ('snl-bots', 35, 'P1', '4', 'P1 53', 1796197420, 1, 599073016004814713);
INSERT INTO public.history VALUES ('snl-bots', 36, 'P2', '1', 'P2 70', 1796197420, 1, 6217851891033726713);
INSERT INTO public.history VALUES ('snl-bots', 37, 'P1', '6', 'P1 59', 1796197420, 1, 13632078468121062);
INSERT INTO public.history VALUES ('snl-bots', 38, 'P2', '2', 'P2 72', 1796197420, 1, 2542634722494698079);
INSERT INTO public.history VALUES ('snl-bots', 39, 'P1', '4', 'P1 63', 1796197420, 1, 360864124070438424);
INSERT INTO public.history VALUES ('snl-bots', 40, 'P2', '2', 'P2 74', 1796197420, 1, 9101168660732207842);
INSERT INTO public.history VALUES ('snl-bots', 41, 'P1', '6', 'P1 69', 1796197420, 1, 8277485705275736311);
INSERT INTO public.history VALUES ('snl-bots', 42, 'P2', '2', 'P2 76', 1796197420, 1, 766457243728439245);
INSERT INTO public.history VALUES ('snl-bots', 43, 'P1', '1', 'P1 70', 1796197420, 1, 4795358540422638829);
INSERT INTO public.history VALUES ('snl-bots', 44, 'P2', '2', 'P2 78', 1796197420, 1, 6561740865411138301);
INSERT INTO public.history VALUES ('snl-bots', 45, 'P1', '3', 'P1 73', 1796197420, 1, 1326329210975900053);
INSERT INTO public.history VALUES ('snl-bots', 46, 'P2', '6', 'P2 84', 1796197420, 1, 2048154578605491737);
INSERT INTO public.history VALUES ('snl-bots', 47, 'P1', '1', 'P1 74', 1796197420, 1, 1760777837560544056);
INSERT INTO public.history VALUES ('snl-bots', 48, 'P2', '3', 'P2 87', 1796197420, 1, 4870069966043931441);
INSERT INTO public.history VALUES ('snl-bots', 49, 'P1', '6', 'P1 80', 1796197420, 1, 7978776357987643483);
INSERT INTO public.history VALUES ('snl-bots', 50, 'P2', '4', 'P2 91', 1796197420, 1, 2822037119828916235);
INSERT INTO public.history VALUES ('snl-bots', 51, 'P1', '5', 'P1 85', 1796197420, 1, 640035024203276505);
INSERT INTO public.history VALUES ('snl-bots', 52, 'P2', '4', 'P2 95', 1796197420, 1, 837828471494970509);
INSERT INTO public.history VALUES ('snl-bots', 53, 'P1', '1', 'P1 86', 1796197420, 1, 879306513485127583);
INSERT INTO public.history VALUES ('snl-bots', 54, 'P2', '5', 'P2 WINS', 1796197420, 1, 5013585540930120383);


--
-- Data for Name: jumps; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.jumps VALUES ('snl-done', 4, 97);
INSERT INTO public.jumps VALUES ('snl-done', 99, 2);
INSERT INTO public.jumps VALUES ('snl-play', 50, 10);


--
-- Data for Name: ludus_nodes; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.ludus_nodes VALUES (6640948934796533319, 712029870833408101, '2026-12-02 07:43:39.388849+00');
INSERT INTO public.ludus_nodes VALUES (1420712961249295197, 2881105024091666583, '2026-12-02 07:43:39.409513+00');
INSERT INTO public.ludus_nodes VALUES (7983537598936183861, 2341228400582061852, '2026-12-02 07:43:39.429705+00');
INSERT INTO public.ludus_nodes VALUES (8393176308619815269, 3675551152208717827, '2026-12-02 07:43:39.449543+00');
INSERT INTO public.ludus_nodes VALUES (8238328466767310038, 6541003358212188183, '2026-12-02 07:43:39.469381+00');
INSERT INTO public.ludus_nodes VALUES (4504601261894735548, 5511056131764594950, '2026-12-02 07:43:39.489574+00');
INSERT INTO public.ludus_nodes VALUES (3233642261972502481, 5734348682014118526, '2026-12-02 07:43:39.509361+00');
INSERT INTO public.ludus_nodes VALUES (5470327673687648517, 1701734963758602400, '2026-12-02 07:43:39.530201+00');
INSERT INTO public.ludus_nodes VALUES (2669636210085552406, 7489900862422152078, '2026-12-02 07:43:39.550024+00');
INSERT INTO public.ludus_nodes VALUES (2204349437637654587, 7699097105280890088, '2026-12-02 07:43:39.569879+00');
INSERT INTO public.ludus_nodes VALUES (6155840551750225333, 6335459395133744169, '2026-12-02 07:43:39.590263+00');
INSERT INTO public.ludus_nodes VALUES (8030721222593589207, 3735801469122898584, '2026-12-02 07:43:39.609755+00');
INSERT INTO public.ludus_nodes VALUES (7507545259664596235, 8645325734181301355, '2026-12-02 07:43:39.630583+00');
INSERT INTO public.ludus_nodes VALUES (7478302437512660721, 4409557077551310881, '2026-12-02 07:43:39.650599+00');
INSERT INTO public.ludus_nodes VALUES (807367325635450363, 1096988093824437876, '2026-12-02 07:43:39.670474+00');
INSERT INTO public.ludus_nodes VALUES (2332074005798385972, 5942661173953186398, '2026-12-02 07:43:39.690573+00');
INSERT INTO public.ludus_nodes VALUES (2036280844493227014, 5277259904023375418, '2026-12-02 07:43:39.710259+00');
INSERT INTO public.ludus_nodes VALUES (7740374013834011622, 2137254944436365868, '2026-12-02 07:43:39.730099+00');
INSERT INTO public.ludus_nodes VALUES (4127537661432472267, 8357385312610385407, '2026-12-02 07:43:39.750541+00');
INSERT INTO public.ludus_nodes VALUES (2858812178203669515, 1759328588075180580, '2026-12-02 07:43:39.770525+00');
INSERT INTO public.ludus_nodes VALUES (7732134453546176486, 284983633060734405, '2026-12-02 07:43:39.790736+00');
INSERT INTO public.ludus_nodes VALUES (8570677143185406730, 812931523211038831, '2026-12-02 07:43:39.810659+00');
INSERT INTO public.ludus_nodes VALUES (2721275104191897886, 3540087095203551237, '2026-12-02 07:43:39.830884+00');
INSERT INTO public.ludus_nodes VALUES (2490373224346231389, 974114769258396889, '2026-12-02 07:43:39.851061+00');
INSERT INTO public.ludus_nodes VALUES (6497613617425224811, 5108561110792544788, '2026-12-02 07:43:39.871309+00');
INSERT INTO public.ludus_nodes VALUES (7164816785840883708, 7915378356412242398, '2026-12-02 07:43:39.891424+00');
INSERT INTO public.ludus_nodes VALUES (4630349666444659590, 6391873594161712040, '2026-12-02 07:43:39.91252+00');
INSERT INTO public.ludus_nodes VALUES (4332252381126548860, 8205163406756979401, '2026-12-02 07:43:39.932661+00');
INSERT INTO public.ludus_nodes VALUES (2271050073563072525, 5846135052557838550, '2026-12-02 07:43:39.9528+00');
INSERT INTO public.ludus_nodes VALUES (1145822328457660749, 7211352712916377157, '2026-12-02 07:43:39.972477+00');
INSERT INTO public.ludus_nodes VALUES (4644051011783293100, 3993594063492331998, '2026-12-02 07:43:39.992309+00');
INSERT INTO public.ludus_nodes VALUES (9076790777342349974, 4591052424408144972, '2026-12-02 07:43:40.012824+00');
INSERT INTO public.ludus_nodes VALUES (2973279985572099217, 1208480011189136065, '2026-12-02 07:43:40.03297+00');
INSERT INTO public.ludus_nodes VALUES (1827266381304527885, 2337485245176329102, '2026-12-02 07:43:40.053056+00');
INSERT INTO public.ludus_nodes VALUES (3124352148052508247, 6863956386254563049, '2026-12-02 07:43:40.072848+00');
INSERT INTO public.ludus_nodes VALUES (3425397980657761558, 285976511318952622, '2026-12-02 07:43:40.093033+00');
INSERT INTO public.ludus_nodes VALUES (3425731182326989735, 8567193729680051084, '2026-12-02 07:43:40.113259+00');
INSERT INTO public.ludus_nodes VALUES (3674054077040129458, 312492118963017139, '2026-12-02 07:43:40.134013+00');
INSERT INTO public.ludus_nodes VALUES (5721337211591123040, 5153340111570663291, '2026-12-02 07:43:40.153832+00');
INSERT INTO public.ludus_nodes VALUES (2008163048472046917, 1732001409321676977, '2026-12-02 07:43:40.174432+00');
INSERT INTO public.ludus_nodes VALUES (6931989640934737428, 6842495742159019086, '2026-12-02 07:43:40.195252+00');
INSERT INTO public.ludus_nodes VALUES (2723410001785069486, 6613519043170453296, '2026-12-02 07:43:40.214509+00');
INSERT INTO public.ludus_nodes VALUES (2564900525701539409, 6987298013051728367, '2026-12-02 07:43:40.234743+00');
INSERT INTO public.ludus_nodes VALUES (6717544795792840079, 89885007508039276, '2026-12-02 07:43:40.253815+00');
INSERT INTO public.ludus_nodes VALUES (5727229886505701914, 4386982768145018827, '2026-12-02 07:43:40.273639+00');
INSERT INTO public.ludus_nodes VALUES (6931789124266529868, 1601110377087748679, '2026-12-02 07:43:40.294007+00');
INSERT INTO public.ludus_nodes VALUES (1484285929396406243, 5161451453066047616, '2026-12-02 07:43:40.313218+00');
INSERT INTO public.ludus_nodes VALUES (549443169706113300, 5140209379391315551, '2026-12-02 07:43:40.333672+00');
INSERT INTO public.ludus_nodes VALUES (1688624936559776553, 4204931972623656752, '2026-12-02 07:43:40.354497+00');
INSERT INTO public.ludus_nodes VALUES (5654925921021891241, 7164324046263665301, '2026-12-02 07:43:40.375564+00');
INSERT INTO public.ludus_nodes VALUES (1157168073379801731, 3691878495888046109, '2026-12-02 07:43:40.396319+00');
INSERT INTO public.ludus_nodes VALUES (2619516176845032822, 3987217925298147391, '2026-12-02 07:43:40.416716+00');
INSERT INTO public.ludus_nodes VALUES (3896950845822465201, 5013585540930120383, '2026-12-02 07:43:40.461883+00');


--
-- Data for Name: ludus_schema; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.ludus_schema VALUES (2);


--
-- Data for Name: meta; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.meta VALUES ('seat-secret', '\x884efc2096eb275912d2eb1efd54becd9ebec4ab7ec328ea1b093171c9f7e344');


--
-- Data for Name: players; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.players VALUES ('ludo-done', 0, 'red', NULL, NULL);
INSERT INTO public.players VALUES ('ludo-done', 1, 'blue', NULL, NULL);
INSERT INTO public.players VALUES ('ludo-four', 0, 'a', NULL, NULL);
INSERT INTO public.players VALUES ('ludo-four', 1, 'b', NULL, NULL);
INSERT INTO public.players VALUES ('ludo-four', 2, 'c', NULL, NULL);
INSERT INTO public.players VALUES ('ludo-four', 3, 'd', NULL, NULL);
INSERT INTO public.players VALUES ('ludo-new', 0, 'red', NULL, NULL);
INSERT INTO public.players VALUES ('ludo-new', 1, 'blue', NULL, NULL);
INSERT INTO public.players VALUES ('ludo-new', 2, 'green', NULL, NULL);
INSERT INTO public.players VALUES ('snl-done', 0, 'P1', NULL, NULL);
INSERT INTO public.players VALUES ('snl-done', 1, 'P2', NULL, NULL);
INSERT INTO public.players VALUES ('snl-play', 0, 'P1', NULL, NULL);
INSERT INTO public.players VALUES ('snl-play', 1, 'P2', NULL, NULL);
INSERT INTO public.players VALUES ('snl-play', 2, 'P3', NULL, NULL);
INSERT INTO public.players VALUES ('snl-six', 0, 'P1', NULL, NULL);
INSERT INTO public.players VALUES ('snl-six', 1, 'P2', NULL, NULL);
INSERT INTO public.players VALUES ('snl-six', 2, 'P3', NULL, NULL);
INSERT INTO public.players VALUES ('snl-six', 3, 'P4', NULL, NULL);
INSERT INTO public.players VALUES ('snl-six', 4, 'P5', NULL, NULL);
INSERT INTO public.players VALUES ('snl-six', 5, 'P6', NULL, NULL);
INSERT INTO public.players VALUES ('dandy-deck', 0, 'P1', NULL, NULL);
INSERT INTO public.players VALUES ('dandy-deck', 1, 'P2', NULL, NULL);
INSERT INTO public.players VALUES ('dandy-hand', 0, 'P1', NULL, NULL);
INSERT INTO public.players VALUES ('dandy-hand', 1, 'P2', NULL, NULL);
INSERT INTO public.players VALUES ('dandy-hand', 2, 'P3', NULL, NULL);
INSERT INTO public.players VALUES ('ludo-seats', 0, 'a', NULL, '\xc8ac4186843108e553cd61a6a952dad03a00f8a13bc0b69326bc48be83d4679c');
INSERT INTO public.players VALUES ('ludo-seats', 1, 'b', 2, '\x0be17a5cf88ccd70b94822807ec1a894e5f84f7cb1990ed55016b640b01b8e0b');
INSERT INTO public.players VALUES ('snl-bots', 0, 'P1', 0, NULL);
INSERT INTO public.players VALUES ('snl-bots', 1, 'P2', 0, NULL);


--
-- Data for Name: tokens; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.tokens VALUES ('ludo-done', 0, 2, -1, 0);
INSERT INTO public.tokens VALUES ('ludo-done', 0, 3, -1, 0);
INSERT INTO public.tokens VALUES ('ludo-done', 0, 4, -1, 0);
INSERT INTO public.tokens VALUES ('ludo-done', 1, 1, -1, 0);
INSERT INTO public.tokens VALUES ('ludo-done', 1, 2, -1, 0);
INSERT INTO public.tokens VALUES ('ludo-done', 1, 3, -1, 0);
INSERT INTO public.tokens VALUES ('ludo-done', 1, 4, -1, 0);
INSERT INTO public.tokens VALUES ('ludo-done', 0, 1, 12, 0);
INSERT INTO public.tokens VALUES ('ludo-four', 0, 2, -1, 0);
INSERT INTO public.tokens VALUES ('ludo-four', 0, 3, -1, 0);
INSERT INTO public.tokens VALUES ('ludo-four', 0, 4, -1, 0);
INSERT INTO public.tokens VALUES ('ludo-four', 1, 1, -1, 0);
INSERT INTO public.tokens VALUES ('ludo-four', 1, 3, -1, 0);
INSERT INTO public.tokens VALUES ('ludo-four', 1, 4, -1, 0);
INSERT INTO public.tokens VALUES ('ludo-four', 2, 1, -1, 0);
INSERT INTO public.tokens VALUES ('ludo-four', 2, 2, -1, 0);
INSERT INTO public.tokens VALUES ('ludo-four', 2, 3, -1, 0);
INSERT INTO public.tokens VALUES ('ludo-four', 2, 4, -1, 0);
INSERT INTO public.tokens VALUES ('ludo-four', 3, 1, -1, 0);
INSERT INTO public.tokens VALUES ('ludo-four', 3, 2, -1, 0);
INSERT INTO public.tokens VALUES ('ludo-four', 3, 3, -1, 0);
INSERT INTO public.tokens VALUES ('ludo-four', 0, 1, 3, 0);
INSERT INTO public.tokens VALUES ('ludo-four', 1, 2, 2, 0);
INSERT INTO public.tokens VALUES ('ludo-four', 3, 4, 7, 0);
INSERT INTO public.tokens VALUES ('ludo-new', 0, 1, -1, 0);
INSERT INTO public.tokens VALUES ('ludo-new', 0, 2, -1, 0);
INSERT INTO public.tokens VALUES ('ludo-new', 0, 3, -1, 0);
INSERT INTO public.tokens VALUES ('ludo-new', 0, 4, -1, 0);
INSERT INTO public.tokens VALUES ('ludo-new', 1, 1, -1, 0);
INSERT INTO public.tokens VALUES ('ludo-new', 1, 2, -1, 0);
INSERT INTO public.tokens VALUES ('ludo-new', 1, 3, -1, 0);
INSERT INTO public.tokens VALUES ('ludo-new', 1, 4, -1, 0);
INSERT INTO public.tokens VALUES ('ludo-new', 2, 1, -1, 0);
INSERT INTO public.tokens VALUES ('ludo-new', 2, 2, -1, 0);
INSERT INTO public.tokens VALUES ('ludo-new', 2, 3, -1, 0);
INSERT INTO public.tokens VALUES ('ludo-new', 2, 4, -1, 0);
INSERT INTO public.tokens VALUES ('snl-done', 1, 0, 3, 0);
INSERT INTO public.tokens VALUES ('snl-done', 0, 0, 100, 0);
INSERT INTO public.tokens VALUES ('snl-six', 1, 0, 4, 0);
INSERT INTO public.tokens VALUES ('snl-six', 2, 0, 5, 0);
INSERT INTO public.tokens VALUES ('snl-six', 3, 0, 6, 0);
INSERT INTO public.tokens VALUES ('snl-six', 4, 0, 1, 0);
INSERT INTO public.tokens VALUES ('snl-six', 5, 0, 2, 0);
INSERT INTO public.tokens VALUES ('snl-six', 0, 0, 6, 0);
INSERT INTO public.tokens VALUES ('snl-play', 2, 0, 9, 0);
INSERT INTO public.tokens VALUES ('snl-play', 0, 0, 13, 0);
INSERT INTO public.tokens VALUES ('snl-play', 1, 0, 11, 0);
INSERT INTO public.tokens VALUES ('dandy-deck', 1, 0, 0, 0);
INSERT INTO public.tokens VALUES ('dandy-deck', 0, 0, 1, 0);
INSERT INTO public.tokens VALUES ('dandy-hand', 0, 0, 1, 0);
INSERT INTO public.tokens VALUES ('dandy-hand', 1, 0, 6, 0);
INSERT INTO public.tokens VALUES ('dandy-hand', 2, 0, 8, 0);
INSERT INTO public.tokens VALUES ('ludo-seats', 0, 1, -1, 0);
INSERT INTO public.tokens VALUES ('ludo-seats', 0, 2, -1, 0);
INSERT INTO public.tokens VALUES ('ludo-seats', 0, 3, -1, 0);
INSERT INTO public.tokens VALUES ('ludo-seats', 0, 4, -1, 0);
INSERT INTO public.tokens VALUES ('ludo-seats', 1, 1, -1, 0);
INSERT INTO public.tokens VALUES ('ludo-seats', 1, 2, -1, 0);
INSERT INTO public.tokens VALUES ('ludo-seats', 1, 3, -1, 0);
INSERT INTO public.tokens VALUES ('ludo-seats', 1, 4, -1, 0);
INSERT INTO public.tokens VALUES ('snl-bots', 0, 0, 86, 0);
INSERT INTO public.tokens VALUES ('snl-bots', 1, 0, 100, 0);


--
-- Name: games games_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.games
    ADD CONSTRAINT games_pkey PRIMARY KEY (id);


--
-- Name: history history_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.history
    ADD CONSTRAINT history_pkey PRIMARY KEY (game, seq);


--
-- Name: jumps jumps_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.jumps
    ADD CONSTRAINT jumps_pkey PRIMARY KEY (game, cell);


--
-- Name: ludus_nodes ludus_nodes_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.ludus_nodes
    ADD CONSTRAINT ludus_nodes_pkey PRIMARY KEY (node);


--
-- Name: meta meta_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.meta
    ADD CONSTRAINT meta_pkey PRIMARY KEY (key);


--
-- Name: players players_game_name_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.players
    ADD CONSTRAINT players_game_name_key UNIQUE (game, name);


--
-- Name: players players_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.players
    ADD CONSTRAINT players_pkey PRIMARY KEY (game, idx);


--
-- Name: tokens tokens_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.tokens
    ADD CONSTRAINT tokens_pkey PRIMARY KEY (game, player, token);


--
-- Name: games_deadline; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX games_deadline ON public.games USING btree (deadline) WHERE (deadline IS NOT NULL);


--
-- Name: games_finished; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX games_finished ON public.games USING btree (updated, id) WHERE (turn = '-1'::integer);


--
-- Name: games_kind; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX games_kind ON public.games USING btree (kind, id);


--
-- Name: history history_game_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.history
    ADD CONSTRAINT history_game_fkey FOREIGN KEY (game) REFERENCES public.games(id) ON DELETE CASCADE;


--
-- Name: jumps jumps_game_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.jumps
    ADD CONSTRAINT jumps_game_fkey FOREIGN KEY (game) REFERENCES public.games(id) ON DELETE CASCADE;


--
-- Name: players players_game_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.players
    ADD CONSTRAINT players_game_fkey FOREIGN KEY (game) REFERENCES public.games(id) ON DELETE CASCADE;


--
-- Name: tokens tokens_game_player_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.tokens
    ADD CONSTRAINT tokens_game_player_fkey FOREIGN KEY (game, player) REFERENCES public.players(game, idx) ON DELETE CASCADE;


--
-- PostgreSQL database dump complete
--

\unrestrict yubRwWFmuMKPKrvL9Yp7vo9JroeKCZThRZRJNsiGo2CQhz2n6lnqItzuHECXAek

