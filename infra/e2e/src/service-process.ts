import { fork, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import type { ReadyMessage } from '@crm/http';

export const ROOT = resolve(__dirname, '..', '..', '..');

/** A service running in a process of its own. */
export interface ServiceProcess {
  child: ChildProcess;
  port: number;
  stdout: () => string;
  /** Sends SIGTERM and resolves once the process has exited. */
  stop: () => Promise<void>;
}

/**
 * Runs `entry` (a service's main.ts or bundle) in its own Node process with an IPC channel, in
 * production mode on a free port; resolves once the service says it is ready, rejects with its
 * output when it exits first.
 */
export async function startServiceProcess(entry: string, execArgv: string[], env: Record<string, string>): Promise<ServiceProcess> {
  const child = fork(entry, [], {
    execArgv,
    env: { ...process.env, NODE_ENV: 'production', PORT: '0', LOG_LEVEL: 'debug', ...env },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const ready = await Promise.race([
    new Promise<ReadyMessage>((done) => child.once('message', (message) => done(message as ReadyMessage))),
    exited.then(() => {
      throw new Error(`${entry} exited before it was ready: ${err || out.slice(-2000)}`);
    }),
  ]);
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  return { child, port: ready.port, stdout: () => out, stop };
}

/** What auth, webhook-ingest and ticketing need to run together in production mode on a test's virtual host and databases. */
export interface StackOptions {
  amqpUrl: string;
  authDatabaseUrl: string;
  ticketingDatabaseUrl: string;
  consumerSecret: string;
  crmToken: string;
  credentialsKey: string;
  /** The platform's API (the simulator's) and the webhook it delivers to, when the test uses them. */
  socialApiUrl?: string;
  webhookUrl?: string;
}

export const CONSUMER_KEY = 'e2e-consumer-key';
export const ENV_NAME = 'e2e';

export function stackEnvironments(options: StackOptions) {
  const common = { AMQP_URL: options.amqpUrl };
  return {
    auth: {
      ...common,
      DATABASE_URL: options.authDatabaseUrl,
      SOCIAL_API_URL: options.socialApiUrl ?? 'http://127.0.0.1:9',
      SOCIAL_CONSUMER_KEY: CONSUMER_KEY,
      SOCIAL_CONSUMER_SECRET: options.consumerSecret,
      SOCIAL_OAUTH2_CLIENT_ID: 'oauth2-client-id',
      SOCIAL_OAUTH2_CLIENT_SECRET: 'oauth2-client-secret',
      SOCIAL_ENV_NAME: ENV_NAME,
      PUBLIC_WEBHOOK_URL: options.webhookUrl ?? `http://127.0.0.1:9/webhooks/${ENV_NAME}`,
      WEBHOOK_URL_LOCAL_ALLOWED: 'true',
      CREDENTIALS_KEY: options.credentialsKey,
      CRM_API_TOKENS: options.crmToken,
      WEBHOOK_CHECK_INTERVAL_MS: '0',
    },
    'webhook-ingest': common,
    ticketing: { ...common, DATABASE_URL: options.ticketingDatabaseUrl, CRM_API_TOKENS: options.crmToken },
  };
}
