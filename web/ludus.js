/*
 * The ludus pages' script: this file on every page, and create.js after
 * it on the list (its form that creates a game, POST /api/games, given
 * the helpers here as window.ludus: no module, no build step).  The pages
 * work without them for viewing: the board is drawn by the server, the
 * scrubber is a form and every move a link.  With them:
 *
 *  - on a game's page, scrubbing and clicking a move swap the board in
 *    place (the SVG of /games/ID.svg?seq=N, the server's REPLAY);
 *  - the page follows the game live: one Server-Sent Event "move" per
 *    stored move, its id the move's seq, so that a browser that
 *    reconnects sends Last-Event-ID and misses nothing;
 *  - a player plays from the page: roll, click a legal token, draw.  The
 *    seat key comes from an invite link's fragment (#key=...&player=...,
 *    which the browser never sends to the server) or is pasted once, and
 *    is kept in localStorage (and the tab's sessionStorage); it goes to
 *    the server only in a header.  An invite's key works once: the page
 *    exchanges it at once for a fresh key (POST /api/games/ID/exchange)
 *    and keeps that, so that the link the browser's history holds is
 *    dead; an invite opened again elsewhere says it was used.
 *
 * The page knows no kind of game: what differs between them (the create
 * form's fields, their choices and the kind's hint, how the players are
 * given, how a player is asked for a move) is what the server says of
 * its kinds, GET /api/kinds, from its kind table.
 *
 * No framework, no build step; nothing here writes HTML from strings.
 */
