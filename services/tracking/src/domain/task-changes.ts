import { createHash } from 'node:crypto';
import { taskStatusOf, TERMINAL_TASK_STATUSES, type TaskStatus } from '@crm/contracts';
import type { TaskFacts } from './task-record';

/**
 * What changed in a followed task between what tracking last knew and a newer record: the
 * status (mapped from the provider's), the ETA beyond a threshold, and the rider falling silent
 * while out for delivery. Pure: the caller holds the task's row lock and stores the result with
 * the events, so a change is announced once whoever sees it first (a poll, a push, a replica).
 */

/** The provider's statuses as a ticket understands them (libs/contracts, shared with ticketing). */
export { taskStatusOf };

export const isTerminal = (status: TaskStatus | null): boolean => status !== null && TERMINAL_TASK_STATUSES.includes(status);

/** What tracking knows of a followed task (null fields: not seen yet). */
export interface KnownTask {
  status: TaskStatus | null;
  providerStatus: string | null;
  statusAt: string | null;
  eta: string | null;
  riderPositionAt: string | null;
  silenceAnnouncedFor: string | null;
  observedAt: string | null;
}

export const UNSEEN: KnownTask = { status: null, providerStatus: null, statusAt: null, eta: null, riderPositionAt: null, silenceAnnouncedFor: null, observedAt: null };

export interface WatchSettings {
  etaMovedThresholdSeconds: number;
  riderSilentAfterSeconds: number;
}

export type TaskChange =
  | { kind: 'status_changed'; from: TaskStatus; to: TaskStatus; providerStatus: string; statusAt: string | null }
  | { kind: 'eta_moved'; previousEta: string; eta: string; movedBySeconds: number }
  | { kind: 'rider_silent'; lastPositionAt: string; silentAfterSeconds: number };

export interface Comparison {
  known: KnownTask;
  changes: TaskChange[];
  /** A terminal status was reached: the task is no longer followed. */
  ended: boolean;
}

const ms = (iso: string) => Date.parse(iso);

function statusChange(known: KnownTask, facts: TaskFacts): { known: KnownTask; change: TaskChange | null } {
  const status = taskStatusOf(facts.status);
  // An unknown status, or one recorded before the one known (a late copy), changes nothing.
  if (status === null || (known.statusAt && facts.statusAt && ms(facts.statusAt) < ms(known.statusAt))) return { known, change: null };
  const next = { ...known, status, providerStatus: facts.status, statusAt: facts.statusAt ?? known.statusAt };
  // The first record seen is the baseline: what the follower learns from is what changes after it.
  if (known.status === null || known.status === status) return { known: next, change: null };
  return { known: next, change: { kind: 'status_changed', from: known.status, to: status, providerStatus: facts.status!, statusAt: facts.statusAt } };
}

function etaChange(known: KnownTask, eta: string | null, thresholdSeconds: number): { known: KnownTask; change: TaskChange | null } {
  if (eta === null || isTerminal(known.status)) return { known, change: null };
  if (known.eta === null) return { known: { ...known, eta }, change: null };
  const movedBySeconds = Math.round((ms(eta) - ms(known.eta)) / 1000);
  // Small drifts are not announced, but they add up: the ETA kept is the one last announced.
  if (Math.abs(movedBySeconds) < thresholdSeconds) return { known, change: null };
  return { known: { ...known, eta }, change: { kind: 'eta_moved', previousEta: known.eta, eta, movedBySeconds } };
}

function silenceChange(known: KnownTask, facts: TaskFacts, now: Date, silentAfterSeconds: number): { known: KnownTask; change: TaskChange | null } {
  const positionAt = facts.rider?.recordedAt ?? null;
  const next = { ...known, riderPositionAt: positionAt ?? known.riderPositionAt };
  // Without any position, the silence is counted from when the rider set out.
  const lastHeard = next.riderPositionAt ?? next.statusAt;
  if (next.status !== 'out_for_delivery' || lastHeard === null) return { known: next, change: null };
  if (now.getTime() - ms(lastHeard) < silentAfterSeconds * 1000 || known.silenceAnnouncedFor === lastHeard) return { known: next, change: null };
  return { known: { ...next, silenceAnnouncedFor: lastHeard }, change: { kind: 'rider_silent', lastPositionAt: lastHeard, silentAfterSeconds } };
}

/**
 * Compares a record (fetched at `observedAt`) with what is known. Null when the record is older
 * than the newest compared already (a cached read after a push): it says nothing new.
 */
export function compareTask(known: KnownTask, facts: TaskFacts, observedAt: Date, settings: WatchSettings, now: Date): Comparison | null {
  if (known.observedAt && observedAt.getTime() < ms(known.observedAt)) return null;
  const status = statusChange({ ...known, observedAt: observedAt.toISOString() }, facts);
  const eta = etaChange(status.known, facts.providerEta, settings.etaMovedThresholdSeconds);
  const silence = silenceChange(eta.known, facts, now, settings.riderSilentAfterSeconds);
  const changes = [status.change, eta.change, silence.change].filter((change): change is TaskChange => change !== null);
  return { known: silence.known, changes, ended: isTerminal(silence.known.status) };
}

/** The event id of a change: the same change of the same task always gets the same id. */
export function changeEventId(clientId: string, taskId: string, change: TaskChange): string {
  const what =
    change.kind === 'status_changed' ? [change.to, change.statusAt ?? ''] : change.kind === 'eta_moved' ? [change.previousEta, change.eta] : [change.lastPositionAt];
  const digest = createHash('sha256').update([clientId, taskId, change.kind, ...what].join('\u0000')).digest('hex');
  return `task-${change.kind}-${digest.slice(0, 40)}`;
}
