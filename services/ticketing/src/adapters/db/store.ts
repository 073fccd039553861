import { enqueueOutbox } from '@crm/messaging';
import type { Envelope } from '@crm/contracts';
import { isReachable, withTransaction, type Pool, type PoolClient } from '@crm/db';
import { AccountRepository } from './accounts';
import { ActivityRepository } from './activities';
import { ContactRepository } from './contacts';
import { CrmEventRepository } from './crm-events';
import { DmConversationRepository } from './dm-conversations';
import { HeldDeliveryRepository } from './held-deliveries';
import { IdempotencyKeyRepository } from './idempotency-keys';
import { Locks } from './locks';
import { MergeRepository } from './merges';
import { OutboundRepository } from './outbound';
import { PartnerConfigRepository } from './partner-configs';
import { RawLog } from './raw-log';
import { TicketLifeRepository } from './ticket-life';
import { SearchQueryRepository } from './search-queries';
import { SilenceRepository } from './silences';
import { SlaRepository } from './sla';
import { TicketQueries, type TicketFilter, type TicketRow } from './ticket-queries';
import { OrderRepository } from './ticket-orders';
import { OrderFindingRepository } from './order-findings';
import { TicketRepository } from './tickets';
import { ViewCountRepository } from './view-counts';
import { WebhookRepository } from './webhooks';

/** Messages stored to be published after the commit (the transactional outbox). */
export interface Outbox {
  enqueue(exchange: string, routingKey: string, envelope: Envelope): Promise<void>;
}

/** Everything one transaction can read and change; every repository runs on the same connection. */
export interface TicketingTx {
  /** The transaction's clock (the time it started, the same for every statement). */
  now(): Promise<Date>;
  locks: Locks;
  tickets: TicketRepository;
  activities: ActivityRepository;
  outbound: OutboundRepository;
  contacts: ContactRepository;
  dmConversations: DmConversationRepository;
  accounts: AccountRepository;
  partnerConfigs: PartnerConfigRepository;
  held: HeldDeliveryRepository;
  orders: OrderRepository;
  /** Order references found in messages, checked with tracking after the commit. */
  orderFindings: OrderFindingRepository;
  sla: SlaRepository;
  searchQueries: SearchQueryRepository;
  /** The silence alarm's state and what it reads of the raw log. */
  silences: SilenceRepository;
  outbox: Outbox;
  /** People's changes and internal timeline entries. */
  life: TicketLifeRepository;
  merges: MergeRepository;
  /** What the CRM and the live inbox hear of the transaction's changes. */
  crmEvents: CrmEventRepository;
  webhooks: WebhookRepository;
  /** Every accepted delivery as it came (append-only). */
  rawLog: RawLog;
  /** Idempotency keys of writes that send something (replies, actions). */
  idempotencyKeys: IdempotencyKeyRepository;
  /** The counters of the workspace's views (kept by a trigger; folded now and then). */
  viewCounts: ViewCountRepository;
}

/** The read side: queries outside any transaction, for the API and the release sweep. */
export interface TicketingReads {
  tickets: TicketQueries;
  accounts: Pick<AccountRepository, 'find' | 'list'>;
  partnerConfigs: Pick<PartnerConfigRepository, 'row' | 'rows'>;
  held: Pick<HeldDeliveryRepository, 'list' | 'count' | 'expired' | 'accountsReadyForRelease'>;
  webhooks: WebhookRepository;
  sla: Pick<SlaRepository, 'ticketsWithDueTimers'>;
  searchQueries: Pick<SearchQueryRepository, 'listQueryStates'>;
  silences: Pick<SilenceRepository, 'countSilent'>;
}

/** now() is the transaction's start time whatever the statement: asked at most once, or learnt from a statement that returned it. */
export class TransactionClock {
  private known: Promise<Date> | null = null;

  constructor(private readonly db: PoolClient) {}

  now(): Promise<Date> {
    return (this.known ??= this.db.query<{ now: Date }>('SELECT now() AS now').then(({ rows }) => rows[0]!.now));
  }

