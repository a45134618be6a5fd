-- ludus upgrade fixture pg-v3: written by commit a468a7e's
-- ludus --store (tests/upgrade/make-fixtures.sh), dumped by pg_dump.
--
-- PostgreSQL database dump
--

\restrict fg1jMMDwRqA5wUZEDwRvFbn3TAp9vc63fbmeqkLcYayJ0JOQ6ulZoYlop9TL4Wl


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
-- Name: accounts; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.accounts (
    name text NOT NULL,
    key bytea,
    bot integer,
    created bigint NOT NULL,
    CONSTRAINT account_bot CHECK (((bot IS NULL) OR ((bot >= 0) AND (bot <= 2)))),
    CONSTRAINT account_key CHECK (((key IS NULL) OR (octet_length(key) = 32))),
    CONSTRAINT account_name CHECK ((name ~ '^[a-z0-9-]{1,50}$'::text)),
    CONSTRAINT account_person_or_bot CHECK (((key IS NULL) <> (bot IS NULL)))
);


--
-- Name: game_accounts; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.game_accounts (
    game text NOT NULL,
    idx integer NOT NULL,
    account text NOT NULL
);


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
-- Name: ratings; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.ratings (
    account text NOT NULL,
    kind integer NOT NULL,
    rating double precision NOT NULL,
    rd double precision NOT NULL,
    vol double precision NOT NULL,
    games bigint NOT NULL,
    won bigint NOT NULL,
    updated bigint NOT NULL,
    CONSTRAINT rating_games CHECK ((games >= 1)),
    CONSTRAINT rating_kind CHECK ((kind = ANY (ARRAY[1, 2, 3]))),
    CONSTRAINT rating_rd CHECK (((rd > (0)::double precision) AND (rd <= (350)::double precision))),
    CONSTRAINT rating_vol CHECK ((vol > (0)::double precision)),
    CONSTRAINT rating_won CHECK (((won >= 0) AND (won <= games)))
);


