import { createHash } from 'node:crypto';
import { validateActionInput, type CommandError, type CommandOutcome, type SocialAction, type SocialCommandResultPayload } from '@crm/contracts';
import type { Logger } from '@crm/logging';
import type { AccountStore } from '../adapters/accounts';
import type { HeldCommand } from '../adapters/app-credit';
import type { CommandRecord, CommandStore } from '../adapters/commands';
import type { AuthEvents } from '../adapters/events';
import type { PlatformAnswer, PlatformClient, Signer } from '../adapters/platform/client';
import { ACTIONS, actionRoute, platformIdOf, routeOf, userIdFromLookup, userLookup, userToLookUp, withUserId, type ActionDefinition, type ApiVersion } from '../domain/actions';
import { CreditsDepleted, NoAnswer, PlatformFailed, PlatformNotReached, PlatformRejected, RateLimited, UsageCapped } from '../domain/platform-errors';
import { gateKeyOf, type AppRefusal, type AppRefusalGate, type RateLimitGate } from '../domain/rate-limits';
import type { AccountService } from './accounts';
import { meterAction, meterLookup } from '../domain/usage';
import { CommandHeld, type AppCredit, type HeldSend } from './credit';
import type { TokenRefresher } from './token-refresh';
import type { UsageMeter } from './usage';

/** One action to carry out for an account. */
export interface ActionCall {
  /** The idempotency key; null for an HTTP read, which is not recorded. */
  commandId: string | null;
  source: 'broker' | 'http';
  action: SocialAction;
  accountId: string;
  input: Record<string, unknown>;
  context?: Record<string, string>;
}

export type ActionResult = SocialCommandResultPayload & { /** True when an earlier run's stored result is given again. */ replayed: boolean };

/** The input does not fit the action; nothing was recorded or sent. */
export class InvalidInput extends Error {
  override name = 'InvalidInput';
  constructor(readonly problems: string[]) {
    super(`invalid input: ${problems.join('; ')}`);
  }
}

/** The command id was used before for another action, account or input. */
export class CommandConflict extends Error {
  override name = 'CommandConflict';
}

/** Another worker is sending this command right now. */
export class CommandBusy extends Error {
  override name = 'CommandBusy';
}

/** Nothing happened that cannot happen again: try later (after `retryAfterSeconds` when known). */
export class TryLater extends Error {
  override name = 'TryLater';
  constructor(
    readonly reason: RateLimited | PlatformNotReached | PlatformFailed | NoAnswer,
    readonly retryAfterSeconds: number | null,
  ) {
    super(reason.message);
  }
}

/** How a failed call is handled: whether it wrote, its rate-limit gate, how to release its claim, and whether it is the last chance. */
interface FailureHandling {
  writes: boolean;
  gateKey: string;
  release: () => Promise<void>;
  final: boolean;
}

const TERMINAL = new Set(['succeeded', 'failed', 'unknown']);

/** An OAuth 2.0 access token this close to its expiry is refreshed before the call rather than sent to be refused. */
const EXPIRY_SKEW_MS = 30_000;

const digest = (action: string, accountId: string, input: unknown) => createHash('sha256').update(JSON.stringify([action, accountId, input])).digest('hex');

const error = (code: CommandError['code'], message: string, platform: { code?: number | null; status?: number | null } = {}): CommandError => ({
  code,
  message,
  platformCode: platform.code ?? null,
  platformStatus: platform.status ?? null,
});

/**
 * Carries out actions for accounts, recording each command before calling out: a command
 * id is sent at most once, a send that may or may not have happened is reported as
 * `unknown` and never repeated, and the platform's errors become results or `TryLater`.
 */
export class ActionExecutor {
  constructor(
    private readonly deps: {
      accounts: AccountStore;
      accountService: AccountService;
      commands: CommandStore;
      /** A broker command's result is announced on `social.command-results`, enqueued as its record is finished. */
      events: AuthEvents;
      platform: PlatformClient;
      /** Refreshes an OAuth 2.0 account's access token when a call finds it expired or refused. */
      refresher: TokenRefresher;
      gate: RateLimitGate;
      /** The platform's monthly usage cap used up: commands fail at once until it resets. */
      refusals: AppRefusalGate;
      /** How long a usage cap without a reset time holds before a call finds out again. */
      refusalHoldMs: number;
      /** The app's credit: broker commands are held while it is spent, reads refused. */
      credit: AppCredit;
      logger: Logger;
      /** How long a `sending` record may stand before its sender is taken for dead. */
      leaseMs: number;
      /** Prices each successful call and holds the accounts' budgets. */
      meter: UsageMeter;
    },
  ) {}

