import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import type { Express, NextFunction, Request, Response } from 'express';
import { createHttpApp, Refusal } from '@crm/http';
import type { Logger } from '@crm/logging';
import { registerSecret } from '@crm/logging';
import { sameSecret } from '@crm/secrets';
import { CallLog } from './calls';
import type { SimulatorConfig } from './config';
import { FAILURE_MODES, FAILURE_TARGETS, Failures, type FailureMode, type FailureTarget } from './failures';
import { osrmRoute } from './osrm';
import { Pushes } from './pushes';
import { INCLUDE_GROUPS, isFinished, newTask, POSITION_MODES, stateAt, taskRecord, type Place, type PositionMode, type SimTask } from './tasks';

export interface SimulatorAppOptions {
  config: SimulatorConfig;
  logger: Logger;
  /** The simulator's clock (ms since the epoch). */
  now?: () => number;
}

/** A request held by the `timeout` failure is dropped after this long at most. */
const HOLD_MS = 30_000;

type Body = Record<string, unknown>;

const invalid = (field: string, problem: string) => new Refusal('invalid', 'invalid_request', `\`${field}\` ${problem}`);
const isObject = (value: unknown): value is Body => typeof value === 'object' && value !== null && !Array.isArray(value);
const ID = /^[A-Za-z0-9._:-]{1,128}$/;

function requireObject(value: unknown, what = 'the body'): Body {
  if (!isObject(value)) throw new Refusal('invalid', 'invalid_request', `${what} must be a JSON object (content-type application/json)`);
  return value;
}

function optionalNumber(body: Body, field: string, { min = -Infinity, max = Infinity } = {}): number | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) throw invalid(field, `must be a number from ${min} to ${max}`);
  return value;
}

function optionalPlace(body: Body, field: string): Place | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (!isObject(value)) throw invalid(field, 'must be {lat, lng, address?}');
  const lat = optionalNumber(value, 'lat', { min: -90, max: 90 });
  const lng = optionalNumber(value, 'lng', { min: -180, max: 180 });
  if (lat === undefined || lng === undefined) throw invalid(field, 'needs numeric lat and lng');
  const address = typeof value.address === 'string' ? value.address : `${lat.toFixed(5)}, ${lng.toFixed(5)}`;
  return { lat, lng, name: field === 'pickup' ? 'Store' : 'Customer', address };
}

/** The provider's create bodies may carry `pickupLatLng {lat,lng}` and `pickupLocationAddress.formattedAddress` (and drop*). */
function placeFromCreateBody(body: Body, kind: 'pickup' | 'drop'): Place | undefined {
  const latLng = body[`${kind}LatLng`];
  if (!isObject(latLng) || typeof latLng.lat !== 'number' || typeof latLng.lng !== 'number') return undefined;
  const address = body[`${kind}LocationAddress`];
  const formatted = isObject(address) && typeof address.formattedAddress === 'string' ? address.formattedAddress : `${latLng.lat}, ${latLng.lng}`;
  return { lat: latLng.lat, lng: latLng.lng, name: kind === 'pickup' ? 'Store' : 'Customer', address: formatted };
}

function basicAuthUser(req: Request): { username: string; password: string } | null {
  const match = /^Basic ([A-Za-z0-9+/=]+)$/.exec(req.get('authorization') ?? '');
  if (!match) return null;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const at = decoded.indexOf(':');
  return at < 0 ? null : { username: decoded.slice(0, at), password: decoded.slice(at + 1) };
}

/** What the simulated provider holds: its clients, tasks, injected failures and the calls it received. */
class ProviderWorld {
  readonly clients: Map<string, string>;
  readonly tasks = new Map<string, SimTask>();
  readonly failures = new Failures();
  readonly calls = new CallLog();
  readonly pushes: Pushes;
  /** Requests a `timeout` failure holds open. */
  readonly held = new Set<Socket>();
  readonly trackBase: string;

  constructor(
    config: SimulatorConfig,
    readonly logger: Logger,
    readonly now: () => number,
  ) {
    this.clients = new Map(config.clients);
    this.trackBase = `${config.PUBLIC_URL}/track`;
    this.pushes = new Pushes(logger);
  }

