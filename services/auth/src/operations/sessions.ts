import { bootstrapIndex, bootstrapPrincipal, hashSecret, newApiToken, parseApiToken, perMinute, type NewApiToken, type Principal } from '@crm/access';
import type { CredentialGrant } from '@crm/contracts';
import type { Logger } from '@crm/logging';
import type { AgentStore } from '../adapters/agents';
import type { ApiCredentialStore } from '../adapters/api-credentials';
import type { AuthEvents } from '../adapters/events';
import type { LiveSession, NewSession, SessionStore } from '../adapters/sessions';
import { UNMATCHABLE_HASH, verifyPassword } from '../adapters/passwords';
import { MAX_PASSWORD_LENGTH, normalEmail, scopesOfRole } from '../domain/agents';
import { DEFAULT_LAUNCH_TTL_SECONDS, isPresentableToken, launchGrant, sessionTtl } from '../domain/sessions';

/** What issuing a session answers: the token (its secret's only copy), when it expires, and the grant it carries. */
export interface IssuedSession {
  token: string;
  expiresAt: string;
  grant: CredentialGrant;
}

/** The subject token holds characters no token has, or is too long: nothing was checked. */
export class InvalidSubjectToken extends Error {
  override name = 'InvalidSubjectToken';
  constructor() {
    super('the credential holds characters no credential has; paste it again');
  }
}

/** The subject token is unknown, revoked, or itself a session. */
export class SignInRefused extends Error {
  override name = 'SignInRefused';
  constructor() {
    super('the credential is unknown or revoked');
  }
}

/** The email or the password is wrong (which one is never told), or the agent is disabled. */
export class WrongEmailOrPassword extends Error {
  override name = 'WrongEmailOrPassword';
  constructor() {
    super('the email or password is not right; check both and try again');
  }
}

/** A launch link names an agent the CRM gave no usable id or email for. */
export class LaunchAgentRefused extends Error {
  override name = 'LaunchAgentRefused';
  constructor(reason: string) {
    super(reason);
  }
}

/** What a launch link may say of the agent who opened it (the CRM's own id of the person, and/or an email). */
export interface LaunchAgent {
  externalId?: string;
  email?: string;
  displayName?: string;
}

/** The client address failed to sign in too often in the last minute; its sign-ins are refused unchecked. */
export class TooManyFailedSignIns extends Error {
  override name = 'TooManyFailedSignIns';
  constructor(readonly retryAfterSeconds: number) {
    super(`too many failed sign-ins from this address; try again in ${retryAfterSeconds} s`);
  }
}

/** The launch link opened a session already (on this console replica or another): a link opens one. */
export class LaunchLinkUsed extends Error {
  override name = 'LaunchLinkUsed';
  constructor() {
    super('this launch link opened a session already; open the ticket again from the CRM');
  }
}

/** The lifetime asked for is outside 60..SESSION_MAX_TTL_SECONDS. */
export class InvalidSessionTtl extends Error {
  override name = 'InvalidSessionTtl';
  constructor(maxSeconds: number) {
    super(`ttlSeconds must be a whole number from 60 to ${maxSeconds}`);
  }
}

export interface SessionSettings {
  /** CRM_API_TOKENS: a sign-in with one of them gets a bootstrap session. */
  bootstrapTokens: readonly string[];
  /** SESSION_MAX_TTL_SECONDS: the longest session, and a sign-in's default. */
  maxTtlSeconds: number;
  /** AUTH_FAILURES_PER_MINUTE: failed sign-ins per client address and minute; 0 turns the limit off. */
  failuresPerMinute: number;
}

/** Sessions that ended or expired this long ago are deleted by the periodic purge. */
export const SESSION_RETENTION_SECONDS = 24 * 3_600;

/**
 * Sessions the console asks for (token exchange: the console is the actor, the agent's
 * credential the subject): a sign-in with an agent's credential or a bootstrap token, or a
 * launch link for one ticket. Services verify a session like any API token; its grant is
 * the credential's current one, so revoking the credential ends its sessions.
 */
export class SessionService {
  /** Failed sign-ins per client address and minute, in this process (as `authenticate` counts failed authentications). */
  private readonly failures: ReturnType<typeof perMinute>;
  private readonly bootstrapHashes: string[];

  constructor(
    private readonly deps: { store: SessionStore; credentials: ApiCredentialStore; agents: AgentStore; events: AuthEvents; logger: Logger },
    private readonly settings: SessionSettings,
  ) {
    this.failures = perMinute(settings.failuresPerMinute);
    this.bootstrapHashes = settings.bootstrapTokens.map(hashSecret);
  }

