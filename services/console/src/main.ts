import './telemetry';
import { exitOnConfigError } from '@crm/config';
import { stopOnSignals } from '@crm/http';
import { createLogger } from '@crm/logging';
import { shutdownTelemetry } from '@crm/telemetry';
import { readConfig } from './config';
import { startConsole } from './service';

async function main(): Promise<void> {
  const config = readConfig();
  const logger = createLogger('console', config.LOG_LEVEL);
  const service = await startConsole(config, { logger });
  stopOnSignals(logger, [service.stop, shutdownTelemetry], config.SHUTDOWN_TIMEOUT_MS);
}

main().catch(exitOnConfigError);