  /** Pushes each task of a client with a webhook whose status or ETA changed since its last push. */
  async pushChanges(): Promise<void> {
    const sent: Promise<void>[] = [];
    for (const task of this.tasks.values()) {
      if (!this.pushes.webhooks.has(task.clientId)) continue;
      const record = this.recordOf(task);
      const status = (record.status as { status: string }).status;
      if (this.pushes.changed(ProviderWorld.key(task.clientId, task.taskId), `${status}|${String(record.eta)}`)) {
        sent.push(this.pushes.push(task.clientId, task.taskId, record, new Date(this.now()).toISOString()));
      }
    }
    await Promise.all(sent);
  }

  static key(clientId: string, taskId: string): string {
    return `${clientId}\u0000${taskId}`;
  }

  has(clientId: string, taskId: string): boolean {
    return this.tasks.has(ProviderWorld.key(clientId, taskId));
  }

  add(task: SimTask): void {
    this.tasks.set(ProviderWorld.key(task.clientId, task.taskId), task);
  }

  /** A task's record as the provider answers it, with every field group unless `includes` names some. */
  recordOf(task: SimTask, includes: Set<string> = new Set(INCLUDE_GROUPS)) {
    return taskRecord(task, this.now(), includes, this.trackBase);
  }

  record(req: Request, target: FailureTarget, task?: { clientId: string; taskId: string }): void {
    this.calls.record(
      {
        at: new Date(this.now()).toISOString(),
        target,
        method: req.method,
        path: req.path,
        query: { ...(req.query as Record<string, unknown>) },
        body: req.rawBody ? req.rawBody.toString('utf8') : null,
        contentType: req.get('content-type') ?? null,
        username: basicAuthUser(req)?.username ?? null,
      },
      task,
    );
  }

  /** Applies an injected failure; true when the request was answered (or dropped) by it. */
  async injected(target: FailureTarget, clientId: string | null, res: Response): Promise<boolean> {
    const failure = this.failures.take(target, clientId);
    if (!failure) return false;
    switch (failure.mode) {
      case 'latency':
        await new Promise((resolve) => setTimeout(resolve, failure.latencyMs));
        return false;
      case 'error':
        res.status(failure.status).json({ error: { code: 'injected_failure', message: `simulated failure (HTTP ${failure.status})` } });
        return true;
      case 'reset':
        res.socket?.destroy();
        return true;
      case 'timeout':
        if (res.socket) this.hold(res.socket);
        return true;
    }
  }

  private hold(socket: Socket): void {
    this.held.add(socket);
    const timer = setTimeout(() => socket.destroy(), HOLD_MS).unref();
    socket.once('close', () => {
      clearTimeout(timer);
      this.held.delete(socket);
    });
  }

  /** Basic auth: user = the path's clientId, password = its API key (compared in constant time). */
  authenticate(req: Request, clientId: string): void {
    const given = basicAuthUser(req);
    if (!given) throw new Refusal('unauthorized', 'unauthorized', 'send HTTP basic auth: clientId as user name, the API key as password', { headers: { 'www-authenticate': 'Basic realm="tracking"' } });
    const key = this.clients.get(given.username);
    const valid = key !== undefined && sameSecret(given.password, key);
    if (!valid) throw new Refusal('unauthorized', 'unauthorized', 'unknown client or wrong API key', { headers: { 'www-authenticate': 'Basic realm="tracking"' } });
    if (given.username !== clientId) throw new Refusal('forbidden', 'forbidden', `client '${given.username}' may not read tasks of client '${clientId}'`);
  }

  findTask(clientId: string, taskId: string): SimTask {
    const task = this.tasks.get(ProviderWorld.key(clientId, taskId));
    if (!task) throw new Refusal('not_found', 'task_not_found', `no task '${taskId}' for client '${clientId}'`);
    return task;
  }

  /** Creates a task from a provider create body; an existing id keeps its task (idempotent). */
  createFromBody(clientId: string, taskId: string, body: Body): { task: SimTask; created: boolean } {
    const existing = this.tasks.get(ProviderWorld.key(clientId, taskId));
    if (existing) return { task: existing, created: false };
    const user = body.assignedUser;
    if (!isObject(user) || typeof user.userId !== 'string' || typeof user.carrierClientId !== 'string') {
      throw new Refusal('invalid', 'invalid_task', 'assignedUser.userId and assignedUser.carrierClientId are required strings');
    }
    const task = newTask({
      clientId,
      taskId,
      nowMs: this.now(),
      pickup: placeFromCreateBody(body, 'pickup'),
      drop: placeFromCreateBody(body, 'drop'),
      rider: { userId: user.userId, carrierClientId: user.carrierClientId },
      sourceOrderId: typeof body.sourceOrderId === 'string' ? body.sourceOrderId : null,
      orderDetail: body.orderDetail ?? null,
    });
    this.add(task);
    this.logger.info('task created', { clientId, taskId });
    return { task, created: true };
  }

