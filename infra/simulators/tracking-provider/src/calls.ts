/** What the simulator received: counts per route and task (for coalescing tests), and the last requests as sent. */

export interface ReceivedRequest {
  at: string;
  target: 'provider' | 'router';
  method: string;
  path: string;
  query: Record<string, unknown>;
  /** The body exactly as received, or null when there was none. */
  body: string | null;
  contentType: string | null;
  /** The basic-auth user name, when one was sent. */
  username: string | null;
}

const KEEP = 500;

export class CallLog {
  private provider = 0;
  private router = 0;
  private readonly byTask = new Map<string, number>();
  private readonly recent: ReceivedRequest[] = [];

  record(request: ReceivedRequest, task?: { clientId: string; taskId: string }): void {
    if (request.target === 'provider') this.provider += 1;
    else this.router += 1;
    if (task) {
      const key = `${task.clientId}/${task.taskId}`;
      this.byTask.set(key, (this.byTask.get(key) ?? 0) + 1);
    }
    this.recent.unshift(request);
    this.recent.length = Math.min(this.recent.length, KEEP);
  }

  counts() {
    return { provider: this.provider, router: this.router, byTask: Object.fromEntries(this.byTask) };
  }

  requests(): ReceivedRequest[] {
    return [...this.recent];
  }

  reset(): void {
    this.provider = 0;
    this.router = 0;
    this.byTask.clear();
    this.recent.length = 0;
  }
}
