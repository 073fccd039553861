/**
 * The simulator driven by tweepy (Debian's python3-tweepy, which bootstrap installs), unchanged:
 * tweepy_drive.py sends tweepy's connections to the simulator and trusts its test certificate.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate } from 'selfsigned';
import { closeServer, portOf } from '@crm/http';
import { testLogger } from '@crm/testing';
import { createSimulatorApp } from '../app';
import { loadSimulatorConfig } from '../config';

const KEY = 'tweepy-consumer-key';
const SECRET = 'tweepy-consumer-secret';
/** Debian's interpreter, where python3-tweepy is installed (a python3 earlier on PATH may not have it). */
const PYTHON = process.env.TWEEPY_PYTHON ?? '/usr/bin/python3';
let server: Server;
let caFile: string;

beforeAll(async () => {
  const config = loadSimulatorConfig({ SOCIAL_CONSUMER_KEY: KEY, SOCIAL_CONSUMER_SECRET: SECRET, SOCIAL_ENV_NAME: 'test', WEBHOOK_URL: 'http://127.0.0.1:9/none' });
  const hosts = ['api.twitter.com', 'upload.twitter.com', 'twitter.com'];
  const pems = await generate([{ name: 'commonName', value: hosts[0]! }], { keySize: 2048, extensions: [{ name: 'subjectAltName', altNames: hosts.map((value) => ({ type: 2 as const, value })) }] });
  caFile = join(mkdtempSync(join(tmpdir(), 'tweepy-')), 'simulator.pem');
  writeFileSync(caFile, pems.cert);
  server = createServer({ key: pems.private, cert: pems.cert }, createSimulatorApp({ config, logger: testLogger('sim') }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});

afterAll(async () => {
  await closeServer(server);
});

interface CallResult {
  call: string;
  ok: boolean;
  detail: unknown;
}

function drive(): Promise<{ code: number | null; calls: CallResult[]; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(PYTHON, [join(__dirname, 'tweepy_drive.py')], {
      env: { ...process.env, SIMULATOR_PORT: String(portOf(server)), REQUESTS_CA_BUNDLE: caFile, KEY, SECRET },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr, calls: stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line) as CallResult) }));
  });
}

it('tweepy connects an account with OAuth 1.0a and every action it calls works', async () => {
  const { code, calls, stderr } = await drive();
  const failed = calls.filter((call) => !call.ok);
  expect({ failed, stderr: code === 0 ? '' : stderr }).toEqual({ failed: [], stderr: '' });
  expect(code).toBe(0);
  expect(calls.map((call) => call.call)).toEqual(expect.arrayContaining(['oauth1 connect', 'send_direct_message', 'unretweet', 'get_friend_ids', 'destroy_list', 'oauth2 app-only bearer token']));
  expect(calls.length).toBeGreaterThanOrEqual(35);
}, 60_000);
