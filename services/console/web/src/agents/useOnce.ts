import { useCallback, useRef, useState } from 'react';

/**
 * Runs one request at a time: `busy` names the one running (its button shows it), and a second
 * click while it runs (a double-click) starts nothing.
 */
export function useOnce() {
  const running = useRef(false);
  const [busy, setBusy] = useState<string | null>(null);
  const run = useCallback(async (name: string, work: () => Promise<void>): Promise<void> => {
    if (running.current) return;
    running.current = true;
    setBusy(name);
    try {
      await work();
    } finally {
      running.current = false;
      setBusy(null);
    }
  }, []);
  return { busy, run };
}
