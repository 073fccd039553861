import { ApiError } from './api';

/** A body field as the request checks name it (`routing.rules[0].queue`) as a JSON pointer (`/routing/rules/0/queue`). */
const pointerOf = (field: string) => `/${field.replace(/\[(\d+)\]/g, '.$1').split('.').join('/')}`;

/** The label a field has on the screens, by the last name in its pointer. */
const LABELS: Record<string, string> = {
  pageName: 'Page name',
  firstResponseMinutes: 'First response time',
  resolutionMinutes: 'Resolution time',
  windowMinutes: 'Merge window',
  defaultQueue: 'Default queue',
  defaultFolder: 'Default folder',
  name: 'Rule name',
  queue: 'Queue',
  folder: 'Folder',
  kinds: 'Kinds',
  keywords: 'Keywords',
  senders: 'Senders',
  languages: 'Languages',
  searchQueries: 'Search queries',
  text: 'Text',
  clientId: 'Tracking client',
  taskId: 'Task id',
  trackingClientId: 'Tracking client',
  pattern: 'Pattern',
  slipMinutes: 'Slip time',
  monthlyLimit: 'Monthly limit',
  warningThreshold: 'Warn at',
};

/** The field's label: the last name in the pointer that is not an index (`/routing/rules/0/when/senders/1` is Senders). */
function labelOf(pointer: string): string {
  const name = pointer.split('/').filter((segment) => segment && !/^\d+$/.test(segment)).pop() ?? '';
  if (LABELS[name]) return LABELS[name];
  const words = name.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  return words ? words[0]!.toUpperCase() + words.slice(1) : 'This field';
}

/** The request checks' wording (JSON Schema's), as a sentence about the field. */
const SENTENCES: [RegExp, (label: string, match: RegExpExecArray) => string][] = [
  [/^(is required|must have required property .*|must match pattern "\\S"|must NOT have fewer than 1 characters?)$/, (label) => `${label} is required`],
  [/^must be >= (\S+)$/, (label, m) => `${label} must be at least ${m[1]}`],
  [/^must be > (\S+)$/, (label, m) => `${label} must be more than ${m[1]}`],
  [/^must be <= (\S+)$/, (label, m) => `${label} must be at most ${m[1]}`],
  [/^must be < (\S+)$/, (label, m) => `${label} must be less than ${m[1]}`],
  [/^must be integer$/, (label) => `${label} must be a whole number`],
  [/^must be number$/, (label) => `${label} must be a number`],
  [/^must NOT have more than (\d+) characters?$/, (label, m) => `${label} can be at most ${m[1]} characters long`],
  [/^must NOT have fewer than (\d+) characters?$/, (label, m) => `${label} must be at least ${m[1]} characters long`],
  [/^must NOT have more than (\d+) items?$/, (label, m) => `${label} can have at most ${m[1]} entries`],
  [/^must NOT have fewer than (\d+) items?$/, (label, m) => `${label} needs at least ${m[1]} entries`],
  [/^must NOT have duplicate items.*$/, (label) => `${label} lists the same entry twice`],
  [/^must be equal to one of the allowed values$/, (label) => `${label} must be one of the choices offered`],
  [/^must match pattern .*$/, (label) => `${label} is not in the expected form`],
  [/^must match format "(\S+)"$/, (label, m) => `${label} must be a valid ${m[1]}`],
  [/^must NOT have additional properties$/, (label) => `${label} holds something the service does not know`],
];

/** One refused field in plain words: "Queue is required" for `/routing/rules/0/queue` and `must match pattern "\S"`. */
export function fieldSentence(pointer: string, message: string): string {
  const label = labelOf(pointer);
  const wording = message.trim();
  for (const [pattern, sentence] of SENTENCES) {
    const match = pattern.exec(wording);
    if (match) return sentence(label, match);
  }
  // A service's own sentence (it starts with a capital or is already about the field) stays as it is, after the label.
  return `${label}: ${wording}`;
}

/**
 * A refused request's problems in plain words, by the JSON pointer of the field each names:
 * from the list of refused fields the request checks give (`fields`), else from ticketing's
 * own message (`/routing/rules/0/queue must match pattern "\S"; ...`). The one place the API's
 * wording becomes the screens'.
 */
export function fieldErrors(error: unknown): Record<string, string> {
  if (!(error instanceof ApiError) || error.status !== 400) return {};
  const byPointer: Record<string, string> = {};
  for (const problem of error.fields.filter((p) => p.in === 'body')) {
    const pointer = pointerOf(problem.field);
    byPointer[pointer] = fieldSentence(pointer, problem.message);
  }
  for (const part of error.message.split('; ')) {
    const match = /^(\/\S*)\s+(.*)$/.exec(part.trim());
    if (match && !byPointer[match[1]!]) byPointer[match[1]!] = fieldSentence(match[1]!, match[2]!);
  }
  return byPointer;
}

/** A form's refused fields as one line for its summary. */
export const notSavedSummary = (errors: Record<string, string>) => `Not saved: ${Object.values(errors).join('. ')}.`;

/** A request's refusal as one line for the form's summary: its fields' sentences, or the service's message. */
export function refusalSummary(error: unknown, fallback: string): string {
  const errors = fieldErrors(error);
  if (Object.keys(errors).length) return notSavedSummary(errors);
  return error instanceof ApiError ? error.message : fallback;
}

/** The message for a field, also when the API named a field inside it (e.g. `/routing/rules/0/when/senders/1`). */
export function errorAt(errors: Record<string, string>, pointer: string): string | undefined {
  return errors[pointer] ?? Object.entries(errors).find(([key]) => key.startsWith(`${pointer}/`))?.[1];
}
