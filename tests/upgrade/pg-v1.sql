-- ludus upgrade fixture pg-v1: written by commit 87a78f0's
-- ludus --store (tests/upgrade/make-fixtures.sh), dumped by pg_dump.
--
-- PostgreSQL database dump
--

\restrict ZVoC8v61KhXgr35GzEn8EdtHjNzKIlGfp8jVxfTR1mGwK0ESYXfBTdohc8iyj8j


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

INSERT INTO public.games VALUES ('ludo-done', 1, 2, 0, -1, 3, 3, 1796160033, 1796160035, 0, 1, 0, 0, NULL, NULL, NULL, 0, 0, 0, NULL, NULL, NULL, 6941138367895646809);
INSERT INTO public.games VALUES ('ludo-four', 1, 4, 0, -1, 0, 8, 1796160035, 1796160039, 0, 1, 0, 0, NULL, NULL, NULL, 0, 0, 0, NULL, NULL, NULL, 3115809349897790170);
INSERT INTO public.games VALUES ('ludo-new', 1, 3, 0, -1, 0, 0, 1796160039, 1796160039, 0, 1, 0, 0, NULL, NULL, NULL, 0, 0, 0, NULL, NULL, NULL, 4377883151082160275);
INSERT INTO public.games VALUES ('snl-done', 2, 2, -1, 0, 1, 3, 1796160040, 1796160042, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 0, 0, 0, NULL, NULL, NULL, 2452357808279558122);
INSERT INTO public.games VALUES ('snl-play', 2, 3, 2, -1, 1, 8, 1796160043, 1796160049, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 0, 0, 0, NULL, NULL, NULL, 993549702842224647);
INSERT INTO public.games VALUES ('dandy-deck', 3, 2, 1, -1, 5, 5, 1796160050, 1796160053, NULL, NULL, NULL, NULL, 'abcabcghi', 1, 'abcdefghi123', 0, 0, 0, NULL, NULL, NULL, 8565060763712153494);
INSERT INTO public.games VALUES ('dandy-hand', 3, 3, 0, -1, 0, 6, 1796160053, 1796160057, NULL, NULL, NULL, NULL, 'aabbccddeeffgghhii', 0, NULL, 0, 0, 0, NULL, NULL, NULL, 7556690861635961435);
INSERT INTO public.games VALUES ('ludo-seats', 1, 2, 0, -1, 0, 0, 1796160058, 1796160058, 0, 1, 0, 0, NULL, NULL, NULL, 1, 1, 3600, 1796163658314, NULL, NULL, 3389052261733951321);
INSERT INTO public.games VALUES ('snl-bots', 2, 2, -1, 1, 1, 64, 1796160058, 1796160059, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 0, 1, 0, NULL, NULL, NULL, 2953184514349780243);


