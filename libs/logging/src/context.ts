import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

/** What travels with one unit of work (an HTTP request or a consumed message) across hops. */
export interface LogContext {
  correlationId: string;
  [key: string]: string | number | undefined;
}

const storage = new AsyncLocalStorage<LogContext>();

export function runWithContext<T>(context: LogContext, fn: () => T): T {
  return storage.run(context, fn);
}

export function currentContext(): LogContext | undefined {
  return storage.getStore();
}

/** The correlation id of the work in progress, or a fresh one when none is running. */
export function currentCorrelationId(): string {
  return storage.getStore()?.correlationId ?? randomUUID();
}
