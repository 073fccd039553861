/**
 * pnpm chaos [--deliveries N] [--senders N] [--interval MS] [--no-server-restarts]
 *   on the machine's own RabbitMQ and PostgreSQL (single-node-run.ts; it restarts them)
 * pnpm chaos --cluster [--deliveries N] [--senders N] [--accounts N] [--gap MS] [--replies N] [--keep]
 *   on the local cluster of `pnpm cluster up` (cluster-run.ts); --keep leaves the run's virtual
 *   host and databases on the cluster for a look after a failure
 * Both end with `chaos: accepted N, recorded N, lost 0, doubled 0, out of order 0, faults F`
 * and exit 1 when anything was lost, doubled or out of order, or a fault did not happen.
 */
import { clusterRun } from './cluster-run';
import { singleNodeRun } from './single-node-run';

function option(argv: string[], name: string, fallback: number, least = 1): number {
  const at = argv.indexOf(`--${name}`);
  const parsed = at >= 0 ? Number(argv[at + 1]) : fallback;
  if (!Number.isInteger(parsed) || parsed < least) throw new Error(`--${name} must be a whole number of at least ${least}`);
  return parsed;
}

async function main(argv: string[]): Promise<number> {
  if (argv.includes('--cluster')) {
    const deliveries = option(argv, 'deliveries', 10_000);
    const accounts = option(argv, 'accounts', 8, 2);
    return clusterRun({
      deliveries,
      senders: option(argv, 'senders', 200),
      accounts,
      gapMs: option(argv, 'gap', 10_000, 0),
      // The platform sends 15 DMs per account in 15 minutes: past that, replies wait for the next window.
      replies: option(argv, 'replies', Math.min(15 * accounts, Math.max(20, Math.round(deliveries / 1000))), 0),
      keep: argv.includes('--keep'),
    });
  }
  return singleNodeRun({
    deliveries: option(argv, 'deliveries', 2000),
    senders: option(argv, 'senders', 100),
    intervalMs: option(argv, 'interval', 4000),
    serverRestarts: !argv.includes('--no-server-restarts'),
  });
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: Error) => {
    console.error(`chaos: ${error.message}`);
    process.exit(1);
  },
);
