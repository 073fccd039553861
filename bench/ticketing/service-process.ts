/**
 * One service in a process of its own for the benchmark, as it runs in production (bench.ts
 * starts ticketing and webhook-ingest this way unless BENCH_SEPARATE=0): the service named by
 * the first argument with the settings given in the environment, its port written to stdout as
 * `ready <port>` once it serves; SIGTERM stops it cleanly.
 */
import { createLogger } from '../../libs/logging/src';
import { loadTicketingConfig } from '../../services/ticketing/src/config';
import { startTicketing } from '../../services/ticketing/src/service';
import { readConfig as readIngestConfig } from '../../services/webhook-ingest/src/config';
import { startWebhookIngest } from '../../services/webhook-ingest/src/service';

const SERVICES = {
  ticketing: (logger: ReturnType<typeof createLogger>) => startTicketing(loadTicketingConfig(process.env), { logger }),
  'webhook-ingest': (logger: ReturnType<typeof createLogger>) => startWebhookIngest(readIngestConfig(process.env), { logger }),
};

async function main(): Promise<void> {
  const name = process.argv[2] as keyof typeof SERVICES;
  if (!(name in SERVICES)) throw new Error(`no such service: ${name} (${Object.keys(SERVICES).join(', ')})`);
  const service = await SERVICES[name](createLogger(name, process.env.LOG_LEVEL ?? 'warn'));
  process.once('SIGTERM', () => {
    void service.stop().finally(() => process.exit(0));
  });
  process.stdout.write(`ready ${service.port}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`service process: ${String(error)}\n`);
  process.exit(1);
});
