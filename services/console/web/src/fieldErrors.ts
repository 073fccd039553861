import { ApiError } from './api';

/** A body field as the request checks name it (`routing.rules[0].queue`) as a JSON pointer (`/routing/rules/0/queue`). */
const pointerOf = (field: string) => `/${field.replace(/\[(\d+)\]/g, '.$1').split('.').join('/')}`;

/**
 * A refused request's problems by the JSON pointer of the field each names: from the list of
 * refused fields the request checks give, else from ticketing's own message (`/routing/rules/0/queue ...; ...`).
 */
export function fieldErrors(error: unknown): Record<string, string> {
  if (!(error instanceof ApiError) || error.status !== 400) return {};
  const byPointer: Record<string, string> = {};
  for (const problem of error.fields.filter((p) => p.in === 'body')) {
    const pointer = pointerOf(problem.field);
    byPointer[pointer] = `${pointer} ${problem.message}`;
  }
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
