import { Writable } from 'node:stream';
import winston from 'winston';
import { inSpan } from '@crm/telemetry';
import { inMemoryTracing } from '@crm/telemetry/src/testing/in-memory';
import { createLogger } from './logger';
import { runWithContext } from './context';
import { MAX_REMEMBERED_SECRETS, registerSecret, rememberedSecretCount, REDACTED } from './redact';

function captured(): { logger: winston.Logger; lines: () => Record<string, unknown>[] } {
  const chunks: string[] = [];
  const logger = createLogger('test', 'debug');
  logger.clear();
  logger.add(
    new winston.transports.Stream({
      stream: new Writable({
        write(chunk, _enc, done) {
          chunks.push(String(chunk));
          done();
        },
      }),
    }),
  );
  return { logger, lines: () => chunks.map((c) => JSON.parse(c) as Record<string, unknown>) };
}

describe('logger', () => {
  it('writes JSON with the service and the correlation id of the current context', () => {
    const { logger, lines } = captured();
    runWithContext({ correlationId: 'corr-1' }, () => logger.info('hello', { ticketId: 't1' }));
    expect(lines()[0]).toMatchObject({ message: 'hello', service: 'test', correlationId: 'corr-1', ticketId: 't1', level: 'info' });
  });

  it('adds the trace and span ids of the active span beside the correlation id, and none outside a span', async () => {
    const spans = inMemoryTracing('logging-test');
    const { logger, lines } = captured();
    await runWithContext({ correlationId: 'corr-2' }, () => inSpan('work', {}, async () => logger.info('inside')));
    logger.info('outside');
    const span = (await spans.finished()).find((s) => s.name === 'work')!;
    expect(lines()[0]).toMatchObject({ message: 'inside', correlationId: 'corr-2', traceId: span.spanContext().traceId, spanId: span.spanContext().spanId });
    expect(lines()[1]).not.toHaveProperty('traceId');
  });

  it('masks secret-named fields at any depth and registered secret values anywhere', () => {
    const { logger, lines } = captured();
    registerSecret('s3cr3t-consumer-value');
    logger.warn('calling with s3cr3t-consumer-value inside', {
      headers: { authorization: 'Bearer abc', 'x-twitter-webhooks-signature': 'sha256=xyz' },
      consumerSecret: 'anything',
      nested: { oauth_token_secret: 'tok', note: 'contains s3cr3t-consumer-value' },
      count: 3,
    });
    const line = JSON.stringify(lines()[0]);
    expect(line).not.toContain('s3cr3t-consumer-value');
    expect(line).not.toContain('Bearer abc');
    expect(line).not.toContain('sha256=xyz');
    expect(line).not.toContain('"tok"');
    expect(lines()[0]).toMatchObject({ consumerSecret: REDACTED, count: 3, nested: { oauth_token_secret: REDACTED } });
  });

  it('keeps error messages and stacks but masks secrets in them', () => {
    const { logger, lines } = captured();
    registerSecret('another-secret-value');
    logger.error('failed', { err: new Error('bad key another-secret-value') });
    const err = lines()[0]!.err as { message: string };
    expect(err.message).toBe(`bad key ${REDACTED}`);
  });
});

describe('known secrets', () => {
  it('stay bounded however many records register theirs; pinned ones and the most recent are still masked', () => {
    registerSecret('pinned-config-secret', { pinned: true });
    for (let i = 0; i < MAX_REMEMBERED_SECRETS * 5; i += 1) registerSecret(`record-secret-${i}`);
    expect(rememberedSecretCount()).toBeLessThanOrEqual(MAX_REMEMBERED_SECRETS + 1);
    const { logger, lines } = captured();
    const last = `record-secret-${MAX_REMEMBERED_SECRETS * 5 - 1}`;
    logger.info(`a pinned-config-secret and ${last}`);
    expect(lines()[0]!.message).toBe(`a ${REDACTED} and ${REDACTED}`);
  });
});
