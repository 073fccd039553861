import { directMessageReceived } from '@crm/social-platform-simulator/src/deliveries';
import { dmOf, runTakeover } from './testing/takeover';

/**
 * Two replicas share the activity partitions; one is killed while deliveries for many accounts
 * flow: the survivor takes its partitions over, and every delivery is recorded once, each
 * account's in order.
 */
it("a killed replica's activity partitions move to the other; every delivery recorded once, in each account's order", async () => {
  const result = await runTakeover({ accounts: 40, perAccount: 10, deliveryOf: dmOf(directMessageReceived) });
  expect(result.handledBeforeKill.every((handled) => handled > 0)).toBe(true);
  expect(result).toMatchObject({ recorded: result.published, doubled: 0, outOfOrder: 0 });
  expect(result.takeoverMs).toBeGreaterThanOrEqual(0);
}, 180_000);