  /** A task the control API asks for: any position mode, elapsed time and speed. */
  createFromControl(body: Body): SimTask {
    if (typeof body.clientId !== 'string' || !this.clients.has(body.clientId)) throw invalid('clientId', 'must name a client the simulator knows');
    const taskId = body.taskId === undefined ? `task-${randomUUID().slice(0, 8)}` : body.taskId;
    if (typeof taskId !== 'string' || !ID.test(taskId)) throw invalid('taskId', 'must be 1-128 of A-Z a-z 0-9 . _ : -');
    if (this.has(body.clientId, taskId)) throw new Refusal('conflict', 'task_exists', `task '${taskId}' exists already`);
    const position = body.position ?? 'live';
    if (!POSITION_MODES.includes(position as PositionMode)) throw invalid('position', `must be one of ${POSITION_MODES.join(', ')}`);
    if (body.eta !== undefined && typeof body.eta !== 'boolean') throw invalid('eta', 'must be true or false');
    const task = newTask({
      clientId: body.clientId,
      taskId,
      nowMs: this.now(),
      pickup: optionalPlace(body, 'pickup'),
      drop: optionalPlace(body, 'drop'),
      elapsedSeconds: optionalNumber(body, 'elapsedSeconds', { min: 0, max: 86_400 }),
      speedMps: optionalNumber(body, 'speedMps', { min: 0.1, max: 100 }),
      position: position as PositionMode,
      withEta: body.eta as boolean | undefined,
      rider: isObject(body.rider) ? (body.rider as Record<string, string>) : undefined,
    });
    this.add(task);
    return task;
  }
}

const includes = (req: Request): Set<string> => {
  const value = req.query.include;
  return new Set(typeof value === 'string' ? value.split(',').map((name) => name.trim()) : []);
};

/** A provider route: the call recorded, an injected failure applied, basic auth checked, then `handle`. */
const providerRoute =
  (world: ProviderWorld, handle: (req: Request, res: Response, ids: { clientId: string; taskId: string | undefined }) => void) =>
  async (req: Request<{ clientId: string; taskId?: string }>, res: Response, next: NextFunction): Promise<void> => {
    const { clientId, taskId } = req.params;
    world.record(req, 'provider', taskId ? { clientId, taskId } : undefined);
    try {
      if (await world.injected('provider', clientId, res)) return;
      world.authenticate(req, clientId);
      handle(req, res, { clientId, taskId });
    } catch (error) {
      next(error);
    }
  };

/** The provider's API: read a task, create one idempotently (PUT) or not (POST). */
function providerRoutes(app: Express, world: ProviderWorld): void {
  app.get(
    '/v1/client/:clientId/task/:taskId',
    providerRoute(world, (req, res, { clientId, taskId }) => {
      // The provider takes an empty JSON object as the body of its GETs.
      if (!isObject(req.body)) throw new Refusal('invalid', 'invalid_request', 'send an empty JSON object `{}` as the body (content-type application/json)');
      res.json(world.recordOf(world.findTask(clientId, taskId!), includes(req)));
    }),
  );
  app.put(
    '/v1/client/:clientId/mpmdtask/:taskId',
    providerRoute(world, (req, res, { clientId, taskId = '' }) => {
      if (!ID.test(taskId)) throw new Refusal('invalid', 'invalid_request', 'the task id must be 1-128 of A-Z a-z 0-9 . _ : -');
      const { task, created } = world.createFromBody(clientId, taskId, requireObject(req.body));
      res.status(created ? 201 : 200).json(world.recordOf(task));
    }),
  );
  // A create that is not idempotent by itself: the task id in the body, 409 when it is taken.
  app.post(
    '/v1/client/:clientId/task',
    providerRoute(world, (req, res, { clientId }) => {
      const body = requireObject(req.body);
      const taskId = typeof body.taskId === 'string' && ID.test(body.taskId) ? body.taskId : null;
      if (!taskId) throw new Refusal('invalid', 'invalid_request', '`taskId` must be 1-128 of A-Z a-z 0-9 . _ : -');
      if (world.has(clientId, taskId)) throw new Refusal('conflict', 'task_exists', `task '${taskId}' exists already`);
      res.status(201).json(world.recordOf(world.createFromBody(clientId, taskId, body).task));
    }),
  );
}

