import { useRef, useState } from 'react';
import { api, ApiError } from './api';

/**
 * Runs a write and reports its error cleanly (including endpoints ticketing does not have
 * yet). `busy` names the action running, so its button shows it and a second click waits.
 */
export function useAction(onDone: () => void) {
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const running = useRef(false);
  const run = async (name: string, method: string, path: string, body: unknown, headers?: Record<string, string>) => {
    if (running.current) return false;
    running.current = true;
    setBusy(name);
    setProblem(null);
    try {
      await api(method, path, body, headers);
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
  return { problem, busy, run };
}