  /** Signs the holder of `subjectToken` in: a session with its grant. Failures are counted per `clientAddress` (checked first). */
  async signIn(request: { subjectToken: string; clientAddress: string; ttlSeconds?: number }, issuer: Principal): Promise<IssuedSession> {
    const ttlSeconds = this.ttl(request.ttlSeconds, this.settings.maxTtlSeconds);
    const blocked = await this.failures.exhausted(request.clientAddress);
    if (blocked !== null) throw new TooManyFailedSignIns(blocked);
    if (!isPresentableToken(request.subjectToken)) throw new InvalidSubjectToken();

    const index = bootstrapIndex(request.subjectToken, this.settings.bootstrapTokens);
    if (index >= 0) {
      // Admin with no limits, named as the token itself is in the audit (but rate limited: it is no bootstrap token).
      const { bootstrap: _configured, ...bootstrapGrant } = bootstrapPrincipal(index).grant;
      const grant = { ...bootstrapGrant, ticketIds: null };
      const bootstrapSha256 = this.bootstrapHashes[index]!;
      return this.issue(newApiToken('session'), { kind: 'bootstrap', bootstrapSha256, scopes: grant.scopes, principalId: grant.id, principalName: grant.name, issuedBy: issuer.id, ttlSeconds }, grant);
    }
    const parsed = parseApiToken(request.subjectToken);
    const grant = parsed?.kind === 'credential' ? await this.deps.credentials.verify(request.subjectToken) : null;
    if (!grant) {
      // Past the limit take() answers the wait; the next sign-in is refused by exhausted() anyway.
      await this.failures.take(request.clientAddress);
      this.deps.logger.warn('sign-in refused', { reason: parsed?.kind === 'session' ? 'a session token' : 'unknown or revoked token', principalId: parsed?.id, clientAddress: request.clientAddress });
      throw new SignInRefused();
    }
    return this.issue(newApiToken('session'), { kind: 'credential', credentialId: grant.id, principalId: grant.id, principalName: grant.name, issuedBy: issuer.id, ttlSeconds }, { ...grant, ticketIds: null });
  }

  /**
   * Signs an agent in with its email and local password: a session with its role's grant.
   * A wrong email, a wrong password, an agent without a password and a disabled agent are one
   * and the same answer, and take as long (an unknown email is checked against a hash no
   * password matches). Failures are counted per `clientAddress`, as for credentials.
   */
  async signInWithPassword(request: { email: string; password: string; clientAddress: string; ttlSeconds?: number }, issuer: Principal): Promise<IssuedSession> {
    const ttlSeconds = this.ttl(request.ttlSeconds, this.settings.maxTtlSeconds);
    const blocked = await this.failures.exhausted(request.clientAddress);
    if (blocked !== null) throw new TooManyFailedSignIns(blocked);
    const email = normalEmail(request.email);
    const found = email === null ? null : await this.deps.agents.withPassword(email);
    const password = request.password.slice(0, MAX_PASSWORD_LENGTH + 1);
    const matches = await verifyPassword(password, found?.passwordHash ?? UNMATCHABLE_HASH);
    if (!found || !matches || found.passwordHash === null || found.agent.disabled) {
      await this.failures.take(request.clientAddress);
      this.deps.logger.warn('sign-in refused', { reason: 'wrong email or password', agentId: found?.agent.id, clientAddress: request.clientAddress });
      throw new WrongEmailOrPassword();
    }
    const { agent } = found;
    const grant = { id: agent.id, name: agent.displayName, scopes: scopesOfRole(agent.role), accountIds: null, trackingClientIds: null, ticketIds: null };
    return this.issue(newApiToken('session'), { kind: 'agent', agentId: agent.id, principalId: agent.id, principalName: agent.displayName, issuedBy: issuer.id, ttlSeconds }, grant);
  }

  /**
   * A launch link's session: reading and answering one ticket (ticketing checks which). When the
   * link names the agent (the CRM's external id, else its email), the session acts as that agent
   * (its id and name on the timeline); an agent the CRM names for the first time is created with
   * the role `agent` and no password: the CRM vouches for the person, and can grant no more.
   */
  async launch(request: { ticketId: string; linkId?: string; ttlSeconds?: number; agent?: LaunchAgent }, issuer: Principal): Promise<IssuedSession> {
    const ttlSeconds = this.ttl(request.ttlSeconds, DEFAULT_LAUNCH_TTL_SECONDS);
    const made = newApiToken('session');
    const agent = request.agent ? await this.launchAgent(request.agent) : null;
    const grant = { ...launchGrant(made.id, request.ticketId), ...(agent ? { id: agent.id, name: agent.displayName } : {}) };
    const session = {
      kind: 'launch' as const,
      scopes: grant.scopes,
      ticketIds: [request.ticketId],
      linkId: request.linkId ?? null,
      agentId: agent?.id ?? null,
      principalId: grant.id,
      principalName: grant.name,
      issuedBy: issuer.id,
      ttlSeconds,
    };
    return this.issue(made, session, grant);
  }

