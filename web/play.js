/*
 * The list's "Play now": one button per kind (GET /api/kinds) that finds
 * the player another one and opens their game in their seat, with the
 * helpers of ludus.js (window.ludus; loaded with defer, that one first).
 *
 *  1. the browser's account: the one kept in localStorage
 *     ("ludus.account", its token NAME:KEY), else a new one (POST
 *     /api/players, a name drawn at random, shown once and kept);
 *  2. a ticket (POST /api/lobby) for two players of the kind, with the
 *     kind's own fields at their defaults, kept in localStorage
 *     ("ludus.ticket") so that a page opened again waits on the same one;
 *  3. the ticket's stream (GET /api/lobby/TICKET/events), read with
 *     fetch() since an EventSource sends no Authorization: its one event
 *     "matched" names the game and the seat, which is kept as the game
 *     page keeps a seat ("ludus.seat.GAME", the token as its key), and
 *     the browser goes to the game.  A stream that ends without it is
 *     opened again; a matched ticket answers at once, for ever.
 *
 * The token goes to the server only in a header, never in a URL.
 */
(function () {
	'use strict';

	var L = window.ludus;
	var section = document.getElementById('playnow');
	if (!L || !section || !window.fetch || !window.TextDecoder)
		return;
	var el = L.el, kinds = L.kinds;
	var buttons = document.getElementById('playnow-kinds');
	var out = document.getElementById('playnow-status');
	var cancel = document.getElementById('playnow-cancel');
	var ACCOUNT = 'ludus.account', TICKET = 'ludus.ticket';
	var waiting = null;	/* the ticket waited on */
	var reader = null;	/* its stream's */

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
			/* no storage: it lasts as long as the page */
		}
	}

	function say(text) {
		out.textContent = text;
	}

	/* The headers of a request as the account: its token as the bearer,
	 * or in X-Account-Key when the server has a password. */
	function headers(token, json) {
		var h = {};
		var password = stored('ludus.password');
		if (json)
			h['Content-Type'] = 'application/json';
		if (password)
			h.Authorization = 'Bearer ' + password;
		if (password && token)
			h['X-Account-Key'] = token;
		else if (token)
			h.Authorization = 'Bearer ' + token;
		return h;
	}

	function send(method, url, token, body) {
		return fetch(url, { method: method, headers: headers(token, true),
		    body: body === undefined ? undefined :
		    JSON.stringify(body) }).then(function (r) {
			return r.json().then(function (j) {
				return { status: r.status, body: j };
			});
		});
	}

	function failed(r) {
		return new Error(r.body.error + ': ' + r.body.message);
	}

	/* A name of the server's rules: "p-" and eight letters or digits. */
	function newName() {
		var digits = 'abcdefghijklmnopqrstuvwxyz0123456789';
		var bytes = new Uint8Array(8), name = 'p-';
		window.crypto.getRandomValues(bytes);
		bytes.forEach(function (b) {
			name += digits[b % digits.length];
		});
		return name;
	}

	/* The browser's account's token, made once. */
	function account(tries) {
		var token = stored(ACCOUNT);
		if (token)
			return Promise.resolve(token);
		say('Making you an account\u2026');
		return send('POST', '/api/players', '', { name: newName() })
			.then(function (r) {
				if (r.status === 409 && (tries || 0) < 3)
					return account((tries || 0) + 1);
				if (r.status !== 201)
					throw failed(r);
				store(ACCOUNT, r.body.token);
				return r.body.token;
			});
	}

	/* The ticket's game found: its seat kept for the game's page. */
	function matched(token, m) {
		store(TICKET, null);
		store('ludus.seat.' + m.game, JSON.stringify({ key: token,
		    player: m.seat }));
		say('Found a game: ' + m.game + ', you play ' + m.seat + '.');
		section.dataset.game = m.game;
		location.assign(m.url);
	}

	/* One SSE block ("event: x\ndata: y"): its type and data. */
	function parse(block) {
		var ev = { type: 'message', data: '' };
		block.split('\n').forEach(function (line) {
			if (line.indexOf('event: ') === 0)
				ev.type = line.slice(7);
			else if (line.indexOf('data: ') === 0)
				ev.data += line.slice(6);
		});
		return ev;
	}

	/* Reads the ticket's stream until its event; opened again when it
	 * ends without one. */
	function wait(token, ticket) {
		var buf = '', decoder = new TextDecoder();
		waiting = ticket;
		section.dataset.ticket = String(ticket);
		cancel.hidden = false;
		say('Waiting for another player (ticket ' + ticket + ')\u2026');
		fetch('/api/lobby/' + ticket + '/events',
		    { headers: headers(token, false) }).then(function (r) {
			if (!r.ok)
				return r.json().then(function (j) {
					throw failed({ body: j });
				});
			reader = r.body.getReader();
			function more() {
				return reader.read().then(function (c) {
					var i, ev;
					if (c.done)
						return false;
					buf += decoder.decode(c.value,
					    { stream: true });
					while ((i = buf.indexOf('\n\n')) >= 0) {
						ev = parse(buf.slice(0, i));
						buf = buf.slice(i + 2);
						if (ev.type === 'matched') {
							matched(token,
							    JSON.parse(ev.data));
							return true;
						}
						if (ev.type === 'error')
							throw failed({ body:
							    JSON.parse(ev.data) });
					}
					return more();
				});
			}
			return more();
		}).then(function (done) {
			reader = null;
			if (!done && waiting === ticket)
				setTimeout(function () {
					if (waiting === ticket)
						wait(token, ticket);
				}, 1000);
		}).catch(function (err) {
			reader = null;
			if (waiting !== ticket)
				return;
			waiting = null;
			store(TICKET, null);
			cancel.hidden = true;
			say('No game: ' + err.message);
		});
	}

	/* The join: two players of the kind, its own fields at the form's
	 * values (a DandyLand board and deck), but for those whose value
	 * is what the create does without them (Ludo's classic rules): a
	 * queue is named by the words given, and an app's plain
	 * "MATCH.JOIN ludo players=2" must meet this page's players. */
	function join(k, again) {
		var options = { players: 2 };
		if (waiting !== null)
			return;
		k.form.fields.forEach(function (f) {
			if (f.value && !f.implied)
				options[f.name] = f.value;
		});
		account().then(function (token) {
			say('Joining\u2026');
			return send('POST', '/api/lobby', token, { kind: k.name,
			    options: options }).then(function (r) {
				if (!again && (r.body.error === 'WRONGKEY' ||
				    r.body.error === 'NOACCOUNT')) {
					/* The account is gone (another
					 * server, a new database): a new
					 * one, once. */
					store(ACCOUNT, null);
					return join(k, true);
				}
				if (r.status !== 201)
					throw failed(r);
				store(TICKET, String(r.body.ticket));
				wait(token, r.body.ticket);
			});
		}).catch(function (err) {
			say('Not joined: ' + err.message);
		});
	}

	cancel.addEventListener('click', function () {
		var ticket = waiting, token = stored(ACCOUNT);
		if (ticket === null || !token)
			return;
		waiting = null;
		if (reader)
			reader.cancel();
		send('DELETE', '/api/lobby/' + ticket, token).then(function (r) {
			store(TICKET, null);
			cancel.hidden = true;
			say(r.status === 200 ? 'Cancelled.' : r.body.error +
			    ': ' + r.body.message);
			if (r.status === 409)	/* matched meanwhile */
				wait(token, ticket);
		});
	});

	kinds().then(function (known) {
		known.list.forEach(function (k) {
			var b = el('button', '', 'Play ' + k.title + ' now');
			b.type = 'button';
			b.dataset.kind = k.name;
			b.addEventListener('click', function () {
				join(k);
			});
			buttons.appendChild(b);
		});
		section.hidden = false;
		/* A ticket this browser was waiting on: waited on again. */
		if (stored(TICKET) && stored(ACCOUNT))
			wait(stored(ACCOUNT), Number(stored(TICKET)));
	}).catch(function (err) {
		say('The kinds are not known (' + err.message + ').');
	});
})();
