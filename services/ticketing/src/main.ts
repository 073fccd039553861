import { exitOnConfigError } from '@crm/config';
import { createLogger } from '@crm/logging';
import { stopOnSignals } from '@crm/http';
import { acceptsLocalDevToken, loadTicketingConfig, type TicketingConfig } from './config';
import { startTicketing } from './service';

async function main(): Promise<void> {
  let config: TicketingConfig;
  try {
    config = loadTicketingConfig();
  } catch (error) {
    exitOnConfigError(error);
  }
  const logger = createLogger('ticketing', config.LOG_LEVEL);
  if (acceptsLocalDevToken(config)) {
    logger.warn('CRM_API_TOKENS accepts the local development token; set your own tokens outside a local machine');
  }
  try {
    const service = await startTicketing(config, { logger });
    // Stop steps: stop consuming (in-flight work finishes), close HTTP, close the broker, end the pool.
    stopOnSignals(logger, service.stopSteps, config.SHUTDOWN_TIMEOUT_MS + 5_000);
    logger.info('ticketing ready', { url: `http://127.0.0.1:${service.port}`, health: `http://127.0.0.1:${service.port}/health/ready` });
  } catch (error) {
    logger.error('ticketing could not start', { err: error });
    process.exitCode = 1;
    // let the log line flush before leaving
    setTimeout(() => process.exit(1), 100).unref();
  }
}

void main();
