import { useEffect, useRef, useState } from 'react';
import { Badge, Group } from '@mantine/core';
import { done, ticketing } from '../client';
import { TONE } from '../colors';
import { PRESENCE_EVENTS, useLiveUpdates, type LiveEvent } from '../live';
import { useSession } from '../session';

type State = 'viewing' | 'typing' | 'left';
interface Someone {
  name: string;
  state: Exclude<State, 'left'>;
  expiresAt: number;
}

/** How often the page says again that the agent is here: well within ticketing's 30 s. */
const REPEAT_MS = 10_000;
/** Typing counts this long after the last keystroke. */
const TYPING_MS = 5_000;

/**
 * Who else is on this ticket, live: each agent that has it open (viewing) or is writing in it
 * (typing), from ticketing's `agent.presence` events; and this agent's own presence, said on
 * opening, every 10 s, on typing in any text box of the page, and `left` on leaving. Typing is
 * heard from the page's text boxes (the composer and the note), so they need not know of it.
 */
export function Presence({ ticketId }: { ticketId: string }) {
  const { session } = useSession();
  const me = session?.agentId ?? null;
  const [others, setOthers] = useState<Map<string, Someone>>(new Map());
  const state = useRef<State>('viewing');
  /** Says this agent's state again: a newcomer on the ticket hears who is there at once, not at the next repeat. */
  const sayAgain = useRef<() => void>(() => undefined);

  useLiveUpdates((event: LiveEvent | null) => {
    if (!event || event.ticketId !== ticketId || !event.data) return;
    const { agentId, name, state: theirs, expiresAt } = event.data as { agentId?: string; name?: string; state?: State; expiresAt?: string };
    if (!agentId || agentId === me) return;
    if (theirs !== 'left' && !others.has(agentId)) sayAgain.current();
    setOthers((current) => {
      const next = new Map(current);
      if (theirs === 'left' || !theirs) next.delete(agentId);
      else next.set(agentId, { name: name ?? agentId, state: theirs, expiresAt: Date.parse(expiresAt ?? '') || Date.now() + 3 * REPEAT_MS });
      return next;
    });
  }, PRESENCE_EVENTS);

  useEffect(() => {
    const say = (next: State) => {
      state.current = next;
      void done(ticketing.PUT('/v1/tickets/{id}/presence', { params: { path: { id: ticketId } }, body: { state: next } })).catch(() => undefined);
    };
    let typingEnds: ReturnType<typeof setTimeout> | undefined;
    const onInput = (event: Event) => {
      if (!(event.target instanceof HTMLTextAreaElement)) return;
      if (state.current !== 'typing') say('typing');
      clearTimeout(typingEnds);
      typingEnds = setTimeout(() => say('viewing'), TYPING_MS);
    };
    say('viewing');
    sayAgain.current = () => say(state.current === 'left' ? 'viewing' : state.current);
    const repeat = setInterval(() => {
      say(state.current === 'left' ? 'viewing' : state.current);
      // Whoever stopped saying so (closed the page) drops out once their presence expires.
      setOthers((current) => new Map([...current].filter(([, someone]) => someone.expiresAt > Date.now())));
    }, REPEAT_MS);
    document.addEventListener('input', onInput);
    return () => {
      clearInterval(repeat);
      clearTimeout(typingEnds);
      sayAgain.current = () => undefined;
      document.removeEventListener('input', onInput);
      say('left');
    };
  }, [ticketId]);

  if (others.size === 0) return null;
  return (
    <Group gap="xs" aria-live="polite" data-testid="presence">
      {[...others.entries()].map(([agentId, someone]) => (
        <Badge key={agentId} variant="filled" color={someone.state === 'typing' ? TONE.info : TONE.neutral} data-testid="presence-agent" data-state={someone.state}>
          {someone.name} {someone.state === 'typing' ? 'is typing…' : 'is viewing'}
        </Badge>
      ))}
    </Group>
  );
}
