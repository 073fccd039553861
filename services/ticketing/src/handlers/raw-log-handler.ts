import type { Envelope, RawActivityPayload } from '@crm/contracts';
import type { MessageHandler } from '@crm/messaging';
import type { RawLog } from '../adapters/db/raw-log';
import type { Logger } from '@crm/logging';

/**
 * The consumer of `ticketing.raw-log`: every accepted delivery is logged as it came, whatever
 * interpretation makes of it on `ticketing.activity` (a queue of its own, so a delivery that
 * interpretation refuses, holds or ignores is logged all the same, and logging adds nothing
 * to recording's path).
 */
export function createRawLogHandler(rawLog: RawLog, deps: { logger: Logger; onLogged?: (envelopeId: string) => void }): MessageHandler<RawActivityPayload> {
  return async (envelope: Envelope<RawActivityPayload>) => {
    const added = await rawLog.append(envelope);
    if (!added) deps.logger.debug('delivery already in the raw log', { envelopeId: envelope.id });
    deps.onLogged?.(envelope.id);
  };
}
