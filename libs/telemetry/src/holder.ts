/** One SDK per process: whichever starts first (a test preload, or the service's main) wins. */
export const STARTED = Symbol.for('crm.telemetry.sdk');

/** Where the started SDK is kept: null once stopped, or when tracing is disabled. */
export type Holder = { [STARTED]?: { shutdown(): Promise<void> } | null };

/** Sends the spans still buffered and stops tracing (a service's last stop step). */
export async function shutdownTelemetry(): Promise<void> {
  const holder = globalThis as Holder;
  const sdk = holder[STARTED];
  holder[STARTED] = null;
  await sdk?.shutdown();
}
