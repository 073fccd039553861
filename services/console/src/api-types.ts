import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';

/** The APIs the web app calls: the services' (through the console server's /api relay) and the console server's own. */
export const API_DOCUMENTS = ['ticketing', 'auth', 'tracking', 'console'] as const;
export type ApiService = (typeof API_DOCUMENTS)[number];

const documentPath = (service: ApiService) => join(__dirname, '..', '..', service, 'openapi.yaml');
export const generatedPath = (service: ApiService) => join(__dirname, '..', 'web', 'src', 'generated', `${service}.ts`);

/** The TypeScript types of one service's OpenAPI document, as the committed web/src/generated/<service>.ts holds them. */
export async function apiTypesOf(service: ApiService): Promise<string> {
  const ast = await openapiTS(await readFile(documentPath(service), 'utf8'));
  return `/* Generated from services/${service}/openapi.yaml by \`pnpm --filter @crm/console generate:api\`: do not edit. */\n\n${astToString(ast)}`;
}

/** Writes every generated file (`generate:api`). */
export async function writeApiTypes(): Promise<void> {
  for (const service of API_DOCUMENTS) await writeFile(generatedPath(service), await apiTypesOf(service));
}

/** The generated files that differ from what their documents give now (`generate:api --check`). */
export async function staleApiTypes(): Promise<string[]> {
  const stale: string[] = [];
  for (const service of API_DOCUMENTS) if ((await readFile(generatedPath(service), 'utf8').catch(() => '')) !== (await apiTypesOf(service))) stale.push(`web/src/generated/${service}.ts`);
  return stale;
}

// openapi-typescript loads ES modules that jest's CommonJS runtime cannot: its test runs this file as a program (`--check`).
if (require.main === module) {
  if (process.argv.includes('--check')) {
    void staleApiTypes().then((stale) => {
      if (stale.length === 0) return;
      process.stderr.write(`stale: ${stale.join(', ')}; run pnpm --filter @crm/console generate:api\n`);
      process.exitCode = 1;
    });
  } else {
    void writeApiTypes();
  }
}
