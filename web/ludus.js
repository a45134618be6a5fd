/*
 * The ludus pages' one script.  The pages work without it for viewing:
 * the board is drawn by the server, the scrubber is a form and every move
 * a link.  With it:
 *
 *  - the list has a form that creates a game (POST /api/games);
 *  - on a game's page, scrubbing and clicking a move swap the board in
 *    place (the SVG of /games/ID.svg?seq=N, the server's REPLAY);
 *  - the page follows the game live: one Server-Sent Event "move" per
 *    stored move, its id the move's seq, so that a browser that
 *    reconnects sends Last-Event-ID and misses nothing;
 *  - a player plays from the page: roll, click a legal token, draw.  The
 *    seat key comes from an invite link's fragment (#key=...&player=...,
 *    which the browser never sends to the server) or is pasted once, and
 *    is kept in localStorage; it goes to the server only in a header.
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

	/* ------------------------------------------- the list: create */

	function words(s) {
		return s.split(/[\s,]+/).filter(function (w) {
			return w !== '';
		});
	}

	function createBody(f) {
		var kind = f.kind.value;
		var body = { kind: kind, options: { seats: f.seats.value } };
		/* (f.id is the form's own id: the field is "game".) */
		if (f.elements.game.value)
			body.id = f.elements.game.value;
		body.players = kind === 'ludo' ? words(f.players.value) :
		    Number(f.players.value);
		if (f.bots.value)
			body.options.bots = words(f.bots.value).join(',');
		if (Number(f.turn_timeout.value) > 0)
			body.options['turn-timeout'] = Number(f.turn_timeout.value);
		if (kind === 'dandy') {
			body.board = f.board.value;
			if (f.deck.value)
				body.options.deck = f.deck.value;
		} else {
			body.options.dice = f.dice.value;
		}
		return body;
	}

	/* A secure game's seats: a link for each, to play it or pass on. */
	function showSeats(out, created) {
		out.appendChild(el('p', '', 'Game ' + created.id + ' is ' +
		    'created.  Each link holds a seat\u2019s key: keep yours, ' +
		    'send the others to their players (they are shown once).'));
		var ul = el('ul', 'invites');
		created.seats.forEach(function (s) {
			var li = el('li');
			var a = el('a', '', 'Play as ' + s.player);
			a.href = s.invite;
			li.appendChild(a);
			li.appendChild(el('code', '', ' ' + location.origin +
			    s.invite));
			ul.appendChild(li);
		});
		out.appendChild(ul);
	}

	function createForm(section) {
		var f = document.getElementById('create-form');
		var out = document.getElementById('create-out');
		var pass = el('form', 'key');
		function kindChanged() {
			var dandy = f.kind.value === 'dandy';
			var named = f.kind.value === 'ludo';
			f.querySelectorAll('.dandy').forEach(function (e) {
				e.hidden = !dandy;
			});
			f.querySelectorAll('.dice').forEach(function (e) {
				e.hidden = dandy;
			});
			if (named !== isNaN(Number(f.players.value)))
				f.players.value = named ? 'red blue' : '2';
			f.bots.placeholder = named ? 'blue:expert' : 'P2:first';
		}
		function submit() {
			out.textContent = 'Creating\u2026';
			post('/api/games', createBody(f)).then(function (r) {
				out.textContent = '';
				if (r.status === 401) {
					out.textContent = 'This server wants its ' +
					    'password.';
					askPassword(pass, submit);
				} else if (r.status !== 201) {
					out.textContent = r.body.error + ': ' +
					    r.body.message;
				} else if (r.body.seats.length > 0) {
					showSeats(out, r.body);
				} else {
					location.href = '/games/' +
					    encodeURIComponent(r.body.id);
				}
			}).catch(function (err) {
				out.textContent = 'The game could not be ' +
				    'created (' + err.message + ').';
			});
		}
		pass.hidden = true;
		pass.appendChild(el('label', '', 'Server password'));
		pass.appendChild(el('input'));
		pass.lastChild.type = 'password';
		pass.appendChild(el('button', '', 'Use it'));
		section.appendChild(pass);
		f.kind.addEventListener('change', kindChanged);
		f.addEventListener('submit', function (e) {
			e.preventDefault();
			submit();
		});
		kindChanged();
		section.hidden = false;
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
			a.appendChild(el('span', 'who', mv.player));
			a.appendChild(document.createTextNode(' ' + mv.action +
			    ' '));
			a.appendChild(el('span', 'res', mv.result));
			if (mv.by && mv.by !== 'player')
				a.appendChild(document.createTextNode(' (' +
				    mv.by + ')'));
			li.appendChild(a);
			return li;
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
				latest = mv.seq;
				range.max = String(latest);
				game.dataset.moves = String(latest);
				if (following)
					show(latest);
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
			var actions = document.getElementById('play-actions');
			var seatForm = document.getElementById('seat-form');
			var passForm = document.getElementById('pass-form');
			var SEAT = 'ludus.seat.' + id;
			var info = null;	/* GET /api/games/ID */
			var die = null;		/* Ludo: the die being played */
			var sending = false;
			var refused = false;	/* the key was refused */

			function seat() {
				try {
					return JSON.parse(stored(SEAT));
				} catch (e) {
					return null;
				}
			}

			/* An invite link's fragment: kept, then out of the
			 * address bar. */
			function fromFragment() {
				var p = new URLSearchParams(location.hash.slice(1));
				if (!p.get('key'))
					return;
				store(SEAT, JSON.stringify({ key: p.get('key'),
				    player: p.get('player') || '' }));
				history.replaceState(null, '', location.pathname +
				    location.search);
			}

			seatForm.addEventListener('submit', function (e) {
				var v = seatForm.querySelector('input').value.trim();
				var comma = v.indexOf(',');
				e.preventDefault();
				store(SEAT, JSON.stringify(comma > 0 ?
				    { player: v.slice(0, comma),
				    key: v.slice(comma + 1) } :
				    { player: '', key: v }));
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
						die = null;
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

			/* The Ludo tokens that die may move, marked on the
			 * board for a click. */
			function markTokens() {
				var tokens = board.querySelectorAll('.token');
				var legal = die !== null && info && info.state.legal ?
				    info.state.legal[String(die)] || [] : [];
				var name = info ? me() : null;
				for (var i = 0; i < tokens.length; i++) {
					var t = tokens[i];
					var on = t.dataset.player === name &&
					    legal.indexOf(Number(t.dataset.token)) >= 0;
					t.classList.toggle('legal', on);
					if (on)
						t.setAttribute('tabindex', '0');
					else
						t.removeAttribute('tabindex');
				}
			}

			function tokenChosen(e) {
				var t = e.target.closest('.token.legal');
				if (!t || die === null)
					return;
				e.preventDefault();
				move({ player: me(), dice: die,
				    token: Number(t.dataset.token) });
			}
			board.addEventListener('click', tokenChosen);
			board.addEventListener('keydown', function (e) {
				if (e.key === 'Enter' || e.key === ' ')
					tokenChosen(e);
			});

			function diceButtons(onpick) {
				for (var d = 1; d <= 6; d++)
					actions.appendChild(button(String(d),
					    onpick.bind(null, d)));
			}

			function ludoActions(name) {
				var roll = info.options.roll;
				if (info.options.dice === 'server' && roll === null) {
					say('Your turn, ' + name + ': roll.');
					actions.appendChild(button('Roll', function () {
						send('roll', { player: name });
					}));
					return;
				}
				if (roll !== null)
					die = roll;
				if (die === null) {
					say('Your turn, ' + name + ': pick the die.');
					diceButtons(function (d) {
						die = d;
						render();
					});
					return;
				}
				if ((info.state.legal[String(die)] || []).length === 0) {
					say('A ' + die + ': no token can move.');
					actions.appendChild(button('Pass', function () {
						move({ player: name, dice: die,
						    token: 0 });
					}));
					return;
				}
				say('A ' + die + ': click a token to move it.');
			}

			function otherActions() {
				if (kind === 'snl' && info.options.dice === 'server') {
					say('Your turn: roll.');
					actions.appendChild(button('Roll', function () {
						move({});
					}));
				} else if (kind === 'snl') {
					say('Your turn: what did you roll?');
					diceButtons(function (d) {
						move({ roll: d });
					});
				} else if (info.state.deck.kind !== null) {
					say('Your turn: draw.');
					actions.appendChild(button('Draw', function () {
						move({});
					}));
				} else {
					say('Your turn: which card?');
					'abcdefghi123456789'.split('').forEach(
					    function (c) {
						actions.appendChild(button(c,
						    function () {
							move({ card: c });
						}));
					});
				}
			}

			/* What the page offers now. */
			function render() {
				var name, p;
				actions.textContent = '';
				if (!info)
					return;
				name = me();
				p = name ? player(name) : null;
				seatForm.hidden = info.options.seats !== 'secure' ||
				    (seat() !== null && !refused);
				panel.hidden = false;
				game.dataset.turn = info.turn || '';
				if (info.winner !== null || info.turn === null)
					say('The game is over.');
				else if (wanted !== latest)
					say('Back to the last move to play.');
				else if (info.options.seats === 'secure' && !seat())
					say('Paste your seat key to play.');
				else if (!p || name !== info.turn || p.bot)
					say((player(info.turn) || {}).bot ?
					    info.turn + ' (a bot) is playing.' :
					    'Waiting for ' + info.turn + '.');
				else if (kind === 'ludo')
					ludoActions(name);
				else
					otherActions();
				markTokens();
			}

			function statusText() {
				if (info.winner !== null)
					return info.winner + ' won.';
				if (info.turn !== null)
					return info.turn + ' to move.';
				return 'Game over.';
			}

			/* The game as it is now. */
			function refresh() {
				fetch('/api/games/' + encodeURIComponent(id))
					.then(function (r) {
						return r.json();
					})
					.then(function (j) {
						if (info && j.moves > info.moves)
							die = null;
						info = j;
						statusLine.textContent = statusText();
						render();
					})
					.catch(function () {
						/* the next event tries again */
					});
			}

			fromFragment();
			refresh();
			return { refresh: refresh, boardShown: markTokens };
		}

		if (game.dataset.events)
			live(game.dataset.events);
	}

	var game = document.getElementById('game');
	if (game)
		gamePage(game);
	var create = document.getElementById('create');
	if (create)
		createForm(create);
}());
