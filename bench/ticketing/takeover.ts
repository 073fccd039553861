/**
 * `pnpm bench:takeover`: two ticketing replicas on the machine's broker and PostgreSQL (a
 * virtual host and a database of their own, dropped after), one killed while deliveries for
 * many accounts flow. Prints the time from the kill to the survivor's first handling of an
 * account the killed replica had, and what was recorded (docs/scaling.md).
 * Options: --accounts N (200), --per-account N (20), --runs N (3).
 */
import { directMessageReceived } from '@crm/social-platform-simulator/src/deliveries';
import { dmOf, runTakeover } from '../../services/ticketing/src/testing/takeover';

function option(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  const value = index >= 0 ? Number(process.argv[index + 1]) : fallback;
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a whole number above 0`);
  return value;
}

async function main(): Promise<void> {
  const accounts = option('accounts', 200);
  const perAccount = option('per-account', 20);
  const runs = option('runs', 3);
  const takeovers: number[] = [];
  for (let run = 1; run <= runs; run += 1) {
    const result = await runTakeover({ accounts, perAccount, deliveryOf: dmOf(directMessageReceived) });
    takeovers.push(result.takeoverMs);
    console.log(
      `run ${run}: takeover ${result.takeoverMs} ms; published ${result.published}, recorded ${result.recorded}, doubled ${result.doubled}, out of order ${result.outOfOrder}; handled before the kill ${result.handledBeforeKill.join(' / ')}`,
    );
  }
  console.log(`takeover: max ${Math.max(...takeovers)} ms, min ${Math.min(...takeovers)} ms over ${runs} runs (${accounts} accounts x ${perAccount} deliveries)`);
  process.exit(0);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
