export { traceCarrier, contextOf, inSpan, linkTo, currentTraceIds, nameServerSpan, SpanKind, type TraceCarrier } from './trace';
export { shutdownTelemetry } from './holder';
