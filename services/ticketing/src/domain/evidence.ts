/**
 * An evidence snapshot from the console's map pop-up, attached to an internal note: where the
 * rider and the drop were, how far apart, the ETA and the task's status at that moment.
 */
export interface EvidenceSnapshot {
  clientId: string;
  taskId: string;
  rider: { lat: number; lng: number };
  drop: { lat: number; lng: number };
  distanceMeters: number;
  etaAt: string | null;
  status: string;
  positionAt: string;
}

const FIELDS = ['clientId', 'taskId', 'rider', 'drop', 'distanceMeters', 'etaAt', 'status', 'positionAt'];
const ID = /^[A-Za-z0-9_.:-]{1,100}$/;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isTime = (value: unknown): value is string => typeof value === 'string' && value.length <= 40 && /^\d{4}-\d\d-\d\dT/.test(value) && !Number.isNaN(Date.parse(value));

function point(value: unknown, at: string, problems: string[]): void {
  if (!isObject(value)) {
    problems.push(`${at} must be {lat, lng}`);
    return;
  }
  const { lat, lng } = value;
  if (typeof lat !== 'number' || !(lat >= -90 && lat <= 90)) problems.push(`${at}/lat must be a latitude (-90 to 90)`);
  if (typeof lng !== 'number' || !(lng >= -180 && lng <= 180)) problems.push(`${at}/lng must be a longitude (-180 to 180)`);
  const extra = Object.keys(value).filter((key) => key !== 'lat' && key !== 'lng');
  if (extra.length > 0) problems.push(`${at} has unknown field(s) ${extra.join(', ')}`);
}

/** Problems of an evidence snapshot, each naming its field by JSON pointer under `at`; none when valid. */
export function evidenceProblems(value: unknown, at = '/evidence'): string[] {
  if (!isObject(value)) return [`${at} must be an object`];
  const problems: string[] = [];
  const extra = Object.keys(value).filter((key) => !FIELDS.includes(key));
  if (extra.length > 0) problems.push(`${at} has unknown field(s) ${extra.join(', ')}`);
  for (const field of ['clientId', 'taskId'] as const) if (typeof value[field] !== 'string' || !ID.test(value[field])) problems.push(`${at}/${field} must be an id (1-100 letters, digits, _ . : -)`);
  point(value.rider, `${at}/rider`, problems);
  point(value.drop, `${at}/drop`, problems);
  const distance = value.distanceMeters;
  if (typeof distance !== 'number' || !(distance >= 0 && distance <= 40_075_000)) problems.push(`${at}/distanceMeters must be a number of meters (0 or more)`);
  if (value.etaAt !== null && !isTime(value.etaAt)) problems.push(`${at}/etaAt must be a date-time or null`);
  if (typeof value.status !== 'string' || value.status.trim() === '' || value.status.length > 50) problems.push(`${at}/status must be a non-blank string of at most 50 characters`);
  if (!isTime(value.positionAt)) problems.push(`${at}/positionAt must be a date-time`);
  return problems;
}

export const NOTE_MAX_LENGTH = 10_000;

/** Reads a note body `{text, evidence?}`; evidence alone needs no text. */
export function readNote(body: unknown): { text: string | null; evidence: EvidenceSnapshot | null } | { problems: string[] } {
  if (!isObject(body)) return { problems: ['send the note as a JSON object {"text", "evidence"?}'] };
  const problems: string[] = [];
  const extra = Object.keys(body).filter((key) => key !== 'text' && key !== 'evidence');
  if (extra.length > 0) problems.push(`unknown field(s) ${extra.map((key) => `/${key}`).join(', ')}`);
  const { text, evidence } = body;
  const hasEvidence = evidence !== undefined && evidence !== null;
  if (text !== undefined || !hasEvidence) {
    if (typeof text !== 'string' || text.trim() === '' || text.length > NOTE_MAX_LENGTH) problems.push(`/text must be a non-blank string of at most ${NOTE_MAX_LENGTH} characters`);
  }
  if (hasEvidence) problems.push(...evidenceProblems(evidence));
  if (problems.length > 0) return { problems };
  return { text: typeof text === 'string' ? text : null, evidence: hasEvidence ? (evidence as EvidenceSnapshot) : null };
}