  /**
   * Runs `call`. `final` says whether this is the last chance: then what could be tried
   * again later (rate limit, platform unreachable) becomes a failed result instead of TryLater.
   * While the app is out of credit (or commands are still held), a broker command is held
   * (CommandHeld) and anything else refused (OutOfCredit); `fromHold` sends a held one.
   */
  async execute(call: ActionCall, { final, fromHold = false }: { final: boolean; fromHold?: boolean }): Promise<ActionResult> {
    const problems = validateActionInput(call.action, call.input);
    if (problems.length > 0) throw new InvalidInput(problems);
    const definition = ACTIONS[call.action];

    const recorded = await this.recordCommand(call, definition.kind);
    if ('result' in recorded) return recorded.result;
    const { record } = recorded;
    if (!fromHold) await this.holdOrRefuse(call);

    const found = await this.deps.accounts.credentials(call.accountId);
    // The same route for every account; an OAuth 2.0 account cannot take a v1.1 one.
    // Then a call stopped before it is made: the platform refuses the app, or the account's budget is spent.
    const refused = (await this.refusal(call, found, definition.api)) ?? (found ? await this.stopped(call) : null);
    if (refused || !found) return refused!;

    // OAuth 2.0: an access token that has expired (the periodic refresh was late or off) is refreshed first.
    let bearer = found.protocol === 'oauth2' ? found.accessToken : null;
    let refreshed = false;
    if (found.protocol === 'oauth2' && found.expiresAt.getTime() <= Date.now() + EXPIRY_SKEW_MS) {
      const renewed = await this.renew(call, found.accessToken, final, async () => undefined);
      if (typeof renewed !== 'string') return renewed;
      [bearer, refreshed] = [renewed, true];
    }
    const signer = (): Signer => (bearer !== null ? { kind: 'oauth2-user', accessToken: bearer } : { kind: 'user', token: (found as Extract<typeof found, { protocol: 'oauth1' }>).token });

    // The platform limits each route per account, whichever action calls it.
    const gateKey = gateKeyOf(call.accountId, actionRoute(definition, call.input, call.accountId));
    const blockedUntil = this.deps.gate.blockedUntil(gateKey);
    if (blockedUntil) return this.later(call, new RateLimited(blockedUntil), final);

    // A v2 route that names users by id, given a screen name: look the id up first. That is a
    // read, made before the command is claimed for sending, so whatever it meets leaves the
    // write unsent and free to run again.
    let input = call.input;
    const screenName = userToLookUp(definition, input);
    if (screenName !== null) {
      const lookupGateKey = gateKeyOf(call.accountId, routeOf(userLookup(screenName)));
      const lookupBlockedUntil = this.deps.gate.blockedUntil(lookupGateKey);
      if (lookupBlockedUntil) return this.later(call, new RateLimited(lookupBlockedUntil), final);
      try {
        const lookedUp = await this.deps.platform.call(userLookup(screenName), signer());
        await this.deps.meter.charge(call.accountId, meterLookup(lookedUp.data));
        input = withUserId(input, userIdFromLookup(lookedUp.data, screenName));
      } catch (failure) {
        return this.failed(call, failure, { writes: false, gateKey: lookupGateKey, release: () => Promise.resolve(), final });
      }
    }

    if (record && !(await this.deps.commands.claim(record.commandId, this.deps.leaseMs, definition.kind === 'read'))) {
      throw new CommandBusy(`command ${record.commandId} is being sent by another worker`);
    }
    const release = () => (record ? this.deps.commands.release(record.commandId) : Promise.resolve());
    const how = { writes: definition.kind === 'write', gateKey, release, final };
    const request = definition.request(input, call.accountId);

    let answer: PlatformAnswer;
    try {
      answer = await this.deps.platform.call(request, signer());
    } catch (failure) {
      // An OAuth 2.0 token refused (401 code 89: nothing was done) is refreshed once and the call made again.
      if (bearer === null || refreshed || !(failure instanceof PlatformRejected && failure.invalidToken)) return this.failed(call, failure, how);
      const renewed = await this.renew(call, bearer, final, release);
      if (typeof renewed !== 'string') return renewed;
      bearer = renewed;
      try {
        answer = await this.deps.platform.call(request, signer());
      } catch (again) {
        return this.failed(call, again, how);
      }
    }
    await this.deps.meter.charge(call.accountId, meterAction(call.action, input, answer.data));
    return this.answered(call, definition, answer, input, how);
  }

