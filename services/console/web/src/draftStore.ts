/** The composer's drafts, one per ticket, in localStorage: they survive a reload, and so does their idempotency key. */
import { emptyDraft, type Draft } from './drafts';

const PREFIX = 'console.draft.';

export function loadDraft(ticketId: string): Draft {
  try {
    const saved = JSON.parse(localStorage.getItem(PREFIX + ticketId) ?? 'null') as Partial<Draft> | null;
    if (saved && typeof saved.text === 'string' && typeof saved.idempotencyKey === 'string' && /^[0-9a-f]{32}$/.test(saved.idempotencyKey)) {
      return { mode: saved.mode === 'note' ? 'note' : 'reply', text: saved.text, idempotencyKey: saved.idempotencyKey, tried: saved.tried === true };
    }
  } catch {
    // Storage refused (private mode, quota) or a value not ours: start empty.
  }
  return emptyDraft();
}

export function saveDraft(ticketId: string, draft: Draft): void {
  try {
    if (draft.text === '') localStorage.removeItem(PREFIX + ticketId);
    else localStorage.setItem(PREFIX + ticketId, JSON.stringify(draft));
  } catch {
    // A draft that cannot be kept still works on this page.
  }
}
