// The client-library suites' Node half: a real ludusd on a free loopback
// port with a fresh database, which a case may restart or kill, and a TAP
// runner whose cases are plain async functions.
//
// A suite is a list of cases; adding a test is adding a call:
//
//   const suite = new Suite('ioredis');
//   suite.case('plain commands', async (t) => { ... });
//   suite.case('MULTI/EXEC', { todo: 'no MULTI yet' }, async (t) => { ... });
//   await suite.run();
//
// Each case gets the suite's Daemon (t.daemon) and a time limit; a throw
// or a rejected promise fails it.  A todo case is expected to fail (TAP
// "# TODO"): Automake counts it XFAIL, and XPASS (a failure of the
// suite) once the server does what it tests, so whoever builds the
// feature turns it into a plain case.  t.defer(fn) runs fn when the case
// ends, pass or fail: clients are closed there.
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync }
    from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const START_MS = 20000;	// a daemon that has not written its port by then
const STOP_MS = 15000;	// SIGTERM to exit; then SIGKILL
const CASE_MS = 30000;	// one case, unless it says otherwise

export function inCI() {
	return !['', '0', 'false', 'no'].includes(process.env.CI ?? '');
}

// The npm package name, installed by tests/clients/run; or the suite
// ends: FAIL in CI, SKIP elsewhere.
export function requirePackage(name) {
	const dir = process.env.LUDUS_NODE_MODULES;
	try {
		if (!dir)
			throw new Error('LUDUS_NODE_MODULES is not set: run the ' +
			    'suite through tests/clients/run');
		return createRequire(join(dir, 'noop.js'))(name);
	} catch (e) {
		const why = `${name} not installed (${e.message.split('\n')[0]})`;
		if (inCI()) {
			console.log(`not ok 1 - ${why} # install: npm ci in tests/clients`);
			console.log('1..1');
			process.exit(1);
		}
		console.log(`1..0 # SKIP ${why}`);
		process.exit(0);
	}
}

// ludusd ($LUDUSD) in a temporary directory of its own.
export class Daemon {
	constructor(...extra) {
		this.path = resolve(process.env.LUDUSD ??
		    join(process.env.top_builddir ?? '.', 'src', 'ludusd'));
		this.extra = extra;
		this.dir = mkdtempSync(join(tmpdir(), 'ludus-clients.'));
		this.db = join(this.dir, 'games.db');
		this.log = join(this.dir, 'ludusd.log');
		this.portfile = join(this.dir, 'port');
		this.port = 0;
		this.proc = null;
		// Whatever happens, no daemon outlives the suite.
		process.on('exit', () => this.proc?.kill('SIGKILL'));
	}

	// Starts it (port 0: any free one) and waits until it listens.
	async start(port = 0) {
		rmSync(this.portfile, { force: true });
		const log = openSync(this.log, 'a');
		// No HTTP port: the default one (7421) would be shared by the
		// suites that run side by side under make -j.
		const proc = spawn(this.path, ['--bind', '127.0.0.1', '--port',
		    String(port), '--portfile', this.portfile, '--http-port', '0',
		    '--db', this.db, ...this.extra], { cwd: this.dir, stdio: ['ignore', log, log] });
		closeSync(log);
		proc.exited = new Promise((done) => proc.on('exit',
		    (code, sig) => done(sig ? -1 : code)));
		proc.on('exit', () => { proc.dead = true; });
		this.proc = proc;
		const end = Date.now() + START_MS;
		while (Date.now() < end && !proc.dead) {
			const text = existsSync(this.portfile) ?
			    readFileSync(this.portfile, 'utf8').trim() : '';
			if (text !== '') {
				this.port = Number(text);
				return this;
			}
			await sleep(10);
		}
		throw new Error(`ludusd did not start:\n${this.logText()}`);
	}

	running() {
		return this.proc !== null && !this.proc.dead;
	}

	// Stops it with sig; its exit status (-1 for a death by a signal).
	async stop(sig = 'SIGTERM') {
		const proc = this.proc;
		if (proc === null)
			return 0;
		this.proc = null;
		if (proc.dead)
			return proc.exited;
		proc.kill(sig);
		const timer = setTimeout(() => proc.kill('SIGKILL'), STOP_MS);
		const rc = await proc.exited;
		clearTimeout(timer);
		return rc;
	}

