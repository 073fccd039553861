/** `cli agents create|list|password` and `cli teams save|list`: the console's agents and teams (see cli.ts). */
import { parseArgs } from 'node:util';
import { createPool, ensureDatabase, migrate } from '@crm/db';
import type { Logger } from '@crm/logging';
import { AgentExists, AgentStore, UnknownTeam } from './adapters/agents';
import type { CliIo } from './cli-io';
import type { AuthConfig } from './config';
import { AgentAdmin, InvalidAgent } from './operations/agents';
import { MIGRATIONS_DIR } from './service';

export const AGENTS_USAGE = `       cli agents create --email <email> --name <display name> [--role admin|agent] [--teams <id,...>] [--external-id <crm id>]
       cli agents list
       cli agents password <agentId>
       cli teams save <teamId> --name <name>
       cli teams list
       (a password is read from AGENT_PASSWORD, never from the command line)`;

class UsageError extends Error {}

async function run(admin: AgentAdmin, group: string, verb: string | undefined, target: string | undefined, values: Record<string, string | undefined>, password: string | undefined, print: (value: unknown) => void): Promise<number> {
  switch (`${group} ${verb ?? ''}`) {
    case 'agents create': {
      const teams = values.teams?.split(',').map((team) => team.trim()).filter(Boolean);
      print(await admin.create({ email: values.email, displayName: values.name, role: values.role, teams, password, externalId: values['external-id'] }));
      return 0;
    }
    case 'agents list':
      print({ items: await admin.list() });
      return 0;
    case 'agents password': {
      if (!target) throw new UsageError('agents password needs an agent id');
      if (password === undefined) throw new UsageError('set AGENT_PASSWORD to the new password');
      const changed = await admin.setPassword(target, password);
      print({ id: target, changed });
      return changed ? 0 : 1;
    }
    case 'teams save':
      if (!target) throw new UsageError('teams save needs a team id');
      print(await admin.saveTeam(target, values.name ?? ''));
      return 0;
    case 'teams list':
      print({ items: await admin.teams() });
      return 0;
    default:
      throw new UsageError(`${group} needs one of the verbs below`);
  }
}

/** Runs `agents <verb>` or `teams <verb>`; resolves with the exit code (2 for a usage error or refused input). */
export async function runAgentsCli(group: 'agents' | 'teams', argv: string[], config: AuthConfig, logger: Logger, io: CliIo, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { email: { type: 'string' }, name: { type: 'string' }, role: { type: 'string' }, teams: { type: 'string' }, 'external-id': { type: 'string' } },
    });
  } catch (error) {
    io.err(`${(error as Error).message}\n${AGENTS_USAGE}`);
    return 2;
  }
  const [verb, target] = parsed.positionals;
  await ensureDatabase(config.DATABASE_URL);
  await migrate(config.DATABASE_URL, MIGRATIONS_DIR, logger);
  const pool = createPool(config.DATABASE_URL, { max: 1, applicationName: 'auth-cli' });
  try {
    const admin = new AgentAdmin({ agents: new AgentStore(pool), logger });
    return await run(admin, group, verb, target, parsed.values, env.AGENT_PASSWORD, (value) => io.out(JSON.stringify(value, null, 2)));
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`${error.message}\n${AGENTS_USAGE}`);
      return 2;
    }
    if (error instanceof InvalidAgent || error instanceof AgentExists || error instanceof UnknownTeam) {
      io.err(error.message);
      return 2;
    }
    throw error;
  } finally {
    await pool.end();
  }
}
