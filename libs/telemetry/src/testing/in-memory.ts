import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { startTelemetry } from '../start';

export interface InMemorySpans {
  /** The spans finished so far (once the exports in progress are done: the resource's attributes may still be resolving). */
  finished(): Promise<ReadableSpan[]>;
  reset(): void;
}

let kept: InMemorySpans | undefined;

/**
 * Tracing in this process with every finished span kept in memory, for tests of code that makes
 * its spans itself (messaging, the outbox, log lines). Jest's module loader is not patched by
 * require hooks, so HTTP and PostgreSQL spans appear only in a real process (see span-file-preload).
 */
export function inMemoryTracing(serviceName = 'test'): InMemorySpans {
  if (!kept) {
    const exporter = new InMemorySpanExporter();
    const processor = new SimpleSpanProcessor(exporter);
    startTelemetry(serviceName, { spanProcessors: [processor] });
    kept = {
      finished: async () => {
        await processor.forceFlush();
        return exporter.getFinishedSpans();
      },
      reset: () => exporter.reset(),
    };
  }
  return kept;
}
