import { exitOnConfigError } from '@crm/config';
import { stopOnSignals } from '@crm/http';
import { createLogger } from '@crm/logging';
import { readConfig } from './config';
import { startTracking } from './service';

async function main(): Promise<void> {
  const config = readConfig();
  const logger = createLogger('tracking', config.LOG_LEVEL);
  const service = await startTracking(config, { logger });
  stopOnSignals(logger, [service.stop], config.SHUTDOWN_TIMEOUT_MS);
}

main().catch(exitOnConfigError);
