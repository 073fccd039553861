/** "in 12 min", "3 h overdue": a due time relative to now. */
export function countdown(dueAt: string | null, nowMs: number): { label: string; breached: boolean } | null {
  if (!dueAt) return null;
  const minutes = Math.round((Date.parse(dueAt) - nowMs) / 60_000);
  const breached = minutes < 0;
  const size = Math.abs(minutes);
  const text = size >= 120 ? `${Math.round(size / 60)} h` : `${size} min`;
  return { label: breached ? `${text} overdue` : `in ${text}`, breached };
}

export function isBreached(ticket: { status: string; sla: { firstResponseDueAt: string | null; resolutionDueAt: string | null; firstRespondedAt: string | null } }, nowMs: number): boolean {
  if (ticket.status === 'resolved' || ticket.status === 'closed') return false;
  const firstDue = !ticket.sla.firstRespondedAt && ticket.sla.firstResponseDueAt && Date.parse(ticket.sla.firstResponseDueAt) < nowMs;
  const resolutionDue = ticket.sla.resolutionDueAt && Date.parse(ticket.sla.resolutionDueAt) < nowMs;
  return Boolean(firstDue || resolutionDue);
}

export const clock = (iso: string) => new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
/** A moment in the agent's time zone, named, for text that outlives the screen (an evidence note): "26 Nov 2026, 14:05:09 CET". */
export const zoned = (iso: string) => new Date(iso).toLocaleString([], { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit', timeZoneName: 'short' });
export const when = (iso: string) => new Date(iso).toLocaleString([], { dateStyle: 'short', timeStyle: 'short' });

export function distance(meters: number): string {
  return meters >= 1000 ? `${(meters / 1000).toFixed(1)} km` : `${Math.round(meters)} m`;
}

export function age(seconds: number): string {
  if (seconds < 60) return `${Math.round(seconds)} s ago`;
  if (seconds < 3600) return `${Math.round(seconds / 60)} min ago`;
  return `${Math.round(seconds / 3600)} h ago`;
}
