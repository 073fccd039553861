/**
 * The Account Activity webhook and subscriptions, the credentials key and the CRM's API credentials from a terminal, with auth's own settings
 * (the same env variables). It talks to the platform and auth's database directly, so auth
 * need not be running:
 *
 *   pnpm --filter @crm/auth cli webhook register [--owner <accountId>]
 *   pnpm --filter @crm/auth cli webhook list | crc <webhookId> | delete <webhookId> [--owner <accountId>]
 *   pnpm --filter @crm/auth cli webhook check
 *   pnpm --filter @crm/auth cli subscription add | check | remove <accountId>
 *   pnpm --filter @crm/auth cli subscription list | count
 *   pnpm --filter @crm/auth cli rotate-key
 *   pnpm --filter @crm/auth cli credentials create --name <name> --scopes <scope,...> [--accounts <id,...>] [--tracking-clients <id,...>]
 *   pnpm --filter @crm/auth cli credentials list | revoke <credentialId>
 *   AGENT_PASSWORD=... pnpm --filter @crm/auth cli agents create --email <email> --name <name> [--role admin|agent] [--teams <id,...>]
 *   pnpm --filter @crm/auth cli agents list | password <agentId>; cli teams save <teamId> --name <name> | list
 *   pnpm --filter @crm/auth cli xaa webhook register | list | delete <webhookId>
 *   pnpm --filter @crm/auth cli xaa subscribe | unsubscribe <accountId>
 *   pnpm --filter @crm/auth cli xaa replay --from <iso time> --to <iso time>
 *
 * Prints JSON. Exit codes: 0 done, 1 failed, 2 usage. `--help` lists the commands and the variables read.
 */
import { exitOnConfigError } from '@crm/config';
import { createLogger } from '@crm/logging';
import { cliEnv, HELP, runCli } from './cli-commands';
import { readConfig, type AuthConfig } from './config';

const argv = process.argv.slice(2);
// Help needs no configuration: it must answer where the secrets are not set.
if (argv.length === 0 || argv.includes('--help') || argv.includes('-h')) {
  console.log(HELP);
  process.exit(0);
}
let config: AuthConfig;
try {
  config = readConfig(cliEnv(process.env));
} catch (error) {
  exitOnConfigError(error);
}
runCli(argv, config, createLogger('auth-cli', 'warn'), { out: (line) => console.log(line), err: (line) => console.error(line) }).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
