import { exitOnConfigError } from '@crm/config';
import { closeServer, listen, stopOnSignals } from '@crm/http';
import { createLogger } from '@crm/logging';
import { createTrackingSimulatorApp, type SimulatorLocals } from './app';
import { loadSimulatorConfig, type SimulatorConfig } from './config';

async function main(): Promise<void> {
  let config: SimulatorConfig;
  try {
    config = loadSimulatorConfig();
  } catch (error) {
    exitOnConfigError(error);
  }
  const logger = createLogger('tracking-provider-simulator', config.LOG_LEVEL);
  const app = createTrackingSimulatorApp({ config, logger });
  const server = await listen(app, config.PORT).catch((error: unknown) => {
    logger.error('cannot listen', { port: config.PORT, err: error });
    process.exit(1);
  });
  logger.info(`tracking provider simulator listening on http://127.0.0.1:${config.PORT} (provider API, OSRM route API, /control)`, {
    port: config.PORT,
    clients: [...config.clients.keys()],
  });
  const pushes = setInterval(() => void (app.locals as SimulatorLocals).pushChanges(), config.SIM_PUSH_INTERVAL_MS);
  stopOnSignals(logger, [async () => clearInterval(pushes), () => closeServer(server)]);
}

void main();
