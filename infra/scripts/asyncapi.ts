/**
 * pnpm asyncapi: writes docs/asyncapi.yaml from the contracts and the topology.
 * pnpm check:asyncapi: fails (exit 1) when the committed document is not what the generator makes
 * now, or when @asyncapi/parser finds an error in it. The CI runs the check.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { ASYNCAPI_PATH, checkUpToDate, renderAsyncApi, validateAsyncApi } from '@crm/messaging/src/asyncapi/check';

async function main(command: string | undefined): Promise<number> {
  if (command === 'write') {
    writeFileSync(ASYNCAPI_PATH, renderAsyncApi());
    console.log(`wrote ${ASYNCAPI_PATH}`);
    return 0;
  }
  if (command !== 'check') {
    console.error('usage: asyncapi.ts write|check');
    return 2;
  }
  const stale = checkUpToDate();
  const { errors, warnings } = await validateAsyncApi(readFileSync(ASYNCAPI_PATH, 'utf8'));
  for (const problem of [...stale, ...errors]) console.error(problem);
  if (stale.length > 0 || errors.length > 0) return 1;
  console.log(`${ASYNCAPI_PATH}: up to date, valid AsyncAPI 3.0.0 (${warnings} warnings)`);
  return 0;
}

main(process.argv[2]).then(
  (code) => process.exit(code),
  (error: Error) => {
    console.error(error.stack ?? error.message);
    process.exit(1);
  },
);
