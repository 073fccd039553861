import type { Logger } from '@crm/logging';
import type { AppCreditStore, CommandToHold, CreditState, HeldCommand } from '../adapters/app-credit';
import type { AuthEvents } from '../adapters/events';
import type { PlatformClient } from '../adapters/platform/client';
import { CreditsDepleted, OutOfCredit } from '../domain/platform-errors';

/** The command was held (the app is out of credit, or commands before it still are): it is sent once credit is back. */
export class CommandHeld extends Error {
  override name = 'CommandHeld';
}

/** What sending a held command came to: sent (a result is stored), held again (still no credit), or not yet (try at the next round). */
export type HeldSend = 'sent' | 'held' | 'later';

/** A cheap read of the app's own (its webhooks, with its bearer token): what the probe asks to learn whether credit is back. */
const PROBE = { method: 'GET', path: '/2/webhooks' } as const;

/**
 * The app's credit on the platform, as auth's own state: a 402 credits-depleted marks the app
 * out of credit (in the database, announced once per episode) and holds broker commands in
 * the order they come; reads are refused meanwhile. A probe (periodic, or an admin's check)
 * asks the platform whether credit is back; when it is, the end is announced and the held
 * commands are sent in order, one process at a time.
 */
export class AppCredit {
  private draining: Promise<void> | null = null;

  constructor(
    private readonly deps: {
      store: AppCreditStore;
      events: AuthEvents;
      platform: Pick<PlatformClient, 'call'>;
      logger: Logger;
      envName: string;
      /** What a refused read is told to wait: about until the next probe. */
      retryAfterSeconds: number;
      /** Sends a held command (the executor, skipping the hold). */
      send: (command: HeldCommand) => Promise<HeldSend>;
    },
  ) {}

  status(): Promise<CreditState> {
    return this.deps.store.state();
  }

  /** A read (or an HTTP write, which has a caller waiting) is refused while the app is out of credit. */
  async refuseIfOut(): Promise<void> {
    if ((await this.deps.store.state()).outOfCredit) throw this.refusal();
  }

  /** What a caller is told while the app is out of credit. */
  refusal(): OutOfCredit {
    return new OutOfCredit(this.deps.retryAfterSeconds);
  }

  /**
   * Holds a broker command when the app is out of credit or commands before it are still held;
   * false when it may be sent. Held behind others while in credit, it starts their sending.
   */
  async holdIfHolding(command: CommandToHold): Promise<boolean> {
    const { held, outOfCredit } = await this.deps.store.holdIfHolding(command);
    if (held && !outOfCredit) {
      this.drain().catch((error: unknown) => this.deps.logger.warn('sending the held commands failed; the next probe round tries again', { reason: (error as Error).message }));
    }
    return held;
  }

  /** The platform answered 402 credits-depleted: the app is out of credit (announced if this begins an episode), and `command` is held. */
  async spent(command: CommandToHold | null): Promise<void> {
    const began = await this.deps.events.storeAndAnnounce(async (client) => {
      const since = await this.deps.store.markOut(client);
      if (since) await this.deps.events.appOutOfCredit(client, { envName: this.deps.envName, since: since.toISOString(), message: new CreditsDepleted().message });
      if (command) await this.deps.store.hold(client, command);
      return since;
    });
    if (began) this.deps.logger.warn('the app is out of credit on the platform: commands are held until credit is back', { since: began.toISOString() });
  }

  /**
   * Asks the platform whether credit is back when the app is out of credit, and sends what is
   * held when it is (or when commands are still held from before). The state afterwards.
   */
  async check(): Promise<CreditState> {
    const state = await this.deps.store.state();
    if (state.outOfCredit && !(await this.probe())) return this.deps.store.state();
    if (state.heldCommands > 0 || state.outOfCredit) await this.drain();
    return this.deps.store.state();
  }

  /** True when the platform answers the app again (then the episode's end is announced). */
  private async probe(): Promise<boolean> {
    try {
      await this.deps.platform.call(PROBE, { kind: 'app' });
    } catch (failure) {
      if (!(failure instanceof CreditsDepleted)) this.deps.logger.warn('the credit probe failed', { reason: (failure as Error).message });
      return false;
    }
    const restored = await this.deps.events.storeAndAnnounce(async (client) => {
      const since = await this.deps.store.markRestored(client);
      if (!since) return null;
      const { heldCommands } = await this.deps.store.state();
      await this.deps.events.appCreditRestored(client, { envName: this.deps.envName, since: since.toISOString(), restoredAt: new Date().toISOString(), heldCommands });
      return { since, heldCommands };
    });
    if (restored) this.deps.logger.info('the app has credit on the platform again: sending the held commands', { since: restored.since.toISOString(), heldCommands: restored.heldCommands });
    return true;
  }

  /** Sends the held commands in order, one process at a time; stops at one that is held again or must wait. */
  private drain(): Promise<void> {
    this.draining ??= this.deps.store
      .exclusively(async () => {
        for (let held = await this.deps.store.first(); held; held = await this.deps.store.first()) {
          const sent = await this.deps.send(held);
          if (sent !== 'sent') return;
          await this.deps.store.release(held.seq);
        }
      })
      .then(() => undefined)
      .finally(() => {
        this.draining = null;
      });
    return this.draining;
  }
}
