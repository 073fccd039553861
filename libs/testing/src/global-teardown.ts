import { emptyVirtualHostPool } from './environment';
import { dropMigratedTemplates } from './helpers';

export default async function globalTeardown(): Promise<void> {
  await (globalThis as { __leftoverSweep?: Promise<void> }).__leftoverSweep;
  await (globalThis as { __virtualHostPool?: Promise<void> }).__virtualHostPool;
  await emptyVirtualHostPool().catch((error: Error) => process.stderr.write(`could not delete the tests' virtual hosts: ${error.message.split('\n')[0]}\n`));
  // The migrated templates the run's files copied their databases from: the server is left as it was.
  await dropMigratedTemplates().catch((error: Error) => process.stderr.write(`could not drop the tests' template databases: ${error.message.split('\n')[0]}\n`));
  const started = (globalThis as { __testContainers?: { stop: () => Promise<unknown> }[] }).__testContainers ?? [];
  await Promise.all(started.map((container) => container.stop()));
}
