import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ReadyMessage } from './service';

interface Run {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
  stops: string;
}

/** Runs the fixture service in a child process (TypeScript through tsx), with an IPC channel for its ready message. */
function runFixture(mode: string): Run {
  const stops = join(mkdtempSync(join(tmpdir(), 'service-fixture-')), 'stops');
  const child = fork(join(__dirname, 'testing', 'service-fixture.ts'), [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, FIXTURE_MODE: mode, FIXTURE_STOPS: stops },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, stdout: () => out, stderr: () => err, exited, stops };
}

describe('runService, the skeleton every main.ts runs', () => {
  it('says it is ready (to a parent listening on IPC), serves, and runs the stop steps in order on SIGTERM, exiting 0', async () => {
    const run = runFixture('ok');
    const ready = await new Promise<ReadyMessage>((resolve) => run.child.once('message', (message) => resolve(message as ReadyMessage)));
    expect(ready).toEqual({ ready: 'fixture', port: expect.any(Number) });
    expect(await (await fetch(`http://127.0.0.1:${ready.port}/health/live`)).json()).toEqual({ ok: true });

    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
    expect(readFileSync(run.stops, 'utf8')).toBe('consumers\nhttp\n');
    expect(run.stdout()).toContain('"message":"fixture ready"');
  }, 30_000);

  it('prints a configuration error as one line and exits 78, starting nothing', async () => {
    const run = runFixture('bad-config');
    expect(await run.exited).toBe(78);
    expect(run.stderr()).toBe('fixture: FIXTURE_TOKEN is missing; FIXTURE_PORT must be a port number\n');
    expect(run.stdout()).toBe('');
  }, 30_000);

  it('logs a start that fails, with the reason, and exits 1', async () => {
    const run = runFixture('bad-start');
    expect(await run.exited).toBe(1);
    const failure = run.stdout().split('\n').find((line) => line.includes('could not start'));
    expect(JSON.parse(failure!)).toMatchObject({ level: 'error', message: 'fixture could not start', service: 'fixture' });
    expect(failure).toContain('the database is not there');
    expect(existsSync(run.stops)).toBe(false);
  }, 30_000);
});
