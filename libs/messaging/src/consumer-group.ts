import type { ReplicaPresence } from './presence';
import type { QueueConsumer } from './queue-consumer';

/**
 * Consumers of several queues that are one stream of work, e.g. the partitions of one flow:
 * ready, stopped, watched and counted together.
 */
export class ConsumerGroup {
  constructor(
    readonly members: QueueConsumer[],
    /** Who else consumes the same queues (for balance()). */
    private readonly presence?: ReplicaPresence,
  ) {}

  /** Members that are no partition (not shared by balance()): e.g. a queue being drained. */
  private readonly others: QueueConsumer[] = [];

  /** Adds a consumer that is ready, stopped, watched and counted with the group, and not balanced. */
  add(other: QueueConsumer): void {
    this.others.push(other);
  }

  private get all(): QueueConsumer[] {
    return [...this.members, ...this.others];
  }

  /** Resolves once every member is registered with the broker. */
  async ready(timeoutMs?: number): Promise<void> {
    await Promise.all(this.all.map((member) => member.ready(timeoutMs)));
  }

  /** Stops every member; each lets the messages it holds finish (up to `timeoutMs`). */
  async stop(timeoutMs?: number): Promise<void> {
    await Promise.all(this.all.map((member) => member.stop(timeoutMs)));
    await this.presence?.close();
  }

  get inFlightCount(): number {
    return this.all.reduce((sum, member) => sum + member.inFlightCount, 0);
  }

  /**
   * Shares the queues with the other processes consuming them, when each has a single active
   * consumer (the first to come holds it): while this process was active on more than its
   * share of the queues (those that delivered since the last call), it yields the excess, and
   * a waiting process takes them over. Run on an interval by every process.
   */
  async balance(): Promise<number> {
    const active = this.members.filter((member) => member.takeDeliveredCount() > 0);
    if (!this.presence || active.length === 0) return 0;
    const processes = await this.presence.count();
    const share = Math.ceil(this.members.length / Math.max(processes, 1));
    const excess = active.slice(share);
    for (const member of excess) await member.yieldToPeers();
    return excess.length;
  }

  /** QueueConsumer.onSettled on every member; returns the function that removes the listener from all. */
  onSettled(listener: (messageId: string | undefined) => void): () => void {
    const removers = this.all.map((member) => member.onSettled(listener));
    return () => {
      for (const remove of removers) remove();
    };
  }
}
