import { parseArgs } from 'node:util';
import { ACTIVITY_KINDS } from './activity-requests';

export const DEFAULT_SIMULATOR_URL = 'http://127.0.0.1:3101';

export const USAGE = `usage: pnpm sim <command> [options]

  dm --from @ana --to 1001 "where is my order 42?"
       [--webhook-url URL] [--event-id ID] [--signature wrong|none]
                       a customer sends the account a DM, delivered signed to the webhook
  activity <kind> --account 1001 [--user @ana] [--by-account] [--post ID [--post-author @x]]
       [--reply-to ID [--reply-to-author @x]] [--last-read ID] [--media URL] [--lang en]
       [--event-id ID] [--webhook-url URL] [--signature wrong|none] [text]
                       any kind of account activity, delivered signed to the webhook. Kinds:
                       ${ACTIVITY_KINDS.join(', ')}.
                       --by-account: the account did it (its reply, quote, repost, like, follow,
                       typing, read); otherwise --user did it to the account
  crc [--url URL]      runs a CRC check against the webhook (default: the simulator's WEBHOOK_URL)
  deliveries [--limit N]
                       what the simulator sent, most recent first

  --json prints the simulator's answer as is. SIMULATOR_URL (default ${DEFAULT_SIMULATOR_URL}) says where the simulator runs.`;

/** Exit codes: the webhook said no or the CRC failed; a usage mistake; the simulator is not running. */
export const EXIT = { ok: 0, failed: 1, usage: 2, unreachable: 3 } as const;

export interface CliIo {
  out: (line: string) => void;
  err: (line: string) => void;
}

class Unreachable extends Error {}

async function call(base: string, method: 'GET' | 'POST', path: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  let response: Response;
  try {
    response = await fetch(new URL(path, base), {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(20_000),
    });
  } catch {
    throw new Unreachable(`the simulator is not answering at ${base}; start it with \`pnpm start\` (whole stack) or \`pnpm --filter @crm/social-platform-simulator start\`, or set SIMULATOR_URL`);
  }
  const text = await response.text();
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    json = { raw: text };
  }
  return { status: response.status, json };
}

function errorMessage(json: Record<string, unknown>): string {
  const error = json.error as { message?: string } | undefined;
  return error?.message ?? JSON.stringify(json);
}

const is2xx = (status: unknown) => typeof status === 'number' && status >= 200 && status < 300;

