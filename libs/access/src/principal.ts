import { SCOPES, type CredentialGrant, type Scope } from '@crm/contracts';

/**
 * Who made a request: a bootstrap token (CRM_API_TOKENS: admin, no limits) or an API
 * credential with its scopes and its optional account and tracking-client limits.
 */
export class Principal {
  private readonly accounts: ReadonlySet<string> | null;
  private readonly trackingClients: ReadonlySet<string> | null;
  private readonly tickets: ReadonlySet<string> | null;

  constructor(readonly grant: CredentialGrant & { bootstrap?: boolean }) {
    this.accounts = grant.accountIds ? new Set(grant.accountIds) : null;
    this.trackingClients = grant.trackingClientIds ? new Set(grant.trackingClientIds) : null;
    this.tickets = grant.ticketIds ? new Set(grant.ticketIds) : null;
  }

  get id(): string {
    return this.grant.id;
  }

  get bootstrap(): boolean {
    return this.grant.bootstrap === true;
  }

  /** `admin` holds every scope. */
  has(scope: Scope): boolean {
    return this.grant.scopes.includes('admin') || this.grant.scopes.includes(scope);
  }

  /** The session auth issued this token for (console sign-in or launch link); undefined for a credential's own token. */
  get sessionId(): string | undefined {
    return this.grant.sessionId;
  }

  /** Whether a revocation announced for `id` (a credential or a session) ends this principal. */
  revokedBy(id: string): boolean {
    return this.grant.id === id || this.grant.sessionId === id;
  }

  /** A ticket-limited principal (a launch session) reaches its tickets only, never an account directly. */
  allowsAccount(accountId: string): boolean {
    if (this.tickets !== null) return false;
    return this.accounts === null || this.accounts.has(accountId);
  }

  allowsTrackingClient(clientId: string): boolean {
    if (this.tickets !== null) return false;
    return this.trackingClients === null || this.trackingClients.has(clientId);
  }

  /** Whether the ticket may be reached by its id (its account is checked apart). */
  allowsTicket(ticketId: string): boolean {
    return this.tickets === null || this.tickets.has(ticketId);
  }

  /** The tickets it is limited to; null when it is not limited to tickets. */
  get ticketIds(): string[] | null {
    return this.grant.ticketIds ?? null;
  }

  /** The accounts a list must be limited to (none for a ticket-limited principal); null when every account may be seen. */
  get accountIds(): string[] | null {
    return this.tickets !== null ? [] : this.grant.accountIds;
  }

  get trackingClientIds(): string[] | null {
    return this.tickets !== null ? [] : this.grant.trackingClientIds;
  }
}

/** The principal of a bootstrap token: `bootstrap-<n>` (its position in CRM_API_TOKENS), admin, no limits. */
export function bootstrapPrincipal(index: number): Principal {
  return new Principal({ id: `bootstrap-${index + 1}`, name: 'CRM_API_TOKENS bootstrap token', scopes: ['admin'], accountIds: null, trackingClientIds: null, bootstrap: true });
}

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

/** The principal of a SESSION_ISSUER_TOKENS token (the console's): `session-issuer-<n>`, scope `sessions:issue` only, no rate limit. */
export function sessionIssuerPrincipal(index: number): Principal {
  return new Principal({ id: `session-issuer-${index + 1}`, name: 'SESSION_ISSUER_TOKENS token', scopes: ['sessions:issue'], accountIds: [], trackingClientIds: [], bootstrap: true });
}
