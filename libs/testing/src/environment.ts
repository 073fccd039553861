import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

export const DEFAULT_AMQP_URL = 'amqp://guest:guest@127.0.0.1:5672';
export const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

/** The broker tests talk to: AMQP_URL, else what global setup started, else the local one. */
export function amqpUrl(): string {
  return process.env.AMQP_URL ?? DEFAULT_AMQP_URL;
}

/** Any database on the server tests use; tests make their own databases beside it. */
export function databaseServerUrl(): string {
  return process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL;
}

/**
 * Restarts the broker's application (connections drop, durable queues and persistent
 * messages stay): the container's when global setup started one, else the local server's.
 */
export async function restartBroker(): Promise<void> {
  const container = process.env.TEST_RABBITMQ_CONTAINER;
  const ctl = (args: string[]) => (container ? run('docker', ['exec', container, 'rabbitmqctl', ...args]) : run('rabbitmqctl', args));
  await ctl(['stop_app']);
  await ctl(['start_app']);
  await ctl(['await_startup']);
}
