import prometheus from 'prom-client';
import { SLA_CLOCKS, SLA_STAGES } from '../domain/sla';
import type { TicketingStore } from './db/store';

/** ticketing's own metrics, beside the HTTP, broker and pool ones of the libs (all served on /metrics). */
export const slaTimersFired = new prometheus.Counter({
  name: 'sla_timers_fired_total',
  help: 'SLA timers fired by this replica, by clock (first_response, resolution) and stage (at_risk, breach).',
  labelNames: ['clock', 'stage'] as const,
});
// Every clock and stage shows from the first scrape (at 0): the dashboard's panel has data before
// any timer is due, and increase() sees the first one fire.
for (const clock of SLA_CLOCKS) for (const stage of SLA_STAGES) slaTimersFired.labels(clock, stage).inc(0);

/**
 * From webhook-ingest's receipt of a delivery (its `receivedAt`; the 200 follows the broker's
 * confirm, milliseconds later) to the commit that recorded it: the delivery-recorded SLO's SLI.
 */
export const deliveryRecorded = new prometheus.Histogram({
  name: 'delivery_recorded_seconds',
  help: "Time from webhook-ingest's receipt of a delivery to the commit that recorded it on its tickets (held deliveries not counted), by this replica.",
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
});

/** Deliveries held for accounts without a partner configuration, counted in the database at each scrape. */
export function watchHeldDeliveries(store: TicketingStore): void {
  prometheus.register.removeSingleMetric('held_deliveries');
  new prometheus.Gauge({
    name: 'held_deliveries',
    help: 'Deliveries held until their account has a partner configuration (all replicas).',
    async collect() {
      const counts = await store.read.held.count().catch(() => []);
      this.set(counts.reduce((sum, account) => sum + account.deliveries, 0));
    },
  });
}

/** Silences the silence alarm raised (account.silent published), by this replica. */
export const accountSilencesRaised = new prometheus.Counter({
  name: 'account_silences_raised_total',
  help: 'Silences of accounts that usually get deliveries raised by this replica (account.silent published).',
});

/** Connected accounts silent now, counted in the database at each scrape. */
export function watchSilentAccounts(store: TicketingStore): void {
  prometheus.register.removeSingleMetric('silent_accounts');
  new prometheus.Gauge({
    name: 'silent_accounts',
    help: 'Connected accounts that usually get deliveries and have had none for SILENCE_AFTER_MINUTES (all replicas).',
    async collect() {
      this.set(await store.read.silences.countSilent().catch(() => 0));
    },
  });
}

/** The gauges counted in the database at each scrape (all replicas): held deliveries and silent accounts. */
export function watchStore(store: TicketingStore): void {
  watchHeldDeliveries(store);
  watchSilentAccounts(store);
}

/** Event streams (GET /v1/events) dropped because their client did not read what was sent. */
export const eventStreamsDropped = new prometheus.Counter({
  name: 'event_streams_dropped_total',
  help: 'Event streams this replica dropped because their unsent events passed EVENT_STREAM_BUFFER_BYTES (the client did not read).',
});

/** Event streams open in this replica. */
export const eventStreamsOpen = new prometheus.Gauge({
  name: 'event_streams_open',
  help: 'Event streams (GET /v1/events) this replica holds open.',
});