--
-- Data for Name: history; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.history VALUES ('ludo-done', 1, 'red', '6:1', 'MOVED', 1796160033, 0, 1728430756078190223);
INSERT INTO public.history VALUES ('ludo-done', 2, 'red', '6:1', 'MOVED', 1796160034, 0, 7822827670495208199);
INSERT INTO public.history VALUES ('ludo-done', 3, 'red', '6:1', 'MOVED', 1796160035, 0, 7787980144973785895);
INSERT INTO public.history VALUES ('ludo-four', 1, 'a', '6:1', 'MOVED', 1796160036, 0, 3733048330705142267);
INSERT INTO public.history VALUES ('ludo-four', 2, 'a', '3:1', 'MOVED', 1796160036, 0, 3558571196190589011);
INSERT INTO public.history VALUES ('ludo-four', 3, 'b', '6:2', 'MOVED', 1796160037, 0, 7555495086724499276);
INSERT INTO public.history VALUES ('ludo-four', 4, 'b', '2:2', 'MOVED', 1796160037, 0, 9007091000651548221);
INSERT INTO public.history VALUES ('ludo-four', 5, 'c', '5:0', 'PASSED', 1796160037, 0, 804684947052235833);
INSERT INTO public.history VALUES ('ludo-four', 6, 'd', '6:4', 'MOVED', 1796160038, 0, 7372967850322513879);
INSERT INTO public.history VALUES ('ludo-four', 7, 'd', '6:4', 'MOVED', 1796160038, 0, 8111471110915895707);
INSERT INTO public.history VALUES ('ludo-four', 8, 'd', '1:4', 'MOVED', 1796160039, 0, 8562655083324644556);
INSERT INTO public.history VALUES ('snl-done', 1, 'P1', '4', 'P1 97', 1796160041, 0, 3414140756357410927);
INSERT INTO public.history VALUES ('snl-done', 2, 'P2', '3', 'P2 3', 1796160042, 0, 2507348043974373533);
INSERT INTO public.history VALUES ('snl-done', 3, 'P1', '3', 'P1 WINS', 1796160042, 0, 8785199365916903450);
INSERT INTO public.history VALUES ('snl-play', 1, 'P1', '6', 'P1 6', 1796160044, 0, 6824809791183552766);
INSERT INTO public.history VALUES ('snl-play', 2, 'P2', '6', 'P2 6', 1796160045, 0, 1705291720604981011);
INSERT INTO public.history VALUES ('snl-play', 3, 'P3', '6', 'P3 6', 1796160046, 0, 445632660498302622);
INSERT INTO public.history VALUES ('snl-play', 4, 'P1', '5', 'P1 11', 1796160046, 0, 1090953636227700025);
INSERT INTO public.history VALUES ('snl-play', 5, 'P2', '4', 'P2 10', 1796160047, 0, 594786842128731949);
INSERT INTO public.history VALUES ('snl-play', 6, 'P3', '3', 'P3 9', 1796160047, 0, 4086347843322938442);
INSERT INTO public.history VALUES ('snl-play', 7, 'P1', '2', 'P1 13', 1796160048, 0, 1740345031955288117);
INSERT INTO public.history VALUES ('snl-play', 8, 'P2', '1', 'P2 11', 1796160049, 0, 657206463950176737);
INSERT INTO public.history VALUES ('dandy-deck', 1, 'P1', 'a', 'P1 1 0', 1796160050, 0, 4267654602048669221);
INSERT INTO public.history VALUES ('dandy-deck', 2, 'P2', 'b', 'P2 2 0', 1796160051, 0, 3970579286579404744);
INSERT INTO public.history VALUES ('dandy-deck', 3, 'P1', 'c', 'P1 3 0', 1796160052, 0, 4935316203226483414);
INSERT INTO public.history VALUES ('dandy-deck', 4, 'P2', 'd', 'P2 1 0', 1796160052, 0, 2594920600939368589);
INSERT INTO public.history VALUES ('dandy-deck', 5, 'P1', 'e', 'P1 2 0', 1796160053, 0, 793633252070256838);
INSERT INTO public.history VALUES ('dandy-hand', 1, 'P1', 'a', 'P1 1 0', 1796160054, 0, 5606105515968801993);
INSERT INTO public.history VALUES ('dandy-hand', 2, 'P2', 'b', 'P2 3 0', 1796160055, 0, 2574597003072468593);
INSERT INTO public.history VALUES ('dandy-hand', 3, 'P3', 'c', 'P3 5 0', 1796160055, 0, 7939716337939690274);
INSERT INTO public.history VALUES ('dandy-hand', 4, 'P1', '1', 'P1 2 0', 1796160056, 0, 656693968208053747);
INSERT INTO public.history VALUES ('dandy-hand', 5, 'P2', 'd', 'P2 7 0', 1796160057, 0, 4996737628848781011);
INSERT INTO public.history VALUES ('dandy-hand', 6, 'P3', 'e', 'P3 9 0', 1796160057, 0, 6801301193825464502);
INSERT INTO public.history VALUES ('snl-bots', 1, 'P1', '2', 'P1 2', 1796160058, 1, 6801517821260603833);
INSERT INTO public.history VALUES ('snl-bots', 2, 'P2', '4', 'P2 4', 1796160058, 1, 2921089510922092926);
INSERT INTO public.history VALUES ('snl-bots', 3, 'P1', '5', 'P1 7', 1796160058, 1, 8422719933321018483);
INSERT INTO public.history VALUES ('snl-bots', 4, 'P2', '6', 'P2 10', 1796160058, 1, 3663596871045737129);
INSERT INTO public.history VALUES ('snl-bots', 5, 'P1', '2', 'P1 9', 1796160058, 1, 294225023727877843);
INSERT INTO public.history VALUES ('snl-bots', 6, 'P2', '3', 'P2 13', 1796160059, 1, 4679254981847243003);
INSERT INTO public.history VALUES ('snl-bots', 7, 'P1', '5', 'P1 14', 1796160059, 1, 368254577102052242);
INSERT INTO public.history VALUES ('snl-bots', 8, 'P2', '1', 'P2 14', 1796160059, 1, 6283835232361862548);
INSERT INTO public.history VALUES ('snl-bots', 9, 'P1', '2', 'P1 16', 1796160059, 1, 1805226328365997207);
INSERT INTO public.history VALUES ('snl-bots', 10, 'P2', '4', 'P2 18', 1796160059, 1, 2320044643071713244);
INSERT INTO public.history VALUES ('snl-bots', 11, 'P1', '3', 'P1 19', 1796160059, 1, 4851445765557537340);
INSERT INTO public.history VALUES ('snl-bots', 12, 'P2', '3', 'P2 21', 1796160059, 1, 1395009992336354389);
INSERT INTO public.history VALUES ('snl-bots', 13, 'P1', '2', 'P1 21', 1796160059, 1, 4158729632188287806);
INSERT INTO public.history VALUES ('snl-bots', 14, 'P2', '4', 'P2 25', 1796160059, 1, 8534345101314925600);
INSERT INTO public.history VALUES ('snl-bots', 15, 'P1', '3', 'P1 24', 1796160059, 1, 5678192476069059537);
INSERT INTO public.history VALUES ('snl-bots', 16, 'P2', '5', 'P2 30', 1796160059, 1, 4834739730285134154);
INSERT INTO public.history VALUES ('snl-bots', 17, 'P1', '5', 'P1 29', 1796160059, 1, 3925798640815278927);
INSERT INTO public.history VALUES ('snl-bots', 18, 'P2', '5', 'P2 35', 1796160059, 1, 3773750242491172106);
INSERT INTO public.history VALUES ('snl-bots', 19, 'P1', '4', 'P1 33', 1796160059, 1, 4231734693590264702);
INSERT INTO public.history VALUES ('snl-bots', 20, 'P2', '6', 'P2 41', 1796160059, 1, 1999366076373382793);
INSERT INTO public.history VALUES ('snl-bots', 21, 'P1', '1', 'P1 34', 1796160059, 1, 2067549757434019459);
INSERT INTO public.history VALUES ('snl-bots', 22, 'P2', '5', 'P2 46', 1796160059, 1, 2276484626471554773);
INSERT INTO public.history VALUES ('snl-bots', 23, 'P1', '3', 'P1 37', 1796160059, 1, 2502072967675002917);
INSERT INTO public.history VALUES ('snl-bots', 24, 'P2', '6', 'P2 52', 1796160059, 1, 943343190605822613);
INSERT INTO public.history VALUES ('snl-bots', 25, 'P1', '1', 'P1 38', 1796160059, 1, 5590481184913883830);
INSERT INTO public.history VALUES ('snl-bots', 26, 'P2', '4', 'P2 56', 1796160059, 1, 2519815847820690394);
INSERT INTO public.history VALUES ('snl-bots', 27, 'P1', '3', 'P1 41', 1796160059, 1, 6672541036499759203);
INSERT INTO public.history VALUES ('snl-bots', 28, 'P2', '1', 'P2 57', 1796160059, 1, 4266640629632135772);
INSERT INTO public.history VALUES ('snl-bots', 29, 'P1', '2', 'P1 43', 1796160059, 1, 2759890023487798997);
INSERT INTO public.history VALUES ('snl-bots', 30, 'P2', '3', 'P2 60', 1796160059, 1, 8399962122040349721);
INSERT INTO public.history VALUES ('snl-bots', 31, 'P1', '4', 'P1 47', 1796160059, 1, 3579352855954274619);
INSERT INTO public.history VALUES ('snl-bots', 32, 'P2', '5', 'P2 65', 1796160059, 1, 6687606066435711995);
INSERT INTO public.history VALUES ('snl-bots', 33, 'P1', '2', 'P1 49', 1796160059, 1, 1549731856117524988);
INSERT INTO public.history VALUES ('snl-bots', 34, 'P2', '2', 'P2 67', 1796160059, 1, 3204038442326637042);
INSERT INTO public.history VALUES ('snl-bots', 35, 'P1', '1', 'P1 50', 1796160059, 1, 4707929535660843524);
INSERT INTO public.history VALUES ('snl-bots', 36, 'P2', '2', 'P2 69', 1796160059, 1, 4480213808982737763);
INSERT INTO public.history VALUES ('snl-bots', 37, 'P1', '1', 'P1 51', 1796160059, 1, 2864370256359195747);
INSERT INTO public.history VALUES ('snl-bots', 38, 'P2', '5', 'P2 74', 1796160059, 1, 1395820973522070524);
INSERT INTO public.history VALUES ('snl-bots', 39, 'P1', '5', 'P1 56', 1796160059, 1, 1700659219581703715);
INSERT INTO public.history VALUES ('snl-bots', 40, 'P2', '6', 'P2 80', 1796160059, 1, 3863701913382505134);
INSERT INTO public.history VALUES ('snl-bots', 41, 'P1', '1', 'P1 57', 1796160059, 1, 4126987969537188520);
INSERT INTO public.history VALUES ('snl-bots', 42, 'P2', '1', 'P2 81', 1796160059, 1, 6579386317977244848);
INSERT INTO public.history VALUES ('snl-bots', 43, 'P1', '3', 'P1 60', 1796160059, 1, 2776533939686631795);
INSERT INTO public.history VALUES ('snl-bots', 44, 'P2', '4', 'P2 85', 1796160059, 1, 1163303877108884416);
INSERT INTO public.history VALUES ('snl-bots', 45, 'P1', '5', 'P1 65', 1796160059, 1, 3269378827681133661);
INSERT INTO public.history VALUES ('snl-bots', 46, 'P2', '1', 'P2 86', 1796160059, 1, 2031023193827622124);
INSERT INTO public.history VALUES ('snl-bots', 47, 'P1', '5', 'P1 70', 1796160059, 1, 7996218280993974821);
INSERT INTO public.history VALUES ('snl-bots', 48, 'P2', '6', 'P2 92', 1796160059, 1, 2995204999432799018);
INSERT INTO public.history VALUES ('snl-bots', 49, 'P1', '3', 'P1 73', 1796160059, 1, 6841894075092472130);
INSERT INTO public.history VALUES ('snl-bots', 50, 'P2', '3', 'P2 95', 1796160059, 1, 3759709743284402073);
INSERT INTO public.history VALUES ('snl-bots', 51, 'P1', '6', 'P1 79', 1796160059, 1, 9137520537950491115);
INSERT INTO public.history VALUES ('snl-bots', 52, 'P2', '1', 'P2 96', 1796160059, 1, 5523896099691620071);
INSERT INTO public.history VALUES ('snl-bots', 53, 'P1', '3', 'P1 82', 1796160059, 1, 5005906439108034091);
INSERT INTO public.history VALUES ('snl-bots', 54, 'P2', '6', 'P2 96', 1796160059, 1, 1706827995745170836);
INSERT INTO public.history VALUES ('snl-bots', 55, 'P1', '1', 'P1 83', 1796160059, 1, 4877559651723829944);
INSERT INTO public.history VALUES ('snl-bots', 56, 'P2', '3', 'P2 99', 1796160059, 1, 2878604422025738617);
INSERT INTO public.history VALUES ('snl-bots', 57, 'P1', '6', 'P1 89', 1796160059, 1, 7391238816713766786);
INSERT INTO public.history VALUES ('snl-bots', 58, 'P2', '2', 'P2 99', 1796160059, 1, 2030644014463708706);
INSERT INTO public.history VALUES ('snl-bots', 59, 'P1', '3', 'P1 92', 1796160059, 1, 2844945182856880975);
INSERT INTO public.history VALUES ('snl-bots', 60, 'P2', '3', 'P2 99', 1796160059, 1, 860131287776753158);
INSERT INTO public.history VALUES ('snl-bots', 61, 'P1', '4', 'P1 96', 1796160059, 1, 4564354735667673460);
INSERT INTO public.history VALUES ('snl-bots', 62, 'P2', '4', 'P2 99', 1796160059, 1, 3745616946315015957);
INSERT INTO public.history VALUES ('snl-bots', 63, 'P1', '1', 'P1 97', 1796160059, 1, 6417112465937426580);
INSERT INTO public.history VALUES ('snl-bots', 64, 'P2', '1', 'P2 WINS', 1796160059, 1, 4941503827785094797);


