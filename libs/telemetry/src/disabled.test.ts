import { context } from '@opentelemetry/api';
import { currentTraceIds, inSpan, traceCarrier } from './index';
import { startTelemetry } from './start';

describe('OTEL_SDK_DISABLED=true', () => {
  const before = process.env.OTEL_SDK_DISABLED;
  beforeAll(() => {
    process.env.OTEL_SDK_DISABLED = 'true';
    startTelemetry('disabled-test');
  });
  afterAll(() => {
    process.env.OTEL_SDK_DISABLED = before;
  });

  it('turns tracing off: no trace ids for the logs, no trace context for messages, the work still runs', async () => {
    const result = await inSpan('work', {}, async () => ({ ids: currentTraceIds(), carrier: traceCarrier(context.active()) }));
    expect(result).toEqual({ ids: undefined, carrier: {} });
  });
});
