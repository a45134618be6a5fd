// ioredis (v5) against a real ludusd, through the library's own API:
// call(), its helpers (ping, echo, info), errors, pipeline().exec(), the
// INFO it reads before it calls a connection ready, and its reconnect
// after a restart of the server.  ioredis speaks RESP2 only.  Run by
// tests/clients/run, TAP on stdout.  The todo cases are what the library
// does that the server cannot answer yet; see harness.mjs for how a todo
// case becomes a plain one.
import { Suite, assertEqual, assertError, requirePackage, within }
    from './harness.mjs';

const Redis = requirePackage('ioredis');
const suite = new Suite('ioredis');

const STATE0 = ['turn,red', 'winner,NONE', 'red,1,YARD,-1', 'red,2,YARD,-1',
    'red,3,YARD,-1', 'red,4,YARD,-1', 'blue,1,YARD,-1', 'blue,2,YARD,-1',
    'blue,3,YARD,-1', 'blue,4,YARD,-1'];

// A client of the suite's daemon, ready, and closed when the case ends.
async function client(t, opts = {}) {
	const c = new Redis({ host: '127.0.0.1', port: t.daemon.port,
	    connectTimeout: 5000, lazyConnect: true, ...opts });
	c.errors = [];
	c.on('error', (e) => c.errors.push(e));
	t.defer(() => c.disconnect());
	await c.connect();
	return c;
}

suite.case('LUDO.CREATE, PLAY and STATE through call()', async (t) => {
	const c = await client(t);
	assertEqual(await c.call('LUDO.CREATE', 'io-g', 'red', 'blue'), 'OK');
	assertEqual(await c.call('LUDO.STATE', 'io-g'), STATE0);
	assertEqual(await c.call('LUDO.PLAY', 'io-g', 'red', 6, 1), 'MOVED');
	assertEqual(await c.call('HISTORY', 'io-g'), ['1,red,6:1,MOVED']);
});

suite.case('Buffer replies through callBuffer()', async (t) => {
	const c = await client(t);
	await c.call('SNL.CREATE', 'io-snl', 2);
	const r = await c.callBuffer('SNL.ROLL', 'io-snl', 4);
	if (!Buffer.isBuffer(r) || r.toString() !== 'P1 4')
		throw new Error(`callBuffer: ${r}`);
});

suite.case('a refused move is a reply, a bad request a ReplyError',
    async (t) => {
	const c = await client(t);
	await c.call('LUDO.CREATE', 'io-e', 'red', 'blue');
	assertEqual(await c.call('LUDO.PLAY', 'io-e', 'red', 3, 1),
	    'INVALID_MOVE');
	const e = await assertError(() => c.call('LUDO.STATE', 'nope'),
	    'NOGAME');
	assertEqual(e.name, 'ReplyError');
	await assertError(() => c.call('NOSUCH'), 'ERR');
	assertEqual(await c.ping(), 'PONG', 'in step after errors');
});

suite.case('the ready check (INFO), ping, echo and info', async (t) => {
	const c = await client(t);
	assertEqual(c.status, 'ready');
	assertEqual(await c.ping(), 'PONG');
	assertEqual(await c.echo('hello there'), 'hello there');
	const info = await c.info('games');
	if (!/^games_total:\d+\r$/m.test(info))
		throw new Error(`INFO games: ${info}`);
	const hello = await c.call('HELLO', '2');
	assertEqual([hello[0], hello[1], hello[4], hello[5]],
	    ['server', 'ludus', 'proto', 2]);
});

suite.case('pipeline().exec(): replies in order, errors in place',
    async (t) => {
	const c = await client(t);
	const out = await c.pipeline()
	    .call('LUDO.CREATE', 'io-p', 'red', 'blue')
	    .call('LUDO.PLAY', 'io-p', 'red', 6, 1)
	    .call('LUDO.STATE', 'nope')
	    .call('LUDO.PLAY', 'io-p', 'red', 3, 1)
	    .call('HISTORY', 'io-p')
	    .exec();
	assertEqual(out.map(([e]) => e === null), [true, true, false, true,
	    true], 'errors');
	assertEqual([out[0][1], out[1][1], out[3][1], out[4][1]], ['OK',
	    'MOVED', 'MOVED', ['1,red,6:1,MOVED', '2,red,3:1,MOVED']]);
	if (!out[2][0].message.startsWith('NOGAME '))
		throw new Error(`third reply: ${out[2][0].message}`);
});

