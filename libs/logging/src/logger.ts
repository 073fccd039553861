import winston from 'winston';
import { currentContext } from './context';
import { redact, redactField } from './redact';

export type Logger = winston.Logger;

/** Adds the current correlation context and masks secrets in every field, including the message. */
const contextAndRedaction = winston.format((info) => {
  const context = currentContext();
  if (context) {
    for (const [key, value] of Object.entries(context)) {
      if (info[key] === undefined) info[key] = value;
    }
  }
  for (const key of Object.keys(info)) {
    if (key === 'level' || key === 'timestamp') continue;
    info[key] = key === 'message' ? redact(info[key]) : redactField(key, info[key]);
  }
  return info;
});

/** One JSON line per event on stdout, with service name, timestamp and correlation id. */
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
