import type { Channel, ConsumeMessage } from 'amqplib';
import { CredentialRevoked, Exchanges, validateEnvelope } from '@crm/contracts';
import type { Broker } from '@crm/messaging';

export interface RevocationListener {
  /** Resolves once the queue is bound and consumed (revocations published from then on are heard). */
  ready: () => Promise<void>;
  close: () => Promise<void>;
}

/**
 * Hears every `auth.credential.revoked.v1` on the `access.events` fanout, on a queue of this
 * process's own (exclusive, deleted with the connection and declared again on reconnect),
 * so each process's cache forgets a revoked credential at once. A revocation published while
 * the process is disconnected is missed: the cache's TTL still bounds it.
 */
export function listenForRevocations(broker: Broker, onRevoked: (id: string) => void): RevocationListener {
  const channel = broker.connection.createChannel({
    name: 'credential-revocations',
    confirm: false,
    setup: async (ch: Channel) => {
      // A provisioned user may not declare the exchange (the admin did); it only checks that it exists.
      if (broker.topologyMode === 'verify') await ch.checkExchange(Exchanges.accessEvents);
      else await ch.assertExchange(Exchanges.accessEvents, 'fanout', { durable: true });
      const { queue } = await ch.assertQueue('', { exclusive: true, autoDelete: true });
      await ch.bindQueue(queue, Exchanges.accessEvents, '');
      await ch.consume(queue, (message: ConsumeMessage | null) => message && heard(message), { noAck: true });
    },
  });
  const heard = (message: ConsumeMessage) => {
    try {
      onRevoked(validateEnvelope(JSON.parse(message.content.toString('utf8')), CredentialRevoked).payload.id);
    } catch (error) {
      broker.logger.warn('ignored a malformed credential revocation', { reason: (error as Error).message });
    }
  };
  channel.on('error', (error: Error) => broker.closing || broker.logger.error('channel setup failed', { channel: 'credential-revocations', reason: error.message }));
  return { ready: () => channel.waitForConnect(), close: () => channel.close() };
}
