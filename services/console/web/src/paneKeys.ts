import { useEffect, useRef } from 'react';

/** The ticket pane's keys: r reply, n note, e resolve, a assign. */
export type PaneKey = 'r' | 'n' | 'e' | 'a';

export const PANE_KEYS: { key: PaneKey; description: string }[] = [
  { key: 'r', description: 'Reply to the customer' },
  { key: 'n', description: 'Write an internal note' },
  { key: 'e', description: 'Resolve the ticket' },
  { key: 'a', description: 'Assign the ticket' },
];

/** Typing in a field, a menu or a dialog keeps its letters. */
function typingIn(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName) || Boolean(target.closest('[role="dialog"], [role="menu"], [role="listbox"]'));
}

/**
 * Calls the pane's handler for its keys, pressed without a modifier outside any field. One small
 * hook, so a page-wide shortcut registry can take PANE_KEYS and the handler as they are.
 */
export function usePaneKeys(handlers: Record<PaneKey, () => void>): void {
  const current = useRef(handlers);
  current.current = handlers;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || typingIn(event.target)) return;
      const key = event.key.toLowerCase() as PaneKey;
      if (!(key in current.current) || event.shiftKey) return;
      event.preventDefault();
      current.current[key]();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