suite.case('a pipeline of 500 commands', async (t) => {
	const c = await client(t);
	const p = c.pipeline().call('DANDY.CREATE', 'io-d', 2, 'abcd');
	for (let i = 0; i < 499; i++)
		p.call('DANDY.DRAW', 'io-d', 'abcd'[i % 4]);
	const out = await p.exec();
	assertEqual(out.length, 500);
	assertEqual(out.filter(([e]) => e !== null).length, 0, 'errors');
	assertEqual((await c.call('HISTORY', 'io-d', 1, 10000)).length, 499);
});

suite.case('reconnects by itself after a restart (SIGTERM)', async (t) => {
	const c = await client(t);
	await c.call('LUDO.CREATE', 'io-r', 'red', 'blue');
	await c.call('LUDO.PLAY', 'io-r', 'red', 6, 1);
	await t.daemon.restart();
	assertEqual(await within(10000, c.call('LUDO.PLAY', 'io-r', 'red', 3,
	    1), 'reply after the restart'), 'MOVED');
	assertEqual(await c.call('HISTORY', 'io-r'),
	    ['1,red,6:1,MOVED', '2,red,3:1,MOVED']);
});

suite.case('a command sent while the server is down (kill -9) waits for it',
    async (t) => {
	const c = await client(t);
	await c.call('LUDO.CREATE', 'io-k', 'red', 'blue');
	await t.daemon.stop('SIGKILL');
	// Sent once the client knows: one written before would be lost with
	// the connection (it may have been applied).
	await within(5000, new Promise((done) => c.once('close', done)),
	    'close event');
	const play = c.call('LUDO.PLAY', 'io-k', 'red', 6, 1);
	await new Promise((done) => setTimeout(done, 300));
	await t.daemon.start(t.daemon.port);
	assertEqual(await within(10000, play, 'reply after the restart'),
	    'MOVED');
});

// ---------------------------------------------- what the server lacks yet

suite.case('multi().exec() commits its moves together', async (t) => {
	const c = await client(t);
	await c.call('LUDO.CREATE', 'io-tx', 'red', 'blue');
	const out = await c.multi()
	    .call('LUDO.PLAY', 'io-tx', 'red', 6, 1)
	    .call('LUDO.PLAY', 'io-tx', 'red', 3, 1)
	    .exec();
	assertEqual(out, [[null, 'MOVED'], [null, 'MOVED']]);
});

suite.case('subscribe receives a game\'s moves', async (t) => {
	const c = await client(t);
	const sub = await client(t);
	await c.call('LUDO.CREATE', 'io-ps', 'red', 'blue');
	const got = new Promise((done) => sub.on('message', (ch, m) => done(m)));
	await within(2000, sub.subscribe('io-ps'), 'subscribe');
	await c.call('LUDO.PLAY', 'io-ps', 'red', 6, 1);
	assertEqual(await within(2000, got, 'message'), '1,red,6:1,MOVED');
});

suite.case('xread reads a game\'s history as a stream', async (t) => {
	const c = await client(t);
	await c.call('LUDO.CREATE', 'io-x', 'red', 'blue');
	await c.call('LUDO.PLAY', 'io-x', 'red', 6, 1);
	const out = await c.xread('STREAMS', 'io-x', '0');
	assertEqual(out?.[0]?.[1]?.[0]?.[0], '1-0');
});

suite.case('connectionName on connect (CLIENT SETNAME)', async (t) => {
	const c = await client(t, { connectionName: 'io-client',
	    maxRetriesPerRequest: 0, retryStrategy: () => null });
	assertEqual(await c.client('GETNAME'), 'io-client');
});

await suite.run();
