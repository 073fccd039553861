import { createContext, useContext, useEffect, useRef, useState } from 'react';
import { useSession } from './session';

export interface LiveEvent {
  type: LiveEventType;
  ticketId: string;
  /** The event's own data (e.g. who and what of an `agent.presence`), with the event's `expiresAt`. */
  data?: Record<string, unknown>;
}

/** A ticket's changes; `ticket.order_changed`: its linked order moved (status, ETA), linked or unlinked. */
export const TICKET_EVENTS = ['ticket.created', 'ticket.updated', 'ticket.activity', 'ticket.order_changed'] as const;
/** ticketing's silence alarm (docs/crm-events.md, "Account events"): `ticketId` is null. */
export const ACCOUNT_EVENTS = ['account.silent', 'account.delivering'] as const;
/** Who is on a ticket (viewing, typing, left). */
export const PRESENCE_EVENTS = ['agent.presence'] as const;
/** The platform's credit and the accounts' budgets (auth's metering): `ticketId` is null. */
export const CREDIT_EVENTS = ['app.out_of_credit', 'app.credit_restored'] as const;
export const BUDGET_EVENTS = ['account.budget_warning', 'account.budget_exhausted'] as const;
const EVERY_EVENT = [...TICKET_EVENTS, ...ACCOUNT_EVENTS, ...PRESENCE_EVENTS, ...CREDIT_EVENTS, ...BUDGET_EVENTS] as const;
export type LiveEventType = (typeof EVERY_EVENT)[number];

export type LiveMode = 'connecting' | 'live' | 'polling';

/** One subscriber: the types it hears, and what it calls (null: read again, the stream has just opened or is unavailable). */
interface Subscriber {
  types: readonly LiveEventType[];
  deliver: (event: LiveEvent | null) => void;
}

interface LiveStream {
  mode: LiveMode;
  subscribe: (subscriber: Subscriber) => () => void;
}

const LiveContext = createContext<LiveStream | null>(null);

function parse(type: LiveEventType, message: MessageEvent<string>): LiveEvent | null {
  try {
    const data = JSON.parse(message.data) as { ticketId?: string; data?: Record<string, unknown>; expiresAt?: string };
    return { type, ticketId: String(data.ticketId ?? ''), data: { ...data.data, expiresAt: data.expiresAt } };
  } catch {
    return null;
  }
}

/**
 * The page's one event stream (ticketing's, relayed by the console server), opened while a
 * session is on and shared by every screen that listens: each event goes to the subscribers of
 * its type. Each time it opens every subscriber is called once to read again (nothing changed
 * meanwhile is missed); when it is unavailable every subscriber is called each poll interval
 * instead, so the screens stay live either way.
 */
export function LiveProvider({ children }: { children: React.ReactNode }) {
  const { session, ended } = useSession();
  const signedIn = Boolean(session) && !ended;
  const pollMs = session?.settings.pollIntervalMs ?? 4000;
  const subscribers = useRef(new Set<Subscriber>());
  const [mode, setMode] = useState<LiveMode>('connecting');
  useEffect(() => {
    if (!signedIn) return;
    const fanOut = (type: LiveEventType | null, event: LiveEvent | null) => {
      for (const subscriber of [...subscribers.current]) if (type === null || subscriber.types.includes(type)) subscriber.deliver(event);
    };
    let poll: ReturnType<typeof setInterval> | undefined;
    setMode('connecting');
    const source = new EventSource('/api/events');
    // Whatever changed while the stream was connecting (or reconnecting) was sent to no one:
    // every screen reads again once it is open, then follows the events.
    source.onopen = () => {
      setMode('live');
      fanOut(null, null);
    };
    for (const type of EVERY_EVENT) source.addEventListener(type, ((message: MessageEvent<string>) => fanOut(type, parse(type, message))) as EventListener);
    source.onerror = () => {
      if (source.readyState !== EventSource.CLOSED || poll) return;
      setMode('polling');
      poll = setInterval(() => fanOut(null, null), pollMs);
    };
    return () => {
      source.close();
      if (poll) clearInterval(poll);
    };
  }, [signedIn, pollMs]);
  const [stream] = useState<Omit<LiveStream, 'mode'>>(() => ({
    subscribe: (subscriber) => {
      subscribers.current.add(subscriber);
      return () => void subscribers.current.delete(subscriber);
    },
  }));
  return <LiveContext.Provider value={{ ...stream, mode }}>{children}</LiveContext.Provider>;
}

/**
 * Calls `onEvent` when ticketing reports a change of one of `types`, from the page's one
 * stream (LiveProvider), or with null (read again) when the stream opens and every poll
 * interval while it is unavailable.
 * Returns the mode in use.
 */
export function useLiveUpdates(onEvent: (event: LiveEvent | null) => void, types: readonly LiveEventType[] = TICKET_EVENTS): LiveMode {
  const stream = useContext(LiveContext);
  if (!stream) throw new Error('useLiveUpdates needs a LiveProvider above it');
  const handler = useRef(onEvent);
  handler.current = onEvent;
  const { subscribe } = stream;
  useEffect(() => subscribe({ types, deliver: (event) => handler.current(event) }), [subscribe, types]);
  return stream.mode;
}
