// ioredis (v5) against a real ludusd, through the library's own API:
// call(), its helpers (ping, echo, info), errors, pipeline().exec(), the
// INFO it reads before it calls a connection ready, and its reconnect
// after a restart of the server; then its own APIs for what a game
// client needs: multi().exec() and watch(), subscribe and psubscribe,
// xread with BLOCK, connecting with connectionName, db and password.
// ioredis speaks RESP2 only.  Run by tests/clients/run, TAP on stdout.
import { Daemon, Suite, assertEqual, assertError, requirePackage, within }
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

// --------------------------------------------- the library's own APIs

suite.case('multi().exec() commits its moves together', async (t) => {
	const c = await client(t);
	await c.call('LUDO.CREATE', 'io-tx', 'red', 'blue');
	const out = await c.multi()
	    .call('LUDO.PLAY', 'io-tx', 'red', 6, 1)
	    .call('LUDO.PLAY', 'io-tx', 'red', 3, 1)
	    .exec();
	assertEqual(out, [[null, 'MOVED'], [null, 'MOVED']]);
});

suite.case('multi().exec(): refusals in place, an error aborts at queueing',
    async (t) => {
	const c = await client(t);
	await c.call('LUDO.CREATE', 'io-tx2', 'red', 'blue');
	const out = await c.multi()
	    .call('LUDO.PLAY', 'io-tx2', 'red', 6, 1)
	    .call('LUDO.PLAY', 'io-tx2', 'blue', 6, 1)
	    .call('LUDO.PLAY', 'io-tx2', 'red', 9, 1)
	    .exec();
	assertEqual([out[0], out[1]], [[null, 'MOVED'], [null, 'INVALID_MOVE']]);
	if (!String(out[2][0]?.message).startsWith('BADARG '))
		throw new Error(`third: ${out[2]}`);
	await assertError(() => c.multi()
	    .call('LUDO.PLAY', 'io-tx2', 'red', 3, 1)
	    .call('NOSUCH')
	    .exec(), 'EXECABORT');
	assertEqual(await c.call('HISTORY', 'io-tx2'), ['1,red,6:1,MOVED']);
});

suite.case('watch(): exec() gives null once the game moved', async (t) => {
	const c = await client(t);
	const other = await client(t);
	await c.call('LUDO.CREATE', 'io-w', 'red', 'blue');
	assertEqual(await c.watch('io-w'), 'OK');
	await other.call('LUDO.PLAY', 'io-w', 'red', 6, 1);
	assertEqual(await c.multi().call('LUDO.PLAY', 'io-w', 'red', 5, 1)
	    .exec(), null);
	await c.watch('io-w');
	assertEqual(await c.multi().call('LUDO.PLAY', 'io-w', 'red', 3, 1)
	    .exec(), [[null, 'MOVED']]);
	assertEqual(await c.unwatch(), 'OK');
});

suite.case('subscribe and psubscribe receive a game\'s moves',
    async (t) => {
	const c = await client(t);
	const sub = await client(t);
	await c.call('LUDO.CREATE', 'io-ps', 'red', 'blue');
	const got = [];
	let done;
	const all = new Promise((r) => { done = r; });
	const note = (what) => {
		got.push(what);
		if (got.length === 2)
			done();
	};
	sub.on('message', (ch, m) => note(`${ch} ${m}`));
	sub.on('pmessage', (p, ch, m) => note(`${p} ${ch} ${m}`));
	assertEqual(await within(2000, sub.subscribe('io-ps'), 'subscribe'), 1);
	assertEqual(await sub.psubscribe('io-p*'), 2);
	await c.call('LUDO.PLAY', 'io-ps', 'red', 6, 1);
	await within(2000, all, 'messages');
	assertEqual(got, ['io-ps 1,red,6:1,MOVED',
	    'io-p* io-ps 1,red,6:1,MOVED']);
});

suite.case('xread with BLOCK waits for the next move', async (t) => {
	const c = await client(t);
	const rd = await client(t, { connectionName: 'io-reader' });
	await c.call('LUDO.CREATE', 'io-x', 'red', 'blue');
	await c.call('LUDO.PLAY', 'io-x', 'red', 6, 1);
	const out = await c.xread('STREAMS', 'io-x', '0');
	assertEqual(out, [['io-x', [['1-0', ['player', 'red', 'action', '6:1',
	    'result', 'MOVED']]]]]);
	const wait = rd.xread('BLOCK', 10000, 'STREAMS', 'io-x', '$');
	for (let i = 0; i < 2000; i++) {
		const list = await c.client('LIST');
		if (/ name=io-reader .*flags=\w*b/.test(list))
			break;
		await new Promise((r) => setTimeout(r, 5));
	}
	await c.call('LUDO.PLAY', 'io-x', 'red', 3, 1);
	assertEqual((await within(10000, wait, 'xread'))?.[0]?.[1]?.[0]?.[0],
	    '2-0');
	assertEqual(await rd.xread('BLOCK', 10, 'STREAMS', 'io-x', '$'), null);
	assertEqual((await c.xrange('io-x', '-', '+')).map((e) => e[0]),
	    ['1-0', '2-0']);
	assertEqual(await c.xlen('io-x'), 2);
});

suite.case('connectionName, db and password on connect', async (t) => {
	const d = await new Daemon('--requirepass', 'io secret').start();
	t.defer(() => d.close());
	t.defer(() => d.stop());
	const c = await client(t, { port: d.port, connectionName: 'io-client',
	    db: 0, password: 'io secret', maxRetriesPerRequest: 0,
	    retryStrategy: () => null });
	assertEqual(await c.client('GETNAME'), 'io-client');
	assertEqual(await c.call('LUDO.CREATE', 'g', 'a', 'b'), 'OK');
	const bad = new Redis({ host: '127.0.0.1', port: d.port,
	    lazyConnect: true, maxRetriesPerRequest: 0,
	    retryStrategy: () => null, enableReadyCheck: false });
	bad.on('error', () => {});
	t.defer(() => bad.disconnect());
	await bad.connect();
	await assertError(() => bad.call('GAME.INFO', 'g'), 'NOAUTH');
});

await suite.run();