  /** The failed result of a call stopped before it is made: the platform refuses the app, or the account's budget is spent. */
  private async stopped(call: ActionCall): Promise<ActionResult | null> {
    const appRefusal = this.deps.refusals.current();
    if (appRefusal) return this.refusedForApp(call, appRefusal);
    const overBudget = await this.deps.meter.refusal(call.accountId, call.action);
    return overBudget ? this.finish(call, 'failed', null, null, error('budget_exhausted', overBudget.message)) : null;
  }

  /** Sends a held command (in order, once credit is back): sent, held again, or to try at the next round. */
  async sendHeld(held: HeldCommand): Promise<HeldSend> {
    try {
      await this.execute({ commandId: held.commandId, source: 'broker', action: held.action, accountId: held.accountId, input: held.input, context: held.context }, { final: false, fromHold: true });
      return 'sent';
    } catch (failure) {
      if (failure instanceof CommandHeld) return 'held';
      if (failure instanceof TryLater || failure instanceof CommandBusy) {
        this.deps.logger.info('a held command must wait; the held commands after it wait with it', { commandId: held.commandId, reason: failure.message });
        return 'later';
      }
      throw failure;
    }
  }

  /** While the app is out of credit: a broker command is held (in order), anything else refused. */
  private async holdOrRefuse(call: ActionCall): Promise<void> {
    const held = this.heldFormOf(call);
    if (!held) return this.deps.credit.refuseIfOut();
    if (await this.deps.credit.holdIfHolding(held)) throw new CommandHeld(`command ${held.commandId} is held until the app has credit on the platform again`);
  }

  /** A broker command as it is held; null for what is not held (an HTTP call, a read without an id). */
  private heldFormOf(call: ActionCall) {
    if (call.source !== 'broker' || !call.commandId) return null;
    return { commandId: call.commandId, action: call.action, accountId: call.accountId, input: call.input, ...(call.context ? { context: call.context } : {}) };
  }

  /**
   * The platform's answer as callers read it (a v2 read's in the v1.1 shape), recorded as done;
   * a v2 answer that is only the platform refusing fails as a refusal would.
   */
  private async answered(call: ActionCall, definition: ActionDefinition, answer: PlatformAnswer, input: Record<string, unknown>, how: FailureHandling): Promise<ActionResult> {
    let data = answer.data;
    if (definition.answer) {
      try {
        data = definition.answer(answer.data, input);
      } catch (failure) {
        return this.failed(call, failure, how);
      }
    }
    return this.done(call, platformIdOf(call.action, data, input), data);
  }

  /**
   * The command recorded before anything is sent (when it has an id): its stored result when it
   * already has one, or an unknown outcome for a write whose earlier send was interrupted.
   */
  private async recordCommand(call: ActionCall, kind: 'read' | 'write'): Promise<{ record: CommandRecord | null } | { result: ActionResult }> {
    if (!call.commandId) return { record: null };
    const inputSha256 = digest(call.action, call.accountId, call.input);
    const record = await this.deps.commands.record({ commandId: call.commandId, source: call.source, action: call.action, accountId: call.accountId, inputSha256 });
    if (record.inputSha256 !== inputSha256) throw new CommandConflict(`command ${call.commandId} was already used for another action, account or input`);
    if (TERMINAL.has(record.state) && record.result) return { result: await this.replay(call, record.result) };
    if (record.state === 'sending') {
      const abandoned = record.sendingSince !== null && record.sendingSince.getTime() < Date.now() - this.deps.leaseMs;
      if (!abandoned) throw new CommandBusy(`command ${call.commandId} is being sent by another worker`);
      if (kind === 'write') {
        return { result: await this.finish(call, 'unknown', null, null, error('outcome_unknown', 'an earlier attempt was interrupted while sending: it may or may not have reached the platform, and is not sent again')) };
      }
    }
    return { record };
  }

