import { amqpUrl, capturingLogger, freePort, startPrivateBroker, waitFor, type PrivateBroker } from '@crm/testing';
import { Broker, brokerUrls, brokerUser } from './index';

const address = (url: string) => {
  const { hostname, port } = new URL(url);
  return `${hostname}:${port || '5672'}`;
};

/** The brokers the 'broker connected' lines name, in order. */
const connectedTo = (lines: string[]) =>
  lines
    .map((line) => JSON.parse(line) as { message: string; broker?: string })
    .filter((entry) => entry.message === 'broker connected')
    .map((entry) => entry.broker);

describe('a broker URL list', () => {
  it('names every URL and the user of the first', () => {
    expect(brokerUrls('amqp://app:pw@mq1:5681, amqp://app:pw@mq2:5682,')).toEqual(['amqp://app:pw@mq1:5681', 'amqp://app:pw@mq2:5682']);
    expect(brokerUser('amqp://app:pw@mq1:5681,amqp://app:pw@mq2:5682')).toBe('app');
  });

  it('connects to the second broker when the first refuses', async () => {
    const { logger, lines } = capturingLogger('broker-list');
    const refusing = `amqp://guest:guest@127.0.0.1:${await freePort()}`;
    const broker = new Broker({ url: `${refusing},${amqpUrl()}`, name: 'broker-list-test', logger, reconnectSeconds: 0.2 });
    try {
      await broker.waitUntilConnected();
      expect(connectedTo(lines)).toEqual([address(amqpUrl())]);
    } finally {
      await broker.close();
    }
  });

  describe('when the broker it is connected to goes away', () => {
    let first: PrivateBroker;

    beforeAll(async () => {
      first = await startPrivateBroker('broker-list');
    }, 90_000);

    afterAll(async () => {
      await first.stop();
    });

    it('moves to the next broker of the list', async () => {
      const { logger, lines } = capturingLogger('broker-list');
      const broker = new Broker({ url: `${first.url},${amqpUrl()}`, name: 'broker-list-failover-test', logger, reconnectSeconds: 0.2 });
      try {
        await broker.waitUntilConnected();
        expect(connectedTo(lines)).toEqual([address(first.url)]);
        await first.stopApp();
        await waitFor(() => connectedTo(lines).length === 2 && broker.isConnected(), { timeoutMs: 30_000, what: 'a connection to the second broker' });
        expect(connectedTo(lines)).toEqual([address(first.url), address(amqpUrl())]);
      } finally {
        await broker.close();
      }
    }, 60_000);
  });
});
