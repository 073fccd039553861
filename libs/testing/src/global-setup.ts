import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import { promisify } from 'node:util';
import { fillVirtualHostPool } from './environment';
import { sweepLeftovers } from './leftovers';

const run = promisify(execFile);

/** About as many as a whole run's files take; beyond it a file makes its own. */
const VIRTUAL_HOST_POOL_SIZE = 48;

const accepts = (host: string, port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect({ host, port, timeout: 1_000 }, () => resolve(true));
    socket.on('error', () => resolve(false)).on('timeout', () => resolve(false));
    socket.unref();
  });

/**
 * Some tests stop the broker's application and start it again; a run cut off in between leaves
 * the machine's RabbitMQ node up with its application stopped. The next run starts it again.
 */
async function startStoppedLocalBroker(): Promise<void> {
  const url = new URL(process.env.AMQP_URL ?? 'amqp://127.0.0.1:5672');
  if (!['127.0.0.1', 'localhost'].includes(url.hostname) || (await accepts(url.hostname, Number(url.port || 5672)))) return;
  const nodeAnswers = await run('rabbitmqctl', ['-q', 'ping']).then(() => true, () => false);
  if (!nodeAnswers) return;
  process.stderr.write('RabbitMQ runs with its application stopped (a test run was cut off while a test had it stopped): starting it\n');
  try {
    await run('rabbitmqctl', ['start_app']);
    await run('rabbitmqctl', ['await_startup']);
  } catch (error) {
    process.stderr.write(`could not start RabbitMQ's application: ${(error as Error).message.split('\n')[0]}\n`);
  }
}

/**
 * Gives the tests a RabbitMQ and a PostgreSQL: the URLs in AMQP_URL and DATABASE_URL when
 * set; else containers, when a Docker engine answers; else the local servers of our
 * machines (127.0.0.1). Then removes what cut-off runs left on them.
 */
export default async function globalSetup(): Promise<void> {
  // The run's id, in the names of what it makes that runs at once on one server must not share.
  process.env.TEST_RUN_ID ??= `${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
  await startStoppedLocalBroker();
  if (!(process.env.AMQP_URL && process.env.DATABASE_URL)) await startContainers();
  // Beside the tests rather than before them (rabbitmqctl takes seconds): it touches nothing of this run; teardown awaits it.
  (globalThis as { __leftoverSweep?: Promise<void> }).__leftoverSweep = sweepLeftovers();
  // Virtual hosts for the test files, made in one go beside the first files (which make their own meanwhile).
  (globalThis as { __virtualHostPool?: Promise<void> }).__virtualHostPool = fillVirtualHostPool(VIRTUAL_HOST_POOL_SIZE).catch((error: Error) => {
    process.stderr.write(`could not make the tests' virtual hosts ahead, each file makes its own: ${error.message.split('\n')[0]}\n`);
  });
}

/** Containers for what AMQP_URL and DATABASE_URL do not name, when a Docker engine answers. */
async function startContainers(): Promise<void> {
  const { getContainerRuntimeClient } = await import('testcontainers');
  const hasDocker = await getContainerRuntimeClient().then(
    () => true,
    () => false,
  );
  if (!hasDocker) return;
  const started: { stop: () => Promise<unknown> }[] = [];
  if (!process.env.AMQP_URL) {
    const { RabbitMQContainer } = await import('@testcontainers/rabbitmq');
    const rabbit = await new RabbitMQContainer('rabbitmq:3.13-management').start();
    process.env.AMQP_URL = rabbit.getAmqpUrl();
    process.env.TEST_RABBITMQ_CONTAINER = rabbit.getId();
    started.push(rabbit);
  }
  if (!process.env.DATABASE_URL) {
    const { PostgreSqlContainer } = await import('@testcontainers/postgresql');
    const pg = await new PostgreSqlContainer('postgres:15').start();
    process.env.DATABASE_URL = pg.getConnectionUri();
    started.push(pg);
  }
  (globalThis as { __testContainers?: typeof started }).__testContainers = started;
}
