import {
  checkPartnerConfig,
  DEFAULT_POLICY,
  DEFAULT_SEARCH_INTERVAL_SECONDS,
  dispositionOf,
  route,
  searchQueriesOf,
  slaPolicyOf,
  withDefaults,
  type PartnerConfigInput,
  type RoutingSubject,
} from './partner-config';

const defaults = { queue: 'social', folder: 'inbox', firstResponseMinutes: 60, resolutionMinutes: 1440 };

describe('partner configuration: validation', () => {
  it('accepts an empty configuration and the full shape of docs/architecture.md ("CRM-facing HTTP")', () => {
    expect(checkPartnerConfig({})).toEqual([]);
    const full = {
      pageId: '2975699229',
      pageName: 'Acme Support',
      consumerKey: 'abcd…wxyz',
      accessToken: 'abcd…wxyz',
      sla: {
        firstResponseMinutes: 60,
        resolutionMinutes: 1440,
        atRiskPercent: 80,
        byPriority: { urgent: { firstResponseMinutes: 10, resolutionMinutes: 120 }, low: { resolutionMinutes: 4320 } },
        businessHours: { timeZone: 'Europe/Madrid', weekly: { mon: [['09:00', '14:00'], ['15:00', '18:00']], fri: [['09:00', '24:00']] } },
      },
      routing: {
        defaultQueue: 'social',
        defaultFolder: 'inbox',
        rules: [{ name: 'refunds', when: { kinds: ['dm_received'], keywords: ['refund'], senders: ['@ana', '3001969357'], languages: ['en'] }, queue: 'billing', folder: 'refunds' }],
      },
      policy: { mention: 'timeline', likeOfAccount: 'ticket', followOfAccount: 'ignore', reopenWindowMinutes: 120 },
      searchQueries: ['acme refund', { query: '@acme', intervalSeconds: 60, includeReposts: true }],
      merge: { enabled: true, windowMinutes: 30 },
    };
    expect(checkPartnerConfig(full)).toEqual([]);
  });

  it.each([
    [{ sla: { firstResponseMinutes: 0 } }, '/sla/firstResponseMinutes must be >= 1'],
    [{ sla: { firstResponseMinutes: '60' } }, '/sla/firstResponseMinutes must be integer'],
    [{ routing: { rules: [{ name: 'x', folder: 'f' }] } }, "/routing/rules/0 must have required property 'queue'"],
    [{ routing: { rules: [{ name: 'x', queue: 'q', folder: 'f', when: { kinds: ['likes'] } }] } }, '/routing/rules/0/when/kinds/0 must be equal to one of the allowed values'],
    [{ routing: { rules: [{ name: 'x', queue: 'q', folder: 'f', when: { senders: ['ana'] } }] } }, '/routing/rules/0/when/senders/0 must match pattern'],
    [{ routing: { rules: [{ name: 'x', queue: 'q', folder: 'f', when: { langs: ['en'] } }] } }, "/routing/rules/0/when must NOT have additional properties 'langs'"],
    [{ routing: { defaultQueue: '   ' } }, '/routing/defaultQueue must match pattern'],
    [{ policy: { mention: 'sometimes' } }, '/policy/mention must be equal to one of the allowed values'],
    [{ policy: { reopenWindowMinutes: -1 } }, '/policy/reopenWindowMinutes must be >= 0'],
    [{ searchQueries: 'acme' }, '/searchQueries must be array'],
    [{ merge: { enabled: 'yes' } }, '/merge/enabled must be boolean'],
    [{ searchQueries: [{ query: 'acme', intervalSeconds: 1 }] }, '/searchQueries/0/intervalSeconds must be >= 10'],
    [{ searchQueries: [{ interval: 60 }] }, "/searchQueries/0 must have required property 'query'"],
    [{ searchQueries: ['Acme', { query: 'acme ' }] }, '/searchQueries/1 repeats the query "acme"'],
    [{ sla: { atRiskPercent: 100 } }, '/sla/atRiskPercent must be <= 99'],
    [{ sla: { byPriority: { critical: { firstResponseMinutes: 5 } } } }, "/sla/byPriority must NOT have additional properties 'critical'"],
    [{ sla: { byPriority: { urgent: { firstResponseMinutes: 0 } } } }, '/sla/byPriority/urgent/firstResponseMinutes must be >= 1'],
    [{ sla: { businessHours: { timeZone: 'Mars/Olympus', weekly: { mon: [['09:00', '18:00']] } } } }, '/sla/businessHours/timeZone must be an IANA time zone'],
    [{ sla: { businessHours: { timeZone: 'Europe/Madrid', weekly: { monday: [['09:00', '18:00']] } } } }, '/sla/businessHours/weekly/monday is not a weekday'],
    [{ sla: { businessHours: { timeZone: 'Europe/Madrid', weekly: { mon: [['9:00', '18:00']] } } } }, '/sla/businessHours/weekly/mon/0/0 must be HH:MM'],
    [{ sla: { businessHours: { timeZone: 'Europe/Madrid', weekly: { tue: [['18:00', '09:00']] } } } }, '/sla/businessHours/weekly/tue/0 must end after it starts'],
    [{ sla: { businessHours: { timeZone: 'Europe/Madrid', weekly: { wed: [['09:00', '14:00'], ['13:00', '18:00']] } } } }, '/sla/businessHours/weekly/wed/1 overlaps'],
    [{ sla: { businessHours: { timeZone: 'Europe/Madrid', weekly: { sat: [] } } } }, '/sla/businessHours/weekly must open on at least one day'],
    [{ sla: { businessHours: { timeZone: 'Europe/Madrid' } } }, '/sla/businessHours/weekly must be an object'],
    [{ pageName: 42 }, '/pageName must be string,null'],
    [{ colour: 'blue' }, "(root) must NOT have additional properties 'colour'"],
  ])('names the bad field of %j', (body, problem) => {
    expect(checkPartnerConfig(body).join('; ')).toContain(problem);
  });
});

