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

/** A message committed before the one its sender sent before it (`earlier`). */
export interface OutOfOrder {
  earlier: Recorded;
  later: Recorded;
}

/** Messages committed before the message their sender sent before them: their conversation's order was not kept. */
export function outOfOrderPairs(recorded: Recorded[]): OutOfOrder[] {
  const byConversation = new Map<string, Recorded[]>();
  for (const row of recorded) {
    const list = byConversation.get(row.conversation) ?? [];
    list.push(row);
    byConversation.set(row.conversation, list);
  }
  const broken: OutOfOrder[] = [];
  for (const rows of byConversation.values()) {
    rows.sort((a, b) => a.position - b.position);
    for (let i = 1; i < rows.length; i += 1) if (rows[i]!.recordedAt < rows[i - 1]!.recordedAt) broken.push({ earlier: rows[i - 1]!, later: rows[i]! });
  }
  return broken;
}

export const outOfOrder = (recorded: Recorded[]) => outOfOrderPairs(recorded).length;

/**
 * The out-of-order messages counted by the fault they followed: the last fault begun before the
 * earlier message's commit (where it was held back), with the seconds from that fault's end.
 */
export function outOfOrderByFault(pairs: OutOfOrder[], faults: FaultWindow[]): string[] {
  const counts = new Map<string, { count: number; afterEndS: number[] }>();
  for (const { earlier } of pairs) {
    const fault = [...faults].filter((f) => f.startedAt <= earlier.recordedAt).sort((a, b) => b.startedAt - a.startedAt)[0];
    const name = fault?.name ?? 'before the faults';
    const entry = counts.get(name) ?? { count: 0, afterEndS: [] };
    entry.count += 1;
    if (fault) entry.afterEndS.push(Math.round((earlier.recordedAt - fault.endedAt) / 100) / 10);
    counts.set(name, entry);
  }
  return [...counts].map(([name, { count, afterEndS }]) => {
    afterEndS.sort((a, b) => a - b);
    return `${count} after ${name}${afterEndS.length ? ` (the earlier one committed ${afterEndS[0]} .. ${afterEndS.at(-1)} s from its end)` : ''}`;
  });
}

/** Accepted deliveries never recorded, counted by the fault in effect when they were accepted (or none). */
export function lostByFault(acceptedAt: number[], faults: FaultWindow[]): string[] {
  const counts = new Map<string, number>();
  for (const at of acceptedAt) {
    const name = faults.find((fault) => at >= fault.startedAt && at <= fault.endedAt)?.name ?? 'outside the faults';
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return [...counts].map(([name, count]) => `${count} accepted ${name === 'outside the faults' ? name : `during ${name}`}`);
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
