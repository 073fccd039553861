/**
 * `pnpm fuzz [--requests N] [--seconds S] [--seed X] [--concurrency C] [--rights-variants V] [--known service:tag,...]`
 *
 * Bounded fuzzing of webhook-ingest and the CRM APIs of ticketing, auth and tracking, all
 * started in this process on loopback with a fresh virtual host and fresh databases. It stops
 * after N requests or S seconds, whichever comes first, prints what it found, and exits 1 when
 * any request crashed or stalled a service, was answered 5xx, was accepted without valid
 * credentials, or got an answer holding a secret, or when a CRM webhook endpoint at an internal
 * address was accepted or reached (ssrf.ts: each SSRF case once, then at random in the round), or
 * when a tenant's limited credential, straight or through the console, reached another tenant's
 * things or made two replies of one Idempotency-Key (rights.ts: fixed cases, then V re-spellings). `--known` lists causes being fixed elsewhere
 * (e.g. `ticketing:nul`): their 5xx are reported but do not fail the round.
 */
import { parseArgs } from 'node:util';
import { Draw, randomSource } from './inputs';
import { buildProbe, send, type Answer, type Probe } from './probe';
import { isPublic, routesOf, type RouteInfo } from './routes';
import { rightsRound } from './rights';
import { ssrfRound } from './ssrf';
import { startFuzzStack, type FuzzStack, type Target } from './stack';

type Verdict = 'ok' | 'crash' | 'stall' | 'server_error' | 'upstream' | 'known' | 'accepted_unsigned' | 'leak' | 'ssrf' | 'cross_tenant' | 'duplicate';

interface Finding {
  verdict: Verdict;
  service: string;
  route: string;
  status: number;
  count: number;
  sample: { path: string; tags: string[]; answer: string };
}

interface Tally {
  requests: number;
  byVerdict: Record<Verdict, number>;
  byService: Record<string, number>;
  byStatus: Record<string, number>;
  findings: Map<string, Finding>;
}

const UPSTREAM_STATUSES = new Set([502, 503, 504]);

function errorCode(text: string): string | undefined {
  try {
    return (JSON.parse(text) as { error?: { code?: string } }).error?.code;
  } catch {
    return undefined;
  }
}

/** A CRM webhook endpoint registered at a literal internal address (a name is refused when sending: the canary tells). */
function acceptedInternal(probe: Probe, answer: Answer, stack: FuzzStack): boolean {
  if (probe.method !== 'POST' || probe.route.path !== '/v1/webhook-endpoints' || answer.status < 200 || answer.status >= 300) return false;
  try {
    const { url } = JSON.parse(answer.text) as { url?: string };
    return stack.ssrfTargets.some((target) => target.literal && target.url === url);
  } catch {
    return false;
  }
}

function classify(probe: Probe, answer: Answer, stack: FuzzStack, known: Set<string>): Verdict {
  if (answer.failure === 'stall') return 'stall';
  if (acceptedInternal(probe, answer, stack)) return 'ssrf';
  if (answer.failure === 'crash') return probe.tags.includes('huge') || probe.tags.includes('encoding') ? 'ok' : 'crash';
  if ([stack.consumerSecret, stack.token].some((secret) => answer.text.includes(secret))) return 'leak';
  if (answer.status >= 200 && answer.status < 300 && probe.credential !== 'valid' && !isPublic(probe.route)) return 'accepted_unsigned';
  if (answer.status < 500) return 'ok';
  if (probe.route.path === '/health/ready' && answer.status === 503) return 'upstream'; // not ready: its contract while the broker or database is away
  if (UPSTREAM_STATUSES.has(answer.status) && errorCode(answer.text)) return 'upstream';
  return probe.tags.some((tag) => known.has(`${probe.target.service}:${tag}`)) ? 'known' : 'server_error';
}

function record(tally: Tally, probe: Probe, answer: Answer, verdict: Verdict): void {
  tally.requests += 1;
  tally.byVerdict[verdict] += 1;
  tally.byService[probe.target.service] = (tally.byService[probe.target.service] ?? 0) + 1;
  tally.byStatus[String(answer.status)] = (tally.byStatus[String(answer.status)] ?? 0) + 1;
  if (verdict === 'ok') return;
  const route = `${probe.method} ${probe.route.path}`;
  const key = `${verdict}|${probe.target.service}|${route}|${answer.status}|${errorCode(answer.text) ?? ''}`;
  const finding = tally.findings.get(key);
  if (finding) finding.count += 1;
  else tally.findings.set(key, { verdict, service: probe.target.service, route, status: answer.status, count: 1, sample: { path: probe.path.slice(0, 160), tags: probe.tags, answer: (answer.detail ?? answer.text).slice(0, 200) } });
}

