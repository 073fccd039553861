import client from 'prom-client';

/** What happened to a consumed message. */
export type ConsumeOutcome = 'acked' | 'retried' | 'deferred' | 'dead_lettered' | 'rewound' | 'put_back';

/** Broker metrics in prom-client's default registry (served by @crm/http's /metrics). */
export const brokerMetrics = {
  consumed: new client.Counter({
    name: 'messages_consumed_total',
    help: 'Messages taken from a work queue, by queue and outcome (acked, retried, deferred, dead_lettered; rewound: put back in order with the others in hand, on an ordered queue; put_back: one of those others, put back untried).',
    labelNames: ['queue', 'outcome'] as const,
  }),
  handlerDuration: new client.Histogram({
    name: 'message_handler_duration_seconds',
    help: "Time a message's handler took, by queue.",
    labelNames: ['queue'] as const,
    buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
  }),
  published: new client.Counter({
    name: 'messages_published_total',
    help: 'Messages the broker confirmed, by exchange.',
    labelNames: ['exchange'] as const,
  }),
  publishFailures: new client.Counter({
    name: 'messages_publish_failures_total',
    help: 'Publishes the broker did not confirm in time, by exchange.',
    labelNames: ['exchange'] as const,
  }),
  consumers: new client.Gauge({
    name: 'messaging_consumers',
    help: 'Consumers this process has registered with the broker on a queue it consumes (0 while the broker cancelled it, its channel is closed or it is stopped), by queue.',
    labelNames: ['queue'] as const,
  }),
};
