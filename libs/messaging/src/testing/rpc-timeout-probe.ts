/**
 * Run in a process of its own by messaging.test.ts (jest's sandbox does not deliver
 * `unhandledRejection`): an RPC call through a broker that cannot connect times out, and the
 * process reports how the call ended and every rejection left unhandled, as one JSON line.
 */
import { Type } from '@sinclair/typebox';
import { defineContract } from '@crm/contracts';
import { createLogger } from '@crm/logging';
import { Broker } from '../broker';
import { RpcClient } from '../rpc';

const Echo = defineContract('test.echo.v1', Type.Object({ text: Type.String() }));
const unhandled: string[] = [];
process.on('unhandledRejection', (reason) => unhandled.push((reason as Error).message));

async function probe(): Promise<void> {
  const logger = createLogger('rpc-timeout-probe', 'error');
  logger.silent = true;
  const broker = new Broker({ url: 'amqp://guest:guest@127.0.0.1:1', name: 'rpc-timeout-probe', logger });
  const client = new RpcClient(broker, 'probe', { exchanges: [], queues: [{ name: 'probe.rpc', kind: 'rpc' }] });
  let ended = 'resolved';
  try {
    await client.call('probe.rpc', Echo, { text: 'nobody' }, { timeoutMs: 200 });
  } catch (error) {
    ended = (error as Error).name;
  }
  await new Promise((resolve) => setTimeout(resolve, 300));
  process.stdout.write(`${JSON.stringify({ ended, unhandled })}\n`);
  await client.close();
  await broker.close();
}

void probe().then(() => process.exit(0));
