import winston from 'winston';
import { currentTraceIds } from '@crm/telemetry';
import { currentContext } from './context';
import { redact, redactField } from './redact';

export type Logger = winston.Logger;

/** Adds the current correlation context and trace ids, and masks secrets in every field, including the message. */
const contextAndRedaction = winston.format((info) => {
  const context = currentContext();
  if (context) {
    for (const [key, value] of Object.entries(context)) {
      if (info[key] === undefined) info[key] = value;
    }
  }
  const ids = currentTraceIds();
  if (ids) {
    info.traceId = ids.traceId;
    info.spanId = ids.spanId;
  }
  for (const key of Object.keys(info)) {
    if (key === 'level' || key === 'timestamp') continue;
    info[key] = key === 'message' ? redact(info[key]) : redactField(key, info[key]);
  }
  return info;
});

/** One JSON line per event on stdout, with service name, timestamp, correlation id and (when traced) trace and span ids. */
export function createLogger(service: string, level = process.env.LOG_LEVEL ?? 'info'): Logger {
  return winston.createLogger({
    level,
    defaultMeta: { service },
    format: winston.format.combine(
      winston.format.errors({ stack: true }),
      winston.format.timestamp(),
      contextAndRedaction(),
      winston.format.json(),
    ),
    transports: [new winston.transports.Console({ stderrLevels: [] })],
  });
}
