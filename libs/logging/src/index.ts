export { createLogger, type Logger } from './logger';
export { runWithContext, currentCorrelationId, type LogContext } from './context';
export { redact, registerSecret } from './redact';
