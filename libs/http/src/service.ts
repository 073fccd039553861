import type { Server } from 'node:http';
import type { Express } from 'express';
import type { Logger } from '@crm/logging';

/** Listens on `port` (0 picks a free one) and resolves with the server once it listens. */
export function listen(app: Express, port: number, host = '0.0.0.0'): Promise<Server> {
  return new Promise((resolve, reject) => {
    // Express 5 hands a listen error (e.g. the port is taken) to this callback.
    const server = app.listen(port, host, (error?: Error) => (error ? reject(error) : resolve(server)));
    server.keepAliveTimeout = 5_000;
  });
}

/** The port a listening server was given (the real one when it asked for 0). */
export function portOf(server: Server): number {
  const address = server.address();
  if (typeof address !== 'object' || !address) throw new Error('the server is not listening on a TCP port');
  return address.port;
}

/** Stops accepting connections and waits for requests in progress. */
export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
  });
}

export type StopStep = () => Promise<void>;

/**
 * Calls the stop steps in order on SIGTERM or SIGINT (stop taking work, finish what is in
 * hand, close connections), then exits; a second signal or the timeout forces the exit.
 */
export function stopOnSignals(logger: Logger, steps: StopStep[], timeoutMs = 10_000): void {
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) {
      logger.warn('second signal; exiting now', { signal });
      process.exit(1);
    }
    stopping = true;
    logger.info('stopping', { signal });
    const force = setTimeout(() => {
      logger.error('stop timed out; exiting', { timeoutMs });
      process.exit(1);
    }, timeoutMs);
    force.unref();
    let failed = false;
    for (const step of steps) {
      await step().catch((error: unknown) => {
        failed = true;
        logger.error('stop step failed', { err: error });
      });
    }
    logger.info('stopped');
    process.exit(failed ? 1 : 0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}
