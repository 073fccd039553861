/** What a chaos run concludes from what it sent and what ticketing recorded: no I/O here. */

/** A fault as applied: from its start until what it broke was whole again (restarted, thawed, reconnected). */
export interface FaultWindow {
  name: string;
  startedAt: number;
  endedAt: number;
}

/** One accepted delivery: when webhook-ingest first answered 200, and when ticketing's transaction that recorded it committed. */
export interface Timed {
  acceptedAt: number;
  committedAt: number;
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export const duringAFault = (at: number, faults: FaultWindow[]) => faults.some((fault) => at >= fault.startedAt && at <= fault.endedAt);

/** p50 and p99 from webhook 200 to commit, for deliveries accepted during a fault and outside every fault. */
export function commitLatency(timed: Timed[], faults: FaultWindow[]) {
  const during: number[] = [];
  const outside: number[] = [];
  for (const { acceptedAt, committedAt } of timed) (duringAFault(acceptedAt, faults) ? during : outside).push(Math.max(0, committedAt - acceptedAt));
  const figures = (values: number[]) => ({ count: values.length, p50: percentile(values, 50), p99: percentile(values, 99) });
  return { during: figures(during), outside: figures(outside) };
}

/** One recorded message of a conversation: its place in the sender's order, and when its recording transaction committed. */
export interface Recorded {
  conversation: string;
  /** The sender sent message n + 1 only once message n was accepted. */
  position: number;
  /** When its recording transaction committed. */
  recordedAt: number;
}

/** Messages committed before the message their sender sent before them: their conversation's order was not kept. */
export function outOfOrder(recorded: Recorded[]): number {
  const byConversation = new Map<string, Recorded[]>();
  for (const row of recorded) {
    const list = byConversation.get(row.conversation) ?? [];
    list.push(row);
    byConversation.set(row.conversation, list);
  }
  let broken = 0;
  for (const rows of byConversation.values()) {
    rows.sort((a, b) => a.position - b.position);
    for (let i = 1; i < rows.length; i += 1) if (rows[i]!.recordedAt < rows[i - 1]!.recordedAt) broken += 1;
  }
  return broken;
}

export interface Outcome {
  accepted: number;
  recorded: number;
  lost: number;
  doubled: number;
  outOfOrder: number;
  faults: number;
}

/** The run's last line, the same for the single-node and the cluster run. */
export const closingLine = (outcome: Outcome) =>
  `chaos: accepted ${outcome.accepted}, recorded ${outcome.recorded}, lost ${outcome.lost}, doubled ${outcome.doubled}, out of order ${outcome.outOfOrder}, faults ${outcome.faults}`;
