import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { Agent, buildConnector, fetch } from 'undici';
import { isAllowedAddress, parseAddress, type AddressRange } from '../domain/webhook-addresses';

/**
 * `reason` is what the delivery record (and so the API) shows; `detail` is for the operator's
 * log only: which address was refused, the DNS or socket error.
 */
export type SendOutcome = { ok: true } | { ok: false; reason: string; detail: string };

/**
 * What every failure to reach an endpoint records, whatever the cause: a refused address, a
 * failed lookup, a refused or reset connection, a timeout and a TLS failure must look the same
 * from the API, or the endpoint list becomes a scanner of the deployment's network.
 */
export const UNREACHABLE = 'delivery failed: the endpoint could not be reached';

/** A connection the address policy refused (the operator's log names the address; the API does not). */
export class RefusedAddress extends Error {
  override name = 'RefusedAddress';
  readonly code = 'EADDRREFUSED_BY_POLICY';
  constructor(host: string, addresses: string[]) {
    super(`webhook address policy refused ${host}${addresses.length && addresses.join() !== host ? ` (${addresses.join(', ')})` : ''}: not a public address and not in WEBHOOK_ALLOWED_CIDRS`);
  }
}

const allowedBy = (allowed: readonly AddressRange[]) => (address: string) => {
  const parsed = parseAddress(address);
  return parsed !== null && isAllowedAddress(parsed, allowed);
};

/**
 * A lookup for the sockets webhooks open: resolves every address of the host, keeps only the
 * allowed ones, and fails when none is. The socket connects to what this answers, so a name
 * that resolves to an internal address at send time (DNS rebinding) is refused too.
 */
export function guardedLookup(allowed: readonly AddressRange[]): LookupFunction {
  const isAllowed = allowedBy(allowed);
  return (hostname, options, callback) => {
    dnsLookup(hostname, { family: options.family, hints: options.hints, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      const usable = addresses.filter((entry) => isAllowed(entry.address));
      if (usable.length === 0) return callback(new RefusedAddress(hostname, addresses.map((entry) => entry.address)), '', 0);
      if (options.all) return (callback as unknown as (error: null, addresses: LookupAddress[]) => void)(null, usable);
      callback(null, usable[0]!.address, usable[0]!.family);
    });
  };
}

/**
 * undici's connector with the address policy: a host that is an address (no lookup happens for
 * it) is checked here, a name by the guarded lookup, so every connection is checked on the
 * address it goes to.
 */
function guardedConnector(allowed: readonly AddressRange[], timeoutMs: number): buildConnector.connector {
  const isAllowed = allowedBy(allowed);
  const connect = buildConnector({ lookup: guardedLookup(allowed), timeout: timeoutMs });
  return (options, callback) => {
    const host = options.hostname.replace(/^\[(.*)\]$/, '$1');
    if (parseAddress(host) && !isAllowed(host)) {
      callback(new RefusedAddress(host, []), null);
      return;
    }
    connect(options, callback);
  };
}

export interface WebhookSenderOptions {
  /** Ranges the operator allows besides public addresses (WEBHOOK_ALLOWED_CIDRS). */
  allowed: readonly AddressRange[];
  timeoutMs: number;
}

/**
 * POSTs events to CRM endpoints, signed the Standard Webhooks way (`webhook-id` = the event's
 * id, `webhook-timestamp`, `webhook-signature` = v1,HMAC-SHA256 of `<id>.<timestamp>.<body>`),
 * only to addresses the policy allows. Any 2xx is delivered; redirects are not followed.
 */
export class WebhookSender {
  private readonly agent: Agent;

  constructor(private readonly options: WebhookSenderOptions) {
    this.agent = new Agent({ connect: guardedConnector(options.allowed, options.timeoutMs) });
  }

  async send(target: { url: string; secret: string }, eventId: string, body: string): Promise<SendOutcome> {
    const now = new Date();
    const headers = {
      'content-type': 'application/json',
      'user-agent': 'crm-ticketing-webhooks/1',
      'webhook-id': eventId,
      'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
      'webhook-signature': new Webhook(target.secret).sign(eventId, now, body),
    };
    try {
      const response = await fetch(target.url, { method: 'POST', headers, body, redirect: 'manual', dispatcher: this.agent, signal: AbortSignal.timeout(this.options.timeoutMs) });
      await response.arrayBuffer().catch(() => undefined);
      if (response.ok) return { ok: true };
      // An answer came from an address the policy allows: its status helps the CRM's admin and tells nothing of the network.
      return { ok: false, reason: `the endpoint answered ${response.status}`, detail: `HTTP ${response.status}` };
    } catch (error) {
      return { ok: false, reason: UNREACHABLE, detail: describe(error) };
    }
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}

/** The cause of a failed fetch, for the operator's log (undici wraps it in `fetch failed`). */
function describe(error: unknown): string {
  const parts: string[] = [];
  // not `instanceof Error`: socket errors may come from another realm (a test's VM context)
  for (let current = error as Partial<NodeJS.ErrnoException> | undefined; typeof current?.message === 'string' && parts.length < 4; current = current.cause as typeof current) {
    parts.push(current.code ? `${current.message} [${current.code}]` : current.message);
  }
  return parts.join(': ') || String(error);
}