--
-- Data for Name: jumps; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.jumps VALUES ('snl-done', 4, 97);
INSERT INTO public.jumps VALUES ('snl-done', 99, 2);
INSERT INTO public.jumps VALUES ('snl-play', 50, 10);


--
-- Data for Name: ludus_nodes; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.ludus_nodes VALUES (2622132847639135675, 8040473770969103, '2026-12-01 21:20:33.020486+00');
INSERT INTO public.ludus_nodes VALUES (1802681617031522271, 1728430756078190223, '2026-12-01 21:20:33.765723+00');
INSERT INTO public.ludus_nodes VALUES (6736086242630983516, 7822827670495208199, '2026-12-01 21:20:34.45247+00');
INSERT INTO public.ludus_nodes VALUES (6460827869055832103, 7787980144973785895, '2026-12-01 21:20:35.296635+00');
INSERT INTO public.ludus_nodes VALUES (7145489277912309821, 6669505901508099620, '2026-12-01 21:20:35.790678+00');
INSERT INTO public.ludus_nodes VALUES (2448304989019778831, 3733048330705142267, '2026-12-01 21:20:36.174214+00');
INSERT INTO public.ludus_nodes VALUES (7797593485711453417, 3558571196190589011, '2026-12-01 21:20:36.641573+00');
INSERT INTO public.ludus_nodes VALUES (3875528983756605406, 7555495086724499276, '2026-12-01 21:20:37.092451+00');
INSERT INTO public.ludus_nodes VALUES (1937039190644822142, 9007091000651548221, '2026-12-01 21:20:37.404614+00');
INSERT INTO public.ludus_nodes VALUES (2214896800578113022, 804684947052235833, '2026-12-01 21:20:37.933677+00');
INSERT INTO public.ludus_nodes VALUES (6424626919472781602, 7372967850322513879, '2026-12-01 21:20:38.356867+00');
INSERT INTO public.ludus_nodes VALUES (3730609324088167594, 8111471110915895707, '2026-12-01 21:20:38.869767+00');
INSERT INTO public.ludus_nodes VALUES (1179658314168813194, 8562655083324644556, '2026-12-01 21:20:39.290137+00');
INSERT INTO public.ludus_nodes VALUES (8662448347946280095, 3205504261309229579, '2026-12-01 21:20:39.808738+00');
INSERT INTO public.ludus_nodes VALUES (4432643263002704254, 8836674370322798929, '2026-12-01 21:20:40.21851+00');
INSERT INTO public.ludus_nodes VALUES (4262173672082849311, 5199457454494002841, '2026-12-01 21:20:40.876335+00');
INSERT INTO public.ludus_nodes VALUES (537957480871017516, 2356605249776831346, '2026-12-01 21:20:41.277369+00');
INSERT INTO public.ludus_nodes VALUES (6449833979179316795, 3414140756357410927, '2026-12-01 21:20:41.741833+00');
INSERT INTO public.ludus_nodes VALUES (1365637066175046149, 2507348043974373533, '2026-12-01 21:20:42.228881+00');
INSERT INTO public.ludus_nodes VALUES (2995023886292093736, 8785199365916903450, '2026-12-01 21:20:42.772828+00');
INSERT INTO public.ludus_nodes VALUES (641979262455111697, 4654057166571985380, '2026-12-01 21:20:43.463255+00');
INSERT INTO public.ludus_nodes VALUES (8341269869376979865, 9065858278107635059, '2026-12-01 21:20:44.036648+00');
INSERT INTO public.ludus_nodes VALUES (730994449722619100, 6824809791183552766, '2026-12-01 21:20:44.52251+00');
INSERT INTO public.ludus_nodes VALUES (6397955169176105098, 1705291720604981011, '2026-12-01 21:20:45.410266+00');
INSERT INTO public.ludus_nodes VALUES (4286217624509799061, 445632660498302622, '2026-12-01 21:20:46.019717+00');
INSERT INTO public.ludus_nodes VALUES (5880256343619991109, 1090953636227700025, '2026-12-01 21:20:46.646531+00');
INSERT INTO public.ludus_nodes VALUES (2940103891791065018, 594786842128731949, '2026-12-01 21:20:47.425032+00');
INSERT INTO public.ludus_nodes VALUES (5705506059082623890, 4086347843322938442, '2026-12-01 21:20:47.936485+00');
INSERT INTO public.ludus_nodes VALUES (1358846877800134569, 1740345031955288117, '2026-12-01 21:20:48.679957+00');
INSERT INTO public.ludus_nodes VALUES (6315281521083610231, 657206463950176737, '2026-12-01 21:20:49.352691+00');
INSERT INTO public.ludus_nodes VALUES (3040887268312921181, 1393195695079333665, '2026-12-01 21:20:50.084359+00');
INSERT INTO public.ludus_nodes VALUES (5634311483226294470, 4267654602048669221, '2026-12-01 21:20:50.888603+00');
INSERT INTO public.ludus_nodes VALUES (8945253309894304187, 3970579286579404744, '2026-12-01 21:20:51.461947+00');
INSERT INTO public.ludus_nodes VALUES (5193912379978102337, 4935316203226483414, '2026-12-01 21:20:52.137565+00');
INSERT INTO public.ludus_nodes VALUES (4795287962246134876, 2594920600939368589, '2026-12-01 21:20:52.607136+00');
INSERT INTO public.ludus_nodes VALUES (1544365786573031058, 793633252070256838, '2026-12-01 21:20:53.394049+00');
INSERT INTO public.ludus_nodes VALUES (1111949230451612107, 2817072716007568683, '2026-12-01 21:20:53.900139+00');
INSERT INTO public.ludus_nodes VALUES (4510854346159931466, 5606105515968801993, '2026-12-01 21:20:54.378996+00');
INSERT INTO public.ludus_nodes VALUES (1404101410818398701, 2574597003072468593, '2026-12-01 21:20:55.012578+00');
INSERT INTO public.ludus_nodes VALUES (7284245671240632071, 7939716337939690274, '2026-12-01 21:20:55.655323+00');
INSERT INTO public.ludus_nodes VALUES (5225934772906024869, 656693968208053747, '2026-12-01 21:20:56.209394+00');
INSERT INTO public.ludus_nodes VALUES (7692397721496570485, 4996737628848781011, '2026-12-01 21:20:57.10005+00');
INSERT INTO public.ludus_nodes VALUES (670016894776979960, 6801301193825464502, '2026-12-01 21:20:57.595389+00');
INSERT INTO public.ludus_nodes VALUES (1534982777984425884, 5789573263087673174, '2026-12-01 21:20:58.334688+00');
INSERT INTO public.ludus_nodes VALUES (5670906282242712901, 4941503827785094797, '2026-12-01 21:20:59.117112+00');