interface Options {
  requests: number;
  seconds: number;
  seed: number;
  concurrency: number;
  known: Set<string>;
  dbPrefix: string;
  basePort: number;
  /** Re-spelled cross-tenant requests in the rights round, beside its fixed cases. */
  rightsVariants: number;
}

function readOptions(): Options {
  const { values } = parseArgs({
    options: {
      requests: { type: 'string', default: '3000' },
      seconds: { type: 'string', default: '60' },
      seed: { type: 'string', default: String(Date.now() % 1_000_000) },
      concurrency: { type: 'string', default: '8' },
      known: { type: 'string', default: '' },
      'db-prefix': { type: 'string', default: 'fuzz' },
      'base-port': { type: 'string', default: '0' },
      'rights-variants': { type: 'string', default: '200' },
    },
  });
  const whole = (name: string, text: string) => {
    if (!/^[0-9]+$/.test(text)) throw new Error(`--${name} must be a whole number, got "${text}"`);
    return Number(text);
  };
  if (!/^[a-z][a-z0-9_]{0,30}$/.test(values['db-prefix'])) throw new Error('--db-prefix must be lowercase letters, digits and _');
  return {
    requests: whole('requests', values.requests),
    seconds: whole('seconds', values.seconds),
    seed: whole('seed', values.seed),
    concurrency: Math.max(1, whole('concurrency', values.concurrency)),
    known: new Set(values.known.split(',').map((k) => k.trim()).filter(Boolean)),
    dbPrefix: values['db-prefix'],
    basePort: whole('base-port', values['base-port']),
    rightsVariants: whole('rights-variants', values['rights-variants']),
  };
}

