/**
 * Which conversations the agent has seen since their last message, kept in this browser: a
 * ticket is unread while its last activity is newer than when the agent last had it open.
 */
const KEY = 'console.seen';
const MAX_ENTRIES = 2000;

function read(): Record<string, string> {
  try {
    return JSON.parse(localStorage.getItem(KEY) ?? '{}') as Record<string, string>;
  } catch {
    return {};
  }
}

export function isUnread(ticket: { id: string; lastActivityAt: string }): boolean {
  const seen = read()[ticket.id];
  return !seen || Date.parse(seen) < Date.parse(ticket.lastActivityAt);
}

export function markSeen(ticket: { id: string; lastActivityAt: string }): void {
  const seen = read();
  if (seen[ticket.id] === ticket.lastActivityAt) return;
  seen[ticket.id] = ticket.lastActivityAt;
  // The oldest entries go first when the map grows past its bound.
  const entries = Object.entries(seen).sort((a, b) => Date.parse(b[1]) - Date.parse(a[1])).slice(0, MAX_ENTRIES);
  try {
    localStorage.setItem(KEY, JSON.stringify(Object.fromEntries(entries)));
  } catch {
    // Storage full or refused: the marks stay as they were.
  }
}