/** The OSRM route API and the page a tracking link opens. */
function routerAndTrackRoutes(app: Express, world: ProviderWorld): void {
  app.get('/route/v1/driving/:coordinates', async (req: Request<{ coordinates: string }>, res: Response) => {
    world.record(req, 'router');
    if (await world.injected('router', null, res)) return;
    const answer = osrmRoute(req.params.coordinates);
    res.status(answer.status).json(answer.body);
  });
  app.get('/track/:clientId/:taskId', (req: Request<{ clientId: string; taskId: string }>, res: Response) => {
    const task = world.findTask(req.params.clientId, req.params.taskId);
    const state = stateAt(task, world.now());
    res.json({ taskId: task.taskId, status: state.status, dropAddress: task.drop.address });
  });
}

type TaskParams = Request<{ clientId: string; taskId: string }>;

/** Control API: clients and tasks (create, read, move along, cancel). */
function controlTaskRoutes(app: Express, world: ProviderWorld): void {
  app.get('/control/clients', (_req, res) => {
    res.json({ items: [...world.clients.keys()].map((clientId) => ({ clientId })) });
  });
  app.put('/control/clients/:clientId', (req: Request<{ clientId: string }>, res: Response) => {
    const body = requireObject(req.body);
    if (typeof body.apiKey !== 'string' || body.apiKey.length < 8) throw invalid('apiKey', 'must be a string of at least 8 characters');
    registerSecret(body.apiKey);
    world.clients.set(req.params.clientId, body.apiKey);
    res.json({ clientId: req.params.clientId });
  });
  app.post('/control/tasks', async (req, res) => {
    const task = world.createFromControl(requireObject(req.body));
    await world.pushChanges();
    res.status(201).json(world.recordOf(task));
  });
  app.get('/control/tasks/:clientId/:taskId', (req: TaskParams, res: Response) => {
    res.json(world.recordOf(world.findTask(req.params.clientId, req.params.taskId)));
  });
  // Moves a task's whole timeline earlier: the rider is `seconds` further along.
  app.post('/control/tasks/:clientId/:taskId/advance', async (req: TaskParams, res: Response) => {
    const task = world.findTask(req.params.clientId, req.params.taskId);
    const seconds = optionalNumber(requireObject(req.body), 'seconds', { min: 0, max: 86_400 });
    if (seconds === undefined) throw invalid('seconds', 'is required');
    task.assignedAtMs -= seconds * 1000;
    if (task.endedAtMs !== null) task.endedAtMs -= seconds * 1000;
    await world.pushChanges();
    res.json(world.recordOf(task));
  });
  // Makes the rider arrive `minutes` later (negative: earlier): the ETA moves.
  app.post('/control/tasks/:clientId/:taskId/delay', async (req: TaskParams, res: Response) => {
    const task = world.findTask(req.params.clientId, req.params.taskId);
    const minutes = optionalNumber(requireObject(req.body), 'minutes', { min: -1_440, max: 1_440 });
    if (minutes === undefined) throw invalid('minutes', 'is required');
    if (stateAt(task, world.now()).etaMs === null) throw new Refusal('conflict', 'no_eta', 'the task has no ETA to move: it has arrived, ended, or its record carries none');
    task.delaySeconds = Math.max(-task.pathMeters / task.speedMps / 2, task.delaySeconds + minutes * 60);
    await world.pushChanges();
    res.json(world.recordOf(task));
  });
  for (const [action, endedAs] of [['cancel', 'CANCELLED'], ['fail', 'FAILED']] as const) {
    app.post(`/control/tasks/:clientId/:taskId/${action}`, async (req: TaskParams, res: Response) => {
      const task = world.findTask(req.params.clientId, req.params.taskId);
      const status = stateAt(task, world.now()).status;
      if (isFinished(status)) throw new Refusal('conflict', 'task_finished', `task is ${status} already`);
      task.endedAtMs = world.now();
      task.endedAs = endedAs;
      await world.pushChanges();
      res.json(world.recordOf(task));
    });
  }
}

