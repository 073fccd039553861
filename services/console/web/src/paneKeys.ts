import { useShortcut } from './workspace/shortcuts';

/** The ticket pane's keys: r reply, n note, e resolve, a assign. */
export type PaneKey = 'r' | 'n' | 'e' | 'a';

export const PANE_KEYS: { key: PaneKey; description: string }[] = [
  { key: 'r', description: 'Reply to the customer' },
  { key: 'n', description: 'Write an internal note' },
  { key: 'e', description: 'Resolve the ticket' },
  { key: 'a', description: 'Assign the ticket' },
];

/** Declares the pane's keys in the workspace's shortcut registry, so `?` lists them beside the list's. */
export function usePaneKeys(handlers: Record<PaneKey, () => void>): void {
  // PANE_KEYS is fixed, so the hooks run in the same order on every render.
  for (const { key, description } of PANE_KEYS) useShortcut(key, description, 'Conversation', () => handlers[key]());
}
