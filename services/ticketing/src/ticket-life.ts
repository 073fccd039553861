import type { Express } from 'express';
import type { CredentialVerifier } from '@crm/access';
import type { TicketingStore } from './adapters/db/store';
import type { Logger } from '@crm/logging';
import { SecretBox } from '@crm/secrets';
import { ChangeListener } from './adapters/db/change-listener';
import type { TicketingConfig } from './config';
import { isUuid } from './domain/ids';
import { lifeRoutes } from './http/life-routes';
import { EventStreams, liveRoutes } from './http/live-routes';
import { presenceRoutes } from './http/presence-routes';
import type { TicketShower } from './http/routes';
import { webhookRoutes } from './http/webhook-routes';
import { LiveEvents, TYPING_TTL_MS } from './operations/live-events';
import { Merges } from './operations/merges';
import { TicketActions } from './operations/ticket-actions';
import { TicketChanges } from './operations/ticket-changes';
import { WebhookDispatcher, WebhookEndpoints } from './operations/webhooks';

export interface TicketLifeDeps {
  config: TicketingConfig;
  store: TicketingStore;
  logger: Logger;
  /** Publishes the outbox now (CRM events, commands). */
  kickOutbox: () => void;
  /** The exchange commands go to (tests rename it). */
  commandsExchange?: string;
  /** Calls the listener with the id of every credential or session revoked (`accessControl`'s `onRevoked`). */
  onRevoked: (listener: (id: string) => void) => () => void;
  /** The cached check of an API token (`accessControl`'s `verify`). */
  verify: CredentialVerifier;
}

/**
 * A ticket's life in the running service: the use cases and routes of changes, notes, merges,
 * actions, live events and CRM webhooks, and what runs beside them: the listener of committed
 * changes (NOTIFY), which feeds the live inbox and publishes the outbox and webhooks at once,
 * and the webhook dispatcher.
 */
export function ticketLife(deps: TicketLifeDeps) {
  const { config, store, logger } = deps;
  const changes = new ChangeListener(config.DATABASE_URL, logger);
  const live = new LiveEvents(TYPING_TTL_MS);
  const streams = new EventStreams(
    { perPrincipal: config.EVENT_STREAMS_PER_CREDENTIAL, perProcess: config.EVENT_STREAMS_PER_PROCESS, bufferBytes: config.EVENT_STREAM_BUFFER_BYTES, keepaliveMs: config.EVENT_STREAM_KEEPALIVE_MS },
    async (token) => (await deps.verify(token)) !== null,
  );
  // A stream ends when its credential or session is announced revoked, or at the next keep-alive when the announcement was missed.
  const stopHearingRevocations = deps.onRevoked((id) => streams.endRevoked(id));
  const kickOutbox = deps.kickOutbox;
  const box = config.WEBHOOK_SECRETS_KEY ? new SecretBox(config.WEBHOOK_SECRETS_KEY) : null;
  const endpoints = new WebhookEndpoints({ store, logger, box, isId: isUuid, kick: () => void dispatcher.kick(), allowedRanges: config.WEBHOOK_ALLOWED_CIDRS });
  const dispatcher = new WebhookDispatcher({ store, logger, endpoints, retryDelaysMs: config.WEBHOOK_RETRY_DELAYS_MS, timeoutMs: config.WEBHOOK_TIMEOUT_MS, allowedRanges: config.WEBHOOK_ALLOWED_CIDRS });
  changes.onChange((notice) => {
    live.publish(notice);
    // CRM events (of tickets, and of accounts: the silence alarm) went to the outbox; typing and read state did not.
    if (!notice.type.startsWith('ticket.') && !notice.type.startsWith('account.')) return;
    kickOutbox();
    // Only a change that queued webhook deliveries has work for the dispatcher (its interval catches the rest).
    if (notice.webhooks) void dispatcher.kick();
  });
  const common = { store, logger, isId: isUuid, kick: kickOutbox };
  return {
    /** Resolves once committed changes are heard. */
    ready: () => changes.start(),
    routes: (showTicket: TicketShower): ((app: Express) => void) =>
      lifeRoutes({
        store,
        changes: new TicketChanges(common),
        merges: new Merges(common),
        actions: new TicketActions({ ...common, commandsExchange: deps.commandsExchange }),
        showTicket,
        more: [liveRoutes(live, streams), presenceRoutes(store), webhookRoutes(endpoints)],
      }),
    start: () => dispatcher.start(config.WEBHOOK_INTERVAL_MS),
    /** Before HTTP closes: live streams never end by themselves. */
    endStreams: async () => {
      stopHearingRevocations();
      live.close();
      streams.endAll();
      await changes.stop();
    },
    stop: () => dispatcher.stop(),
  };
}

export type TicketLife = ReturnType<typeof ticketLife>;
