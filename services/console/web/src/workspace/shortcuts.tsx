/**
 * The workspace's keyboard shortcuts, declared once: a pane calls `useShortcut` with the key, what
 * it does and its handler; one listener dispatches keys (never while the agent types in a field),
 * and the `?` dialog lists every shortcut declared at that moment.
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react';
import { Kbd, Modal, Table } from '@mantine/core';

export interface Shortcut {
  /** The key as KeyboardEvent.key names it: 'j', 'Enter', '?'. */
  key: string;
  /** What it does, as the `?` dialog lists it. */
  description: string;
  /** Where it applies, as the dialog groups it: 'List', 'Conversation'. */
  group: string;
}

interface Registered extends Shortcut {
  id: number;
  run: () => void;
}

interface Registry {
  register: (shortcut: Registered) => () => void;
  list: () => Shortcut[];
}

const ShortcutContext = createContext<Registry | null>(null);

/** Keys go to fields while the agent types in them. */
function typingIn(target: EventTarget | null): boolean {
  const element = target as HTMLElement | null;
  if (!element || typeof element.closest !== 'function') return false;
  return Boolean(element.closest('input, textarea, select, [contenteditable=""], [contenteditable="true"], [role="dialog"] [role="combobox"]'));
}

const CONTROLS = 'a[href], button, summary, [role="button"], [role="link"], [role="menuitem"], [role="option"], [role="tab"], [role="checkbox"], [role="switch"]';

/** Enter on a focused link or button is that control's own (keyboard users activate it so). */
function activatesControl(event: KeyboardEvent): boolean {
  const element = event.target as HTMLElement | null;
  return event.key === 'Enter' && Boolean(element && typeof element.closest === 'function' && element.closest(CONTROLS));
}

let nextId = 0;

/** Declares a shortcut while the calling component is shown (and `enabled`). */
export function useShortcut(key: string, description: string, group: string, run: () => void, enabled = true): void {
  const registry = useContext(ShortcutContext);
  const handler = useRef(run);
  handler.current = run;
  useEffect(() => {
    if (!registry || !enabled) return;
    return registry.register({ id: (nextId += 1), key, description, group, run: () => handler.current() });
  }, [registry, key, description, group, enabled]);
}

/** The registry, its key listener and the `?` dialog. */
export function ShortcutsProvider({ children }: { children: React.ReactNode }) {
  const registered = useRef<Registered[]>([]);
  const [helpOpen, setHelpOpen] = useState(false);
  const register = useCallback((shortcut: Registered) => {
    registered.current = [...registered.current, shortcut];
    return () => {
      registered.current = registered.current.filter((one) => one.id !== shortcut.id);
    };
  }, []);
  const list = useCallback(() => registered.current.map(({ key, description, group }) => ({ key, description, group })), []);
  const registry = useMemo(() => ({ register, list }), [register, list]);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented || typingIn(event.target) || activatesControl(event)) return;
      if (event.key === '?') {
        event.preventDefault();
        setHelpOpen(true);
        return;
      }
      if (document.querySelector('[role="dialog"]')) return;
      // The latest declaration of a key wins (the pane shown last).
      const shortcut = registered.current.findLast((one) => one.key === event.key);
      if (!shortcut) return;
      event.preventDefault();
      shortcut.run();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  return (
    <ShortcutContext.Provider value={registry}>
      {children}
      <ShortcutsHelp opened={helpOpen} onClose={() => setHelpOpen(false)} shortcuts={helpOpen ? list() : []} />
    </ShortcutContext.Provider>
  );
}

const KEY_NAMES: Record<string, string> = { Enter: 'Enter', Escape: 'Esc', ArrowUp: '↑', ArrowDown: '↓' };

function ShortcutsHelp({ opened, onClose, shortcuts }: { opened: boolean; onClose: () => void; shortcuts: Shortcut[] }) {
  const all = [...shortcuts, { key: '?', description: 'Show these shortcuts', group: 'Everywhere' }];
  // One row per key and description (a key declared by two panes at once is listed once).
  const rows = [...new Map(all.map((one) => [`${one.group}|${one.key}|${one.description}`, one])).values()];
  return (
    <Modal opened={opened} onClose={onClose} title="Keyboard shortcuts" closeButtonProps={{ 'aria-label': 'Close' }}>
      <Table aria-label="Keyboard shortcuts">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Key</Table.Th>
            <Table.Th>Does</Table.Th>
            <Table.Th>Where</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((one) => (
            <Table.Tr key={`${one.group}|${one.key}|${one.description}`} data-testid="shortcut">
              <Table.Td>
                <Kbd>{KEY_NAMES[one.key] ?? one.key}</Kbd>
              </Table.Td>
              <Table.Td>{one.description}</Table.Td>
              <Table.Td>{one.group}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Modal>
  );
}
