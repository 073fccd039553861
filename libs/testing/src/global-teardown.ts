import { dropMigratedTemplates } from './helpers';

export default async function globalTeardown(): Promise<void> {
  await (globalThis as { __leftoverSweep?: Promise<void> }).__leftoverSweep;
  // The migrated templates the run's files copied their databases from: the server is left as it was.
  await dropMigratedTemplates().catch((error: Error) => process.stderr.write(`could not drop the tests' template databases: ${error.message.split('\n')[0]}\n`));
  const started = (globalThis as { __testContainers?: { stop: () => Promise<unknown> }[] }).__testContainers ?? [];
  await Promise.all(started.map((container) => container.stop()));
}
