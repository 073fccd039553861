/**
 * The simulator driven by tweepy (Debian's python3-tweepy, which bootstrap installs), unchanged:
 * tweepy_drive.py sends tweepy's connections to the simulator and trusts its test certificate.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTlsSimulator, type TlsSimulator } from './tls-simulator';

const KEY = 'tweepy-consumer-key';
const SECRET = 'tweepy-consumer-secret';
const CLIENT_ID = 'tweepy-oauth2-client';
const CLIENT_SECRET = 'tweepy-oauth2-secret';
/** Debian's interpreter, where python3-tweepy is installed (a python3 earlier on PATH may not have it). */
const PYTHON = process.env.TWEEPY_PYTHON ?? '/usr/bin/python3';
let simulator: TlsSimulator;
let caFile: string;

beforeAll(async () => {
  simulator = await startTlsSimulator({ SOCIAL_CONSUMER_KEY: KEY, SOCIAL_CONSUMER_SECRET: SECRET, SOCIAL_OAUTH2_CLIENT_ID: CLIENT_ID, SOCIAL_OAUTH2_CLIENT_SECRET: CLIENT_SECRET }, ['api.twitter.com', 'upload.twitter.com', 'twitter.com']);
  caFile = join(mkdtempSync(join(tmpdir(), 'tweepy-')), 'simulator.pem');
  writeFileSync(caFile, simulator.cert);
});

afterAll(async () => {
  await simulator.close();
});

interface CallResult {
  call: string;
  ok: boolean;
  detail: unknown;
}

function drive(): Promise<{ code: number | null; calls: CallResult[]; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(PYTHON, [join(__dirname, 'tweepy_drive.py')], {
      env: { ...process.env, SIMULATOR_PORT: String(simulator.port), REQUESTS_CA_BUNDLE: caFile, KEY, SECRET, CLIENT_ID, CLIENT_SECRET },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr, calls: stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line) as CallResult) }));
  });
}

it('tweepy connects accounts with OAuth 1.0a and OAuth 2.0 PKCE, and every v1.1 and v2 action it calls works', async () => {
  const { code, calls, stderr } = await drive();
  const failed = calls.filter((call) => !call.ok);
  expect({ failed, stderr: code === 0 ? '' : stderr }).toEqual({ failed: [], stderr: '' });
  expect(code).toBe(0);
  expect(calls.map((call) => call.call)).toEqual(expect.arrayContaining(['oauth1 connect', 'send_direct_message', 'unretweet', 'get_friend_ids', 'destroy_list', 'oauth2 app-only bearer token', 'oauth2 connect', 'v2 create_direct_message']));
  expect(calls.length).toBeGreaterThanOrEqual(48);
}, 60_000);
