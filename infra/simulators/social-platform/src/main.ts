import { exitOnConfigError } from '@crm/config';
import { closeServer, listen, stopOnSignals } from '@crm/http';
import { createLogger } from '@crm/logging';
import { createSimulatorApp } from './app';
import { loadSimulatorConfig, type SimulatorConfig } from './config';

async function main(): Promise<void> {
  let config: SimulatorConfig;
  try {
    config = loadSimulatorConfig();
  } catch (error) {
    exitOnConfigError(error);
  }
  const logger = createLogger('social-platform-simulator', config.LOG_LEVEL);
  const app = createSimulatorApp({ config, logger });
  const server = await listen(app, config.PORT).catch((error: unknown) => {
    logger.error('cannot listen', { port: config.PORT, err: error });
    process.exit(1);
  });
  logger.info(`social platform simulator listening on http://127.0.0.1:${config.PORT}; deliveries go to ${config.WEBHOOK_URL}`, {
    port: config.PORT,
    webhookUrl: config.WEBHOOK_URL,
  });
  stopOnSignals(logger, [() => closeServer(server)]);
}

void main();
