import type { IncomingMessage } from 'node:http';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { AlwaysOffSampler, BatchSpanProcessor, NoopSpanProcessor, type Sampler, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { ExpressInstrumentation, ExpressLayerType } from '@opentelemetry/instrumentation-express';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import type { InstrumentationBase } from '@opentelemetry/instrumentation';
import { patchBundledModules } from './bundled';
import { STARTED, type Holder } from './holder';

/** Probes and scrapes: a span each would drown the traces of real work. */
const POLLED = /^\/(health\/|metrics(\?|$))/;

export interface TelemetryOptions {
  /** Where finished spans go instead of the env-chosen exporter (tests). */
  spanProcessors?: SpanProcessor[];
}

/** Where spans go, and which are recorded. */
export interface SpanHandling {
  /** False when nothing would see the spans: they only carry the trace context and the log ids. */
  recording: boolean;
  spanProcessors: SpanProcessor[];
  /** None: the SDK's default (parent-based, always on; OTEL_TRACES_SAMPLER may change it). */
  sampler?: Sampler;
}

/**
 * OTLP over HTTP, in batches, when an endpoint is configured. Without one, nothing is exported
 * and nothing is recorded: spans are made without attributes or events, enough to carry the trace
 * context to the next hop and the trace ids into the logs, at a fraction of a recorded span's cost.
 */
export function spanHandlingFromEnv(env: NodeJS.ProcessEnv): SpanHandling {
  const endpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (endpoint) return { recording: true, spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())] };
  return { recording: false, spanProcessors: [new NoopSpanProcessor()], sampler: new AlwaysOffSampler() };
}

/**
 * The instrumentations: HTTP server and client (Node's http, and fetch through undici) always:
 * the incoming trace context, the span the logs name, the outgoing trace context. Express routes
 * and PostgreSQL queries only when spans are recorded, as their spans and the wrapping of every
 * middleware and query are worth their cost only to a collector.
 */
export function instrumentations(recording: boolean): InstrumentationBase[] {
  const http = [
    new HttpInstrumentation({
      ignoreIncomingRequestHook: (request: IncomingMessage) => POLLED.test(request.url ?? ''),
      // Calls made by timers (webhook checks, ...) outside any traced work would each start a trace of their own.
      requireParentforOutgoingSpans: true,
    }),
    // fetch: the console's calls to the services, ticketing's CRM webhooks.
    new UndiciInstrumentation({ requireParentforSpans: true }),
  ];
  if (!recording) return http;
  return [
    ...http,
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
  const spans: SpanHandling = options.spanProcessors ? { recording: true, spanProcessors: options.spanProcessors } : spanHandlingFromEnv(env);
  const instrumented = instrumentations(spans.recording);
  const sdk = new NodeSDK({
    serviceName: env.OTEL_SERVICE_NAME || serviceName,
    instrumentations: instrumented,
    spanProcessors: spans.spanProcessors,
    sampler: spans.sampler,
    // Metrics are Prometheus' (GET /metrics) and logs go to stdout: the SDK exports neither.
    metricReaders: [],
    logRecordProcessors: [],
  });
  sdk.start();
  const disabled = env.OTEL_SDK_DISABLED?.toLowerCase() === 'true';
  if (!disabled) patchBundledModules(instrumented);
  holder[STARTED] = disabled ? null : sdk;
}
