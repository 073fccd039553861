import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

describe("the web app's generated API types (web/src/generated)", () => {
  it("match the current OpenAPI documents of ticketing, auth, tracking and the console server's own (else: pnpm --filter @crm/console generate:api)", async () => {
    // A stale file makes the check exit 1, naming it.
    await expect(run(process.execPath, [require.resolve('tsx/cli'), join(__dirname, 'api-types.ts'), '--check'])).resolves.toBeDefined();
  });
});
