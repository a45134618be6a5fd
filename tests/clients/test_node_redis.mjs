// node-redis (the npm package redis, v5) against a real ludusd, through
// the library's own API, in RESP2 and in RESP3: sendCommand, its helpers
// (ping, echo, info), errors, pipelines (execAsPipeline, and the commands
// it pipelines by itself when several are in flight), and its reconnect
// after a restart of the server; then its own APIs for what a game
// client needs: multi().exec() and watch(), subscribe and pSubscribe,
// xRead with BLOCK, connecting with name, database and password; two
// accounts that find each other (MATCH.JOIN, a blocked MATCH.WAIT, the
// account's channel), play and are rated; and, last, the program the
// clients issue asks for: it plays a game with
// transactions, follows another by subscribing, and after a kill -9 of
// ludusd resumes through xRead from its last id, seeing every move once.
// Run by tests/clients/run, TAP on stdout.
import { Daemon, Suite, assertEqual, assertError, requirePackage, within }
    from './harness.mjs';

const { createClient, WatchError } = requirePackage('redis');
// Bots move 5 ms apart, not 300: the followed game of the last cases.
const suite = new Suite('node-redis', '--bot-delay', '5');

const STATE0 = ['turn,red', 'winner,NONE', 'red,1,YARD,-1', 'red,2,YARD,-1',
    'red,3,YARD,-1', 'red,4,YARD,-1', 'blue,1,YARD,-1', 'blue,2,YARD,-1',
    'blue,3,YARD,-1', 'blue,4,YARD,-1'];

// A connected client of the suite's daemon, closed when the case ends.
async function client(t, opts = {}) {
	const c = createClient({ ...opts, socket: { host: '127.0.0.1',
	    port: t.daemon.port, connectTimeout: 5000, ...opts.socket } });
	c.errors = [];
	c.on('error', (e) => c.errors.push(e));
	t.defer(() => c.destroy());
	await c.connect();
	return c;
}

