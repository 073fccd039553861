import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Link } from '@opentelemetry/api';

export { SpanKind };

/** W3C trace context (`traceparent`, `tracestate`) as strings: what message headers and outbox rows carry. */
export type TraceCarrier = Record<string, string>;

const tracer = trace.getTracer('@crm/telemetry');

/** The trace context of the work in progress, to hand to another process (empty when none is traced). */
export function traceCarrier(from: Context = context.active()): TraceCarrier {
  const carrier: TraceCarrier = {};
  propagation.inject(from, carrier);
  return carrier;
}

/** The context a carrier names (message headers, a stored row), or the root context when it names none. */
export function contextOf(carrier: Record<string, unknown> | null | undefined): Context {
  if (!carrier) return ROOT_CONTEXT;
  return propagation.extract(ROOT_CONTEXT, carrier, {
    keys: (c) => Object.keys(c),
    get: (c, key) => {
      const value = c[key];
      if (typeof value === 'string') return value;
      return Buffer.isBuffer(value) ? value.toString('utf8') : undefined;
    },
  });
}

/** A link to the span of `ctx`, for work that serves several traces at once (a batch). */
export function linkTo(ctx: Context): Link[] {
  const span = trace.getSpan(ctx);
  return span ? [{ context: span.spanContext() }] : [];
}

export interface SpanOptions {
  kind?: SpanKind;
  attributes?: Attributes;
  links?: Link[];
  /** The parent; the active context when not given. */
  parent?: Context;
}

/** Runs `fn` in a span of its own (active inside it), marked failed when `fn` throws. */
export async function inSpan<T>(name: string, options: SpanOptions, fn: () => Promise<T>): Promise<T> {
  const parent = options.parent ?? context.active();
  return tracer.startActiveSpan(name, { kind: options.kind, attributes: options.attributes, links: options.links }, parent, async (span) => {
    try {
      return await fn();
    } catch (error) {
      span.recordException(error as Error);
      span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error).message });
      throw error;
    } finally {
      span.end();
    }
  });
}

/**
 * Names the active server span after the route template that serves it (`POST /webhooks/:envName`),
 * as the Express instrumentation does for routes it serves: routes served ahead of Express call it.
 */
export function nameServerSpan(method: string, route: string): void {
  const span = trace.getActiveSpan();
  span?.updateName(`${method} ${route}`);
  span?.setAttribute('http.route', route);
}

/** The ids of the active span, for log lines; undefined when nothing is traced. */
export function currentTraceIds(): { traceId: string; spanId: string } | undefined {
  const span = trace.getActiveSpan();
  if (!span) return undefined;
  const { traceId, spanId } = span.spanContext();
  return trace.isSpanContextValid(span.spanContext()) ? { traceId, spanId } : undefined;
}
