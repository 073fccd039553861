/** Runs a tweepy driver script (Debian's python3-tweepy, unchanged) against the simulator over TLS: one JSON line per call. */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTlsSimulator, type TlsSimulator } from './tls-simulator';

/** The app's credentials the simulator and the drivers share. */
export const TWEEPY_APP = { KEY: 'tweepy-consumer-key', SECRET: 'tweepy-consumer-secret', CLIENT_ID: 'tweepy-oauth2-client', CLIENT_SECRET: 'tweepy-oauth2-secret' };
/** Debian's interpreter, where python3-tweepy is installed (a python3 earlier on PATH may not have it). */
const PYTHON = process.env.TWEEPY_PYTHON ?? '/usr/bin/python3';

export interface CallResult {
  call: string;
  ok: boolean;
  detail: unknown;
}

export interface TweepySimulator {
  simulator: TlsSimulator;
  /** Runs `script` (a file beside this one); its exit code, its calls and its stderr. */
  drive: (script: string) => Promise<{ code: number | null; calls: CallResult[]; stderr: string }>;
  close: () => Promise<void>;
}

/** The simulator on the platform's host names over TLS, and a runner of tweepy drivers that trust its certificate. */
export async function startTweepySimulator(): Promise<TweepySimulator> {
  const simulator = await startTlsSimulator(
    { SOCIAL_CONSUMER_KEY: TWEEPY_APP.KEY, SOCIAL_CONSUMER_SECRET: TWEEPY_APP.SECRET, SOCIAL_OAUTH2_CLIENT_ID: TWEEPY_APP.CLIENT_ID, SOCIAL_OAUTH2_CLIENT_SECRET: TWEEPY_APP.CLIENT_SECRET },
    ['api.twitter.com', 'upload.twitter.com', 'twitter.com'],
  );
  const caFile = join(mkdtempSync(join(tmpdir(), 'tweepy-')), 'simulator.pem');
  writeFileSync(caFile, simulator.cert);
  const drive = (script: string) =>
    new Promise<{ code: number | null; calls: CallResult[]; stderr: string }>((resolve, reject) => {
      const child = spawn(PYTHON, [join(__dirname, script)], { env: { ...process.env, SIMULATOR_PORT: String(simulator.port), REQUESTS_CA_BUNDLE: caFile, ...TWEEPY_APP } });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stderr, calls: stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line) as CallResult) }));
    });
  return { simulator, drive, close: () => simulator.close() };
}
