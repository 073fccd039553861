/**
 * Loaded before a service's main (`node --import tsx --import <this file>`): starts tracing with
 * an in-memory exporter whose finished spans are also appended, one JSON line each, to the file
 * named by SPAN_FILE, where the test that started the process reads them. The service's own
 * startTelemetry then finds tracing started and does nothing.
 */
import { appendFileSync } from 'node:fs';
import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { startTelemetry } from '../start';

/** What a test reads of one span. */
export interface SpanLine {
  service: string;
  name: string;
  kind: number;
  traceId: string;
  spanId: string;
  parentSpanId: string | undefined;
  links: { traceId: string; spanId: string }[];
  attributes: Record<string, unknown>;
}

function lineOf(span: ReadableSpan): SpanLine {
  return {
    service: String(span.resource.attributes['service.name']),
    name: span.name,
    kind: span.kind,
    traceId: span.spanContext().traceId,
    spanId: span.spanContext().spanId,
    parentSpanId: span.parentSpanContext?.spanId,
    links: span.links.map((link) => ({ traceId: link.context.traceId, spanId: link.context.spanId })),
    attributes: { ...span.attributes },
  };
}

class SpanFileExporter extends InMemorySpanExporter {
  constructor(private readonly file: string) {
    super();
  }

  override export(spans: ReadableSpan[], resultCallback: (result: ExportResult) => void): void {
    appendFileSync(this.file, spans.map((span) => `${JSON.stringify(lineOf(span))}\n`).join(''));
    super.export(spans, () => resultCallback({ code: ExportResultCode.SUCCESS }));
  }
}

const file = process.env.SPAN_FILE;
if (!file) throw new Error('span-file-preload: SPAN_FILE names no file');
startTelemetry(process.env.OTEL_SERVICE_NAME ?? 'unnamed', { spanProcessors: [new SimpleSpanProcessor(new SpanFileExporter(file))] });
