export default async function globalTeardown(): Promise<void> {
  await (globalThis as { __leftoverSweep?: Promise<void> }).__leftoverSweep;
  const started = (globalThis as { __testContainers?: { stop: () => Promise<unknown> }[] }).__testContainers ?? [];
  await Promise.all(started.map((container) => container.stop()));
}