	// Stops it (SIGTERM, or SIGKILL for a crash) and starts it again on
	// the same port and database, as clients expect of a restart.
	async restart(sig = 'SIGTERM') {
		const rc = await this.stop(sig);
		if (sig === 'SIGTERM' && rc !== 0)
			throw new Error(`ludusd exited ${rc} on SIGTERM:\n` +
			    this.logText());
		return this.start(this.port);
	}

	logText() {
		try {
			return readFileSync(this.log, 'utf8').slice(-4000);
		} catch {
			return '(no log)';
		}
	}

	close() {
		this.proc?.kill('SIGKILL');
		this.proc = null;
		rmSync(this.dir, { recursive: true, force: true });
	}
}

// Resolves within ms or rejects: for the events a case waits for.
export function within(ms, promise, what = 'the awaited event') {
	let timer;
	const late = new Promise((_, reject) => {
		timer = setTimeout(() => reject(new Error(`no ${what} within ` +
		    `${ms} ms`)), ms);
	});
	return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

export function assertEqual(got, want, what = 'value') {
	const g = JSON.stringify(got), w = JSON.stringify(want);
	if (g !== w)
		throw new Error(`${what}: got ${g}, want ${w}`);
}

// Calls fn, which must reject (or throw) with an error whose message
// starts with the code word; returns the error.
export async function assertError(fn, code) {
	let err = null;
	try {
		await fn();
	} catch (e) {
		err = e;
	}
	if (err === null)
		throw new Error(`no ${code} error`);
	if (!String(err.message).startsWith(`${code} `))
		throw new Error(`error '${err.message}', not ${code}`);
	return err;
}

export class Suite {
	constructor(name, ...daemonFlags) {
		this.name = name;
		this.flags = daemonFlags;
		this.cases = [];
		this.daemon = null;
	}

	// case(name, [{ todo, skip, limit }], fn)
	case(name, opts, fn) {
		if (typeof opts === 'function')
			[opts, fn] = [{}, opts];
		this.cases.push({ name, fn, ...opts });
	}

	async #one(n, c) {
		const cleanups = [];
		const t = { daemon: this.daemon, defer: (f) => cleanups.push(f) };
		let err = null;
		try {
			await within(c.limit ?? CASE_MS, c.fn(t), 'end of the case');
		} catch (e) {
			err = e;
		}
		for (const f of cleanups.reverse()) {
			try {
				await within(5000, Promise.resolve().then(f),
				    'end of a cleanup');
			} catch {
				// a client that cannot close is the case's problem
			}
		}
		if (!this.daemon.running()) {
			// A case that failed half-way must not fail the next ones.
			console.log('# ludusd was down after the case: started again');
			await this.daemon.start(this.daemon.port);
		}
		const directive = c.todo ? ` # TODO ${c.todo}` : '';
		console.log(`${err ? 'not ok' : 'ok'} ${n} - ${c.name}${directive}`);
		if (err)
			for (const line of String(err.stack ?? err).split('\n')
			    .slice(0, 12))
				console.log(`# ${line}`);
		return err === null || c.todo !== undefined;
	}

	async run() {
		// A library's stray rejection (a todo case's, say) is noted, and
		// the case it belongs to fails or times out on its own.
		process.on('unhandledRejection', (e) =>
		    console.log(`# unhandled rejection: ${e?.message ?? e}`));
		this.daemon = await new Daemon(...this.flags).start();
		let good = true, n = 0;
		for (const c of this.cases) {
			n++;
			if (c.skip)
				console.log(`ok ${n} - ${c.name} # SKIP ${c.skip}`);
			else
				good = await this.#one(n, c) && good;
		}
		// A leak or a sanitizer report in the daemon shows in its status.
		n++;
		const rc = await this.daemon.stop();
		console.log(`${rc === 0 ? 'ok' : 'not ok'} ${n} - ludusd exits 0 ` +
		    'on SIGTERM');
		if (rc !== 0) {
			good = false;
			for (const line of this.daemon.logText().split('\n').slice(-20))
				console.log(`# ${line}`);
		}
		console.log(`1..${n}`);
		this.daemon.close();
		// Clients a failed case could not close must not keep us alive.
		process.exit(good ? 0 : 1);
	}
}
