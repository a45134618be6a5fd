#!lua name=ludus
-- bench/redis/ludus.lua: the same-work baseline of bench/compare
-- (doc/benchmarks.md): Ludo and DandyLand kept in Redis the way a user who
-- keeps game state in Redis would keep them, as Redis Functions (Redis 7,
-- FUNCTION LOAD).
--
-- One hash per game, named by the game id, holds its whole state.  A move
-- reads the fields it needs (one HMGET), checks and applies the rules here,
-- writes back only the fields that changed (one HSET, with the move count
-- and the time of the move), and appends one entry to the game's history
-- stream "<id>:history" (XADD: seq, player, action, result), all in one
-- atomic call.  A create writes the hash and adds the id to the kind's
-- sorted set of games, what ludusd's GAMES pages through.  Both keys of a
-- call are passed as keys, as a Redis Function must.
--
--   FCALL ludo_create 2 <id> games:ludo <p1> <p2> [<p3> [<p4>]]
--       [rules=classic|interview|extended] [six-bonus=on|off] ...
--   FCALL ludo_play 2 <id> <id>:history <player> <dice> <token>
--   FCALL dandy_create 2 <id> games:dandy <players> <board> [deck=<cards>]
--   FCALL dandy_draw 2 <id> <id>:history [<card>]
--
-- Every reply is byte for byte the reply of the ludusd command of the same
-- words (doc/protocol.md), errors included: bench/samecheck plays random
-- moves on both and stops at the first difference, before any timing.
-- What the benchmark never sends (seats, bots, server dice and decks,
-- turn deadlines, AT seq) is refused, not imitated.

local function err(msg)
	return redis.error_reply(msg)
end

local function status(s)
	return redis.status_reply(s)
end

-- A game or player id: 1 to 50 of a-z, 0-9 and '-'.
local function valid_id(s)
	return #s >= 1 and #s <= 50 and not s:find('[^a-z0-9%-]')
end

local function now()
	return redis.call('TIME')[1]
end

local function nogame(id)
	return err("NOGAME no such game '" .. id .. "'")
end

local function wrongtype(id, kind)
	return err("WRONGTYPE game '" .. id .. "' is a " .. kind .. " game")
end

