/**
 * ticketing from a terminal, with its own settings (the same env variables); the service need
 * not be running:
 *
 *   pnpm --filter @crm/ticketing cli rebuild --into <database url> [--account <accountId>]
 *
 * Prints JSON (progress on stderr). Exit codes: 0 done, 1 failed, 2 usage.
 */
import { exitOnConfigError } from '@crm/config';
import { createLogger } from '@crm/logging';
import { runCli } from './cli-commands';
import { loadTicketingConfig, type TicketingConfig } from './config';

let config: TicketingConfig;
try {
  config = loadTicketingConfig();
} catch (error) {
  exitOnConfigError(error);
}
runCli(process.argv.slice(2), config, createLogger('ticketing-cli', 'warn'), { out: (line) => console.log(line), err: (line) => console.error(line) }).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
