import type { CredentialGrant } from '@crm/contracts';

/** The longest subject token a sign-in takes: far above any token the CRM makes. */
export const MAX_SUBJECT_TOKEN_LENGTH = 512;
/** The shortest session: shorter ones would expire before the console used them. */
export const MIN_SESSION_TTL_SECONDS = 60;
/** A launch link's default lifetime (never above SESSION_MAX_TTL_SECONDS). */
export const DEFAULT_LAUNCH_TTL_SECONDS = 1_800;

/** Printable ASCII without spaces (0x21-0x7E), as every token is: anything else was pasted wrong. */
export function isPresentableToken(token: string): boolean {
  return token.length >= 1 && token.length <= MAX_SUBJECT_TOKEN_LENGTH && /^[\x21-\x7e]+$/.test(token);
}

/** The lifetime a session gets: the asked one, or the default; null when it is outside 60..max. */
export function sessionTtl(requested: number | undefined, defaultSeconds: number, maxSeconds: number): number | null {
  if (requested === undefined) return Math.min(defaultSeconds, maxSeconds);
  return Number.isInteger(requested) && requested >= MIN_SESSION_TTL_SECONDS && requested <= maxSeconds ? requested : null;
}

/** What a launch link holds: reading and answering one ticket, nothing else. */
export const launchGrant = (sessionId: string, ticketId: string): CredentialGrant => ({
  id: `launch-${sessionId}`,
  name: `launch link for ticket ${ticketId}`,
  scopes: ['tickets:read', 'tickets:write'],
  accountIds: null,
  trackingClientIds: null,
  ticketIds: [ticketId],
  sessionId,
});