/** Control API: the task webhooks of clients (the provider's pushes) and what they answered. */
function controlPushRoutes(app: Express, world: ProviderWorld): void {
  app.put('/control/clients/:clientId/webhook', (req: Request<{ clientId: string }>, res: Response) => {
    const body = requireObject(req.body);
    if (!world.clients.has(req.params.clientId)) throw new Refusal('not_found', 'client_not_found', `no client '${req.params.clientId}': add it with PUT /control/clients/${req.params.clientId}`);
    if (typeof body.url !== 'string' || !/^https?:\/\//.test(body.url)) throw invalid('url', 'must be an http(s) URL');
    if (typeof body.secret !== 'string' || body.secret.length < 16) throw invalid('secret', 'must be a string of at least 16 characters');
    registerSecret(body.secret);
    world.pushes.webhooks.set(req.params.clientId, { url: body.url, secret: body.secret });
    res.json({ clientId: req.params.clientId, url: body.url });
  });
  app.delete('/control/clients/:clientId/webhook', (req: Request<{ clientId: string }>, res: Response) => {
    world.pushes.webhooks.delete(req.params.clientId);
    res.json({ clientId: req.params.clientId, removed: true });
  });
  app.get('/control/pushes', (_req, res) => {
    res.json({ items: world.pushes.outcomes });
  });
  // Pushes what changed now (the running simulator does it every SIM_PUSH_INTERVAL_MS).
  app.post('/control/pushes/run', async (_req, res) => {
    await world.pushChanges();
    res.json({ items: world.pushes.outcomes });
  });
}

/** A failure rule from the control API's body. */
function failureRule(body: Body) {
  const target = (body.target ?? 'provider') as FailureTarget;
  if (!FAILURE_TARGETS.includes(target)) throw invalid('target', `must be one of ${FAILURE_TARGETS.join(', ')}`);
  const mode = body.mode as FailureMode;
  if (!FAILURE_MODES.includes(mode)) throw invalid('mode', `must be one of ${FAILURE_MODES.join(', ')}`);
  const count = optionalNumber(body, 'count', { min: 1, max: 1_000_000 });
  if (body.clientId !== undefined && typeof body.clientId !== 'string') throw invalid('clientId', 'must be a string');
  return {
    target,
    mode,
    status: optionalNumber(body, 'status', { min: 400, max: 599 }) ?? 503,
    latencyMs: optionalNumber(body, 'latencyMs', { min: 0, max: 60_000 }) ?? 1_000,
    remaining: count === undefined ? null : Math.floor(count),
    clientId: (body.clientId as string | undefined) ?? null,
  };
}

/** Control API: failure injection and the calls received. */
function controlFailureRoutes(app: Express, world: ProviderWorld): void {
  app.put('/control/failures', (req, res) => {
    const rule = failureRule(requireObject(req.body));
    world.failures.set(rule);
    world.logger.info('failure injected', { ...rule });
    res.json(rule);
  });
  // Clears injected failures and drops the requests a `timeout` failure still holds.
  app.delete('/control/failures', (_req, res) => {
    world.failures.clear();
    for (const socket of world.held) socket.destroy();
    res.json({ cleared: true });
  });
  app.get('/control/failures', (_req, res) => {
    res.json({ items: world.failures.list() });
  });
  app.get('/control/calls', (_req, res) => {
    res.json(world.calls.counts());
  });
  app.delete('/control/calls', (_req, res) => {
    world.calls.reset();
    res.json(world.calls.counts());
  });
  app.get('/control/requests', (_req, res) => {
    res.json({ items: world.calls.requests() });
  });
}

/**
 * The tracking provider, played for the local stack and the tests: its task routes with
 * basic auth per client, tasks whose rider moves through the status lifecycle, the OSRM
 * route API, failure injection and a count of the calls received (control API).
 */
export function createTrackingSimulatorApp({ config, logger, now = Date.now }: SimulatorAppOptions): Express {
  const world = new ProviderWorld(config, logger, now);
  const app = createHttpApp({
    logger,
    readiness: {},
    routes: (app) => {
      providerRoutes(app, world);
      routerAndTrackRoutes(app, world);
      controlTaskRoutes(app, world);
      controlFailureRoutes(app, world);
      controlPushRoutes(app, world);
    },
  });
  // The changes time makes (a status reached, an ETA passed) are pushed by whoever runs the app on a timer (main.ts).
  (app.locals as SimulatorLocals).pushChanges = () => world.pushChanges();
  return app;
}

export interface SimulatorLocals {
  /** Pushes each task of a client with a webhook whose status or ETA changed since its last push. */
  pushChanges: () => Promise<void>;
}
