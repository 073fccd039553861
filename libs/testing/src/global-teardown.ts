export default async function globalTeardown(): Promise<void> {
  const started = (globalThis as { __testContainers?: { stop: () => Promise<unknown> }[] }).__testContainers ?? [];
  await Promise.all(started.map((container) => container.stop()));
}
