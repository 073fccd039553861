/** The composer's drafts, one per ticket, in localStorage: they survive a reload, and so does their idempotency key. */

export type DraftMode = 'reply' | 'note';

export interface Draft {
  mode: DraftMode;
  text: string;
  /** One per composed reply, kept across retries and reloads: ticketing sends it once however often it is posted. */
  idempotencyKey: string;
  /** Posted at least once: an edit after that makes another message, with a key of its own. */
  tried?: boolean;
}

const PREFIX = 'console.draft.';

/** A random key (getRandomValues: unlike randomUUID, available on a page served over plain http too). */
export function newIdempotencyKey(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

export const emptyDraft = (mode: DraftMode = 'reply'): Draft => ({ mode, text: '', idempotencyKey: newIdempotencyKey() });

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

/** The draft with new text: once it was posted, edited text is another message and gets a key of its own. */
export const editDraft = (draft: Draft, text: string): Draft => (draft.tried && text !== draft.text ? { ...draft, text, idempotencyKey: newIdempotencyKey(), tried: false } : { ...draft, text });
