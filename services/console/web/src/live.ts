import { useEffect, useRef, useState } from 'react';
import { useSession } from './session';

export interface LiveEvent {
  type: string;
  ticketId: string;
  /** The event's own data (e.g. who and what of an `agent.presence`). */
  data?: Record<string, unknown>;
}

export const TICKET_EVENTS: readonly string[] = ['ticket.created', 'ticket.updated', 'ticket.activity'];
/** ticketing's silence alarm (docs/crm-events.md, "Account events"): `ticketId` is null. */
export const ACCOUNT_EVENTS: readonly string[] = ['account.silent', 'account.delivering'];

/**
 * Calls `onEvent` when ticketing reports a change of one of `types` (its event stream, relayed
 * by the console server). When the stream is unavailable, calls `onEvent` every poll interval
 * instead, so the screen stays live either way. Returns the mode in use.
 */
export function useLiveUpdates(onEvent: (event: LiveEvent | null) => void, types: readonly string[] = TICKET_EVENTS): 'connecting' | 'live' | 'polling' {
  const { session } = useSession();
  const pollMs = session?.settings.pollIntervalMs ?? 4000;
  const handler = useRef(onEvent);
  handler.current = onEvent;
  const [mode, setMode] = useState<'connecting' | 'live' | 'polling'>('connecting');
  useEffect(() => {
    let poll: ReturnType<typeof setInterval> | undefined;
    const source = new EventSource('/api/events');
    source.onopen = () => setMode('live');
    const deliver = (type: string) => (message: MessageEvent<string>) => {
      try {
        const data = JSON.parse(message.data) as { ticketId?: string; data?: Record<string, unknown> };
        handler.current({ type, ticketId: String(data.ticketId ?? ''), data: { ...data.data, expiresAt: (data as { expiresAt?: string }).expiresAt } });
      } catch {
        handler.current(null);
      }
    };
    for (const type of types) source.addEventListener(type, deliver(type) as EventListener);
    source.onerror = () => {
      if (source.readyState !== EventSource.CLOSED || poll) return;
      setMode('polling');
      poll = setInterval(() => handler.current(null), pollMs);
    };
    return () => {
      source.close();
      if (poll) clearInterval(poll);
    };
  }, [pollMs, types]);
  return mode;
}