(function () {
	'use strict';

	/* ------------------------------------------------------ helpers */

	function stored(name) {
		try {
			return window.localStorage.getItem(name);
		} catch (e) {
			return null;
		}
	}

	function store(name, value) {
		try {
			if (value === null)
				window.localStorage.removeItem(name);
			else
				window.localStorage.setItem(name, value);
		} catch (e) {
			/* no storage: the key lasts as long as the page */
		}
	}

	/* The tab's own storage (sessionStorage). */
	function tabStored(name) {
		try {
			return window.sessionStorage.getItem(name);
		} catch (e) {
			return null;
		}
	}

	function tabStore(name, value) {
		try {
			window.sessionStorage.setItem(name, value);
		} catch (e) {
			/* no storage: the browser's is used */
		}
	}

	function el(tag, cls, text) {
		var e = document.createElement(tag);
		if (cls)
			e.className = cls;
		if (text !== undefined)
			e.textContent = text;
		return e;
	}

	function button(text, onclick) {
		var b = el('button', '', text);
		b.type = 'button';
		b.addEventListener('click', onclick);
		return b;
	}

	/*
	 * A write: JSON, with the server's password as the bearer token
	 * when one was given (the seat key then in X-Seat-Key), else the
	 * seat key.  Resolves to {status, body}.
	 */
	function post(url, body, key) {
		var h = { 'Content-Type': 'application/json' };
		var password = stored('ludus.password');
		if (password) {
			h.Authorization = 'Bearer ' + password;
			if (key)
				h['X-Seat-Key'] = key;
		} else if (key) {
			h.Authorization = 'Bearer ' + key;
		}
		return fetch(url, { method: 'POST', headers: h,
		    body: JSON.stringify(body) }).then(function (r) {
			return r.json().then(function (j) {
				return { status: r.status, body: j };
			});
		});
	}

	/* A member of an object by its path ("options.dice"); undefined
	 * when it has none. */
	function member(obj, path) {
		return path.split('.').reduce(function (o, key) {
			return o === null || o === undefined ? undefined :
			    o[key];
		}, obj);
	}

	/*
	 * The server's kinds: a promise of {list: [kind, ...], named: {name:
	 * kind}}, each as GET /api/kinds describes it; fetched once, or
	 * again after a failure.
	 */
	var kindsAsked = null;
	function kinds() {
		if (!kindsAsked)
			kindsAsked = fetch('/api/kinds').then(function (r) {
				if (!r.ok)
					throw new Error('HTTP ' + r.status);
				return r.json();
			}).then(function (j) {
				var named = {};
				j.kinds.forEach(function (k) {
					named[k.name] = k;
				});
				return { list: j.kinds, named: named };
			}).catch(function (err) {
				kindsAsked = null;
				throw err;
			});
		return kindsAsked;
	}

	/* The password form, shown when a write needs the server's. */
	function askPassword(form, retry) {
		var input = form.querySelector('input');
		form.hidden = false;
		form.onsubmit = function (e) {
			e.preventDefault();
			store('ludus.password', input.value || null);
			input.value = '';
			form.hidden = true;
			if (retry)
				retry();
		};
	}

	/* ------------------------------------------------- one game */

	function gamePage(game) {
		var id = game.dataset.game;
		var kind = game.dataset.kind;
		var board = document.getElementById('board');
		var range = document.getElementById('seq');
		var out = document.getElementById('seq-out');
		var list = document.getElementById('moves');
		var statusLine = document.getElementById('status');
		var form = document.getElementById('scrub');
		var latest = Number(game.dataset.moves);
		var shown = Number(game.dataset.seq);
		var wanted = shown;
		var busy = false;
		var caption = document.getElementById('caption');
		var lastLine = document.getElementById('last');
		var play = playPanel();

		function base() {
			return '/games/' + encodeURIComponent(id);
		}

		function mark(seq) {
			var items = list.querySelectorAll('li[data-seq]');
			for (var i = 0; i < items.length; i++) {
				var on = Number(items[i].dataset.seq) === seq;
				items[i].classList.toggle('current', on);
				if (on)
					items[i].setAttribute('aria-current', 'step');
				else
					items[i].removeAttribute('aria-current');
			}
			range.value = String(seq);
			out.value = String(seq);
			game.dataset.seq = String(seq);
			follow(seq);
		}

		/* The list scrolled to the move marked (the latest while
		 * the page follows the game), inside its own box. */
		function follow(seq) {
			var li = list.querySelector('li[data-seq="' + seq + '"]');
			if (!li)
				return;
			if (li.offsetTop < list.scrollTop ||
			    li.offsetTop + li.offsetHeight > list.scrollTop +
			    list.clientHeight)
				list.scrollTop = li.offsetTop - list.clientHeight +
				    li.offsetHeight + 4;
		}

		/* The line over the board: the move that made it, in the
		 * kind's words. */
		function lastText(seq) {
			var li = list.querySelector('li[data-seq="' + seq + '"]');
			if (seq === 0 || !li)
				return seq === 0 ? 'The start: no move yet.' : '';
			return 'Move ' + seq + ': ' + li.textContent.trim();
		}

		/* The caption says which board is shown, as the server's
		 * page does. */
		function captionText(seq) {
			if (seq < latest)
				return 'The board after move ' + seq + ' of ' +
				    latest + '.';
			return 'The board now, after ' + latest + ' move' +
			    (latest === 1 ? '' : 's') + '.';
		}

		/* Fetches the board after move seq and puts it in place of the
		 * one shown; the last request wins when several overlap. */
		function show(seq) {
			wanted = seq;
			mark(seq);
			if (busy)
				return;
			busy = true;
			var url = base() + '.svg' + (seq < latest ? '?seq=' + seq :
			    '');
			fetch(url, { headers: { Accept: 'image/svg+xml' } })
				.then(function (r) {
					if (!r.ok)
						throw new Error('HTTP ' + r.status);
					return r.text();
				})
				.then(function (text) {
					var doc = new DOMParser().parseFromString(text,
					    'image/svg+xml');
					var svg = doc.documentElement;
					if (svg.nodeName !== 'svg')
						throw new Error('not a board');
					board.replaceChild(document.importNode(svg,
					    true), board.querySelector('svg'));
					shown = seq;
					caption.textContent = captionText(seq);
					lastLine.textContent = lastText(seq);
					history.replaceState(null, '', seq < latest ?
					    base() + '?seq=' + seq : base());
					play.boardShown();
				})
				.catch(function (err) {
					statusLine.textContent = 'The board could ' +
					    'not be loaded (' + err.message + ').';
				})
				.finally(function () {
					busy = false;
					if (wanted !== shown)
						show(wanted);
				});
		}

		range.addEventListener('input', function () {
			show(Number(range.value));
		});
		form.addEventListener('submit', function (e) {
			e.preventDefault();
			show(Number(range.value));
		});
		list.addEventListener('click', function (e) {
			var li = e.target.closest('li[data-seq]');
			if (!li || !e.target.closest('a'))
				return;
			e.preventDefault();
			show(Number(li.dataset.seq));
		});
		document.addEventListener('keydown', function (e) {
			if (e.target === range || e.target.closest('input') ||
			    e.altKey || e.ctrlKey || e.metaKey)
				return;
			if (e.key === 'ArrowLeft' && wanted > 0)
				show(wanted - 1);
			else if (e.key === 'ArrowRight' && wanted < latest)
				show(wanted + 1);
		});

		/* One line of the move list, as the server writes it (and
		 * marked as one that came live). */
		function moveItem(mv) {
			var li = el('li');
			var a = el('a');
			li.dataset.seq = String(mv.seq);
			li.dataset.live = '1';
			li.value = mv.seq;
			a.href = base() + '?seq=' + mv.seq;
			moveText(a, mv);
			li.appendChild(a);
			if (mv.words === undefined)
				wordsOf(li, a, mv.seq);
			return li;
		}

		/* A move's text: the kind's words, else the row itself. */
		function moveText(a, mv) {
			a.textContent = '';
			if (mv.words) {
				a.title = mv.player + ' ' + mv.action + ' ' +
				    mv.result;
				a.appendChild(el('span', 'words', mv.words));
			} else {
				a.appendChild(el('span', 'who', mv.player));
				a.appendChild(document.createTextNode(' ' +
				    mv.action + ' '));
				a.appendChild(el('span', 'res', mv.result));
			}
			if (mv.by && mv.by !== 'player')
				a.appendChild(document.createTextNode(' (' +
				    mv.by + ')'));
		}

		/* A live move's words, which its event does not carry: the
		 * history's (GET /api/games/ID/history). */
		function wordsOf(li, a, seq) {
			fetch('/api/games/' + encodeURIComponent(id) +
			    '/history?from=' + seq + '&count=1').then(function (r) {
				if (!r.ok)
					throw new Error('HTTP ' + r.status);
				return r.json();
			}).then(function (j) {
				var mv = j.history[0];
				if (!mv || mv.seq !== seq || !mv.words)
					return;
				moveText(a, mv);
				li.dataset.words = '1';
				if (shown === seq)
					lastLine.textContent = lastText(seq);
			}).catch(function () {
				/* the row's own text stays */
			});
		}

		/*
		 * Live: each event is one stored move, in order.  The page
		 * counts what the server should never send (a move it has,
		 * a move after a gap) in data-dups and data-gaps.  A page
		 * showing the latest board follows the game; one scrubbed
		 * back stays where it is.
		 */
		function live(url) {
			if (!window.EventSource)
				return;
			var es = new EventSource(url);
			game.dataset.dups = '0';
			game.dataset.gaps = '0';
			es.addEventListener('open', function () {
				game.dataset.live = 'on';
			});
			es.addEventListener('error', function () {
				game.dataset.live = 'off';
			});
			es.addEventListener('move', function (e) {
				var mv = JSON.parse(e.data);
				if (mv.seq <= latest) {
					game.dataset.dups = String(
					    Number(game.dataset.dups) + 1);
					return;
				}
				if (mv.seq !== latest + 1)
					game.dataset.gaps = String(
					    Number(game.dataset.gaps) + 1);
				var following = wanted === latest;
				list.appendChild(moveItem(mv));
				if (following)
					list.scrollTop = list.scrollHeight;
				latest = mv.seq;
				range.max = String(latest);
				game.dataset.moves = String(latest);
				if (following)
					show(latest);
				else
					caption.textContent = captionText(shown);
				play.refresh();
			});
		}

		/* ------------------------------------------------ play */

		/*
		 * The play panel: whose seat this page holds (a key kept for
		 * the game, or every human seat of an open game), what the
		 * player to move may do, and the moves sent.
		 */
		function playPanel() {
			var panel = document.getElementById('play');
			var pstatus = document.getElementById('play-status');
			var seatLine = document.getElementById('play-seat');
			var actions = document.getElementById('play-actions');
			var seatForm = document.getElementById('seat-form');
			var passForm = document.getElementById('pass-form');
			var SEAT = 'ludus.seat.' + id;
			var info = null;	/* GET /api/games/ID */
			var desc = null;	/* its kind (GET /api/kinds) */
			var picked = {};	/* the move's arguments so far */
			var sending = false;
			var refused = false;	/* the key was refused */
			var invite = '';	/* '', 'exchanging', 'exchanged',
						   'used' */
			var passedAt = -1;	/* the move a pass was sent at */
			var clock = document.getElementById('clock');
			var ticking = null;

			/*
			 * The seat this tab plays: the one it took (kept in
			 * sessionStorage, which is the tab's own, so that two
			 * tabs of one browser may hold two seats of a game),
			 * else the last one the browser took (localStorage).
			 */
			function seat() {
				var s = tabStored(SEAT) || stored(SEAT);
				try {
					return JSON.parse(s);
				} catch (e) {
					return null;
				}
			}

			function keepSeat(s) {
				var text = JSON.stringify(s);
				tabStore(SEAT, text);
				store(SEAT, text);
			}

			/*
			 * An invite link's fragment: out of the address bar at
			 * once, then its key exchanged for a fresh one, which
			 * is the one kept (the history keeps the link, with a
			 * key now spent).  A key the server refuses was spent
			 * already: another browser opened the invite, and this
			 * one watches (unless it holds that seat itself).  A
			 * link without its player is kept as it is: no seat to
			 * exchange it for.
			 */
			function fromFragment() {
				var p = new URLSearchParams(location.hash.slice(1));
				var key = p.get('key');
				var name = p.get('player') || '';
				if (!key)
					return;
				history.replaceState(null, '', location.pathname +
				    location.search);
				if (!name) {
					keepSeat({ key: key, player: '' });
					return;
				}
				exchange(name, key);
			}

			/* What came of an exchange: a fresh key kept, the
			 * invite used (by another browser, unless this one
			 * holds that seat), or the key still good and kept
			 * as it is. */
			function exchanged(name, key, r) {
				var s = seat();
				if (r.status === 200) {
					invite = 'exchanged';
					keepSeat({ key: r.body.key, player: name });
					refused = false;
				} else if (r.status === 403 &&
				    r.body.error === 'NOSEAT') {
					invite = s && s.player === name ?
					    'exchanged' : 'used';
				} else {
					invite = '';
					keepSeat({ key: key, player: name });
					say(r.body.error + ': ' + r.body.message);
				}
				render();
			}

			function exchange(name, key) {
				invite = 'exchanging';
				post('/api/games/' + encodeURIComponent(id) +
				    '/exchange', { player: name }, key)
					.then(function (r) {
						if (r.status !== 401) {
							exchanged(name, key, r);
							return;
						}
						say('This server wants its password.');
						askPassword(passForm, function () {
							exchange(name, key);
						});
					})
					.catch(function (err) {
						invite = '';
						keepSeat({ key: key, player: name });
						say('The invite was not exchanged (' +
						    err.message + ').');
						render();
					});
			}

			seatForm.addEventListener('submit', function (e) {
				var v = seatForm.querySelector('input').value.trim();
				var comma = v.indexOf(',');
				e.preventDefault();
				keepSeat(comma > 0 ?
				    { player: v.slice(0, comma),
				    key: v.slice(comma + 1) } :
				    { player: '', key: v });
				seatForm.querySelector('input').value = '';
				refused = false;
				render();
			});

			function player(name) {
				for (var i = 0; i < info.players.length; i++)
					if (info.players[i].name === name)
						return info.players[i];
				return null;
			}

			/* The player this page moves for now, or null. */
			function me() {
				var s = seat();
				if (s && s.player)
					return s.player;
				if (s || info.options.seats === 'open')
					return info.turn;  /* hot seat, or the
							      key's seat */
				return null;
			}

			function say(text) {
				pstatus.textContent = text;
			}

			/* Sends a move or a roll; the event stream redraws. */
			function send(what, body) {
				var s = seat();
				if (sending)
					return;
				sending = true;
				say('Sending\u2026');
				post('/api/games/' + encodeURIComponent(id) + '/' +
				    what, body, s ? s.key : null)
					.then(function (r) {
						sending = false;
						if (r.status === 401) {
							say('This server wants its ' +
							    'password.');
							askPassword(passForm, refresh);
							return;
						}
						refused = r.status === 403 &&
						    r.body.error === 'NOSEAT';
						if (refused)
							seatForm.hidden = false;
						if (r.status !== 200) {
							say(r.body.error + ': ' +
							    r.body.message);
							return;
						}
						picked = {};
						game.dataset.last = r.body.result ||
						    String(r.body.roll);
						refresh();
					})
					.catch(function (err) {
						sending = false;
						say('Not sent (' + err.message + ').');
					});
			}

			function move(body) {
				body.seq = info.moves;
				send('moves', body);
			}

			/* The argument of the move that a piece of the board
			 * gives (a Ludo token), or null. */
			function boardArg() {
				var args = desc && desc.move ? desc.move : [];
				for (var i = 0; i < args.length; i++)
					if (args[i].ask && args[i].ask.board)
						return args[i];
				return null;
			}

			/* A value of an argument, as the body gives it. */
			function typed(arg, v) {
				return arg.integer ? Number(v) : v;
			}

			/* The pieces the argument picked so far (a die) lets the
			 * player move, marked on the board for a click. */
			function markTokens() {
				var tokens = board.querySelectorAll('.token');
				var b = boardArg();
				var by = b ? picked[b.ask.by] : undefined;
				var values = by !== undefined && info ?
				    member(info, b.ask.board) : undefined;
				var legal = values ? values[String(by)] || [] : [];
				var name = info ? me() : null;
				if (shown !== latest)	/* a past board: no move */
					legal = [];
				for (var i = 0; i < tokens.length; i++) {
					var t = tokens[i];
					var on = legal.length > 0 &&
					    t.dataset.player === name &&
					    legal.indexOf(typed(b,
					    t.dataset[b.name])) >= 0;
					t.classList.toggle('legal', on);
					if (on)
						t.setAttribute('tabindex', '0');
					else
						t.removeAttribute('tabindex');
				}
			}

			/* The move's arguments before arg: the seat's player and
			 * those picked. */
			function before(arg, name) {
				var values = {};
				for (var i = 0; desc.move[i] !== arg; i++) {
					var a = desc.move[i];
					if (a.name === desc.seat)
						values[a.name] = name;
					else if (picked[a.name] !== undefined)
						values[a.name] = picked[a.name];
				}
				return values;
			}

			function tokenChosen(e) {
				var t = e.target.closest('.token.legal');
				var b = boardArg();
				var values;
				if (!t || !b || picked[b.ask.by] === undefined)
					return;
				e.preventDefault();
				values = before(b, me());
				values[b.name] = typed(b, t.dataset[b.name]);
				move(values);
			}
			board.addEventListener('click', tokenChosen);
			board.addEventListener('keydown', function (e) {
				if (e.key === 'Enter' || e.key === ' ')
					tokenChosen(e);
			});

			/* A prompt of the kind: {player} and {NAME} filled. */
			function prompt(text, name, values) {
				return text.replace(/\{([a-z_]+)\}/g, function (m, key) {
					return key === 'player' ? name : String(values[key]);
				});
			}

			/* The roll's body: the seat's player. */
			function rollBody(name) {
				var body = {};
				(desc.roll || []).forEach(function (a) {
					if (a.name === desc.seat)
						body[a.name] = name;
				});
				return body;
			}

			/*
			 * What the player to move is asked: each argument of
			 * the kind's move in order, as the kind says (struct
			 * game_ask in src/game/kind.h); the first one the page
			 * cannot fill yet asks for it.
			 */
			function turnActions(name) {
				var args = desc.move || [];
				var values = {};
				for (var i = 0; i < args.length; i++) {
					var a = args[i], ask = a.ask, v;
					if (a.name === desc.seat) {
						values[a.name] = name;
						continue;
					}
					if (!ask)
						continue;
					v = ask.draw ? member(info, ask.draw) : null;
					if (ask.draw && (v === undefined ? null : v) !==
					    ask.unless) {
						if (!drawn(a, name, values))
							return;
						continue;
					}
					if (picked[a.name] !== undefined) {
						values[a.name] = picked[a.name];
						continue;
					}
					if (ask.choices) {
						choose(a, name, values,
						    i === args.length - 1);
						return;
					}
					if (ask.board)
						onBoard(a, name, values);
					return;
				}
			}

			/* An argument the server draws: held by the game once
			 * the kind's roll drew it (1, the value in values), or
			 * a button to draw it (0). */
			function drawn(a, name, values) {
				var ask = a.ask;
				var v = ask.held ? member(info, ask.held) : null;
				if (ask.held && v !== null && v !== undefined) {
					picked[a.name] = v;
					values[a.name] = v;
					return 1;
				}
				say(prompt(ask.draw_prompt, name, values));
				actions.appendChild(button(ask.draw_label, function () {
					if (ask.held)
						send('roll', rollBody(name));
					else
						move(values);
				}));
				return 0;
			}

			/* A button per value: the move when it is the last
			 * argument, else the value kept for the next. */
			function choose(a, name, values, last) {
				say(prompt(a.ask.prompt, name, values));
				a.ask.choices.forEach(function (c) {
					actions.appendChild(button(c, function () {
						if (last) {
							values[a.name] = typed(a, c);
							move(values);
						} else {
							picked[a.name] = typed(a, c);
							render();
						}
					}));
				});
			}

			/* A piece of the board (markTokens), or the value none
			 * when the board lists no piece. */
			function onBoard(a, name, values) {
				var ask = a.ask;
				var legal = member(info, ask.board);
				legal = legal ? legal[String(values[ask.by])] || [] :
				    [];
				if (legal.length > 0) {
					say(prompt(ask.prompt, name, values));
					return;
				}
				/* No piece can move: the only move there is, the
				 * pass, is played without a click (after a moment
				 * to read why). */
				say(prompt(ask.none_prompt, name, values) + ' ' +
				    ask.none_label + '\u2026');
				values[a.name] = typed(a, ask.none);
				var at = info.moves;
				if (passedAt === at)
					return;		/* one pass a turn */
				passedAt = at;
				setTimeout(function () {
					if (info.moves === at && shown === latest)
						move(values);
				}, 700);
			}

			/* Who this page plays: a seat ("you play red"), every
			 * human seat (open seats: a hot seat), or none (a
			 * spectator); data-view says which. */
			function seatText() {
				var s = seat();
				var humans = info.players.filter(function (p) {
					return !p.bot;
				});
				seatLine.dataset.invite = invite;
				if (invite === 'used' && !(s && s.player)) {
					seatLine.dataset.view = 'spectator';
					return 'This invite was used already (an ' +
					    'invite works once): you can watch ' +
					    'the game.';
				}
				if (s && s.player && player(s.player)) {
					seatLine.dataset.view = 'player';
					return 'You play ' + s.player + '.';
				}
				if (s && info.options.seats === 'secure') {
					seatLine.dataset.view = 'player';
					return 'You hold a seat key of this game.';
				}
				if (info.options.seats === 'open' &&
				    humans.length > 0) {
					seatLine.dataset.view = 'hotseat';
					return 'Open seats: this page plays ' +
					    humans.map(function (p) {
						return p.name;
					    }).join(', ') + ', in turn.';
				}
				seatLine.dataset.view = 'spectator';
				return info.options.seats === 'secure' ?
				    'You are watching: you hold no seat of ' +
				    'this game.' : 'You are watching: bots play ' +
				    'every seat.';
			}

			/*
			 * A game with a turn timeout: the time the player to
			 * move has left, to the second (the server's deadline,
			 * unix ms; after it the server plays for them).
			 */
			function tick() {
				var left, d = info && info.options.deadline;
				if (!info || !d || !(info.options.turn_timeout > 0) ||
				    info.turn === null || shown !== latest) {
					clock.hidden = true;
					return;
				}
				left = Math.max(0, Math.ceil((d - Date.now()) / 1000));
				clock.hidden = false;
				clock.dataset.left = String(left);
				clock.textContent = left > 0 ? info.turn + ' has ' +
				    Math.floor(left / 60) + ':' +
				    String(left % 60).padStart(2, '0') +
				    ' to move.' : info.turn + '\u2019s time is up: ' +
				    'the server plays for them.';
			}

			/* What the page offers now. */
			function render() {
				var name, p;
				actions.textContent = '';
				if (!info || !desc)
					return;
				name = me();
				p = name ? player(name) : null;
				seatForm.hidden = info.options.seats !== 'secure' ||
				    (seat() !== null && !refused);
				panel.hidden = false;
				tick();
				if (!ticking)
					ticking = setInterval(tick, 1000);
				seatLine.textContent = seatText();
				game.dataset.view = seatLine.dataset.view;
				game.dataset.turn = info.turn || '';
				if (info.winner !== null || info.turn === null)
					say('The game is over.');
				else if (wanted !== latest || shown !== latest) {
					say('This is the board after move ' + wanted +
					    '; the game is at move ' + latest + '.');
					actions.appendChild(button('Back to the ' +
					    'last move', function () {
						show(latest);
					}));
				}
				else if (info.options.seats === 'secure' && !seat())
					say(info.turn + ' to move.  A player ' +
					    'pastes their seat key below.');
				else if (!p || name !== info.turn || p.bot)
					say((player(info.turn) || {}).bot ?
					    info.turn + ' (a bot) is playing.' :
					    'Waiting for ' + info.turn + '.');
				else
					turnActions(name);
				markTokens();
			}

			/* The status line of a game's JSON: the game now, or
			 * after a past move (the board shown). */
			function statusText(g, seq) {
				var then = seq !== undefined && seq < latest;
				var pre = then ? 'After move ' + seq + ' of ' +
				    latest + ': ' : '';
				if (g.winner !== null)
					return pre + g.winner + (then ? ' had won.' :
					    ' won.');
				if (g.turn !== null)
					return pre + g.turn + (then ?
					    ' was to move.' : ' to move.');
				return pre + 'Game over.';
			}

			/* The status line of the board shown: the game's now,
			 * or, for a past board, the replay's (the last asked
			 * wins). */
			var statusAsked = 0;
			function showStatus() {
				var seq = shown, n = ++statusAsked;
				if (!info)
					return;
				if (seq === latest) {
					statusLine.textContent = statusText(info);
					return;
				}
				fetch('/api/games/' + encodeURIComponent(id) +
				    '/replay?seq=' + seq).then(function (r) {
					if (!r.ok)
						throw new Error('HTTP ' + r.status);
					return r.json();
				}).then(function (g) {
					if (n === statusAsked)
						statusLine.textContent =
						    statusText(g, seq);
				}).catch(function () {
					/* the next board tries again */
				});
			}

			function boardShown() {
				showStatus();
				render();
			}

			/* The game as it is now. */
			function refresh() {
				Promise.all([kinds(), fetch('/api/games/' +
				    encodeURIComponent(id)).then(function (r) {
						return r.json();
					})])
					.then(function (got) {
						var j = got[1];
						desc = got[0].named[kind] || {};
						if (info && j.moves > info.moves)
							picked = {};
						info = j;
						showStatus();
						render();
					})
					.catch(function () {
						/* the next event tries again */
					});
			}

			fromFragment();
			/* An invite opened over the page of its game changes
			 * the fragment alone: no new page. */
			window.addEventListener('hashchange', function () {
				fromFragment();
				refused = false;
				render();
			});
			refresh();
			return { refresh: refresh, boardShown: boardShown };
		}

		if (game.dataset.events)
			live(game.dataset.events);
	}

	/* For create.js. */
	window.ludus = { el: el, post: post, kinds: kinds,
	    askPassword: askPassword };

	var game = document.getElementById('game');
	if (game)
		gamePage(game);
}());
