import { ApiError } from './api';

/** ticketing's validation message split by the JSON pointer each part names: `/routing/rules/0/queue` → its message. */
export function fieldErrors(error: unknown): Record<string, string> {
  if (!(error instanceof ApiError) || error.status !== 400) return {};
  const byPointer: Record<string, string> = {};
  for (const part of error.message.split('; ')) {
    const pointer = /^(\/[^\s]*)/.exec(part.trim())?.[1];
    if (pointer) byPointer[pointer] = part.trim();
  }
  return byPointer;
}

/** The message for a field, also when the API named a field inside it (e.g. `/routing/rules/0/when/senders/1`). */
export function errorAt(errors: Record<string, string>, pointer: string): string | undefined {
  return errors[pointer] ?? Object.entries(errors).find(([key]) => key.startsWith(`${pointer}/`))?.[1];
}
