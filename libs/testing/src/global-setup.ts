/**
 * Gives the tests a RabbitMQ and a PostgreSQL: the URLs in AMQP_URL and DATABASE_URL when
 * set; else containers, when a Docker engine answers; else the local servers of our
 * machines (127.0.0.1).
 */
export default async function globalSetup(): Promise<void> {
  if (process.env.AMQP_URL && process.env.DATABASE_URL) return;
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