  learn(at: Date): void {
    this.known ??= Promise.resolve(at);
  }
}

function boundTo(db: PoolClient): TicketingTx {
  const outbox: Outbox = {
    enqueue: (exchange, routingKey, envelope) => enqueueOutbox(db, exchange, routingKey, envelope),
  };
  const clock = new TransactionClock(db);
  return {
    now: () => clock.now(),
    locks: new Locks(db, clock),
    tickets: new TicketRepository(db),
    activities: new ActivityRepository(db),
    outbound: new OutboundRepository(db),
    contacts: new ContactRepository(db),
    dmConversations: new DmConversationRepository(db),
    accounts: new AccountRepository(db),
    partnerConfigs: new PartnerConfigRepository(db),
    held: new HeldDeliveryRepository(db),
    orders: new OrderRepository(db),
    orderFindings: new OrderFindingRepository(db),
    outbox,
    life: new TicketLifeRepository(db),
    merges: new MergeRepository(db),
    crmEvents: new CrmEventRepository(db),
    webhooks: new WebhookRepository(db),
    sla: new SlaRepository(db),
    searchQueries: new SearchQueryRepository(db),
    silences: new SilenceRepository(db),
    rawLog: new RawLog(db),
    idempotencyKeys: new IdempotencyKeyRepository(db),
    viewCounts: new ViewCountRepository(db),
  };
}

/**
 * ticketing's database: `transaction(work)` runs `work` in one transaction (re-run on a
 * deadlock or serialization failure, so `work` must not have effects outside it), with
 * repositories bound to it; `read` answers queries.
 */
export class TicketingStore {
  readonly read: TicketingReads;
  /** The raw log outside any transaction: counted, read in order for a rebuild, purged. */
  readonly rawLog: RawLog;

  /** The connection pool, for adapters that run their own transactions (the outbox relay). */
  constructor(readonly pool: Pool) {
    this.rawLog = new RawLog(pool);
    this.read = {
      tickets: new TicketQueries(pool),
      accounts: new AccountRepository(pool),
      partnerConfigs: new PartnerConfigRepository(pool),
      held: new HeldDeliveryRepository(pool),
      webhooks: new WebhookRepository(pool),
      sla: new SlaRepository(pool),
      searchQueries: new SearchQueryRepository(pool),
      silences: new SilenceRepository(pool),
    };
  }

  transaction<T>(work: (tx: TicketingTx) => Promise<T>): Promise<T> {
    return withTransaction(this.pool, (client) => work(boundTo(client)));
  }

  /**
   * A page of tickets read in a transaction of its own whose statements may run at most
   * `timeoutMs` (searches), each planned for its own values (the pool's prepared statements would
   * otherwise settle on one generic plan after five runs), and without parallel workers: a page
   * of 50 is less work than starting them, which on a busy machine took most of a search's time.
   */
  ticketsWithin(timeoutMs: number, filter: TicketFilter): Promise<{ rows: TicketRow[]; more: boolean }> {
    return withTransaction(this.pool, async (client) => {
      await client.query(`SET LOCAL statement_timeout = ${Math.floor(timeoutMs)}`);
      await client.query('SET LOCAL plan_cache_mode = force_custom_plan');
      await client.query('SET LOCAL max_parallel_workers_per_gather = 0');
      return new TicketQueries(client).tickets(filter);
    });
  }

  /** The same work, in a transaction an adapter already holds (the outbox relay's). */
  inTransactionOf<A extends unknown[], T>(work: (tx: TicketingTx, ...args: A) => Promise<T>): (client: PoolClient, ...args: A) => Promise<T> {
    return (client, ...args) => work(boundTo(client), ...args);
  }

  isReachable(): Promise<boolean> {
    return isReachable(this.pool);
  }

  /** Closes the pool: the last stop step. */
  end(): Promise<void> {
    return this.pool.end();
  }
}
