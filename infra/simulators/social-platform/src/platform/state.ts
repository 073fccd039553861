import { randomBytes } from 'node:crypto';
import { nextEventId } from '../ids';
import { resolveUser, type UserInput } from '../users';

/** A platform user as the simulator keeps it; unknown ids and screen names come into being on first use. */
export interface UserRecord extends UserInput {
  id: string;
  screenName: string;
  name: string;
  protected: boolean;
  url?: string;
}

export interface Post {
  id: string;
  authorId: string;
  text: string;
  createdAt: number;
  inReplyTo?: { postId: string; userId: string };
  repostOf?: string;
}

export interface DirectMessage {
  id: string;
  senderId: string;
  recipientId: string;
  text: string;
  createdAt: number;
  sourceAppId?: string;
  /** Deleting a DM removes it from the deleting user's view only, as on the platform. */
  hiddenFor: Set<string>;
  /** The uploaded media attached to it (one at most, as on the platform). */
  mediaId?: string;
}

/** Media uploaded through `/2/media/upload`: usable once complete, by its uploader only. */
export interface MediaUpload {
  id: string;
  ownerId: string;
  category: string;
  /** What the bytes are (`image/png`), as sniffed from them once complete, else as declared. */
  mediaType: string | null;
  totalBytes: number | null;
  segments: Map<number, Buffer>;
  bytes: Buffer | null;
  createdAt: number;
}

export interface List {
  id: string;
  ownerId: string;
  name: string;
  mode: 'public' | 'private';
  description: string;
  createdAt: number;
  members: Set<string>;
  subscribers: Set<string>;
}

export interface Collection {
  id: string;
  ownerId: string;
  name: string;
  description: string;
  timelineOrder: string;
  entries: string[];
}

export interface Settings {
  lang: string;
  timeZone: string;
  sleepTimeEnabled: boolean;
  startSleepTime: number | null;
  endSleepTime: number | null;
}

export interface RequestToken {
  secret: string;
  callback: string;
  createdAt: number;
  /** Set when a user approved on the authorize page. */
  approved?: { userId: string; verifier: string };
}

export interface AccessToken {
  secret: string;
  userId: string;
}

/** An OAuth 2.0 authorization code waiting for its exchange (PKCE). */
export interface AuthorizationCode {
  userId: string;
  redirectUri: string;
  challenge: string;
  method: 'S256' | 'plain';
  scopes: string[];
  createdAt: number;
}

/** An OAuth 2.0 user token: a bearer access token that expires, or a refresh token used once. */
export interface OAuth2Token {
  userId: string;
  scopes: string[];
  expiresAt: number;
}

/** A fault a test asked for: the next `times` matching requests answer this error, or answer late. */
export interface Fault {
  method?: string;
  path: string;
  times: number;
  status?: number;
  code?: number;
  message?: string;
  /** For 429: seconds until `x-rate-limit-reset`. */
  resetInSeconds?: number;
  /** The request is carried out, but answered this much later. */
  delayMs?: number;
}

const token = (bytes: number) => randomBytes(bytes).toString('base64url');

/** Everything the simulated platform knows, in memory. */
export class PlatformState {
  readonly users = new Map<string, UserRecord>();
  readonly requestTokens = new Map<string, RequestToken>();
  readonly accessTokens = new Map<string, AccessToken>();
  readonly bearerTokens = new Set<string>();
  /** The app refused as a whole on every API route (its usage cap used up, or its credits), until a test lifts it. */
  appRefusal: { kind: 'usage-capped' | 'credits-depleted'; resetAt: number | null } | null = null;
  readonly authorizationCodes = new Map<string, AuthorizationCode>();
  readonly oauth2AccessTokens = new Map<string, OAuth2Token>();
  readonly oauth2RefreshTokens = new Map<string, OAuth2Token>();
  /** Account Activity subscriptions: the ids of the users subscribed on each v2 webhook (by its id; the webhooks themselves are the XAA hub's, shared). */
  readonly subscriptions = new Map<string, Set<string>>();
  readonly posts = new Map<string, Post>();
  readonly directMessages = new Map<string, DirectMessage>();
  readonly media = new Map<string, MediaUpload>();
  readonly lists = new Map<string, List>();
  readonly collections = new Map<string, Collection>();
  readonly settings = new Map<string, Settings>();
  readonly following = new Map<string, Set<string>>();
  readonly muting = new Map<string, Set<string>>();
  readonly blocking = new Map<string, Set<string>>();
  readonly likes = new Map<string, Set<string>>();
  readonly faults: Fault[] = [];