-- What every call checks first: enough words after the keys (fewer is
-- ludusd's arity error), not too many (max, if given: its syntax error),
-- and a valid game id.  The error, or nil.
local function precheck(cmd, keys, args, min, max)
	if #args < min then
		return err("ERR wrong number of arguments for '" .. cmd .. "'")
	end
	if max and #args > max then
		return err('ERR syntax error')
	end
	if not valid_id(keys[1]) then
		return err('BADARG invalid game id')
	end
	return nil
end

-- A new game: its hash (field, value, ...) unless the id is taken, and
-- the id in the kind's sorted set keys[2].
local function create(keys, h)
	local id = keys[1]
	if redis.call('EXISTS', id) == 1 then
		return err("EXISTS game '" .. id .. "' already exists")
	end
	local t = now()
	h[#h + 1] = 'created'
	h[#h + 1] = t
	h[#h + 1] = 'updated'
	h[#h + 1] = t
	redis.call('HSET', id, unpack(h))
	redis.call('ZADD', keys[2], 0, id)
	return status('OK')
end

-- A stored move: the changed fields w with the move count and the time,
-- and the move's entry in the history stream keys[2].
local function commit(keys, w, moves, player, action, res)
	w[#w + 1] = 'moves'
	w[#w + 1] = moves
	w[#w + 1] = 'updated'
	w[#w + 1] = now()
	redis.call('HSET', keys[1], unpack(w))
	redis.call('XADD', keys[2], '*', 'seq', moves, 'player', player,
	    'action', action, 'result', res)
	return status(res)
end

-- ------------------------------------------------------------------ Ludo
--
-- Fields: kind, players (the ids, space-separated, in turn order), rules
-- (the preset), six_bonus, capture_bonus, three_sixes (1 or 0), turn and
-- winner (player index from 0, -1 for none), sixes (sixes in a row this
-- turn), moves, created, updated, and t<p><t>: the relative position of
-- token t (1-4) of player p (1-4), -1 in the yard.

local PRESETS = {
	classic = { last = 51, finish = 58, capture = 0, three = 0 },
	interview = { last = 51, finish = 57, capture = 0, three = 0 },
	extended = { last = 50, finish = 56, capture = 1, three = 1 },
}

local FLAGS = {
	['six-bonus'] = 'six_bonus',
	['capture-bonus'] = 'capture_bonus',
	['three-sixes'] = 'three_sixes',
}

-- What a turn reads, in this order: h[LUDO_HEAD + 4 * p + t] is token t
-- of player p (from 0).
local LUDO_READ = { 'kind', 'players', 'rules', 'six_bonus',
	'capture_bonus', 'three_sixes', 'turn', 'winner', 'sixes', 'moves' }
local LUDO_HEAD = #LUDO_READ
for p = 1, 4 do
	for t = 1, 4 do
		LUDO_READ[#LUDO_READ + 1] = 't' .. p .. t
	end
end

-- The rules= preset, the last one given; nil and the error if unknown.
local function ludo_preset(args)
	local preset = 'classic'
	for _, a in ipairs(args) do
		if a:find('\0', 1, true) then
			return nil, err('BADARG invalid argument')
		end
		if a:sub(1, 6) == 'rules=' then
			preset = a:sub(7)
			if not PRESETS[preset] then
				return nil, err('BADARG rules must be classic, ' ..
				    'interview or extended')
			end
		end
	end
	return preset
end

-- The rule switches after the preset; nil and the error on a bad one.
local function ludo_flags(args, rules)
	local flags = { six_bonus = 1, capture_bonus = rules.capture,
		three_sixes = rules.three }
	for _, a in ipairs(args) do
		local eq = a:find('=', 1, true)
		local k = eq and a:sub(1, eq - 1)
		if k and k ~= 'rules' then
			local f, v = FLAGS[k], a:sub(eq + 1)
			if not f then
				return nil, err("ERR syntax error: unknown " ..
				    "option '" .. k:sub(1, 32) .. "'")
			end
			if v ~= 'on' and v ~= 'off' then
				return nil, err('BADARG ' .. k ..
				    ' must be on or off')
			end
			flags[f] = v == 'on' and 1 or 0
		end
	end
	return flags
end

local function ludo_players(args)
	local names, seen = {}, {}
	for _, a in ipairs(args) do
		if not a:find('=', 1, true) then
			if not valid_id(a) then
				return nil, err('BADARG invalid player id')
			end
			if #names == 4 then
				return nil, err('BADARG Ludo takes 2 to 4 players')
			end
			if seen[a] then
				return nil, err("BADARG duplicate player '" ..
				    a .. "'")
			end
			seen[a] = true
			names[#names + 1] = a
		end
	end
	if #names < 2 then
		return nil, err('BADARG Ludo takes 2 to 4 players')
	end
	return names
end

local function ludo_create(keys, args)
	local e = precheck('LUDO.CREATE', keys, args, 2)
	if e then
		return e
	end
	local preset
	preset, e = ludo_preset(args)
	if not preset then
		return e
	end
	local flags, names
	flags, e = ludo_flags(args, PRESETS[preset])
	if not flags then
		return e
	end
	names, e = ludo_players(args)
	if not names then
		return e
	end
	local h = { 'kind', 'ludo', 'players', table.concat(names, ' '),
		'rules', preset, 'six_bonus', flags.six_bonus,
		'capture_bonus', flags.capture_bonus,
		'three_sixes', flags.three_sixes, 'turn', 0, 'winner', -1,
		'sixes', 0, 'moves', 0 }
	for p = 1, #names do
		for k = 1, 4 do
			h[#h + 1] = 't' .. p .. k
			h[#h + 1] = -1
		end
	end
	return create(keys, h)
end

-- Where a token at from goes with dice, or -1: out of the yard only with
-- a six, and never past the finish.
local function target(from, dice, finish)
	if from == -1 then
		return dice == 6 and 0 or -1
	end
	if from + dice > finish then
		return -1
	end
	return from + dice
end

-- Sends every opposing token on the mover's landing cell home (none on a
-- safe cell or off the common track); adds their fields to w.
local function capture(h, w, p, n, to, last)
	if to > last then
		return 0
	end
	local cell = (13 * p + to) % 52
	if cell % 13 == 0 or cell % 13 == 8 then
		return 0
	end
	local captured = 0
	for q = 0, n - 1 do
		if q ~= p then
			for t = 1, 4 do
				local o = tonumber(h[LUDO_HEAD + 4 * q + t])
				if o >= 0 and o <= last and
				    (13 * q + o) % 52 == cell then
					w[#w + 1] = 't' .. (q + 1) .. t
					w[#w + 1] = -1
					captured = captured + 1
				end
			end
		end
	end
	return captured
end

-- A move of token (1-4) by the player to move: the result and the new
-- turn, sixes and winner, or nil for INVALID_MOVE.
local function ludo_move(h, w, g, dice, token)
	local base = LUDO_HEAD + 4 * g.p
	local to = target(tonumber(h[base + token]), dice, g.finish)
	if to == -1 then
		return nil
	end
	w[#w + 1] = 't' .. (g.p + 1) .. token
	w[#w + 1] = to
	local captured = capture(h, w, g.p, g.n, to, g.last)
	local won = true
	for t = 1, 4 do
		local v = t == token and to or tonumber(h[base + t])
		if v ~= g.finish then
			won = false
		end
	end
	if won then
		g.winner, g.turn, g.sixes = g.p, -1, 0
		return 'PLAYER_WON'
	end
	local res = to == g.finish and 'TOKEN_FINISHED' or
	    captured > 0 and 'MOVED_AND_CAPTURED' or 'MOVED'
	if (h[4] == '1' and dice == 6) or (h[5] == '1' and captured > 0) then
		g.sixes = dice ~= 6 and 0 or g.sixes + 1
	else
		g.turn, g.sixes = (g.turn + 1) % g.n, 0
	end
	return res
end

-- The turn of player p once the game and the player are known: the
-- result, or nil for INVALID_MOVE.
local function ludo_turn(h, w, g, dice, token)
	if g.p ~= g.turn then
		return nil
	end
	-- The third six in a row is not played, whatever was asked.
	if h[6] == '1' and dice == 6 and g.sixes == 2 then
		g.turn, g.sixes = (g.turn + 1) % g.n, 0
		return 'FORFEITED'
	end
	if token > 0 then
		return ludo_move(h, w, g, dice, token)
	end
	-- A pass is valid only when no token can move, and ends the turn.
	for t = 1, 4 do
		if target(tonumber(h[LUDO_HEAD + 4 * g.p + t]), dice,
		    g.finish) ~= -1 then
			return nil
		end
	end
	g.turn, g.sixes = (g.turn + 1) % g.n, 0
	return 'PASSED'
end

-- The index (from 0) of a player and the number of players.
local function ludo_player(names, player)
	local p, n = nil, 0
	for name in names:gmatch('%S+') do
		if name == player then
			p = n
		end
		n = n + 1
	end
	return p, n
end

local function ludo_play(keys, args)
	local id = keys[1]
	local e = precheck('LUDO.PLAY', keys, args, 3, 3)
	if e then
		return e
	end
	local player, dice, token = args[1], args[2], args[3]
	if not valid_id(player) then
		return err('BADARG invalid player id')
	end
	if not dice:find('^[1-6]$') then
		return err('BADARG dice must be an integer from 1 to 6')
	end
	if not token:find('^[0-4]$') then
		return err('BADARG token must be an integer from 0 to 4')
	end
	local h = redis.call('HMGET', id, unpack(LUDO_READ))
	if not h[1] then
		return nogame(id)
	end
	if h[1] ~= 'ludo' then
		return wrongtype(id, h[1])
	end
	-- A finished game answers GAME_OVER to anyone.
	if h[8] ~= '-1' then
		return status('GAME_OVER')
	end
	local p, n = ludo_player(h[2], player)
	if not p then
		return err("BADARG player '" .. player .. "' is not in game '" ..
		    id .. "'")
	end
	local rules = PRESETS[h[3]]
	local g = { p = p, n = n, last = rules.last, finish = rules.finish,
		turn = tonumber(h[7]), sixes = tonumber(h[9]), winner = -1 }
	local w = {}
	local res = ludo_turn(h, w, g, tonumber(dice), tonumber(token))
	if not res then
		return status('INVALID_MOVE')
	end
	w[#w + 1] = 'turn'
	w[#w + 1] = g.turn
	w[#w + 1] = 'winner'
	w[#w + 1] = g.winner
	w[#w + 1] = 'sixes'
	w[#w + 1] = g.sixes
	return commit(keys, w, tonumber(h[10]) + 1, player,
	    dice .. ':' .. token, res)
end

-- ------------------------------------------------------------- DandyLand
--
-- Fields: kind, players (how many, named P1..Pn), board (its letters),
-- deck (the cards, only in a game that has one), drawn (cards used),
-- turn (player index from 0; -1 once the deck is used up), moves,
-- created, updated, and per player i (1-8) pos<i> (square from 0, -1 off
-- the board) and points<i>.

-- What a draw reads: h[DANDY_HEAD + i] is pos<i>, h[DANDY_HEAD + 8 + i]
-- points<i>.
local DANDY_READ = { 'kind', 'players', 'board', 'deck', 'drawn', 'turn',
	'moves' }
local DANDY_HEAD = #DANDY_READ
for i = 1, 8 do
	DANDY_READ[#DANDY_READ + 1] = 'pos' .. i
end
for i = 1, 8 do
	DANDY_READ[#DANDY_READ + 1] = 'points' .. i
end

-- The deck= option, if any: the cards, false for none, or nil and the
-- error.
local function dandy_deck(args)
	local deck = false
	for i = 3, #args do
		local a = args[i]
		if a:find('\0', 1, true) or not a:find('=', 1, true) then
			return nil, err("ERR wrong number of arguments " ..
			    "for 'DANDY.CREATE'")
		end
		if a:sub(1, 5) ~= 'deck=' then
			return nil, err('ERR syntax error')
		end
		deck = a:sub(6)
		if deck:sub(1, 8) == 'shuffled' then
			return nil, err('ERR deck=shuffled is not in this ' ..
			    'baseline')
		end
		if #deck > 1024 or deck:find('[^a-i1-9]') then
			return nil, err('BADARG cards must be at most 1024 of ' ..
			    'a-i and 1-9')
		end
	end
	return deck
end

local function dandy_create(keys, args)
	local e = precheck('DANDY.CREATE', keys, args, 2)
	if e then
		return e
	end
	local n, board = args[1], args[2]
	if not n:find('^[1-8]$') then
		return err('BADARG players must be an integer from 1 to 8')
	end
	if #board < 1 or #board > 36 or board:find('[^a-i]') then
		return err('BADARG board must be 1 to 36 letters a-i')
	end
	local deck
	deck, e = dandy_deck(args)
	if deck == nil then
		return e
	end
	-- An empty deck is a game that is over before it starts.
	local h = { 'kind', 'dandy', 'players', n, 'board', board,
		'drawn', 0, 'turn', deck == '' and -1 or 0, 'moves', 0 }
	if deck then
		h[#h + 1] = 'deck'
		h[#h + 1] = deck
	end
	for i = 1, tonumber(n) do
		h[#h + 1] = 'pos' .. i
		h[#h + 1] = -1
		h[#h + 1] = 'points' .. i
		h[#h + 1] = 0
	end
	return create(keys, h)
end

-- Where a player at from (-1: off the board) lands with card, and the
-- points the move earns: one each time it goes from the last square to
-- the first.  Entering the board is the first step of a digit card; a
-- letter not on the board steps a player on it back one square.
local function dandy_move(board, from, card)
	local len = #board
	local k = tonumber(card)
	if k then
		if from == -1 then
			return (k - 1) % len, math.floor((k - 1) / len)
		end
		return (from + k) % len, math.floor((from + k) / len)
	end
	if from == -1 then
		local j = board:find(card, 1, true)
		return j and j - 1 or -1, 0
	end
	local j = board:find(card, from + 2, true)
	if j then
		return j - 1, 0
	end
	-- Round the corner (the square itself is a full lap).
	j = board:find(card, 1, true)
	if j then
		return j - 1, 1
	end
	return from == 0 and len - 1 or from - 1, 0
end

-- The card a draw plays: the next of the deck, or the one given; nil and
-- the error when the game and the request disagree.
local function dandy_card(id, h, card)
	if h[4] and card then
		return nil, err("BADARG game '" .. id .. "' draws from its " ..
		    "deck: give no card")
	end
	if not h[4] and not card then
		return nil, err("BADARG game '" .. id .. "' has no deck: a " ..
		    "card is required")
	end
	if h[4] then
		local drawn = tonumber(h[5]) + 1
		return h[4]:sub(drawn, drawn)
	end
	return card
end

-- Applies the draw of player p (from 1) to w; the result.
local function dandy_apply(h, w, p, card)
	local n = tonumber(h[2])
	local from = tonumber(h[DANDY_HEAD + p])
	local pts = tonumber(h[DANDY_HEAD + 8 + p])
	local to, earned = dandy_move(h[3], from, card)
	if to ~= from then
		w[#w + 1] = 'pos' .. p
		w[#w + 1] = to
	end
	if earned > 0 then
		pts = pts + earned
		w[#w + 1] = 'points' .. p
		w[#w + 1] = pts
	end
	-- Whoever stood on the landing square is bumped off the board.
	for q = 1, n do
		if to ~= -1 and q ~= p and tonumber(h[DANDY_HEAD + q]) == to then
			w[#w + 1] = 'pos' .. q
			w[#w + 1] = -1
		end
	end
	return 'P' .. p .. ' ' .. (to == -1 and 'OFF' or to + 1) .. ' ' .. pts
end

local function dandy_draw(keys, args)
	local id = keys[1]
	local e = precheck('DANDY.DRAW', keys, args, 0, 1)
	if e then
		return e
	end
	local card = args[1]
	if card and not card:find('^[a-i1-9]$') then
		return err('BADARG card must be one of a-i or 1-9')
	end
	local h = redis.call('HMGET', id, unpack(DANDY_READ))
	if not h[1] then
		return nogame(id)
	end
	if h[1] ~= 'dandy' then
		return wrongtype(id, h[1])
	end
	card, e = dandy_card(id, h, card)
	if not card then
		return e
	end
	if h[6] == '-1' then
		return status('GAME_OVER')
	end
	local mover = tonumber(h[6]) + 1
	local w = {}
	local res = dandy_apply(h, w, mover, card)
	local turn = mover % tonumber(h[2])
	if h[4] then
		local drawn = tonumber(h[5]) + 1
		if drawn == #h[4] then
			turn = -1
		end
		w[#w + 1] = 'drawn'
		w[#w + 1] = drawn
	end
	w[#w + 1] = 'turn'
	w[#w + 1] = turn
	return commit(keys, w, tonumber(h[7]) + 1, 'P' .. mover, card, res)
end

redis.register_function('ludo_create', ludo_create)
redis.register_function('ludo_play', ludo_play)
redis.register_function('dandy_create', dandy_create)
redis.register_function('dandy_draw', dandy_draw)
