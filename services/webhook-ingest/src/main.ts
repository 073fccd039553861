import { exitOnConfigError } from '@crm/config';
import { createLogger } from '@crm/logging';
import { stopOnSignals } from '@crm/http';
import { readConfig } from './config';
import { startWebhookIngest } from './service';

async function main(): Promise<void> {
  const config = readConfig();
  const logger = createLogger('webhook-ingest', config.LOG_LEVEL);
  const service = await startWebhookIngest(config, { logger });
  stopOnSignals(logger, [service.stop], config.SHUTDOWN_TIMEOUT_MS);
}

main().catch(exitOnConfigError);
