/** Headers that record a message's failures as it moves through retry and dead-letter queues. */
export const Headers = {
  attempts: 'x-attempts',
  failureReason: 'x-failure-reason',
  sourceQueue: 'x-source-queue',
  failedAt: 'x-failed-at',
  originalExchange: 'x-original-exchange',
  originalRoutingKey: 'x-original-routing-key',
  /** Times the handler put the message off (RetryLater): not failures, so they do not count as attempts. */
  deferrals: 'x-deferrals',
  /** The envelope's correlation id; RPC requests use the AMQP correlationId property to match replies. */
  correlationId: 'x-correlation-id',
} as const;

function countOf(headers: Record<string, unknown> | undefined, header: string): number {
  const value = Number(headers?.[header] ?? 0);
  return Number.isFinite(value) && value >= 0 ? value : 0;
}

export const attemptsOf = (headers: Record<string, unknown> | undefined): number => countOf(headers, Headers.attempts);

export const deferralsOf = (headers: Record<string, unknown> | undefined): number => countOf(headers, Headers.deferrals);