describe('partner configuration: defaults', () => {
  it("fills every missing part: the service's queue, folder and SLA, the issue's policy", () => {
    expect(withDefaults('1001', {}, defaults)).toEqual({
      pageId: '1001',
      pageName: null,
      sla: { firstResponseMinutes: 60, resolutionMinutes: 1440, businessHours: null, atRiskPercent: null, byPriority: {} },
      routing: { defaultQueue: 'social', defaultFolder: 'inbox', rules: [] },
      policy: {
        dmReceived: 'ticket',
        mention: 'ticket',
        quoteOfAccount: 'ticket',
        replyToAccount: 'ticket',
        repostOfAccount: 'timeline',
        likeOfAccount: 'timeline',
        followOfAccount: 'timeline',
        unfollowOfAccount: 'timeline',
        reopenWindowMinutes: 10080,
      },
      searchQueries: [],
      merge: { enabled: false, windowMinutes: 60 },
      // Orders found in messages: off until the configuration names a tracking client.
      orders: null,
    });
  });

  it('keeps what is given, drops the read-only credentials', () => {
    const input: PartnerConfigInput = { pageName: 'Acme', consumerKey: 'x…y', accessToken: 'a…b', sla: { resolutionMinutes: 99 }, policy: { likeOfAccount: 'ticket' } };
    const config = withDefaults('1001', input, defaults);
    expect(config).toMatchObject({ pageName: 'Acme', sla: { firstResponseMinutes: 60, resolutionMinutes: 99 }, policy: { likeOfAccount: 'ticket', mention: 'ticket' } });
    expect(config).not.toHaveProperty('consumerKey');
    expect(config).not.toHaveProperty('accessToken');
  });

  it('says what each kind does; kinds without a toggle have none', () => {
    const config = withDefaults('1001', { policy: { mention: 'timeline' } }, defaults);
    expect(dispositionOf('mention', config)).toBe('timeline');
    expect(dispositionOf('dm_received', config)).toBe(DEFAULT_POLICY.dmReceived);
    expect(dispositionOf('like_of_account', config)).toBe('timeline');
    expect(dispositionOf('dm_sent', config)).toBeNull();
  });
});

