import type { Scope } from '@crm/contracts';

/** What an agent may do is its role's: `admin` everything the deployment grants, `agent` tickets and the actions on them. */
export const AGENT_ROLES = ['admin', 'agent'] as const;
export type AgentRole = (typeof AGENT_ROLES)[number];

/** The scopes a role carries: the principal/scope model every service checks already. */
export function scopesOfRole(role: AgentRole): Scope[] {
  return role === 'admin' ? ['admin'] : ['tickets:read', 'tickets:write'];
}

export function isAgentRole(value: string): value is AgentRole {
  return (AGENT_ROLES as readonly string[]).includes(value);
}

/** Passwords shorter than this are refused: a local account's only protection. */
export const MIN_PASSWORD_LENGTH = 12;
/** Longer ones are refused too: scrypt of a megabyte is a way to spend the server's time. */
export const MAX_PASSWORD_LENGTH = 256;

const EMAIL = /^[^@\s]{1,100}@[^@\s]{1,200}$/;
const TEAM_ID = /^[a-z0-9][a-z0-9-]{0,62}$/;

/** An email as stored and looked up: trimmed, lower case; null when it is not one. */
export function normalEmail(value: string): string | null {
  const email = value.trim().toLowerCase();
  return EMAIL.test(email) ? email : null;
}

export interface AgentSpec {
  email: string;
  displayName: string;
  role: AgentRole;
  teams: string[];
  password: string | null;
  externalId: string | null;
}

/** Checks what an admin asked to create; each problem in words a person can act on (empty: fine). */
export function agentSpecProblems(input: { email?: unknown; displayName?: unknown; role?: unknown; teams?: unknown; password?: unknown; externalId?: unknown }): { problems: Record<string, string>; spec: AgentSpec | null } {
  const problems: Record<string, string> = {};
  const email = typeof input.email === 'string' ? normalEmail(input.email) : null;
  if (email === null) problems.email = 'enter an email address such as ana@example.com';
  const displayName = typeof input.displayName === 'string' ? input.displayName.trim() : '';
  if (displayName.length < 1 || displayName.length > 200) problems.displayName = 'enter the name others see (1 to 200 characters)';
  const role = input.role === undefined ? 'agent' : input.role;
  if (typeof role !== 'string' || !isAgentRole(role)) problems.role = 'choose a role: admin or agent';
  const teams = input.teams === undefined ? [] : input.teams;
  if (!Array.isArray(teams) || teams.some((team) => typeof team !== 'string' || !TEAM_ID.test(team))) problems.teams = 'list team ids (lower-case letters, digits and -)';
  const password = input.password ?? null;
  if (password !== null && (typeof password !== 'string' || password.length < MIN_PASSWORD_LENGTH || password.length > MAX_PASSWORD_LENGTH)) {
    problems.password = `choose a password of ${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters`;
  }
  const externalId = input.externalId ?? null;
  if (externalId !== null && (typeof externalId !== 'string' || externalId.trim().length < 1 || externalId.length > 200)) problems.externalId = "the CRM's id of this person: 1 to 200 characters";
  if (Object.keys(problems).length > 0) return { problems, spec: null };
  return { problems, spec: { email: email!, displayName, role: role as AgentRole, teams: [...new Set(teams as string[])], password: password as string | null, externalId: externalId === null ? null : (externalId as string).trim() } };
}

export function isTeamId(value: string): boolean {
  return TEAM_ID.test(value);
}

/** What an admin may change of an agent; a field left out stays as it is. */
export interface AgentChanges {
  displayName?: string;
  role?: AgentRole;
  teams?: string[];
  disabled?: boolean;
}

/** Checks what an admin asked to change; each problem in words a person can act on (empty: fine). */
export function agentChangeProblems(input: { displayName?: unknown; role?: unknown; teams?: unknown; disabled?: unknown }): { problems: Record<string, string>; changes: AgentChanges | null } {
  const problems: Record<string, string> = {};
  const changes: AgentChanges = {};
  if (input.displayName !== undefined) {
    const displayName = typeof input.displayName === 'string' ? input.displayName.trim() : '';
    if (displayName.length < 1 || displayName.length > 200) problems.displayName = 'enter the name others see (1 to 200 characters)';
    else changes.displayName = displayName;
  }
  if (input.role !== undefined) {
    if (typeof input.role !== 'string' || !isAgentRole(input.role)) problems.role = 'choose a role: admin or agent';
    else changes.role = input.role;
  }
  if (input.teams !== undefined) {
    const { teams } = input;
    if (!Array.isArray(teams) || teams.some((team) => typeof team !== 'string' || !TEAM_ID.test(team))) problems.teams = 'list team ids (lower-case letters, digits and -)';
    else changes.teams = [...new Set(teams as string[])];
  }
  if (input.disabled !== undefined) {
    if (typeof input.disabled !== 'boolean') problems.disabled = 'say true to deactivate the agent, false to reactivate';
    else changes.disabled = input.disabled;
  }
  return Object.keys(problems).length > 0 ? { problems, changes: null } : { problems, changes };
}

/** A password an agent may choose, or the sentence saying why not. */
export function passwordProblem(password: unknown): string | null {
  if (typeof password === 'string' && password.length >= MIN_PASSWORD_LENGTH && password.length <= MAX_PASSWORD_LENGTH) return null;
  return `choose a password of ${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters`;
}