--
-- Data for Name: ludus_schema; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.ludus_schema VALUES (1);


--
-- Data for Name: meta; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.meta VALUES ('seat-secret', '\x38302fd435a9417beada7a64297edd198b6d2a9528b82bbc246c2af0d3082256');


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
INSERT INTO public.players VALUES ('dandy-deck', 0, 'P1', NULL, NULL);
INSERT INTO public.players VALUES ('dandy-deck', 1, 'P2', NULL, NULL);
INSERT INTO public.players VALUES ('dandy-hand', 0, 'P1', NULL, NULL);
INSERT INTO public.players VALUES ('dandy-hand', 1, 'P2', NULL, NULL);
INSERT INTO public.players VALUES ('dandy-hand', 2, 'P3', NULL, NULL);
INSERT INTO public.players VALUES ('ludo-seats', 0, 'a', NULL, '\xd8e7165dc8b6b17e7388edebdf895c46044e947664fbffe06851ccdcf171b902');
INSERT INTO public.players VALUES ('ludo-seats', 1, 'b', 2, '\x5b5fd6a129c92d85d0b87755b42f138eb2d99252184516f6b797c6ce698cdd7d');
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
INSERT INTO public.tokens VALUES ('snl-bots', 0, 0, 97, 0);
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

\unrestrict ZVoC8v61KhXgr35GzEn8EdtHjNzKIlGfp8jVxfTR1mGwK0ESYXfBTdohc8iyj8j

