import { createServer, type Server } from 'node:http';
import type { Express } from 'express';
import { exitOnConfigError } from '@crm/config';
import { createLogger, type Logger } from '@crm/logging';
import { shutdownTelemetry } from '@crm/telemetry';
import { requestListener } from './hot-routes';

/** Listens on `port` (0 picks a free one) and resolves with the server once it listens; it serves the app's hot routes ahead of Express. */
export function listen(app: Express, port: number, host = '0.0.0.0'): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer(requestListener(app));
    server.keepAliveTimeout = 5_000;
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server);
    });
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

/** What a started service hands the skeleton: where it listens and how it stops. */
export type StartedService = { port: number } & ({ stop: StopStep } | { stopSteps: StopStep[] });

interface BaseConfig {
  LOG_LEVEL: string;
  SHUTDOWN_TIMEOUT_MS: number;
}

export interface ServiceDefinition<C extends BaseConfig> {
  name: string;
  /** Reads the environment; throws ConfigError (one line naming every problem) when it cannot. */
  readConfig: () => C;
  start: (config: C, deps: { logger: Logger }) => Promise<StartedService>;
  /** How long the stop steps may take before the exit is forced; SHUTDOWN_TIMEOUT_MS when not given. */
  stopTimeoutMs?: (config: C) => number;
}

/** Sent to a parent process that started the service with an IPC channel: the explicit ready hook. */
export interface ReadyMessage {
  ready: string;
  port: number;
}

/**
 * The one skeleton every service's main.ts runs: read the config (a ConfigError is printed as
 * one line and exits 78), start, stop cleanly on SIGTERM/SIGINT, and say it is ready (a log
 * line, and a message to a parent that listens). A start that fails is logged and exits 1.
 */
export async function runService<C extends BaseConfig>(definition: ServiceDefinition<C>): Promise<void> {
  let config: C;
  try {
    config = definition.readConfig();
  } catch (error) {
    exitOnConfigError(error);
  }
  const logger = createLogger(definition.name, config.LOG_LEVEL);
  try {
    const service = await definition.start(config, { logger });
    // The last step sends the spans still buffered.
    const steps = [...('stopSteps' in service ? service.stopSteps : [service.stop]), shutdownTelemetry];
    stopOnSignals(logger, steps, definition.stopTimeoutMs?.(config) ?? config.SHUTDOWN_TIMEOUT_MS);
    const url = `http://127.0.0.1:${service.port}`;
    logger.info(`${definition.name} ready`, { url, health: `${url}/health/ready` });
    process.send?.({ ready: definition.name, port: service.port } satisfies ReadyMessage);
  } catch (error) {
    logger.error(`${definition.name} could not start`, { err: error });
    process.exitCode = 1;
    // let the log line flush before leaving
    setTimeout(() => process.exit(1), 100).unref();
  }
}
