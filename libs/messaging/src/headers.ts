/** Headers that record a message's failures as it moves through retry and dead-letter queues. */
export const Headers = {
  attempts: 'x-attempts',
  failureReason: 'x-failure-reason',
  sourceQueue: 'x-source-queue',
  failedAt: 'x-failed-at',
  originalExchange: 'x-original-exchange',
  originalRoutingKey: 'x-original-routing-key',
  /** The envelope's correlation id; RPC requests use the AMQP correlationId property to match replies. */
  correlationId: 'x-correlation-id',
} as const;

export function attemptsOf(headers: Record<string, unknown> | undefined): number {
  const value = Number(headers?.[Headers.attempts] ?? 0);
  return Number.isFinite(value) && value >= 0 ? value : 0;
}
