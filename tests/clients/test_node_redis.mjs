// node-redis (the npm package redis, v5) against a real ludusd, through
// the library's own API, in RESP2 and in RESP3: sendCommand, its helpers
// (ping, echo, info), errors, pipelines (execAsPipeline, and the commands
// it pipelines by itself when several are in flight), and its reconnect
// after a restart of the server.  Run by tests/clients/run, TAP on
// stdout.  The todo cases are what the library does that the server
// cannot answer yet; see harness.mjs for how a todo case becomes a plain
// one.
import { Suite, assertEqual, assertError, requirePackage, within }
    from './harness.mjs';

const { createClient } = requirePackage('redis');
const suite = new Suite('node-redis');

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

// ---------------------------------------------- what the server lacks yet

suite.case('multi().exec() commits its moves together', async (t) => {
	const c = await client(t);
	await c.sendCommand(['LUDO.CREATE', 'nr-tx', 'red', 'blue']);
	assertEqual(await c.multi()
	    .addCommand(['LUDO.PLAY', 'nr-tx', 'red', '6', '1'])
	    .addCommand(['LUDO.PLAY', 'nr-tx', 'red', '3', '1'])
	    .exec(), ['MOVED', 'MOVED']);
});

suite.case('subscribe receives a game\'s moves', async (t) => {
	const c = await client(t);
	const sub = await client(t);
	await c.sendCommand(['LUDO.CREATE', 'nr-ps', 'red', 'blue']);
	let message;
	const got = new Promise((done) => { message = done; });
	await within(2000, sub.subscribe('nr-ps', message), 'subscribe');
	await c.sendCommand(['LUDO.PLAY', 'nr-ps', 'red', '6', '1']);
	assertEqual(await within(2000, got, 'message'), '1,red,6:1,MOVED');
});

suite.case('xRead reads a game\'s history as a stream', async (t) => {
	const c = await client(t);
	await c.sendCommand(['LUDO.CREATE', 'nr-x', 'red', 'blue']);
	await c.sendCommand(['LUDO.PLAY', 'nr-x', 'red', '6', '1']);
	const out = await c.xRead({ key: 'nr-x', id: '0' });
	assertEqual(out?.[0]?.messages?.[0]?.id, '1-0');
});

suite.case('RESP2: name on connect (CLIENT SETNAME)', async (t) => {
	const c = await client(t, { name: 'nr-client',
	    socket: { reconnectStrategy: false } });
	assertEqual(await c.clientGetName(), 'nr-client');
});

await suite.run();
