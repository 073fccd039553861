import type { Position } from '../adapters/db/ticket-queries';
import { isUuid } from '../domain/ids';

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

export { isUuid };

/** An opaque page cursor: the position of the last item of a page, base64url-encoded. */
export function encodeCursor(position: Position): string {
  return Buffer.from(JSON.stringify({ c: position.createdAt, i: position.id }), 'utf8').toString('base64url');
}

/** The position a cursor holds, or null when it is not one of ours. */
export function decodeCursor(cursor: string): Position | null {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(cursor)) return null;
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { c?: unknown; i?: unknown };
    if (typeof value.c !== 'string' || typeof value.i !== 'string') return null;
    if (!TIMESTAMP.test(value.c) || Number.isNaN(Date.parse(value.c)) || !isUuid(value.i)) return null;
    return { createdAt: value.c, id: value.i };
  } catch {
    return null;
  }
}

/** A cursor over rows keyed by a growing number (held deliveries). */
export function encodeIdCursor(id: number): string {
  return Buffer.from(JSON.stringify({ n: id }), 'utf8').toString('base64url');
}

export function decodeIdCursor(cursor: string): number | null {
  if (!/^[A-Za-z0-9_-]{1,100}$/.test(cursor)) return null;
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { n?: unknown };
    return typeof value.n === 'number' && Number.isSafeInteger(value.n) && value.n >= 0 ? value.n : null;
  } catch {
    return null;
  }
}
