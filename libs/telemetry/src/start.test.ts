import { BatchSpanProcessor, NoopSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { spanProcessorsFromEnv } from './start';

describe('the exporter chosen from the environment', () => {
  it('is none without an OTLP endpoint: spans are made for the trace context and the log ids, then dropped', () => {
    const processors = spanProcessorsFromEnv({});
    expect(processors).toHaveLength(1);
    expect(processors[0]).toBeInstanceOf(NoopSpanProcessor);
  });

  it.each([['OTEL_EXPORTER_OTLP_ENDPOINT', 'http://collector:4318'], ['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', 'http://collector:4318/v1/traces']])('is OTLP over HTTP, in batches, when %s is set', async (name, url) => {
    const processors = spanProcessorsFromEnv({ [name]: url });
    expect(processors).toHaveLength(1);
    expect(processors[0]).toBeInstanceOf(BatchSpanProcessor);
    await processors[0]!.shutdown();
  });
});