--
-- Name: ticket_ids; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.ticket_ids
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: tickets; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.tickets (
    id bigint NOT NULL,
    account text NOT NULL,
    kind integer NOT NULL,
    queue text NOT NULL,
    players_min integer NOT NULL,
    players_max integer NOT NULL,
    rating double precision NOT NULL,
    span double precision NOT NULL,
    bots_after bigint,
    joined bigint NOT NULL,
    state integer DEFAULT 0 NOT NULL,
    game text,
    seat integer,
    ended bigint,
    CONSTRAINT ticket_bots_after CHECK (((bots_after IS NULL) OR (bots_after >= 0))),
    CONSTRAINT ticket_game CHECK (((game IS NULL) OR ((length(game) >= 1) AND (length(game) <= 50)))),
    CONSTRAINT ticket_id CHECK ((id >= 1)),
    CONSTRAINT ticket_kind CHECK ((kind = ANY (ARRAY[1, 2, 3]))),
    CONSTRAINT ticket_matched CHECK ((((state = 1) = (game IS NOT NULL)) AND ((game IS NULL) = (seat IS NULL)) AND ((state = 0) = (ended IS NULL)))),
    CONSTRAINT ticket_players CHECK ((((players_min >= 2) AND (players_min <= 64)) AND ((players_max >= players_min) AND (players_max <= 64)))),
    CONSTRAINT ticket_queue CHECK (((length(queue) >= 1) AND (length(queue) <= 255))),
    CONSTRAINT ticket_seat CHECK (((seat IS NULL) OR ((seat >= 0) AND (seat <= 63)))),
    CONSTRAINT ticket_span CHECK ((span >= (0)::double precision)),
    CONSTRAINT ticket_state CHECK ((state = ANY (ARRAY[0, 1, 2])))
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
-- Data for Name: accounts; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.accounts VALUES ('bot-first', NULL, 0, 0);
INSERT INTO public.accounts VALUES ('bot-aggressive', NULL, 1, 0);
INSERT INTO public.accounts VALUES ('bot-expert', NULL, 2, 0);


--
-- Data for Name: game_accounts; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: games; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.games VALUES ('ludo-done', 1, 2, 0, -1, 3, 3, 1796197434, 1796197434, 0, 1, 0, 0, NULL, NULL, NULL, 0, 0, 0, NULL, NULL, NULL, 6277144471553877790);
INSERT INTO public.games VALUES ('ludo-four', 1, 4, 0, -1, 0, 8, 1796197434, 1796197435, 0, 1, 0, 0, NULL, NULL, NULL, 0, 0, 0, NULL, NULL, NULL, 7546472853654518575);
INSERT INTO public.games VALUES ('ludo-new', 1, 3, 0, -1, 0, 0, 1796197435, 1796197435, 0, 1, 0, 0, NULL, NULL, NULL, 0, 0, 0, NULL, NULL, NULL, 6241087599376122889);
INSERT INTO public.games VALUES ('snl-done', 2, 2, -1, 0, 1, 3, 1796197435, 1796197435, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 0, 0, 0, NULL, NULL, NULL, 1632507530142144403);
INSERT INTO public.games VALUES ('snl-six', 2, 6, 1, -1, 1, 7, 1796197435, 1796197435, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 0, 0, 0, NULL, NULL, NULL, 5348029164412709475);
INSERT INTO public.games VALUES ('snl-play', 2, 3, 2, -1, 1, 8, 1796197435, 1796197436, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 0, 0, 0, NULL, NULL, NULL, 6126059638824388198);
INSERT INTO public.games VALUES ('dandy-deck', 3, 2, 1, -1, 5, 5, 1796197436, 1796197436, NULL, NULL, NULL, NULL, 'abcabcghi', 1, 'abcdefghi123', 0, 0, 0, NULL, NULL, NULL, 4148756364914933922);
INSERT INTO public.games VALUES ('dandy-hand', 3, 3, 0, -1, 0, 6, 1796197436, 1796197436, NULL, NULL, NULL, NULL, 'aabbccddeeffgghhii', 0, NULL, 0, 0, 0, NULL, NULL, NULL, 6172652644702486363);
INSERT INTO public.games VALUES ('ludo-seats', 1, 2, 0, -1, 0, 0, 1796197436, 1796197436, 0, 1, 0, 0, NULL, NULL, NULL, 1, 1, 3600, 1796201036454, NULL, NULL, 8805220730965565375);
INSERT INTO public.games VALUES ('snl-bots', 2, 2, -1, 1, 1, 60, 1796197436, 1796197436, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 0, 1, 0, NULL, NULL, NULL, 2817895701548540544);


--
-- Data for Name: history; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.history VALUES ('ludo-done', 1, 'red', '6:1', 'MOVED', 1796197434, 0, 456187381665256623);
INSERT INTO public.history VALUES ('ludo-done', 2, 'red', '6:1', 'MOVED', 1796197434, 0, 500611909810376801);
INSERT INTO public.history VALUES ('ludo-done', 3, 'red', '6:1', 'MOVED', 1796197434, 0, 6151112533001922406);
INSERT INTO public.history VALUES ('ludo-four', 1, 'a', '6:1', 'MOVED', 1796197434, 0, 9113744116347420932);
INSERT INTO public.history VALUES ('ludo-four', 2, 'a', '3:1', 'MOVED', 1796197434, 0, 8396298436864998968);
INSERT INTO public.history VALUES ('ludo-four', 3, 'b', '6:2', 'MOVED', 1796197434, 0, 3838593232988964787);
INSERT INTO public.history VALUES ('ludo-four', 4, 'b', '2:2', 'MOVED', 1796197435, 0, 7192500079164676797);
INSERT INTO public.history VALUES ('ludo-four', 5, 'c', '5:0', 'PASSED', 1796197435, 0, 8601610050769753712);
INSERT INTO public.history VALUES ('ludo-four', 6, 'd', '6:4', 'MOVED', 1796197435, 0, 6216295296956487653);
INSERT INTO public.history VALUES ('ludo-four', 7, 'd', '6:4', 'MOVED', 1796197435, 0, 7137393989916627675);
INSERT INTO public.history VALUES ('ludo-four', 8, 'd', '1:4', 'MOVED', 1796197435, 0, 4672958963695300855);
INSERT INTO public.history VALUES ('snl-done', 1, 'P1', '4', 'P1 97', 1796197435, 0, 4697664700657130994);
INSERT INTO public.history VALUES ('snl-done', 2, 'P2', '3', 'P2 3', 1796197435, 0, 6345996661786277519);
INSERT INTO public.history VALUES ('snl-done', 3, 'P1', '3', 'P1 WINS', 1796197435, 0, 8336936896549730413);
INSERT INTO public.history VALUES ('snl-six', 1, 'P1', '3', 'P1 3', 1796197435, 0, 6417421433260096850);
INSERT INTO public.history VALUES ('snl-six', 2, 'P2', '4', 'P2 4', 1796197435, 0, 7730830500596405904);
INSERT INTO public.history VALUES ('snl-six', 3, 'P3', '5', 'P3 5', 1796197435, 0, 4136612808767977809);
INSERT INTO public.history VALUES ('snl-six', 4, 'P4', '6', 'P4 6', 1796197435, 0, 5322148166768612115);
INSERT INTO public.history VALUES ('snl-six', 5, 'P5', '1', 'P5 1', 1796197435, 0, 7733387536957205634);
INSERT INTO public.history VALUES ('snl-six', 6, 'P6', '2', 'P6 2', 1796197435, 0, 3863916088060972597);
INSERT INTO public.history VALUES ('snl-six', 7, 'P1', '3', 'P1 6', 1796197435, 0, 2732457455989890412);
INSERT INTO public.history VALUES ('snl-play', 1, 'P1', '6', 'P1 6', 1796197435, 0, 7460753570813602371);
INSERT INTO public.history VALUES ('snl-play', 2, 'P2', '6', 'P2 6', 1796197435, 0, 5007058329099966782);
INSERT INTO public.history VALUES ('snl-play', 3, 'P3', '6', 'P3 6', 1796197435, 0, 5667946763443257519);
INSERT INTO public.history VALUES ('snl-play', 4, 'P1', '5', 'P1 11', 1796197435, 0, 5977350920638755681);
INSERT INTO public.history VALUES ('snl-play', 5, 'P2', '4', 'P2 10', 1796197435, 0, 3232738310583398659);
INSERT INTO public.history VALUES ('snl-play', 6, 'P3', '3', 'P3 9', 1796197435, 0, 8938258735016409958);
INSERT INTO public.history VALUES ('snl-play', 7, 'P1', '2', 'P1 13', 1796197436, 0, 9011609189897358990);
INSERT INTO public.history VALUES ('snl-play', 8, 'P2', '1', 'P2 11', 1796197436, 0, 2455729989441730887);
INSERT INTO public.history VALUES ('dandy-deck', 1, 'P1', 'a', 'P1 1 0', 1796197436, 0, 6463645265160087530);
INSERT INTO public.history VALUES ('dandy-deck', 2, 'P2', 'b', 'P2 2 0', 1796197436, 0, 9172443163475053861);
INSERT INTO public.history VALUES ('dandy-deck', 3, 'P1', 'c', 'P1 3 0', 1796197436, 0, 2240656041789247383);
INSERT INTO public.history VALUES ('dandy-deck', 4, 'P2', 'd', 'P2 1 0', 1796197436, 0, 6250004784202189887);
INSERT INTO public.history VALUES ('dandy-deck', 5, 'P1', 'e', 'P1 2 0', 1796197436, 0, 5315291323807559500);
INSERT INTO public.history VALUES ('dandy-hand', 1, 'P1', 'a', 'P1 1 0', 1796197436, 0, 8922972407636516729);
INSERT INTO public.history VALUES ('dandy-hand', 2, 'P2', 'b', 'P2 3 0', 1796197436, 0, 3520445214863401566);
INSERT INTO public.history VALUES ('dandy-hand', 3, 'P3', 'c', 'P3 5 0', 1796197436, 0, 144323738683335974);
INSERT INTO public.history VALUES ('dandy-hand', 4, 'P1', '1', 'P1 2 0', 1796197436, 0, 1471053471630042003);
INSERT INTO public.history VALUES ('dandy-hand', 5, 'P2', 'd', 'P2 7 0', 1796197436, 0, 3669255681200201459);
INSERT INTO public.history VALUES ('dandy-hand', 6, 'P3', 'e', 'P3 9 0', 1796197436, 0, 4618001004358435271);
INSERT INTO public.history VALUES ('snl-bots', 1, 'P1', '5', 'P1 5', 1796197436, 1, 2768038140101765963);
INSERT INTO public.history VALUES ('snl-bots', 2, 'P2', '6', 'P2 6', 1796197436, 1, 4397544286083697533);
INSERT INTO public.history VALUES ('snl-bots', 3, 'P1', '1', 'P1 6', 1796197436, 1, 1415440462002836183);
INSERT INTO public.history VALUES ('snl-bots', 4, 'P2', '3', 'P2 9', 1796197436, 1, 4255026218283626219);
INSERT INTO public.history VALUES ('snl-bots', 5, 'P1', '4', 'P1 10', 1796197436, 1, 7356470283139124420);
INSERT INTO public.history VALUES ('snl-bots', 6, 'P2', '1', 'P2 10', 1796197436, 1, 8720036090149445653);
INSERT INTO public.history VALUES ('snl-bots', 7, 'P1', '6', 'P1 16', 1796197436, 1, 2410116366549675581);
INSERT INTO public.history VALUES ('snl-bots', 8, 'P2', '1', 'P2 11', 1796197436, 1, 7462191335991672466);
INSERT INTO public.history VALUES ('snl-bots', 9, 'P1', '2', 'P1 18', 1796197436, 1, 6221489368524608509);
INSERT INTO public.history VALUES ('snl-bots', 10, 'P2', '4', 'P2 15', 1796197436, 1, 4333622245613867199);
INSERT INTO public.history VALUES ('snl-bots', 11, 'P1', '6', 'P1 24', 1796197436, 1, 1433713537663750022);
INSERT INTO public.history VALUES ('snl-bots', 12, 'P2', '6', 'P2 21', 1796197436, 1, 9074168142059224242);
INSERT INTO public.history VALUES ('snl-bots', 13, 'P1', '5', 'P1 29', 1796197436, 1, 4012480063879059786);
INSERT INTO public.history VALUES ('snl-bots', 14, 'P2', '6', 'P2 27', 1796197436, 1, 5558743510234327957);
INSERT INTO public.history VALUES ('snl-bots', 15, 'P1', '2', 'P1 31', 1796197436, 1, 3648846973878332823);
INSERT INTO public.history VALUES ('snl-bots', 16, 'P2', '4', 'P2 31', 1796197436, 1, 6760767633784053934);
INSERT INTO public.history VALUES ('snl-bots', 17, 'P1', '3', 'P1 34', 1796197436, 1, 8692224931571911550);
INSERT INTO public.history VALUES ('snl-bots', 18, 'P2', '6', 'P2 37', 1796197436, 1, 1329305471893795487);
INSERT INTO public.history VALUES ('snl-bots', 19, 'P1', '2', 'P1 36', 1796197436, 1, 2393159014310707540);
INSERT INTO public.history VALUES ('snl-bots', 20, 'P2', '1', 'P2 38', 1796197436, 1, 4601211129521513085);
INSERT INTO public.history VALUES ('snl-bots', 21, 'P1', '6', 'P1 42', 1796197436, 1, 7516929343630503819);
INSERT INTO public.history VALUES ('snl-bots', 22, 'P2', '6', 'P2 44', 1796197436, 1, 4520776707154949172);
INSERT INTO public.history VALUES ('snl-bots', 23, 'P1', '2', 'P1 44', 1796197436, 1, 7006041359153414292);
INSERT INTO public.history VALUES ('snl-bots', 24, 'P2', '3', 'P2 47', 1796197436, 1, 108833736627548056);
INSERT INTO public.history VALUES ('snl-bots', 25, 'P1', '6', 'P1 50', 1796197436, 1, 6692835088304259719);
INSERT INTO public.history VALUES ('snl-bots', 26, 'P2', '4', 'P2 51', 1796197436, 1, 1826733488676597885);
INSERT INTO public.history VALUES ('snl-bots', 27, 'P1', '4', 'P1 54', 1796197436, 1, 2018241054766124399);
INSERT INTO public.history VALUES ('snl-bots', 28, 'P2', '5', 'P2 56', 1796197436, 1, 4816757199146360913);
INSERT INTO public.history VALUES ('snl-bots', 29, 'P1', '2', 'P1 56', 1796197436, 1, 821791837716383600);
INSERT INTO public.history VALUES ('snl-bots', 30, 'P2', '4', 'P2 60', 1796197436, 1, 4198569838151152363);
INSERT INTO public.history VALUES ('snl-bots', 31, 'P1', '3', 'P1 59', 1796197436, 1, 3224650211303808089);
INSERT INTO public.history VALUES ('snl-bots', 32, 'P2', '1', 'P2 61', 1796197436, 1, 4500067785385136951);
INSERT INTO public.history VALUES ('snl-bots', 33, 'P1', '2', 'P1 61', 1796197436, 1, 8851376727342640302);
INSERT INTO public.history VALUES ('snl-bots', 34, 'P2', '2', 'P2 63', 1796197436, 1, 8952633133905465621);
INSERT INTO public.history VALUES ('snl-bots', 35, 'P1', '3', 'P1 64', 1796197436, 1, 6356767323373400019);
INSERT INTO public.history VALUES ('snl-bots', 36, 'P2', '4', 'P2 67', 1796197436, 1, 9160131935070963250);
INSERT INTO public.history VALUES ('snl-bots', 37, 'P1', '1', 'P1 65', 1796197436, 1, 7959413106475679111);
INSERT INTO public.history VALUES ('snl-bots', 38, 'P2', '1', 'P2 68', 1796197436, 1, 4943595450259883119);
INSERT INTO public.history VALUES ('snl-bots', 39, 'P1', '5', 'P1 70', 1796197436, 1, 6348148950700794765);
INSERT INTO public.history VALUES ('snl-bots', 40, 'P2', '6', 'P2 74', 1796197436, 1, 8181226542245431798);
INSERT INTO public.history VALUES ('snl-bots', 41, 'P1', '5', 'P1 75', 1796197436, 1, 5714711584856857870);
INSERT INTO public.history VALUES ('snl-bots', 42, 'P2', '2', 'P2 76', 1796197436, 1, 7153097370176209972);
INSERT INTO public.history VALUES ('snl-bots', 43, 'P1', '4', 'P1 79', 1796197436, 1, 6192603072864050059);
INSERT INTO public.history VALUES ('snl-bots', 44, 'P2', '4', 'P2 80', 1796197436, 1, 464126283194641646);
INSERT INTO public.history VALUES ('snl-bots', 45, 'P1', '4', 'P1 83', 1796197436, 1, 7048466969774265048);
INSERT INTO public.history VALUES ('snl-bots', 46, 'P2', '6', 'P2 86', 1796197436, 1, 8662496443085274574);
INSERT INTO public.history VALUES ('snl-bots', 47, 'P1', '6', 'P1 89', 1796197436, 1, 5201097760472074647);
INSERT INTO public.history VALUES ('snl-bots', 48, 'P2', '4', 'P2 90', 1796197436, 1, 5035429071681338021);
INSERT INTO public.history VALUES ('snl-bots', 49, 'P1', '2', 'P1 91', 1796197436, 1, 87512653915480551);
INSERT INTO public.history VALUES ('snl-bots', 50, 'P2', '6', 'P2 96', 1796197436, 1, 1849735003532985516);
INSERT INTO public.history VALUES ('snl-bots', 51, 'P1', '5', 'P1 96', 1796197436, 1, 2102579294773942555);
INSERT INTO public.history VALUES ('snl-bots', 52, 'P2', '1', 'P2 97', 1796197436, 1, 2689017690528976334);
INSERT INTO public.history VALUES ('snl-bots', 53, 'P1', '3', 'P1 99', 1796197436, 1, 4822979186457808631);
INSERT INTO public.history VALUES ('snl-bots', 54, 'P2', '4', 'P2 97', 1796197436, 1, 7751112715212345235);
INSERT INTO public.history VALUES ('snl-bots', 55, 'P1', '3', 'P1 99', 1796197436, 1, 3559708360898200551);
INSERT INTO public.history VALUES ('snl-bots', 56, 'P2', '2', 'P2 99', 1796197436, 1, 2092793779299968516);
INSERT INTO public.history VALUES ('snl-bots', 57, 'P1', '3', 'P1 99', 1796197436, 1, 780278931158109439);
INSERT INTO public.history VALUES ('snl-bots', 58, 'P2', '2', 'P2 99', 1796197436, 1, 1193911657167534625);
INSERT INTO public.history VALUES ('snl-bots', 59, 'P1', '5', 'P1 99', 1796197436, 1, 7658539508670181681);
INSERT INTO public.history VALUES ('snl-bots', 60, 'P2', '1', 'P2 WINS', 1796197436, 1, 3297093933968989566);


--
-- Data for Name: jumps; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.jumps VALUES ('snl-done', 4, 97);
INSERT INTO public.jumps VALUES ('snl-done', 99, 2);
INSERT INTO public.jumps VALUES ('snl-play', 50, 10);


--
-- Data for Name: ludus_nodes; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.ludus_nodes VALUES (3602559340119433147, 9183518154801883245, '2026-12-02 07:43:54.761213+00');
INSERT INTO public.ludus_nodes VALUES (6244946922585180843, 456187381665256623, '2026-12-02 07:43:54.795408+00');
INSERT INTO public.ludus_nodes VALUES (3009723852850292293, 500611909810376801, '2026-12-02 07:43:54.827776+00');
INSERT INTO public.ludus_nodes VALUES (5269562866586126780, 6151112533001922406, '2026-12-02 07:43:54.860049+00');
INSERT INTO public.ludus_nodes VALUES (7661866744368894367, 977516062430396264, '2026-12-02 07:43:54.892356+00');
INSERT INTO public.ludus_nodes VALUES (5947536065388416509, 9113744116347420932, '2026-12-02 07:43:54.926512+00');
INSERT INTO public.ludus_nodes VALUES (2568250494782908340, 8396298436864998968, '2026-12-02 07:43:54.959236+00');
INSERT INTO public.ludus_nodes VALUES (6882036894583416607, 3838593232988964787, '2026-12-02 07:43:54.992769+00');
INSERT INTO public.ludus_nodes VALUES (7397364932398279917, 7192500079164676797, '2026-12-02 07:43:55.026999+00');
INSERT INTO public.ludus_nodes VALUES (6489963710732892599, 8601610050769753712, '2026-12-02 07:43:55.06061+00');
INSERT INTO public.ludus_nodes VALUES (5398342133664636252, 6216295296956487653, '2026-12-02 07:43:55.094599+00');
INSERT INTO public.ludus_nodes VALUES (4613195282573881795, 7137393989916627675, '2026-12-02 07:43:55.127933+00');
INSERT INTO public.ludus_nodes VALUES (2424388962869899565, 4672958963695300855, '2026-12-02 07:43:55.161102+00');
INSERT INTO public.ludus_nodes VALUES (1013832268409170477, 1123382076541122318, '2026-12-02 07:43:55.19442+00');
INSERT INTO public.ludus_nodes VALUES (6262800128894313805, 6889671837275223856, '2026-12-02 07:43:55.231048+00');
INSERT INTO public.ludus_nodes VALUES (3178365515181230121, 7326987005847561313, '2026-12-02 07:43:55.264569+00');
INSERT INTO public.ludus_nodes VALUES (3133668168402653712, 738624415309804951, '2026-12-02 07:43:55.297496+00');
INSERT INTO public.ludus_nodes VALUES (1310404107583656613, 4697664700657130994, '2026-12-02 07:43:55.331349+00');
INSERT INTO public.ludus_nodes VALUES (43504964753585626, 6345996661786277519, '2026-12-02 07:43:55.365026+00');
INSERT INTO public.ludus_nodes VALUES (4380013342565177578, 8336936896549730413, '2026-12-02 07:43:55.397292+00');
INSERT INTO public.ludus_nodes VALUES (5300493988617285830, 480974824346370252, '2026-12-02 07:43:55.430799+00');
INSERT INTO public.ludus_nodes VALUES (755704287930699499, 154173469025752340, '2026-12-02 07:43:55.462917+00');
INSERT INTO public.ludus_nodes VALUES (3994000077568795566, 6417421433260096850, '2026-12-02 07:43:55.496098+00');
INSERT INTO public.ludus_nodes VALUES (839517656972136187, 7730830500596405904, '2026-12-02 07:43:55.530209+00');
INSERT INTO public.ludus_nodes VALUES (7786470634010227678, 4136612808767977809, '2026-12-02 07:43:55.563728+00');
INSERT INTO public.ludus_nodes VALUES (4183638679912097143, 5322148166768612115, '2026-12-02 07:43:55.597296+00');
INSERT INTO public.ludus_nodes VALUES (4595239260474496749, 7733387536957205634, '2026-12-02 07:43:55.631096+00');
INSERT INTO public.ludus_nodes VALUES (4301932230172673844, 3863916088060972597, '2026-12-02 07:43:55.665597+00');
INSERT INTO public.ludus_nodes VALUES (2595372063537741201, 2732457455989890412, '2026-12-02 07:43:55.699339+00');
INSERT INTO public.ludus_nodes VALUES (6089887367147846727, 8083815433301859118, '2026-12-02 07:43:55.731744+00');
INSERT INTO public.ludus_nodes VALUES (7045213933003689253, 7460753570813602371, '2026-12-02 07:43:55.770032+00');
INSERT INTO public.ludus_nodes VALUES (6130275335946854936, 5007058329099966782, '2026-12-02 07:43:55.804453+00');
INSERT INTO public.ludus_nodes VALUES (7054637700999646758, 5667946763443257519, '2026-12-02 07:43:55.846607+00');
INSERT INTO public.ludus_nodes VALUES (1229472848330900877, 5977350920638755681, '2026-12-02 07:43:55.896836+00');
INSERT INTO public.ludus_nodes VALUES (209134210890175987, 3232738310583398659, '2026-12-02 07:43:55.935832+00');
INSERT INTO public.ludus_nodes VALUES (5826488170250048043, 8938258735016409958, '2026-12-02 07:43:55.972325+00');
INSERT INTO public.ludus_nodes VALUES (6666731530754686427, 9011609189897358990, '2026-12-02 07:43:56.006214+00');
INSERT INTO public.ludus_nodes VALUES (8207879915816069219, 2455729989441730887, '2026-12-02 07:43:56.036089+00');
INSERT INTO public.ludus_nodes VALUES (1369426156421932883, 8646545924659316229, '2026-12-02 07:43:56.066401+00');
INSERT INTO public.ludus_nodes VALUES (4436913447737681447, 6463645265160087530, '2026-12-02 07:43:56.097151+00');
INSERT INTO public.ludus_nodes VALUES (7453409290705547142, 9172443163475053861, '2026-12-02 07:43:56.127944+00');
INSERT INTO public.ludus_nodes VALUES (3191192569260455794, 2240656041789247383, '2026-12-02 07:43:56.157645+00');
INSERT INTO public.ludus_nodes VALUES (7389584031401899836, 6250004784202189887, '2026-12-02 07:43:56.188332+00');
INSERT INTO public.ludus_nodes VALUES (1201155651067795568, 5315291323807559500, '2026-12-02 07:43:56.219184+00');
INSERT INTO public.ludus_nodes VALUES (594882118776713314, 1530781567285842220, '2026-12-02 07:43:56.248333+00');
INSERT INTO public.ludus_nodes VALUES (4251696975762696199, 8922972407636516729, '2026-12-02 07:43:56.277941+00');
INSERT INTO public.ludus_nodes VALUES (4476170264932569976, 3520445214863401566, '2026-12-02 07:43:56.307254+00');
INSERT INTO public.ludus_nodes VALUES (6520886866473782780, 144323738683335974, '2026-12-02 07:43:56.336127+00');
INSERT INTO public.ludus_nodes VALUES (3042131662530567717, 1471053471630042003, '2026-12-02 07:43:56.36597+00');
INSERT INTO public.ludus_nodes VALUES (608186417672756757, 3669255681200201459, '2026-12-02 07:43:56.395727+00');
INSERT INTO public.ludus_nodes VALUES (5626709123980591969, 4618001004358435271, '2026-12-02 07:43:56.425077+00');
INSERT INTO public.ludus_nodes VALUES (3277575111434218361, 848040900894013380, '2026-12-02 07:43:56.455432+00');
INSERT INTO public.ludus_nodes VALUES (2773317582764120651, 3297093933968989566, '2026-12-02 07:43:56.510737+00');


--
-- Data for Name: ludus_schema; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.ludus_schema VALUES (3);


--
-- Data for Name: meta; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.meta VALUES ('seat-secret', '\x5bfc0a9ff7a9b9268de3118202ea24fe0abd4f0225c91e2aedd7189931e8a839');


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
INSERT INTO public.players VALUES ('ludo-seats', 0, 'a', NULL, '\x7dd79e89c1a6b8ca8459bb83e7f89c7d2648c3c7a18814e1cf61e5944ce00c4f');
INSERT INTO public.players VALUES ('ludo-seats', 1, 'b', 2, '\xbf767d858763808ab3718b682845f606f62aee849f12bf8f5b38903912df0780');
INSERT INTO public.players VALUES ('snl-bots', 0, 'P1', 0, NULL);
INSERT INTO public.players VALUES ('snl-bots', 1, 'P2', 0, NULL);


--
-- Data for Name: ratings; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: tickets; Type: TABLE DATA; Schema: public; Owner: -
--



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
INSERT INTO public.tokens VALUES ('snl-bots', 0, 0, 99, 0);
INSERT INTO public.tokens VALUES ('snl-bots', 1, 0, 100, 0);


--
-- Name: ticket_ids; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.ticket_ids', 1, false);


--
-- Name: accounts accounts_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.accounts
    ADD CONSTRAINT accounts_pkey PRIMARY KEY (name);


--
-- Name: game_accounts game_accounts_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.game_accounts
    ADD CONSTRAINT game_accounts_pkey PRIMARY KEY (game, idx);


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
-- Name: ratings ratings_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.ratings
    ADD CONSTRAINT ratings_pkey PRIMARY KEY (account, kind);


--
-- Name: tickets tickets_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.tickets
    ADD CONSTRAINT tickets_pkey PRIMARY KEY (id);


--
-- Name: tokens tokens_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.tokens
    ADD CONSTRAINT tokens_pkey PRIMARY KEY (game, player, token);


--
-- Name: game_accounts_account; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX game_accounts_account ON public.game_accounts USING btree (account, game);


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
-- Name: ratings_board; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ratings_board ON public.ratings USING btree (kind, rating DESC, account);


--
-- Name: tickets_account; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX tickets_account ON public.tickets USING btree (account) WHERE (state = 0);


--
-- Name: tickets_waiting; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX tickets_waiting ON public.tickets USING btree (queue, joined, id) WHERE (state = 0);


--
-- Name: game_accounts game_accounts_account_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.game_accounts
    ADD CONSTRAINT game_accounts_account_fkey FOREIGN KEY (account) REFERENCES public.accounts(name);


--
-- Name: game_accounts game_accounts_game_idx_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.game_accounts
    ADD CONSTRAINT game_accounts_game_idx_fkey FOREIGN KEY (game, idx) REFERENCES public.players(game, idx) ON DELETE CASCADE;


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
-- Name: ratings ratings_account_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.ratings
    ADD CONSTRAINT ratings_account_fkey FOREIGN KEY (account) REFERENCES public.accounts(name);


--
-- Name: tickets tickets_account_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.tickets
    ADD CONSTRAINT tickets_account_fkey FOREIGN KEY (account) REFERENCES public.accounts(name);


--
-- Name: tokens tokens_game_player_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.tokens
    ADD CONSTRAINT tokens_game_player_fkey FOREIGN KEY (game, player) REFERENCES public.players(game, idx) ON DELETE CASCADE;


--
-- PostgreSQL database dump complete
--

\unrestrict fg1jMMDwRqA5wUZEDwRvFbn3TAp9vc63fbmeqkLcYayJ0JOQ6ulZoYlop9TL4Wl