  /** The failed result of a call the account cannot make (not connected, to reconnect, or OAuth 2.0 on a v1.1 route); null when it can. */
  private async refusal(call: ActionCall, found: Awaited<ReturnType<AccountStore['credentials']>>, api: ApiVersion): Promise<ActionResult | null> {
    if (!found) {
      const revoked = (await this.deps.accounts.find(call.accountId))?.status === 'revoked';
      const why = revoked ? `account ${call.accountId} revoked the app's access on the platform; connect it again` : `account ${call.accountId} is not connected in auth`;
      return this.finish(call, 'failed', null, null, error('account_not_connected', why));
    }
    if (found.account.status === 'needs_reconnect') {
      return this.finish(call, 'failed', null, null, error('reconnect_needed', `account ${call.accountId} must be connected again: ${found.account.statusReason ?? 'its token was refused'}`));
    }
    if (found.protocol === 'oauth2' && api === 'v1.1') {
      return this.finish(call, 'failed', null, null, error('needs_oauth1', `${call.action} has only a v1.1 route on the platform, which takes OAuth 1.0a only; account ${call.accountId} is connected with OAuth 2.0: connect it with OAuth 1.0a to use this action`));
    }
    return null;
  }

  /**
   * Refreshes the OAuth 2.0 access token a call found expired or refused; the new token, or
   * the call's result when there is none (nothing was sent: a refresh that could not reach
   * the platform is a retry later, a refused one needs a reconnect).
   */
  private async renew(call: ActionCall, staleAccessToken: string, final: boolean, release: () => Promise<void>): Promise<string | ActionResult> {
    let outcome;
    try {
      outcome = await this.deps.refresher.refreshForCall(call.accountId, staleAccessToken);
    } catch (failure) {
      await release();
      if (failure instanceof RateLimited || failure instanceof PlatformNotReached || failure instanceof PlatformFailed || failure instanceof NoAnswer) return this.later(call, failure, final);
      throw failure;
    }
    if (outcome.status === 'refreshed' || outcome.status === 'current') return outcome.accessToken;
    await release();
    if (outcome.status === 'busy') return this.later(call, new PlatformNotReached(`another refresh of account ${call.accountId}'s access token is still running`), final);
    if (outcome.status === 'refused') {
      return this.finish(call, 'failed', null, null, error('reconnect_needed', `account ${call.accountId} must be connected again: the platform refused to refresh its access token (${outcome.reason})`));
    }
    const why = outcome.account ? `account ${call.accountId} must be connected again: ${outcome.account.statusReason ?? outcome.account.status}` : `account ${call.accountId} is not connected in auth`;
    return this.finish(call, 'failed', null, null, error(outcome.account ? 'reconnect_needed' : 'account_not_connected', why));
  }

  /**
   * The platform did it: record so. Failing to store its answer must never make the command
   * look unsent (a retry would send it again): the result is stored without the answer, and
   * if even that fails the command stays `sending`, which a retry takes for an unknown outcome.
   */
  private async done(call: ActionCall, platformId: string | null, data: unknown): Promise<ActionResult> {
    try {
      return await this.finish(call, 'succeeded', platformId, data, null);
    } catch (error) {
      this.deps.logger.error("the action was done but the platform's answer could not be stored; storing the result without it", { action: call.action, commandId: call.commandId, reason: (error as Error).message });
      return this.finish(call, 'succeeded', platformId, null, null);
    }
  }

