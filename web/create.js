/*
 * The list's form that creates a game (POST /api/games), with the
 * helpers of ludus.js (window.ludus; both are loaded with defer, that one
 * first).  Its kinds, their own fields and hints come from GET
 * /api/kinds: the form knows no kind.
 */
(function () {
	'use strict';

	var L = window.ludus;
	if (!L)
		return;
	var el = L.el, post = L.post, kinds = L.kinds,
	    askPassword = L.askPassword;


	function words(s) {
		return s.split(/[\s,]+/).filter(function (w) {
			return w !== '';
		});
	}

	/* The create's body: the common fields, then the kind's own. */
	function createBody(f, k) {
		var body = { kind: k.name, options: { seats: f.seats.value } };
		/* (f.id is the form's own id: the field is "game".) */
		if (f.elements.game.value)
			body.id = f.elements.game.value;
		body.players = k.players === 'names' ? words(f.players.value) :
		    Number(f.players.value);
		if (f.bots.value)
			body.options.bots = words(f.bots.value).join(',');
		if (Number(f.turn_timeout.value) > 0)
			body.options['turn-timeout'] = Number(f.turn_timeout.value);
		if (k.dice)
			body.options.dice = f.dice.value;
		k.form.fields.forEach(function (field) {
			var v = f.elements[field.name].value;
			if (!field.option)
				body[field.name] = v;
			else if (v)
				body.options[field.name] = v;
		});
		return body;
	}

	/* A hint: text, with `code` between backquotes. */
	function hintInto(p, text) {
		text.split('`').forEach(function (part, i) {
			p.appendChild(i % 2 === 1 ? el('code', '', part) :
			    document.createTextNode(part));
		});
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
		var hint = document.getElementById('c-hint');
		var pass = el('form', 'key');
		var known = null;	/* the server's kinds */
		var fields = {};	/* the kinds' own fields, by name */

		/* A kind's own fields, after the common ones, shown for the
		 * kinds that have them. */
		function addFields(k) {
			k.form.fields.forEach(function (field) {
				var label, input;
				if (fields[field.name]) {
					fields[field.name].kinds.push(k.name);
					return;
				}
				label = el('label', '', field.label);
				label.htmlFor = 'c-' + field.name;
				if (field.choices) {
					/* The values it takes, the first one's
					 * chosen. */
					input = el('select');
					field.choices.forEach(function (c) {
						var o = el('option', '', c);
						o.value = c;
						input.appendChild(o);
					});
				} else {
					input = el('input');
					input.setAttribute('autocomplete', 'off');
				}
				input.id = 'c-' + field.name;
				input.name = field.name;
				input.value = field.value;
				f.insertBefore(label, hint);
				f.insertBefore(input, hint);
				fields[field.name] = { kinds: [k.name],
				    els: [label, input] };
			});
		}
		function kindChanged() {
			var k = known.named[f.kind.value];
			var named = k.players === 'names';
			Object.keys(fields).forEach(function (name) {
				var field = fields[name];
				var off = field.kinds.indexOf(k.name) < 0;
				field.els.forEach(function (e) {
					e.hidden = off;
				});
			});
			f.querySelectorAll('.dice').forEach(function (e) {
				e.hidden = !k.dice;
			});
			if (named !== isNaN(Number(f.players.value)))
				f.players.value = k.form.players;
			f.bots.placeholder = k.form.bots;
			/* The hint of the kind chosen. */
			hint.textContent = '';
			hintInto(hint, k.form.hint || '');
		}
		function submit() {
			var k = known.named[f.kind.value];
			out.textContent = 'Creating\u2026';
			post('/api/games', createBody(f, k)).then(function (r) {
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
		/* The kinds that take creates over HTTP, in the server's order;
		 * the hint is every kind's. */
		kinds().then(function (kk) {
			known = kk;
			kk.list.forEach(function (k) {
				var o;
				if (!k.form)
					return;
				o = el('option', '', k.title);
				o.value = k.name;
				f.kind.appendChild(o);
				addFields(k);
			});
			kindChanged();
			section.hidden = false;
		}).catch(function () {
			/* no kinds: the form stays hidden */
		});
	}

	var create = document.getElementById('create');
	if (create)
		createForm(create);
}());
