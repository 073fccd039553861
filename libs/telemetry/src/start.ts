import type { IncomingMessage } from 'node:http';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { BatchSpanProcessor, NoopSpanProcessor, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { ExpressInstrumentation, ExpressLayerType } from '@opentelemetry/instrumentation-express';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import type { InstrumentationBase } from '@opentelemetry/instrumentation';
import { patchBundledModules } from './bundled';
import { STARTED, type Holder } from './holder';

/** Probes and scrapes: a span each would drown the traces of real work. */
const POLLED = /^\/(health\/|metrics(\?|$))/;

export interface TelemetryOptions {
  /** Where finished spans go instead of the env-chosen exporter (tests). */
  spanProcessors?: SpanProcessor[];
}

/** OTLP over HTTP when an endpoint is configured; otherwise spans are made (trace context, log ids) and dropped. */
export function spanProcessorsFromEnv(env: NodeJS.ProcessEnv): SpanProcessor[] {
  const endpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_EXPORTER_OTLP_ENDPOINT;
  return endpoint ? [new BatchSpanProcessor(new OTLPTraceExporter())] : [new NoopSpanProcessor()];
}

/** The instrumentations every service runs: HTTP server and client, Express routes, PostgreSQL queries. */
export function instrumentations(): InstrumentationBase[] {
  return [
    new HttpInstrumentation({
      ignoreIncomingRequestHook: (request: IncomingMessage) => POLLED.test(request.url ?? ''),
      // Calls made by timers (webhook checks, ...) outside any traced work would each start a trace of their own.
      requireParentforOutgoingSpans: true,
    }),
    // Route spans only: a span per middleware (helmet, JSON parsing, metrics...) tells nothing.
    new ExpressInstrumentation({ ignoreLayersType: [ExpressLayerType.MIDDLEWARE] }),
    // Queries outside any traced work (relay polls, timers) would each start a trace of their own.
    new PgInstrumentation({ requireParentSpan: true }),
  ];
}

/**
 * Starts OpenTelemetry tracing for this process, before express, pg and http are loaded (the
 * first import of each service's main). `OTEL_SDK_DISABLED=true` turns it off; the service name
 * is `OTEL_SERVICE_NAME` or `serviceName`. Calling it again does nothing.
 */
export function startTelemetry(serviceName: string, options: TelemetryOptions = {}): void {
  const env = process.env;
  const holder = globalThis as Holder;
  if (holder[STARTED] !== undefined) return;
  const instrumented = instrumentations();
  const sdk = new NodeSDK({
    serviceName: env.OTEL_SERVICE_NAME || serviceName,
    instrumentations: instrumented,
    spanProcessors: options.spanProcessors ?? spanProcessorsFromEnv(env),
    // Metrics are Prometheus' (GET /metrics) and logs go to stdout: the SDK exports neither.
    metricReaders: [],
    logRecordProcessors: [],
  });
  sdk.start();
  const disabled = env.OTEL_SDK_DISABLED?.toLowerCase() === 'true';
  if (!disabled) patchBundledModules(instrumented);
  holder[STARTED] = disabled ? null : sdk;
}