/** Gives the round some state to reach past "not found": a configured account, an enabled tracking client, a delivered DM. */
async function seed(stack: FuzzStack): Promise<void> {
  const [, ticketing, , tracking] = stack.targets as [Target, Target, Target, Target];
  const put = (target: Target, path: string, body: unknown) =>
    fetch(`http://127.0.0.1:${target.port}${path}`, { method: 'PUT', headers: { authorization: `Bearer ${stack.token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  await put(ticketing, '/v1/partner-configs/1001', { pageName: 'Acme' });
  await put(tracking, '/v1/clients/demo', { enabled: true, apiKey: 'fuzz-demo-key' });
}

async function run(stack: FuzzStack, options: Options, tally: Tally): Promise<void> {
  const d = new Draw(randomSource(options.seed));
  // Each service gets a quarter of the requests, however many routes it has.
  const routes: [Target, RouteInfo[]][] = stack.targets.map((target) => [target, routesOf(target.app)]);
  for (const [target, own] of routes) if (own.length === 0) throw new Error(`no routes found on ${target.service}'s Express app: the fuzzer reads them from its router`);
  const deadline = Date.now() + options.seconds * 1000;
  let issued = 0;
  const trace = process.env.FUZZ_TRACE ? new RegExp(process.env.FUZZ_TRACE) : undefined;
  const worker = async () => {
    while (issued < options.requests && Date.now() < deadline) {
      issued += 1;
      const [target, own] = d.pick(routes);
      const route = d.pick(own);
      const probe = buildProbe(d, target, route, stack);
      const answer = await send(probe, 15_000);
      if (trace?.test(`${probe.method} ${probe.path}`)) console.log(`trace: ${probe.method} ${probe.path} ${probe.body?.subarray(0, 200).toString() ?? ''} -> ${answer.status} ${answer.text.slice(0, 200)}`);
      record(tally, probe, answer, classify(probe, answer, stack, options.known));
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
}

/** The SSRF cases, each once (ssrf.ts), before the random round. */
async function ssrfCases(stack: FuzzStack, tally: Tally): Promise<void> {
  const [ingest, ticketing] = stack.targets as [Target, Target];
  const problems = await ssrfRound({ ticketingPort: ticketing.port, ingestPort: ingest.port, token: stack.token, consumerSecret: stack.consumerSecret, envName: stack.envName, canary: stack.canary, targets: stack.ssrfTargets });
  for (const [index, problem] of problems.entries()) {
    tally.byVerdict.ssrf += 1;
    tally.findings.set(`ssrf|cases|${index}`, { verdict: 'ssrf', service: 'ticketing', route: problem.route, status: problem.status, count: 1, sample: { path: '-', tags: ['ssrf'], answer: problem.what } });
  }
}

/** A tenant's limited credential, straight and through the console, against another tenant's things (rights.ts), before the random round. */
async function rightsCases(stack: FuzzStack, options: Options, tally: Tally): Promise<void> {
  const [ingest, ticketing, auth, tracking] = stack.targets as [Target, Target, Target, Target];
  const d = new Draw(randomSource(options.seed + 1));
  const { problems, requests } = await rightsRound(
    { ports: { ingest: ingest.port, ticketing: ticketing.port, auth: auth.port, tracking: tracking.port, console: stack.consolePort }, token: stack.token, consumerSecret: stack.consumerSecret, envName: stack.envName, authDatabaseUrl: stack.authDatabaseUrl },
    d,
    options.rightsVariants,
  );
  tally.requests += requests;
  for (const [index, problem] of problems.entries()) {
    tally.byVerdict[problem.verdict] += 1;
    tally.findings.set(`${problem.verdict}|rights|${index}`, { verdict: problem.verdict, service: 'rights', route: problem.route, status: problem.status, count: 1, sample: { path: '-', tags: [], answer: problem.what } });
  }
}

/** The loopback canary heard nothing during the whole round (endpoints the random requests registered included). */
function canaryQuiet(stack: FuzzStack, tally: Tally): void {
  if (stack.canary.received.length === 0) return;
  tally.byVerdict.ssrf += 1;
  tally.findings.set('ssrf|canary', { verdict: 'ssrf', service: 'ticketing', route: 'webhook delivery', status: 0, count: stack.canary.received.length, sample: { path: '-', tags: ['ssrf'], answer: `the loopback canary was reached: ${stack.canary.received.slice(0, 3).join(', ')}` } });
}

/** Every service still answers its liveness check after the round. */
async function stillAlive(stack: FuzzStack, tally: Tally): Promise<void> {
  for (const target of stack.targets) {
    const live = await fetch(`http://127.0.0.1:${target.port}/health/live`).then((r) => r.status === 200, () => false);
    if (!live) {
      tally.byVerdict.crash += 1;
      tally.findings.set(`crash|${target.service}|liveness`, { verdict: 'crash', service: target.service, route: 'GET /health/live', status: 0, count: 1, sample: { path: '/health/live', tags: [], answer: 'no answer after the round' } });
    }
  }
}

function report(tally: Tally, options: Options, seconds: number): number {
  const v = tally.byVerdict;
  const failures = v.crash + v.stall + v.server_error + v.accepted_unsigned + v.leak + v.ssrf + v.cross_tenant + v.duplicate;
  console.log(`fuzz: seed ${options.seed}, ${tally.requests} requests in ${seconds.toFixed(1)} s (${JSON.stringify(tally.byService)})`);
  console.log(`statuses: ${JSON.stringify(tally.byStatus)}`);
  for (const finding of [...tally.findings.values()].sort((a, b) => a.verdict.localeCompare(b.verdict) || b.count - a.count)) {
    console.log(`  ${finding.verdict.padEnd(17)} ${String(finding.count).padStart(5)}  ${finding.service} ${finding.route} -> ${finding.status}  e.g. ${finding.sample.path} [${finding.sample.tags.join(',')}] ${finding.sample.answer.replace(/\s+/g, ' ')}`);
  }
  console.log(
    `requests ${tally.requests}, crashes ${v.crash + v.stall}, 5xx ${v.server_error}, accepted-unsigned ${v.accepted_unsigned}, leaks ${v.leak}, ssrf ${v.ssrf}, cross-tenant ${v.cross_tenant}, duplicates ${v.duplicate}; known 5xx ${v.known}, upstream 5xx ${v.upstream}`,
  );
  return failures > 0 ? 1 : 0;
}

async function main(): Promise<number> {
  const options = readOptions();
  const tally: Tally = { requests: 0, byVerdict: { ok: 0, crash: 0, stall: 0, server_error: 0, upstream: 0, known: 0, accepted_unsigned: 0, leak: 0, ssrf: 0, cross_tenant: 0, duplicate: 0 }, byService: {}, byStatus: {}, findings: new Map() };
  const processFailure = (error: unknown) => {
    tally.byVerdict.crash += 1;
    tally.findings.set(`crash|process|${tally.byVerdict.crash}`, { verdict: 'crash', service: 'process', route: '-', status: 0, count: 1, sample: { path: '-', tags: [], answer: String((error as Error)?.stack ?? error) } });
  };
  process.on('uncaughtException', processFailure);
  process.on('unhandledRejection', processFailure);
  const stack = await startFuzzStack({ dbPrefix: options.dbPrefix, basePort: options.basePort, logLevel: process.env.FUZZ_LOG_LEVEL ?? 'error' });
  const started = Date.now();
  try {
    await seed(stack);
    await ssrfCases(stack, tally);
    await rightsCases(stack, options, tally);
    await run(stack, options, tally);
    await stillAlive(stack, tally);
    canaryQuiet(stack, tally);
  } finally {
    await stack.stop();
  }
  return report(tally, options, (Date.now() - started) / 1000);
}

main().then(
  (code) => process.exit(code),
  (error: Error) => {
    console.error(`fuzz: ${error.message}`);
    process.exit(2);
  },
);
