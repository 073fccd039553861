import { AlwaysOffSampler, BatchSpanProcessor, NoopSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { instrumentations, spanHandlingFromEnv } from './start';

describe('the exporter chosen from the environment', () => {
  it('is none without an OTLP endpoint, and spans are not recorded: they carry the trace context and the log ids only', () => {
    const { spanProcessors, sampler, recording } = spanHandlingFromEnv({});
    expect(recording).toBe(false);
    expect(spanProcessors).toHaveLength(1);
    expect(spanProcessors[0]).toBeInstanceOf(NoopSpanProcessor);
    expect(sampler).toBeInstanceOf(AlwaysOffSampler);
  });

  it.each([['OTEL_EXPORTER_OTLP_ENDPOINT', 'http://collector:4318'], ['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', 'http://collector:4318/v1/traces']])('is OTLP over HTTP, in batches, when %s is set', async (name, url) => {
    const { spanProcessors, sampler, recording } = spanHandlingFromEnv({ [name]: url });
    expect(recording).toBe(true);
    expect(spanProcessors).toHaveLength(1);
    expect(spanProcessors[0]).toBeInstanceOf(BatchSpanProcessor);
    expect(sampler).toBeUndefined();
    await spanProcessors[0]!.shutdown();
  });
});

describe('the instrumentations', () => {
  it('are HTTP (http and fetch) alone when nothing records, and Express and PostgreSQL too when spans go somewhere', () => {
    const http = ['@opentelemetry/instrumentation-http', '@opentelemetry/instrumentation-undici'];
    expect(instrumentations(false).map((i) => i.instrumentationName)).toEqual(http);
    expect(instrumentations(true).map((i) => i.instrumentationName)).toEqual([...http, '@opentelemetry/instrumentation-express', '@opentelemetry/instrumentation-pg']);
  });
});
