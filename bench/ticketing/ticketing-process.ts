/**
 * One ticketing process for the benchmark (bench.ts starts it with BENCH_SEPARATE=1, the
 * default): the service with the settings given in the environment, its port written to stdout
 * as `ready <port>` once it consumes; SIGTERM stops it cleanly.
 */
import { createLogger } from '../../libs/logging/src';
import { loadTicketingConfig } from '../../services/ticketing/src/config';
import { startTicketing } from '../../services/ticketing/src/service';

async function main(): Promise<void> {
  const ticketing = await startTicketing(loadTicketingConfig(process.env), { logger: createLogger('ticketing', process.env.LOG_LEVEL ?? 'warn') });
  process.once('SIGTERM', () => {
    void ticketing.stop().finally(() => process.exit(0));
  });
  process.stdout.write(`ready ${ticketing.port}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`ticketing process: ${String(error)}\n`);
  process.exit(1);
});
