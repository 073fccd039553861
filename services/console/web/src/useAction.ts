import { useRef, useState } from 'react';
import { ApiError, failureOf, pageLocation, viaConsole } from './api';

/** A write by method and path (the composer's form), sent through the typed clients' transport. */
async function sendWrite(method: string, path: string, body: unknown, headers: Record<string, string> = {}): Promise<void> {
  const response = await viaConsole(new Request(new URL(path, pageLocation.href), { method, headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) }));
  if (!response.ok) throw failureOf(response, await response.json().catch(() => null));
}

/**
 * Runs a write and reports its error cleanly (including endpoints ticketing does not have
 * yet). `busy` names the action running, so its button shows it and a second click waits.
 * `act` takes a typed client's call; `run` a method and path.
 */
export function useAction(onDone: () => void) {
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const running = useRef(false);
  const act = async (name: string, call: () => Promise<unknown>) => {
    if (running.current) return false;
    running.current = true;
    setBusy(name);
    setProblem(null);
    try {
      await call();
      onDone();
      return true;
    } catch (caught) {
      const error = caught instanceof ApiError ? caught : null;
      setProblem(error?.status === 404 && error.code === 'not_found' ? 'This action is not available yet (ticketing does not offer it).' : (error?.message ?? 'the action failed'));
      return false;
    } finally {
      running.current = false;
      setBusy(null);
    }
  };
  const run = (name: string, method: string, path: string, body: unknown, headers?: Record<string, string>) => act(name, () => sendWrite(method, path, body, headers));
  return { problem, busy, act, run };
}
