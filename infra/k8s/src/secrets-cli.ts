/**
 * `pnpm --silent k8s:secrets --credentials <file> --env <file> --broker-host <host> --database-host <host>`:
 * prints the services' Secrets (secrets.ts) as YAML, for `kubectl -n <namespace> apply -f -`.
 * A missing value stops it with one line naming each, exit code 1.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { parseEnvFile, secretManifests, toYaml, type ProvisionedCredentials } from './secrets';

try {
  const { values } = parseArgs({
    options: {
      credentials: { type: 'string', default: '.local/credentials.json' },
      env: { type: 'string', default: '.env' },
      'broker-host': { type: 'string', default: 'rabbitmq' },
      'database-host': { type: 'string', default: 'postgres-rw' },
    },
  });
  const manifests = secretManifests({
    credentials: JSON.parse(readFileSync(values.credentials!, 'utf8')) as ProvisionedCredentials,
    env: parseEnvFile(readFileSync(values.env!, 'utf8')),
    brokerHost: values['broker-host']!,
    databaseHost: values['database-host']!,
  });
  process.stdout.write(toYaml(manifests));
} catch (error) {
  process.stderr.write(`k8s:secrets: ${(error as Error).message}\n`);
  process.exitCode = 1;
}