describe('routing', () => {
  const config = withDefaults(
    '1001',
    {
      routing: {
        defaultQueue: 'social',
        defaultFolder: 'inbox',
        rules: [
          { name: 'vip', when: { senders: ['@BigCustomer', '42'] }, queue: 'vip', folder: 'inbox' },
          { name: 'refunds', when: { kinds: ['dm_received'], keywords: ['refund', 'money back'] }, queue: 'billing', folder: 'refunds' },
          { name: 'spanish mentions', when: { kinds: ['mention', 'reply_to_account'], languages: ['es'] }, queue: 'social-es', folder: 'inbox' },
          { name: 'all refunds', when: { keywords: ['refund'] }, queue: 'billing', folder: 'public' },
        ],
      },
    },
    defaults,
  );
  const subject = (fields: Partial<RoutingSubject>): RoutingSubject => ({ kind: 'dm_received', text: 'hello', senderId: '7', senderScreenName: 'ana', lang: null, ...fields });

  it('takes the first rule whose every condition holds', () => {
    expect(route(subject({ text: 'I want a REFUND now' }), config)).toEqual({ queue: 'billing', folder: 'refunds', rule: 'refunds' });
    expect(route(subject({ text: 'refund please', senderScreenName: 'bigcustomer' }), config)).toEqual({ queue: 'vip', folder: 'inbox', rule: 'vip' });
    expect(route(subject({ senderId: '42', senderScreenName: null }), config).rule).toBe('vip');
    expect(route(subject({ kind: 'mention', text: 'refund?' }), config)).toEqual({ queue: 'billing', folder: 'public', rule: 'all refunds' });
  });

  it('matches keywords as whole words or phrases, case-insensitively', () => {
    expect(route(subject({ text: 'I want my Money  back' }), config).rule).toBeNull();
    expect(route(subject({ text: 'I want my money back!' }), config).rule).toBe('refunds');
    expect(route(subject({ text: 'refunded already' }), config).rule).toBeNull();
  });

  it('matches languages by primary tag; an activity without one matches no language condition', () => {
    expect(route(subject({ kind: 'mention', lang: 'es' }), config).rule).toBe('spanish mentions');
    expect(route(subject({ kind: 'reply_to_account', lang: 'es-MX' }), config).rule).toBe('spanish mentions');
    expect(route(subject({ kind: 'mention', lang: 'en' }), config).rule).toBeNull();
    expect(route(subject({ kind: 'mention', lang: null }), config).rule).toBeNull();
  });

  it('falls back to the default queue and folder', () => {
    expect(route(subject({}), config)).toEqual({ queue: 'social', folder: 'inbox', rule: null });
  });
});

describe('partner configuration: search queries and SLA policy', () => {
  it('reads plain strings and objects alike, with defaults', () => {
    expect(searchQueriesOf(['acme', { query: 'acme refund', intervalSeconds: 60, includeReposts: true }])).toEqual([
      { query: 'acme', intervalSeconds: DEFAULT_SEARCH_INTERVAL_SECONDS, includeReposts: false },
      { query: 'acme refund', intervalSeconds: 60, includeReposts: true },
    ]);
  });

  it('fills the optional SLA parts of a configuration stored before they existed', () => {
    expect(slaPolicyOf({ sla: { firstResponseMinutes: 5, resolutionMinutes: 50 } })).toEqual({
      firstResponseMinutes: 5,
      resolutionMinutes: 50,
      businessHours: null,
      atRiskPercent: null,
      byPriority: {},
    });
  });
});