  /** The user named by id or screen name ('@ana', '1001', {id}, {screenName}), made up stably when not seen before. */
  user(ref: string | { id?: string; screenName?: string }): UserRecord {
    const resolved = resolveUser(typeof ref === 'string' ? ref : { id: ref.id, screenName: ref.screenName?.replace(/^@/, '') });
    const byId = this.users.get(resolved.id);
    if (byId) return byId;
    const idGiven = typeof ref === 'string' ? /^[0-9]+$/.test(ref.trim()) : ref.id !== undefined;
    if (!idGiven) {
      const name = resolved.screenName.toLowerCase();
      const byName = [...this.users.values()].find((u) => u.screenName.toLowerCase() === name);
      if (byName) return byName;
    }
    const record: UserRecord = { ...resolved, protected: resolved.protected ?? false };
    this.users.set(record.id, record);
    return record;
  }

  /** Adds or changes a user (control API: protected accounts, names). */
  upsertUser(input: UserInput): UserRecord {
    const record = this.user({ id: input.id, screenName: input.screenName });
    Object.assign(record, Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)));
    return record;
  }

  issueRequestToken(callback: string): { token: string; secret: string } {
    const issued = { token: token(24), secret: token(32) };
    this.requestTokens.set(issued.token, { secret: issued.secret, callback, createdAt: Date.now() });
    return issued;
  }

  issueAccessToken(userId: string): { token: string; secret: string } {
    const issued = { token: `${userId}-${token(30)}`, secret: token(33) };
    this.accessTokens.set(issued.token, { secret: issued.secret, userId });
    return issued;
  }

  issueBearerToken(): string {
    const bearer = `AAAA${token(60)}`;
    this.bearerTokens.add(bearer);
    return bearer;
  }

  /** Revokes every access token of a user, OAuth 1.0a and 2.0 (the user removed the app). */
  revokeAccessTokens(userId: string): number {
    let revoked = 0;
    for (const tokens of [this.accessTokens, this.oauth2AccessTokens, this.oauth2RefreshTokens] as Map<string, { userId: string }>[]) {
      for (const [key, value] of tokens) {
        if (value.userId === userId) {
          tokens.delete(key);
          revoked += 1;
        }
      }
    }
    return revoked;
  }

  /** A fresh OAuth 2.0 access token (and a refresh token with offline.access), as the token endpoint answers them. */
  issueOAuth2Tokens(userId: string, scopes: string[], ttlSeconds: number): { access_token: string; refresh_token?: string; expires_in: number; scope: string; token_type: 'bearer' } {
    const access = token(48);
    this.oauth2AccessTokens.set(access, { userId, scopes, expiresAt: Date.now() + ttlSeconds * 1000 });
    const refresh = scopes.includes('offline.access') ? token(48) : undefined;
    if (refresh) this.oauth2RefreshTokens.set(refresh, { userId, scopes, expiresAt: Number.POSITIVE_INFINITY });
    return { token_type: 'bearer', expires_in: ttlSeconds, access_token: access, scope: scopes.join(' '), ...(refresh ? { refresh_token: refresh } : {}) };
  }

  setOf(map: Map<string, Set<string>>, key: string): Set<string> {
    let set = map.get(key);
    if (!set) {
      set = new Set();
      map.set(key, set);
    }
    return set;
  }

  settingsOf(userId: string): Settings {
    let settings = this.settings.get(userId);
    if (!settings) {
      settings = { lang: 'en', timeZone: 'UTC', sleepTimeEnabled: false, startSleepTime: null, endSleepTime: null };
      this.settings.set(userId, settings);
    }
    return settings;
  }

  addPost(post: Omit<Post, 'id' | 'createdAt'>): Post {
    const createdAt = Date.now();
    const stored: Post = { ...post, id: nextEventId(createdAt), createdAt };
    this.posts.set(stored.id, stored);
    return stored;
  }

  /** May `viewerId` see the posts of `authorId`? Protected accounts show only to themselves and their followers. */
  canSee(viewerId: string, authorId: string): boolean {
    const author = this.users.get(authorId);
    return !author?.protected || viewerId === authorId || this.setOf(this.following, viewerId).has(authorId);
  }

  /** Takes the first fault that matches the request, counting it down. */
  takeFault(method: string, path: string): Fault | undefined {
    const index = this.faults.findIndex((f) => f.path === path && (!f.method || f.method.toUpperCase() === method.toUpperCase()));
    if (index < 0) return undefined;
    const fault = this.faults[index]!;
    fault.times -= 1;
    if (fault.times <= 0) this.faults.splice(index, 1);
    return fault;
  }
}
