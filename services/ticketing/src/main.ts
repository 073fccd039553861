import './telemetry';
import { runService } from '@crm/http';
import { acceptsLocalDevToken, loadTicketingConfig, type TicketingConfig } from './config';
import { startTicketing } from './service';

void runService({
  name: 'ticketing',
  readConfig: loadTicketingConfig,
  start: async (config: TicketingConfig, deps) => {
    if (acceptsLocalDevToken(config)) {
      deps.logger.warn('CRM_API_TOKENS accepts the local development token; set your own tokens outside a local machine');
    }
    // Stop steps: stop consuming (in-flight work finishes), close HTTP, close the broker, end the pool.
    return startTicketing(config, deps);
  },
  stopTimeoutMs: (config) => config.SHUTDOWN_TIMEOUT_MS + 5_000,
});
