import { currentTraceIds, contextOf, inSpan, traceCarrier } from './index';
import { startTelemetry } from './start';

describe('tracing with no exporter configured (the default)', () => {
  beforeAll(() => {
    delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
    delete process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
    startTelemetry('no-exporter-test');
  });

  it('still gives the logs trace ids and the next hop the trace context, which the next hop continues', async () => {
    const sent = await inSpan('request', {}, async () => ({ ids: currentTraceIds(), carrier: traceCarrier() }));
    expect(sent.ids).toEqual({ traceId: expect.stringMatching(/^[0-9a-f]{32}$/), spanId: expect.stringMatching(/^[0-9a-f]{16}$/) });
    expect(sent.carrier.traceparent).toBe(`00-${sent.ids!.traceId}-${sent.ids!.spanId}-00`);

    const received = await inSpan('message', { parent: contextOf(sent.carrier) }, async () => currentTraceIds());
    expect(received!.traceId).toBe(sent.ids!.traceId);
    expect(received!.spanId).not.toBe(sent.ids!.spanId);
  });
});
