/**
 * What an agent's search (`q` on the ticket list) asks for: order numbers and @handles, matched
 * exactly against the keys extracted from every ticket's texts (the migration's search_keys reads
 * texts the same way), and the rest as words and "quoted phrases". Pure: no I/O.
 */

export interface TicketSearch {
  /** The digits of each order number asked for ('#100234', 'ORD-100234' and '100234' are one). */
  orderNumbers: string[];
  /** Handles asked for, lower case, without '@'. */
  handles: string[];
  /** Words and quoted phrases (websearch syntax), or null when the query is only keys. */
  words: string | null;
}

/** The fewest letters or digits a search may have: shorter ones match too much to be useful. */
export const MIN_SEARCH_CHARACTERS = 2;
export const MAX_SEARCH_LENGTH = 200;

export class InvalidSearch extends Error {
  override name = 'InvalidSearch';
}

const ORDER_NUMBER = /^#?(?:[A-Za-z]{1,6}-?)?([0-9]{5,20})$/;
const HANDLE = /^@([A-Za-z0-9_]{1,15})$/;

/** Reads `q`; throws InvalidSearch with a sentence the agent can act on. */
export function parseTicketSearch(input: string): TicketSearch {
  const q = input.trim();
  if (q.length > MAX_SEARCH_LENGTH) throw new InvalidSearch(`q must be at most ${MAX_SEARCH_LENGTH} characters; search for the most telling words of what you are looking for`);
  const meaningful = q.replace(/[^\p{L}\p{N}]/gu, '').length;
  if (meaningful < MIN_SEARCH_CHARACTERS) {
    throw new InvalidSearch(`q must have at least ${MIN_SEARCH_CHARACTERS} letters or digits; type more of the word, "phrase", order number or @handle you are looking for`);
  }
  const search: TicketSearch = { orderNumbers: [], handles: [], words: null };
  const rest: string[] = [];
  // Quoted phrases stay whole; other tokens are keys when they look like one.
  for (const token of q.match(/"[^"]*"?|[^\s"]+/g) ?? []) {
    const order = ORDER_NUMBER.exec(token);
    const handle = HANDLE.exec(token);
    if (order) search.orderNumbers.push(order[1]!);
    else if (handle) search.handles.push(handle[1]!.toLowerCase());
    else rest.push(token);
  }
  const words = rest.join(' ').trim();
  if (words.replace(/[^\p{L}\p{N}]/gu, '') !== '') search.words = words;
  return search;
}

/** The words as a substring of a subject or contact name, when long enough for a trigram match. */
export function searchSubstring(search: TicketSearch): string | null {
  const plain = search.words?.replace(/"/g, '').trim() ?? '';
  return plain.length >= 3 ? plain : null;
}
