/*
 * The ludus pages' one script.  The pages work without it: the board is
 * drawn by the server, the scrubber is a form and every move a link.
 * With it, scrubbing and clicking a move swap the board in place (the
 * SVG of /games/ID.svg?seq=N, the server's REPLAY), and a page whose
 * server streams events (data-events on #game) follows the game live.
 * No framework, no build step; nothing here writes HTML from strings.
 */
(function () {
	'use strict';

	var game = document.getElementById('game');
	if (!game)
		return;
	var id = game.dataset.game;
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
		var url = base() + '.svg' + (seq < latest ? '?seq=' + seq : '');
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
				board.replaceChild(document.importNode(svg, true),
				    board.querySelector('svg'));
				shown = seq;
				history.replaceState(null, '', seq < latest ?
				    base() + '?seq=' + seq : base());
			})
			.catch(function (err) {
				statusLine.textContent = 'The board could not ' +
				    'be loaded (' + err.message + ').';
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
		if (e.target === range || e.altKey || e.ctrlKey || e.metaKey)
			return;
		if (e.key === 'ArrowLeft' && wanted > 0)
			show(wanted - 1);
		else if (e.key === 'ArrowRight' && wanted < latest)
			show(wanted + 1);
	});

	/* One line of the move list, as the server writes it. */
	function moveItem(mv) {
		var li = document.createElement('li');
		var a = document.createElement('a');
		var who = document.createElement('span');
		var res = document.createElement('span');
		li.dataset.seq = String(mv.seq);
		li.value = mv.seq;
		a.href = base() + '?seq=' + mv.seq;
		who.className = 'who';
		who.textContent = mv.player;
		res.className = 'res';
		res.textContent = mv.result;
		a.appendChild(who);
		a.appendChild(document.createTextNode(' ' + mv.action + ' '));
		a.appendChild(res);
		if (mv.by && mv.by !== 'player')
			a.appendChild(document.createTextNode(' (' + mv.by +
			    ')'));
		li.appendChild(a);
		return li;
	}

	/*
	 * Live updates, once the server streams them: one Server-Sent Event
	 * "move" per stored move, its id the move's seq, so that a browser
	 * that reconnects sends Last-Event-ID and misses nothing.  A page
	 * showing the latest board follows the game; one scrubbed back
	 * stays where it is.
	 */
	function live(url) {
		if (!window.EventSource)
			return;
		var es = new EventSource(url);
		es.addEventListener('move', function (e) {
			var mv = JSON.parse(e.data);
			if (mv.seq <= latest)
				return;
			var following = wanted === latest;
			list.appendChild(moveItem(mv));
			latest = mv.seq;
			range.max = String(latest);
			game.dataset.moves = String(latest);
			if (following)
				show(latest);
		});
	}

	if (game.dataset.events)
		live(game.dataset.events);
}());