const OPTIONS = {
  from: { type: 'string' },
  to: { type: 'string' },
  'webhook-url': { type: 'string' },
  'event-id': { type: 'string' },
  account: { type: 'string' },
  user: { type: 'string' },
  'by-account': { type: 'boolean' },
  post: { type: 'string' },
  'post-author': { type: 'string' },
  'reply-to': { type: 'string' },
  'reply-to-author': { type: 'string' },
  'last-read': { type: 'string' },
  media: { type: 'string' },
  lang: { type: 'string' },
  signature: { type: 'string' },
  url: { type: 'string' },
  limit: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

type Values = ReturnType<typeof parseArgs<{ args: string[]; allowPositionals: true; options: typeof OPTIONS }>>['values'];

/** What a command runs with: its words after the command, the options, the simulator and the output. */
interface Command {
  rest: string[];
  values: Values;
  simulatorUrl: string;
  io: CliIo;
  show: (json: unknown) => void;
}

/** The exit code of a delivery the simulator sent (or refused), said to the person. */
function deliveryOutcome(io: CliIo, what: string, { status, json }: { status: number; json: Record<string, unknown> }, summary: () => string): number {
  if (status !== 200) {
    io.err(status === 400 ? `the simulator refused the request: ${errorMessage(json)}` : `${what} not delivered: ${errorMessage(json)}`);
    return status === 400 ? EXIT.usage : EXIT.failed;
  }
  if (is2xx(json.webhookStatus)) {
    io.out(summary());
    return EXIT.ok;
  }
  io.err(`${summary()} ${JSON.stringify(json.webhookBody)}`);
  return EXIT.failed;
}

async function dmCommand({ rest, values, simulatorUrl, io, show }: Command): Promise<number> {
  const text = rest.join(' ');
  if (!values.from || !values.to || text === '') {
    io.err(`dm needs --from, --to and the text\n\n${USAGE}`);
    return EXIT.usage;
  }
  const answer = await call(simulatorUrl, 'POST', '/control/direct-messages', {
    from: values.from,
    to: values.to,
    text,
    webhookUrl: values['webhook-url'],
    eventId: values['event-id'],
    signature: values.signature,
  });
  show(answer.json);
  return deliveryOutcome(io, 'DM', answer, () => `sent DM ${String(answer.json.eventId)} from ${values.from} to ${values.to}: webhook answered ${String(answer.json.webhookStatus)}`);
}

async function activityCommand({ rest, values, simulatorUrl, io, show }: Command): Promise<number> {
  const [kind, ...words] = rest;
  if (!kind || !values.account) {
    io.err(`activity needs a kind and --account\n\n${USAGE}`);
    return EXIT.usage;
  }
  const text = words.join(' ');
  const postRef = (id: string | undefined, author: string | undefined) => (id ? { id, ...(author ? { author } : {}) } : undefined);
  const answer = await call(simulatorUrl, 'POST', '/control/activities', {
    kind,
    account: values.account,
    user: values.user,
    byAccount: values['by-account'],
    text: text === '' ? undefined : text,
    post: postRef(values.post, values['post-author']),
    inReplyTo: postRef(values['reply-to'], values['reply-to-author']),
    lastReadEventId: values['last-read'],
    media: values.media ? { url: values.media } : undefined,
    lang: values.lang,
    eventId: values['event-id'],
    webhookUrl: values['webhook-url'],
    signature: values.signature,
  });
  show(answer.json);
  const { json } = answer;
  return deliveryOutcome(io, 'activity', answer, () => `sent ${kind} (${String(json.kind)} ${String(json.eventId ?? '-')}) for ${String(json.forUserId ?? values.account)}: webhook answered ${String(json.webhookStatus)}`);
}

async function crcCommand({ values, simulatorUrl, io, show }: Command): Promise<number> {
  const { status, json } = await call(simulatorUrl, 'POST', '/control/crc', values.url ? { url: values.url } : {});
  show(json);
  if (status !== 200) {
    io.err(`the simulator refused: ${errorMessage(json)}`);
    return EXIT.failed;
  }
  if (json.valid === true) {
    io.out(`CRC check of ${String(json.url)}: valid`);
    return EXIT.ok;
  }
  io.err(`CRC check of ${String(json.url)}: INVALID (status ${String(json.status)}): ${String(json.reason)}`);
  return EXIT.failed;
}

async function deliveriesCommand({ values, simulatorUrl, io }: Command): Promise<number> {
  const limit = values.limit === undefined ? 20 : Number(values.limit);
  if (!Number.isInteger(limit) || limit < 1) {
    io.err('--limit must be a positive whole number');
    return EXIT.usage;
  }
  const { json } = await call(simulatorUrl, 'GET', '/control/deliveries');
  const items = ((json.items as Array<Record<string, unknown>> | undefined) ?? []).slice(0, limit);
  if (values.json) io.out(JSON.stringify(items, null, 2));
  else if (items.length === 0) io.out('nothing sent yet');
  for (const item of values.json ? [] : items) {
    const answer = item.webhookStatus === null ? `no answer (${String(item.error)})` : String(item.webhookStatus);
    const ids = (item.eventIds as string[]).join(',') || '-';
    io.out(`${String(item.sentAt)}  ${String(item.kind)}  for ${String(item.forUserId)}  events ${ids}  signature ${String(item.signing)}  -> ${answer}`);
  }
  return EXIT.ok;
}

const COMMANDS: Record<string, (command: Command) => Promise<number>> = { dm: dmCommand, activity: activityCommand, crc: crcCommand, deliveries: deliveriesCommand };

/** Runs one CLI command against a running simulator and returns the exit code. */
export async function runCli(argv: string[], { simulatorUrl = DEFAULT_SIMULATOR_URL, io }: { simulatorUrl?: string; io: CliIo }): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, options: OPTIONS });
  } catch (error) {
    io.err(`${(error as Error).message}\n\n${USAGE}`);
    return EXIT.usage;
  }
  const { values, positionals } = parsed;
  const [command, ...rest] = positionals;
  if (values.help || command === undefined || command === 'help') {
    io.out(USAGE);
    return values.help || command === 'help' ? EXIT.ok : EXIT.usage;
  }
  const run = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
  if (!run) {
    io.err(`unknown command "${command}"\n\n${USAGE}`);
    return EXIT.usage;
  }
  try {
    return await run({ rest, values, simulatorUrl, io, show: (json) => values.json && io.out(JSON.stringify(json, null, 2)) });
  } catch (error) {
    if (error instanceof Unreachable) {
      io.err(error.message);
      return EXIT.unreachable;
    }
    throw error;
  }
}