for (const RESP of [2, 3]) {
	const P = `RESP${RESP}: `, id = (s) => `nr${RESP}-${s}`;

	suite.case(`${P}LUDO.CREATE, PLAY and STATE through sendCommand`,
	    async (t) => {
		const c = await client(t, { RESP });
		assertEqual(await c.sendCommand(['LUDO.CREATE', id('g'), 'red',
		    'blue']), 'OK');
		assertEqual(await c.sendCommand(['LUDO.STATE', id('g')]), STATE0);
		assertEqual(await c.sendCommand(['LUDO.PLAY', id('g'), 'red', '6',
		    '1']), 'MOVED');
		assertEqual(await c.sendCommand(['HISTORY', id('g')]),
		    ['1,red,6:1,MOVED']);
	});

	suite.case(`${P}a refused move is a reply, a bad request an error`,
	    async (t) => {
		const c = await client(t, { RESP });
		await c.sendCommand(['LUDO.CREATE', id('e'), 'red', 'blue']);
		assertEqual(await c.sendCommand(['LUDO.PLAY', id('e'), 'red', '3',
		    '1']), 'INVALID_MOVE');
		await assertError(() => c.sendCommand(['LUDO.STATE', 'nope']),
		    'NOGAME');
		await assertError(() => c.sendCommand(['NOSUCH']), 'ERR');
		assertEqual(await c.ping(), 'PONG', 'in step after errors');
	});

	suite.case(`${P}HELLO, ping, echo and info`, async (t) => {
		const c = await client(t, { RESP });
		const hello = await c.sendCommand(['HELLO']);
		const fields = RESP === 3 ? hello : Object.fromEntries(
		    hello.flatMap((v, i) => i % 2 ? [] : [[v, hello[i + 1]]]));
		assertEqual([fields.server, fields.proto], ['ludus', RESP]);
		assertEqual(await c.ping(), 'PONG');
		assertEqual(await c.echo('hello there'), 'hello there');
		const info = await c.info('games');
		if (!/^games_total:\d+\r$/m.test(info))
			throw new Error(`INFO games: ${info}`);
	});

	suite.case(`${P}execAsPipeline: replies in order`, async (t) => {
		const c = await client(t, { RESP });
		assertEqual(await c.multi()
		    .addCommand(['LUDO.CREATE', id('p'), 'red', 'blue'])
		    .addCommand(['LUDO.PLAY', id('p'), 'red', '6', '1'])
		    .addCommand(['LUDO.PLAY', id('p'), 'red', '3', '1'])
		    .addCommand(['HISTORY', id('p')])
		    .execAsPipeline(), ['OK', 'MOVED', 'MOVED',
		    ['1,red,6:1,MOVED', '2,red,3:1,MOVED']]);
	});

	suite.case(`${P}execAsPipeline: an error rejects it, the rest runs`,
	    async (t) => {
		const c = await client(t, { RESP });
		await assertError(() => c.multi()
		    .addCommand(['LUDO.CREATE', id('pe'), 'red', 'blue'])
		    .addCommand(['LUDO.STATE', 'nope'])
		    .addCommand(['LUDO.PLAY', id('pe'), 'red', '6', '1'])
		    .execAsPipeline(), 'NOGAME');
		assertEqual(await c.sendCommand(['HISTORY', id('pe')]),
		    ['1,red,6:1,MOVED']);
	});

	suite.case(`${P}500 commands in flight at once`, async (t) => {
		const c = await client(t, { RESP });
		await c.sendCommand(['DANDY.CREATE', id('d'), '2', 'abcd']);
		const draws = Array.from({ length: 500 }, (_, i) =>
		    c.sendCommand(['DANDY.DRAW', id('d'), 'abcd'[i % 4]]));
		const out = await Promise.all(draws);
		assertEqual(out.length, 500);
		const hist = await c.sendCommand(['HISTORY', id('d'), '1',
		    '10000']);
		assertEqual(hist.length, 500, 'moves stored');
		assertEqual(hist.map((h) => h.split(',').slice(2).join(',')),
		    out.map((r, i) => `${'abcd'[i % 4]},${r}`), 'replies in order');
	});

	suite.case(`${P}reconnects by itself after a restart (SIGTERM)`,
	    async (t) => {
		const c = await client(t, { RESP });
		await c.sendCommand(['LUDO.CREATE', id('r'), 'red', 'blue']);
		await c.sendCommand(['LUDO.PLAY', id('r'), 'red', '6', '1']);
		await t.daemon.restart();
		assertEqual(await within(10000, c.sendCommand(['LUDO.PLAY',
		    id('r'), 'red', '3', '1']), 'reply after the restart'),
		    'MOVED');
		assertEqual(await c.sendCommand(['HISTORY', id('r')]),
		    ['1,red,6:1,MOVED', '2,red,3:1,MOVED']);
	});

	suite.case(`${P}a command sent while the server is down (kill -9) ` +
	    'waits for it', async (t) => {
		const c = await client(t, { RESP });
		await c.sendCommand(['LUDO.CREATE', id('k'), 'red', 'blue']);
		await t.daemon.stop('SIGKILL');
		// A command written before the client saw the close is lost
		// with the connection (it may have been applied): send it once
		// the client knows the server is gone.
		await within(5000, new Promise((done) => c.once('error', done)),
		    'error event');
		const play = c.sendCommand(['LUDO.PLAY', id('k'), 'red', '6',
		    '1']);
		await new Promise((done) => setTimeout(done, 300));
		await t.daemon.start(t.daemon.port);
		assertEqual(await within(10000, play, 'reply after the restart'),
		    'MOVED');
	});
}

suite.case('RESP3: name is sent in HELLO SETNAME, which ludusd accepts',
    async (t) => {
	const c = await client(t, { RESP: 3, name: 'nr-client' });
	assertEqual(await c.ping(), 'PONG');
});

// --------------------------------------------- the library's own APIs

// GAME.INFO's pairs as an object.
function infoOf(reply) {
	return Object.fromEntries(reply.map((p) => p.split(',')));
}

// Waits until the connection named name waits in XREAD BLOCK.
async function blocked(c, name) {
	for (let i = 0; i < 2000; i++) {
		const list = await c.sendCommand(['CLIENT', 'LIST']);
		if (list.split('\n').some((l) => l.includes(` name=${name} `) &&
		    /flags=\w*b/.test(l)))
			return;
		await new Promise((done) => setTimeout(done, 5));
	}
	throw new Error(`${name} never blocked`);
}

// XREAD's reply in RESP2 (an array of [key, entries]) or RESP3 (a map):
// the ids of the entries, for one key.
function xreadIds(reply) {
	if (reply === null)
		return [];
	const streams = Array.isArray(reply) ?
	    reply.map((p) => p[1] ?? p.messages) :
	    Object.values(reply instanceof Map ? Object.fromEntries(reply) :
	    reply);
	return streams.flat().map((e) => e.id ?? e[0]);
}