  private async launchAgent(named: LaunchAgent) {
    const email = named.email === undefined ? null : normalEmail(named.email);
    if (named.email !== undefined && email === null) throw new LaunchAgentRefused(`launch.agent.email is not an email address`);
    const externalId = named.externalId?.trim() || null;
    if (externalId === null && email === null) throw new LaunchAgentRefused('launch.agent needs an externalId or an email');
    const known = await this.deps.agents.named({ externalId, email });
    if (known) {
      if (known.disabled) throw new LaunchAgentRefused('this agent is disabled in the console');
      return known;
    }
    if (email === null) throw new LaunchAgentRefused('an agent the console does not know yet needs an email in launch.agent');
    const created = await this.deps.agents.create({ email, displayName: named.displayName?.trim() || email, role: 'agent', teams: [], passwordHash: null, externalId });
    this.deps.logger.info('agent created from a launch link', { agentId: created.id });
    return created;
  }

  /** Ends a session at once and announces it (`auth.credential.revoked.v1 {id}` on access.events, through the outbox); false when it had ended or expired. */
  async end(sessionId: string): Promise<boolean> {
    const ended = await this.deps.events.storeAndAnnounce(async (client) => {
      const done = await this.deps.store.end(client, sessionId);
      if (done) await this.deps.events.credentialRevoked(client, { id: sessionId });
      return done;
    });
    if (ended) this.deps.logger.info('session ended', { sessionId });
    return ended;
  }

  /**
   * The grant of an API token, credential or session; null when it is malformed, unknown,
   * revoked, ended or expired, when its credential is revoked, or when its bootstrap token
   * is no longer in CRM_API_TOKENS. What auth.rpc and auth's own /v1 answer with.
   */
  async verify(token: string): Promise<CredentialGrant | null> {
    const parsed = parseApiToken(token);
    if (parsed?.kind === 'credential') return this.deps.credentials.verify(token);
    if (parsed?.kind !== 'session') return null;
    const session = await this.deps.store.findLive(parsed.id, parsed.secret);
    return session ? this.grantOf(session) : null;
  }

  /** Deletes the sessions that ended or expired more than a day ago. */
  async purgeOld(): Promise<number> {
    const purged = await this.deps.store.purge(SESSION_RETENTION_SECONDS);
    if (purged > 0) this.deps.logger.info('old sessions purged', { purged });
    return purged;
  }

  private grantOf(session: LiveSession): CredentialGrant | null {
    const sessionId = session.id;
    switch (session.kind) {
      case 'credential': {
        const credential = session.credential!;
        if (credential.revoked) return null;
        const { name, scopes, accountIds, trackingClientIds } = credential;
        return { id: session.principalId, name, scopes, accountIds, trackingClientIds, ticketIds: null, sessionId };
      }
      case 'bootstrap':
        // The token was taken out of CRM_API_TOKENS: its sessions end with it.
        if (!this.bootstrapHashes.includes(session.bootstrapSha256!)) return null;
        return { id: session.principalId, name: session.principalName, scopes: session.scopes!, accountIds: null, trackingClientIds: null, ticketIds: null, sessionId };
      case 'launch':
        if (session.agent?.disabled) return null;
        return { id: session.principalId, name: session.agent?.name ?? session.principalName, scopes: session.scopes!, accountIds: null, trackingClientIds: null, ticketIds: session.ticketIds, sessionId };
      case 'agent': {
        // The agent's current row: a disabled agent's sessions end, a changed role applies at once.
        const agent = session.agent;
        if (!agent || agent.disabled) return null;
        return { id: session.principalId, name: agent.name, scopes: scopesOfRole(agent.role), accountIds: null, trackingClientIds: null, ticketIds: null, sessionId };
      }
    }
  }

  private ttl(requested: number | undefined, defaultSeconds: number): number {
    const ttl = sessionTtl(requested, defaultSeconds, this.settings.maxTtlSeconds);
    if (ttl === null) throw new InvalidSessionTtl(this.settings.maxTtlSeconds);
    return ttl;
  }

  private async issue({ id, secret, token }: NewApiToken, session: NewSession, grant: Omit<CredentialGrant, 'sessionId'>): Promise<IssuedSession> {
    const stored = await this.deps.store.create(session, id, secret);
    if (!stored) throw new LaunchLinkUsed();
    const { expiresAt } = stored;
    this.deps.logger.info('session issued', { sessionId: id, kind: session.kind, principalId: session.principalId, issuedBy: session.issuedBy });
    return { token, expiresAt: expiresAt.toISOString(), grant: { ...grant, sessionId: id } };
  }
}
