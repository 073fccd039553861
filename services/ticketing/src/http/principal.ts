import type { Request } from 'express';

/**
 * Who is acting, for the timeline and the CRM's events: the principal a credential check put on
 * the request, else `crm` (a bearer token of the CRM names no one in particular). The one place
 * that decides it.
 */
export function principalOf(req: Request): string {
  return (req as Request & { principal?: { id?: string } }).principal?.id ?? 'crm';
}

/** The acting principal's name (an agent's display name, a credential's name), as the timeline shows it. */
export function actorNameOf(req: Request): string | null {
  return (req as Request & { principal?: { grant?: { name?: string } } }).principal?.grant?.name ?? null;
}
