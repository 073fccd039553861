import { ApiError } from '../api';
import { auth, ok, type AuthSchemas } from '../client';
import { fieldErrors } from '../fieldErrors';

export type Agent = AuthSchemas['Agent'];
export type Team = AuthSchemas['Team'];
export type Role = Agent['role'];

export const ROLE_LABEL: Record<Role, string> = { admin: 'Admin', agent: 'Agent' };
export const ROLE_CHOICES = [
  { value: 'agent', label: 'Agent' },
  { value: 'admin', label: 'Admin' },
];
/** What each role may do, beside the role's field. */
export const ROLE_HELP = 'An agent works tickets; an admin also manages agents, teams and accounts';

export async function loadAgentsAndTeams(): Promise<{ agents: Agent[]; teams: Team[] }> {
  const [agents, teams] = await Promise.all([ok(auth.GET('/v1/agents')), ok(auth.GET('/v1/teams'))]);
  return { agents: agents.items, teams: teams.items };
}

/**
 * A refusal as sentences beside the form's fields (by JSON pointer, as fieldErrors maps the
 * API's `fields`), and what names no field as the form's summary line.
 */
export function refusalOf(error: unknown, fallback: string): { fields: Record<string, string>; summary: string | null } {
  const fields = fieldErrors(error);
  if (error instanceof ApiError && error.code === 'agent_exists') return { fields: { '/email': 'An agent with this email exists already' }, summary: null };
  if (error instanceof ApiError && error.code === 'unknown_team') return { fields: { '/teams': `Teams: ${error.message}` }, summary: null };
  if (Object.keys(fields).length > 0) return { fields, summary: null };
  return { fields: {}, summary: error instanceof ApiError ? sentence(error.message) : fallback };
}

/** A service's message as a sentence on the screen. */
export const sentence = (message: string) => (message ? message[0]!.toUpperCase() + message.slice(1) : message);
