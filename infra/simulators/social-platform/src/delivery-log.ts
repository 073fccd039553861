export type Signing = 'valid' | 'wrong' | 'none';

/** One delivery the simulator sent, as the control API lists it. */
export interface SentDelivery {
  sentAt: string;
  webhookUrl: string;
  kind: string | null;
  forUserId: string | null;
  eventIds: string[];
  signing: Signing;
  /** The webhook's HTTP status; null when it did not answer. */
  webhookStatus: number | null;
  error?: string;
  delivery: unknown;
}

/** What was sent, most recent first; bounded, since a long local session would otherwise grow it forever. */
export class DeliveryLog {
  private readonly entries: SentDelivery[] = [];

  constructor(private readonly capacity = 200) {}

  add(entry: SentDelivery): void {
    this.entries.unshift(entry);
    if (this.entries.length > this.capacity) this.entries.length = this.capacity;
  }

  list(): SentDelivery[] {
    return [...this.entries];
  }
}
