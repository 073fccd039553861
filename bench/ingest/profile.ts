/**
 * Where webhook-ingest's time goes: self time of a V8 CPU profile of its bundle (what
 * `BENCH_CPU_PROF=<dir> pnpm bench:ingest` writes), by category and by function.
 *
 *   tsx bench/ingest/profile.ts <file.cpuprofile> [requests] [bundle]
 *
 * Only the busiest BENCH_SECONDS (10) of the profile count: the ones under wrk's load, not the
 * start or the wait while the other server is measured. With `requests` (what the bench
 * printed for that server), each category is also given in µs per request. webhook-ingest's
 * bundle is read from `bundle`, by default services/webhook-ingest/dist/main.js as the bench
 * built it; the
 * anchor runs from source, so its samples carry their own file names.
 *
 * The bundle is one file, so a sample's module is found from esbuild's `// <path>` comment
 * that opens each module in it; node's own code is named by its `node:` URL.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Category of a module path or URL, first match wins. */
const CATEGORIES: Array<[string, RegExp]> = [
  ['tracing (OpenTelemetry: context, spans, HTTP instrumentation)', /@opentelemetry|libs\/telemetry/],
  ['signature and hashes (HMAC, SHA-256; ETag in the anchor)', /webhook-signature|internal\/crypto/],
  ['JSON parse and shape check', /domain\/delivery|libs\/contracts\/src\/(delivery|json-depth)/],
  ['logging', /winston|logform|libs\/logging|triple-beam|readable-stream|safe-stable-stringify|colors|internal\/console/],
  ['metrics', /prom-client|libs\/http\/src\/metrics|bintrees|tdigest|perf_hooks/],
  ['security headers (helmet)', /helmet/],
  ['publish and confirm (envelope, AMQP)', /amqplib|amqp-connection-manager|libs\/messaging|libs\/contracts|ajv|activity-publisher|buffer-more-ints|promise-breaker/],
  ['Express (routing, middleware, body)', /express|router|body-parser|raw-body|finalhandler|on-finished|content-type|type-is|mime|statuses|depd|http-errors|send|qs|negotiator|libs\/http|src\/http|parseurl|encodeurl|iconv/],
  ['Node HTTP and sockets', /node:(_http|http|net|stream|internal\/(http|streams|net|stream_base|timers|dns))|node:events/],
  ['async context (AsyncLocalStorage, promises)', /async_hooks|async_context|internal\/(process\/task_queues|promise)/],
];

/** The module each line of the bundle belongs to. */
function moduleIndex(bundle: string): (line: number) => string {
  const starts: Array<{ line: number; module: string }> = [];
  bundle.split('\n').forEach((text, line) => {
    const match = /^\/\/ (\S+\.(?:js|ts|mjs|cjs|json))$/.exec(text);
    if (match) starts.push({ line, module: match[1]! });
  });
  return (line) => {
    let low = 0;
    let high = starts.length - 1;
    let found = '(bundle)';
    while (low <= high) {
      const mid = (low + high) >> 1;
      if (starts[mid]!.line <= line) {
        found = starts[mid]!.module;
        low = mid + 1;
      } else high = mid - 1;
    }
    return found;
  };
}

function where(frame: ProfileNode['callFrame'], moduleAt: (line: number) => string): string {
  if (frame.url.endsWith('dist/main.js')) return moduleAt(frame.lineNumber);
  return frame.url || `(${frame.functionName || 'native'})`;
}

function categoryOf(frame: ProfileNode['callFrame'], module: string): string {
  if (frame.functionName === '(idle)') return 'idle (waiting: broker confirms, the network)';
  if (frame.functionName === '(garbage collector)') return 'garbage collection';
  if (frame.functionName === '(program)') return 'V8/native (program)';
  if (!frame.url && /^(writev|writeBuffer|writeUtf8String|writeLatin1String)$/.test(frame.functionName)) return 'socket writes (native)';
  if (!frame.url && frame.functionName === 'parse') return 'JSON parse and shape check'; // V8's JSON.parse
  for (const [name, pattern] of CATEGORIES) if (pattern.test(module)) return name;
  return 'other';
}

/** The sample indexes [from, to) of the `span` µs with the least idle time. */
function busiestWindow(profile: Profile, byId: Map<number, ProfileNode>, span: number): [number, number] {
  const idle = profile.samples.map((id, i) => (byId.get(id)!.callFrame.functionName === '(idle)' ? (profile.timeDeltas[i] ?? 0) : 0));
  let best: [number, number] = [0, profile.samples.length];
  let bestIdle = Infinity;
  let from = 0;
  let elapsed = 0;
  let idleIn = 0;
  for (let to = 0; to < profile.samples.length; to += 1) {
    elapsed += profile.timeDeltas[to] ?? 0;
    idleIn += idle[to]!;
    while (elapsed - (profile.timeDeltas[from] ?? 0) >= span) {
      elapsed -= profile.timeDeltas[from] ?? 0;
      idleIn -= idle[from]!;
      from += 1;
    }
    if (elapsed >= span * 0.99 && idleIn < bestIdle) {
      bestIdle = idleIn;
      best = [from, to + 1];
    }
  }
  return best;
}

function main(): void {
  const [profileFile, requests, bundleFile = path.join(__dirname, '..', '..', 'services', 'webhook-ingest', 'dist', 'main.js')] = process.argv.slice(2);
  if (!profileFile) throw new Error('usage: tsx bench/ingest/profile.ts <file.cpuprofile> [requests] [bundle]');
  const profile = JSON.parse(readFileSync(profileFile, 'utf8')) as Profile;
  const moduleAt = moduleIndex(readFileSync(bundleFile, 'utf8'));
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const byCategory = new Map<string, number>();
  const byFunction = new Map<string, number>();
  const [from, to] = busiestWindow(profile, byId, Number(process.env.BENCH_SECONDS ?? 10) * 1e6);
  let total = 0;
  profile.samples.forEach((id, i) => {
    if (i < from || i >= to) return;
    const delta = profile.timeDeltas[i] ?? 0;
    const frame = byId.get(id)!.callFrame;
    const module = where(frame, moduleAt);
    const category = categoryOf(frame, module);
    total += delta;
    byCategory.set(category, (byCategory.get(category) ?? 0) + delta);
    const fn = `${frame.functionName || '(anonymous)'}  ${module.replace(/^.*node_modules\//, '')}${process.env.PROFILE_CATEGORY ? `  [${category}]` : ''}`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + delta);
  });
  const perRequest = (n: number) => (requests ? `  ${(n / Number(requests)).toFixed(1).padStart(6)} µs/request` : '');
  const share = (n: number) => `${((100 * n) / total).toFixed(1).padStart(5)} %${perRequest(n)}`;
  console.log(`${(total / 1e6).toFixed(1)} s of samples\n\nby category (self time):`);
  for (const [name, time] of [...byCategory].sort((a, b) => b[1] - a[1])) console.log(`${share(time)}  ${name}`);
  console.log('\ntop functions (self time):');
  for (const [name, time] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.PROFILE_TOP ?? 30))) console.log(`${share(time)}  ${name}`);
}

main();
