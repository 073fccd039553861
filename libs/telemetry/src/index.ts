export { traceCarrier, contextOf, inSpan, linkTo, currentTraceIds, SpanKind, type TraceCarrier } from './trace';
export { shutdownTelemetry } from './holder';