for (const RESP of [2, 3]) {
	const P = `RESP${RESP}: `, id = (s) => `nr${RESP}-${s}`;

	suite.case(`${P}multi().exec() commits its moves together`,
	    async (t) => {
		const c = await client(t, { RESP });
		await c.sendCommand(['LUDO.CREATE', id('tx'), 'red', 'blue']);
		assertEqual(await c.multi()
		    .addCommand(['LUDO.PLAY', id('tx'), 'red', '6', '1'])
		    .addCommand(['LUDO.PLAY', id('tx'), 'blue', '6', '1'])
		    .addCommand(['LUDO.PLAY', id('tx'), 'red', '3', '1'])
		    .exec(), ['MOVED', 'INVALID_MOVE', 'MOVED']);
		assertEqual(await c.sendCommand(['HISTORY', id('tx')]),
		    ['1,red,6:1,MOVED', '2,red,3:1,MOVED']);
	});

	suite.case(`${P}watch() makes exec() fail once the game moved`,
	    async (t) => {
		const c = await client(t, { RESP });
		const other = await client(t, { RESP });
		await c.sendCommand(['LUDO.CREATE', id('w'), 'red', 'blue']);
		await c.watch(id('w'));
		await other.sendCommand(['LUDO.PLAY', id('w'), 'red', '6', '1']);
		let err = null;
		try {
			await c.multi().addCommand(['LUDO.PLAY', id('w'), 'red',
			    '5', '1']).exec();
		} catch (e) {
			err = e;
		}
		if (!(err instanceof WatchError))
			throw new Error(`exec: ${err}, not a WatchError`);
		await c.watch(id('w'));
		assertEqual(await c.multi().addCommand(['LUDO.PLAY', id('w'),
		    'red', '3', '1']).exec(), ['MOVED']);
		assertEqual(await c.ping(), 'PONG', 'in step');
	});

	suite.case(`${P}subscribe and pSubscribe receive the moves`,
	    async (t) => {
		const c = await client(t, { RESP });
		const sub = await client(t, { RESP });
		await c.sendCommand(['SNL.CREATE', id('ps'), '1']);
		const got = [];
		let done;
		const all = new Promise((r) => { done = r; });
		const note = (what) => {
			got.push(what);
			if (got.length === 4)
				done();
		};
		await sub.subscribe(id('ps'), (m, ch) => note(`${ch} ${m}`));
		await sub.pSubscribe(`nr${RESP}-p*`,
		    (m, ch) => note(`* ${ch} ${m}`));
		await c.sendCommand(['SNL.ROLL', id('ps'), '3']);
		await c.sendCommand(['SNL.ROLL', id('ps'), '4']);
		await within(5000, all, 'four messages');
		assertEqual(got.sort(), [`* ${id('ps')} 1,P1,3,P1 3`,
		    `* ${id('ps')} 2,P1,4,P1 7`, `${id('ps')} 1,P1,3,P1 3`,
		    `${id('ps')} 2,P1,4,P1 7`]);
		// A flat array in RESP3 too, as Redis answers it.
		assertEqual({ ...await c.pubSubNumSub([id('ps'), id('none')]) },
		    { [id('ps')]: 1, [id('none')]: 0 });
		await sub.unsubscribe(id('ps'));
		await sub.pUnsubscribe();
		// node-redis gives a Buffer here, with Redis too.
		assertEqual(String(await sub.ping()), 'PONG',
		    'out of subscriber mode');
	});

	suite.case(`${P}clientInfo() gives every field a number`,
	    async (t) => {
		const c = await client(t, { RESP, name: id('info') });
		const info = await c.clientInfo();
		assertEqual([info.name, info.resp, info.db], [id('info'), RESP,
		    0]);
		for (const k of ['id', 'fd', 'age', 'idle', 'sub', 'psub',
		    'multi', 'qbuf', 'qbufFree', 'argvMem', 'obl', 'oll', 'omem',
		    'totMem', 'multiMem', 'redir'])
			if (!Number.isInteger(info[k]))
				throw new Error(`${k}: ${info[k]}, not a number`);
		if (!(info.argvMem > 0 && info.totMem > info.argvMem))
			throw new Error(`argv-mem ${info.argvMem}, tot-mem ` +
			    `${info.totMem}`);
	});

	suite.case(`${P}xRead with BLOCK waits for the next move`,
	    async (t) => {
		const c = await client(t, { RESP, unstableResp3: true });
		const rd = await client(t, { RESP, unstableResp3: true,
		    name: id('reader') });
		await c.sendCommand(['DANDY.CREATE', id('xb'), '2', 'abcd']);
		await c.sendCommand(['DANDY.DRAW', id('xb'), 'a']);
		assertEqual(xreadIds(await c.xRead({ key: id('xb'), id: '0' })),
		    ['1-0']);
		const wait = rd.xRead({ key: id('xb'), id: '$' },
		    { BLOCK: 10000 });
		await blocked(c, id('reader'));
		await c.sendCommand(['DANDY.DRAW', id('xb'), 'b']);
		assertEqual(xreadIds(await within(10000, wait, 'xRead')),
		    ['2-0']);
		assertEqual(await rd.xRead({ key: id('xb'), id: '$' },
		    { BLOCK: 10 }), null, 'a timeout');
		const range = await c.xRange(id('xb'), '-', '+');
		assertEqual(range.map((e) => [e.id, e.message.action]),
		    [['1-0', 'a'], ['2-0', 'b']]);
	});

	suite.case(`${P}connect with name, database and password`,
	    async (t) => {
		const d = await new Daemon('--requirepass', 'nr secret').start();
		t.defer(() => d.close());
		t.defer(() => d.stop());
		const c = await client(t, { RESP, name: id('named'),
		    database: 0, password: 'nr secret',
		    socket: { port: d.port, reconnectStrategy: false } });
		assertEqual(await c.clientGetName(), id('named'));
		assertEqual(await c.sendCommand(['LUDO.CREATE', 'g', 'a', 'b']),
		    'OK');
		const bad = createClient({ RESP, socket: { host: '127.0.0.1',
		    port: d.port, reconnectStrategy: false } });
		bad.on('error', () => {});
		t.defer(() => bad.destroy());
		let err = null;
		try {
			await bad.connect();
			await bad.sendCommand(['GAME.INFO', 'g']);
		} catch (e) {
			err = e;
		}
		if (!/NOAUTH/.test(String(err?.message)))
			throw new Error(`no password: ${err}, not NOAUTH`);
		const other = createClient({ RESP, database: 1,
		    socket: { host: '127.0.0.1', port: t.daemon.port,
		    reconnectStrategy: false } });
		other.on('error', () => {});
		t.defer(() => other.destroy());
		await assertError(() => other.connect(), 'ERR');
	});

	// ------------------------------------------- players and matches

	suite.case(`${P}two accounts log in, join, wait (MATCH.WAIT and the ` +
	    'account\'s channel), play, and are rated', { limit: 120000 },
	    async (t) => {
		const boot = await client(t, { RESP });
		const names = [id('ann'), id('bob')], c = {}, keys = {};
		for (const n of names) {
			keys[n] = await boot.sendCommand(['PLAYER.CREATE', n]);
			assertEqual(keys[n].length, 32, 'a key');
			// One client, one connection: the account's.
			c[n] = await client(t, { RESP });
			assertEqual(await c[n].sendCommand(['PLAYER.LOGIN', n,
			    keys[n]]), 'OK');
		}
		await assertError(() => boot.sendCommand(['MATCH.JOIN',
		    'ludo']), 'NOLOGIN');
		const sub = await client(t, { RESP });
		let push;
		const pushed = new Promise((resolve) => { push = resolve; });
		await sub.subscribe(`player:${names[0]}`, (m) => push(m));
		const t1 = await c[names[0]].sendCommand(['MATCH.JOIN', 'ludo',
		    'players=2']);
		// Blocks ann's connection until bob's ticket meets hers.
		const waitAnn = c[names[0]].sendCommand(['MATCH.WAIT',
		    String(t1)]);
		const t2 = await c[names[1]].sendCommand(['MATCH.JOIN', 'ludo',
		    'players=2']);
		const [game, seat, players] = await within(10000,
		    c[names[1]].sendCommand(['MATCH.WAIT', String(t2)]),
		    'bob\'s match');
		assertEqual(seat, names[1], 'bob\'s seat');
		assertEqual([...players].sort(), [...names].sort(), 'players');
		assertEqual(await within(10000, waitAnn, 'ann\'s match'),
		    [game, names[0], players], 'ann\'s answer');
		const msg = await within(5000, pushed, 'the channel\'s message');
		if (!msg.startsWith(`matched,${t1},${game},`))
			throw new Error(`pushed ${msg}`);
		// The game to its end, each turn on its account's connection.
		for (let n = 0;; n++) {
			if (n > 20000)
				throw new Error('the game did not end');
			const turn = (await boot.sendCommand(['LUDO.STATE', game]))[0]
			    .split(',')[1];
			if (turn === 'NONE')
				break;
			const dice = String(await c[turn].sendCommand(['LUDO.ROLL',
			    game, turn]));
			const legal = await c[turn].sendCommand(['LUDO.LEGAL', game,
			    dice]);
			const res = await c[turn].sendCommand(['LUDO.PLAY', game,
			    turn, dice, String(legal.length ?
			    legal[legal.length - 1] : 0)]);
			if (res === 'INVALID_MOVE')
				throw new Error(`${turn} ${dice} ${legal}`);
		}
		const board = await boot.sendCommand(['LEADERBOARD', 'ludo']);
		for (const n of names) {
			const row = board.find((r) => r[1] === n);
			if (row === undefined || row[4] < 1)
				throw new Error(`${n} not rated: ${JSON.stringify(board)}`);
		}
	});

	// ------------------------------------------- the done-when

	suite.case(`${P}play with multi(), follow by subscribing, resume with ` +
	    'xRead after kill -9: every move once', { limit: 120000 },
	    async (t) => {
		let seed = 7;
		const rng = () => (seed = (seed * 48271) % 2147483647) /
		    2147483647;
		const c = await client(t, { RESP });
		const sub = await client(t, { RESP });
		const seen = [], played = [];
		await sub.subscribe(id('bots'),
		    (m) => seen.push(Number(m.split(',')[0])));
		await c.sendCommand(['LUDO.CREATE', id('mine'), 'red', 'blue']);
		await c.sendCommand(['LUDO.CREATE', id('bots'), 'a', 'b',
		    'bots=a:expert,b:aggressive', 'dice=server']);
		const turn = async () => {
			const info = infoOf(await c.sendCommand(['GAME.INFO',
			    id('mine')]));
			if (info.winner !== 'NONE')
				return;
			const dice = String(1 + Math.floor(rng() * 6));
			const legal = await c.sendCommand(['LUDO.LEGAL',
			    id('mine'), dice]);
			const [result] = await c.multi()
			    .addCommand(['LUDO.PLAY', id('mine'), info.turn, dice,
			    String(legal.length ? legal[0] : 0), 'AT', info.moves])
			    .addCommand(['GAME.INFO', id('mine')])
			    .exec();
			played.push(result);
		};
		while (seen.length < 10 && played.length < 500)
			await turn();
		const byPubsub = seen.length;
		sub.destroy();
		await t.daemon.restart('SIGKILL');
		// Resume from the last id seen, until the bots' game is over.
		const rd = await client(t, { RESP });
		let last = seen[seen.length - 1];
		for (const end = Date.now() + 90000; Date.now() < end;) {
			const out = await rd.sendCommand(['XREAD', 'BLOCK', '2000',
			    'STREAMS', id('bots'), `${last}-0`]);
			for (const e of xreadIds(out)) {
				seen.push(Number(e.split('-')[0]));
				last = seen[seen.length - 1];
			}
			const info = infoOf(await rd.sendCommand(['GAME.INFO',
			    id('bots')]));
			if (info.winner !== 'NONE' && Number(info.moves) === last)
				break;
		}
		assertEqual(seen, Array.from({ length: last }, (_, i) => i + 1),
		    'every move of the bots\' game, once, in order');
		if (last <= byPubsub)
			throw new Error('nothing was left to resume');
		console.log(`# the bots' game: ${byPubsub} moves by subscribe, ` +
		    `${last - byPubsub} by xRead after the kill`);
		// My game: every move played once, in its place.
		for (let i = 0; i < 20; i++)
			await turn();
		const hist = await c.sendCommand(['HISTORY', id('mine'), '1',
		    '10000']);
		assertEqual(hist.map((h) => h.split(',')[3]),
		    played.filter((r) => r !== 'INVALID_MOVE'), 'my moves');
	});
}

await suite.run();