  /** What a failed platform call becomes: a result, a retry later (TryLater), or the error itself. */
  private async failed(call: ActionCall, failure: unknown, how: FailureHandling): Promise<ActionResult> {
    const { release, final } = how;
    if (failure instanceof RateLimited) {
      this.deps.gate.close(how.gateKey, failure.resetAt);
      await release();
      return this.later(call, failure, final);
    }
    if (failure instanceof CreditsDepleted) {
      // Nothing was done: a broker command waits, held, for credit; a caller waiting on HTTP or RPC is told.
      await release();
      const held = this.heldFormOf(call);
      await this.deps.credit.spent(held);
      if (held) throw new CommandHeld(`command ${held.commandId} is held until the app has credit on the platform again`);
      throw this.deps.credit.refusal();
    }
    if (failure instanceof UsageCapped) {
      // Nothing was done, and retrying will not help before the cap resets.
      await release();
      const refusal: AppRefusal = { reason: 'usage_capped', until: failure.resetAt ?? new Date(Date.now() + this.deps.refusalHoldMs), resetAt: failure.resetAt };
      this.deps.refusals.close(refusal);
      this.deps.logger.warn('the platform refuses the app', { reason: refusal.reason, until: refusal.until.toISOString(), resetAt: refusal.resetAt?.toISOString() ?? null });
      return this.refusedForApp(call, refusal, 429);
    }
    if (failure instanceof PlatformRejected) {
      if (failure.invalidToken) {
        await release(); // refused before anything was done: the command may run once the account is back
        await this.deps.accountService.tokenRefused(call.accountId, failure);
        return this.finish(call, 'failed', null, null, error('reconnect_needed', `the platform refused account ${call.accountId}'s token: ${failure.platformMessage}`, { code: failure.platformCode, status: failure.status }));
      }
      return this.finish(call, 'failed', null, null, error('platform_rejected', failure.platformMessage, { code: failure.platformCode, status: failure.status }));
    }
    if (failure instanceof PlatformNotReached) {
      await release();
      return this.later(call, failure, final);
    }
    if (failure instanceof PlatformFailed || failure instanceof NoAnswer) {
      if (how.writes) {
        const platform = failure instanceof PlatformFailed ? { code: failure.platformCode, status: failure.status } : {};
        return this.finish(call, 'unknown', null, null, error('outcome_unknown', `${failure.message}: the ${call.action} may or may not have happened, and is not sent again`, platform));
      }
      await release();
      return this.later(call, failure, final);
    }
    await release();
    throw failure;
  }

  /**
   * The failed result of a command the platform refuses for the whole app (or would: the gate
   * is closed: `status` null). Never a retry later: a usage cap lasts until the month turns.
   */
  private refusedForApp(call: ActionCall, refusal: AppRefusal, status: number | null = null): Promise<ActionResult> {
    const when = refusal.resetAt ? `; it resets at ${refusal.resetAt.toISOString()}` : '; the platform gave no reset time';
    return this.finish(call, 'failed', null, null, error('usage_capped', `the platform's monthly usage cap for the app is used up${when}: send the ${call.action} again after that, or raise the cap`, { status }));
  }

  /** A command delivered again: its stored result, announced again for a broker command (its sender asked again). */
  private async replay(call: ActionCall, result: SocialCommandResultPayload): Promise<ActionResult> {
    if (call.source === 'broker') await this.deps.events.storeAndAnnounce((client) => this.deps.events.commandResult(client, result));
    return { ...result, replayed: true };
  }

  /** Retry later, or on the last chance give up with a failed result. */
  private async later(call: ActionCall, reason: TryLater['reason'], final: boolean): Promise<ActionResult> {
    const retryAfter = reason instanceof RateLimited ? reason.retryAfterSeconds() : null;
    if (!final) throw new TryLater(reason, retryAfter);
    const code = reason instanceof RateLimited ? 'rate_limited' : 'platform_unavailable';
    return this.finish(call, 'failed', null, null, error(code, `gave up: ${reason.message}`, reason instanceof PlatformFailed ? { code: reason.platformCode, status: reason.status } : {}));
  }

  private async finish(call: ActionCall, outcome: CommandOutcome, platformId: string | null, data: unknown, failure: CommandError | null): Promise<ActionResult> {
    const result: SocialCommandResultPayload = {
      commandId: call.commandId ?? 'http-read',
      action: call.action,
      accountId: call.accountId,
      outcome,
      platformId,
      data: outcome === 'succeeded' ? (data ?? null) : null,
      error: failure,
      ...(call.context ? { context: call.context } : {}),
      completedAt: new Date().toISOString(),
    };
    const { commandId } = call;
    if (commandId) {
      await this.deps.events.storeAndAnnounce(async (client) => {
        await this.deps.commands.finish(commandId, outcome, result, client);
        if (call.source === 'broker') await this.deps.events.commandResult(client, result);
      });
    }
    if (outcome !== 'succeeded') this.deps.logger.info('action did not succeed', { action: call.action, accountId: call.accountId, commandId: call.commandId, outcome, code: failure?.code });
    return { ...result, replayed: false };
  }
}
