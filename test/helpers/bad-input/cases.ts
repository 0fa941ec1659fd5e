/**
 * The bad-input suite's generators: one fast-check arbitrary per category, each yielding a
 * builder that makes the request once the target run and the case's response_url are known.
 * Generators never make a request the bot should carry out (an approver approving the target
 * run, a valid cutover): every case is one the bot must refuse or answer without acting.
 */
import { parse as parseQuery } from 'node:querystring';
import fc from 'fast-check';
import { SLACK_BODY_LIMIT_BYTES } from '../../../src/adapters/http/slack-guard.js';
import { parseCommandText } from '../../../src/commands/parse.js';
import { ACTION, VIEW } from '../../../src/interactions/ids.js';
import { rejectModal, REASON_BLOCK, REASON_INPUT } from '../../../src/interactions/reject.js';
import {
  blockActionsBody,
  buttonClickPayload,
  slashCommandBody,
  viewSubmissionPayload,
} from '../../fakes/slack-signing.js';
import type { CaseBuilder, CaseEnv, CaseTarget, Category, FuzzCase, Signing } from './case.js';
import { hostileString, hostileWord, unknownDnsName } from './hostile.js';

const FORM = 'application/x-www-form-urlencoded';
const VERBS = ['help', 'clusters', 'preflight', 'plan', 'cutover', 'rollback', 'status', 'audit'];
const CLUSTER_VERBS = ['preflight', 'plan', 'status', 'cutover', 'rollback', 'audit'];
const NODE_VERBS = ['cutover', 'rollback', 'plan'];

/** An error reply, or the not-installed-here reply. */
const REFUSED_CLICK =
  /cannot be used|does not exist|does not belong|^Not (approved|rejected|rolled back|repaired):|no longer handled|names no drift|drift guard is off|drift has cleared|no trigger/;

const lower = (s: string): string => s.toLowerCase();

function command(
  env: CaseEnv,
  text: string,
  extra: Record<string, string | undefined> = {},
): string {
  const base = slashCommandBody({ text, response_url: env.responseUrl });
  const form = new URLSearchParams(base);
  for (const [key, value] of Object.entries(extra)) {
    if (value === undefined) form.delete(key);
    else form.set(key, value);
  }
  return form.toString();
}

const signed = (body: string, signing: Signing = 'valid', contentType = FORM) => ({
  method: 'POST',
  contentType,
  body,
  signing,
});

function slashCase(
  env: CaseEnv,
  category: Category,
  text: string,
  refusal: boolean,
  extra: Record<string, string | undefined> = {},
): FuzzCase {
  return {
    category,
    describe: `/proxy-migrate ${JSON.stringify(text.slice(0, 120))}${Object.keys(extra).length === 0 ? '' : ` ${JSON.stringify(extra).slice(0, 120)}`}`,
    request: signed(command(env, text, extra)),
    responseId: env.responseId,
    answer: { kind: 'reply', refusal },
    recorded: false,
  };
}

/**
 * Whether the text, as the bot parses it, names a real cluster with a verb that would read or
 * change it: those are valid requests, not bad input, and are left out of the random text.
 */
function actsOnCluster(text: string, target: CaseTarget): boolean {
  const { verb, args } = parseCommandText(text);
  if (!CLUSTER_VERBS.includes(verb)) return false;
  const cluster = args.find((a) => !a.startsWith('--'));
  return cluster !== undefined && target.clusters.includes(lower(cluster));
}

/** Random and grammar-shaped command text. */
const slashText: fc.Arbitrary<CaseBuilder> = fc
  .oneof(
    hostileString,
    fc
      .tuple(fc.constantFrom(...VERBS), fc.array(hostileWord, { maxLength: 4 }))
      .map(([verb, words]) => [verb, ...words].join(' ')),
    fc.string({ unit: 'binary', maxLength: 400 }),
  )
  .map((text) => (env: CaseEnv): FuzzCase => {
    // A random text that happens to be a valid request is turned into an unknown verb.
    const safe = actsOnCluster(text, env.target) ? `x${text}` : text;
    return slashCase(env, 'slash-text', safe, false);
  });

/** A verb and a hostile or unknown cluster name. */
const slashCluster: fc.Arbitrary<CaseBuilder> = fc
  .tuple(fc.constantFrom(...CLUSTER_VERBS), hostileWord, fc.option(hostileWord))
  .map(([verb, cluster, node]) => (env: CaseEnv): FuzzCase => {
    const name = parseCommandText(`${verb} ${cluster}`).args[0];
    const usable = name !== undefined && !name.startsWith('--');
    const safe = usable && env.target.clusters.includes(lower(name)) ? `zz${cluster}` : cluster;
    return slashCase(env, 'slash-cluster', `${verb} ${safe} ${node ?? ''}`, true);
  });

/** A real cluster and a hostile node name, or a well-formed one that does not exist. */
const slashNode: fc.Arbitrary<CaseBuilder> = fc
  .tuple(fc.constantFrom(...NODE_VERBS), fc.oneof(hostileWord, unknownDnsName), fc.boolean())
  .map(([verb, node, dryRun]) => (env: CaseEnv): FuzzCase => {
    const word = parseCommandText(`${verb} cluster-a ${node}`).args[1];
    const real = word !== undefined && env.target.nodes.includes(word);
    const safe = real || word === undefined || word.startsWith('--') ? `zz-${node}` : node;
    return slashCase(
      env,
      'slash-node',
      `${verb} cluster-a ${safe}${dryRun && verb !== 'plan' ? ' --dry-run' : ''}`,
      true,
    );
  });

/** Unknown options and extra arguments on otherwise valid commands. */
const slashOptions: fc.Arbitrary<CaseBuilder> = fc
  .tuple(
    fc.constantFrom(
      'cutover cluster-a blue-1',
      'rollback cluster-a blue-1',
      'preflight cluster-a',
      'status cluster-a',
      'plan cluster-a blue-1',
      'audit cluster-a blue-1',
    ),
    fc.oneof(
      hostileWord.map((w) => `--${w.replace(/\s/g, '')}`),
      fc.constantFrom('--force', '--yes', '--dry-run=false', '--DRY-RUN', '—dry-run', '--'),
      fc.array(hostileWord, { minLength: 1, maxLength: 3 }).map((w) => `extra ${w.join(' ')}`),
    ),
  )
  .map(([valid, bad]) => (env: CaseEnv): FuzzCase => {
    // `--dry-run` is the one option; an em dash is a word, not an option.
    const text = `${valid} ${bad}`;
    const { args } = parseCommandText(text);
    const extraWords = args.filter((a) => !a.startsWith('--')).length;
    const expected = valid.startsWith('preflight') || valid.startsWith('status') ? 1 : 2;
    const flags = args.filter((a) => a.startsWith('--'));
    const refused =
      extraWords > expected ||
      flags.some((f) => f !== '--dry-run') ||
      !valid.match(/cutover|rollback/);
    return slashCase(env, 'slash-options', refused ? text : `${text} --nope`, true);
  });

/** Valid requests from a channel the cluster may not be driven from. */
const slashChannel: fc.Arbitrary<CaseBuilder> = fc
  .constantFrom(
    'cutover cluster-a blue-1',
    'rollback cluster-a blue-1',
    'preflight cluster-a',
    'plan cluster-a',
    'status cluster-a',
    'audit cluster-a',
  )
  .map(
    (text) => (env: CaseEnv) =>
      slashCase(env, 'slash-channel', text, true, { channel_id: env.target.otherChannel }),
  );

/** Hostile values in the fields Slack fills in (user, channel, command, trigger). */
const slashFields: fc.Arbitrary<CaseBuilder> = fc
  .tuple(
    fc.constantFrom(
      'user_id',
      'user_name',
      'channel_id',
      'channel_name',
      'trigger_id',
      'command',
      'text',
      'team_domain',
      'api_app_id',
    ),
    fc.option(hostileString, { nil: undefined }),
    fc.constantFrom(
      'help',
      'clusters',
      'preflight nope',
      'cutover cluster-a zz-none',
      'preflight cluster-a',
    ),
  )
  .map(([field, value, text]) => (env: CaseEnv): FuzzCase => {
    // A valid pre-flight only from a channel that may not drive cluster-a (or none at all).
    const channelField = field === 'channel_id' && value !== env.target.channel;
    const t = text === 'preflight cluster-a' && !channelField ? 'preflight nope' : text;
    const refused = field !== 'text' && t !== 'help' && t !== 'clusters';
    const c = slashCase(env, 'slash-fields', t, refused, { [field]: value });
    // Slack always names the user and the channel: without them the edge refuses the command.
    if ((field === 'user_id' || field === 'channel_id') && (value ?? '') === '') {
      return { ...c, answer: { kind: 'http', statuses: [400] } };
    }
    // Another command, or none, names nothing this app answers: Bolt has no listener for it.
    if (field === 'command') return { ...c, answer: { kind: 'http-or-response' } };
    if (field === 'api_app_id') return { ...c, answer: { kind: 'reply', refusal: false } };
    return c;
  });

/** A command from another workspace or Enterprise org: the "not installed here" reply. */
const slashForeign: fc.Arbitrary<CaseBuilder> = fc
  .tuple(
    fc.constantFrom('team_id', 'enterprise_id'),
    fc.oneof(fc.constantFrom('T0OTHER', 'E0OTHER', 'T0TEST ', 't0test'), hostileWord),
    fc.constantFrom('preflight cluster-a', 'cutover cluster-a blue-1', 'help'),
  )
  .map(([field, value, text]) => (env: CaseEnv): FuzzCase => {
    const c = slashCase(env, 'slash-foreign', text, true, {
      [field]: value === env.target.homeTeam ? `${value}X` : value,
    });
    return c;
  });

function clickBody(
  env: CaseEnv,
  options: {
    actionId: string;
    value: string;
    userId?: string;
    teamId?: string;
    channelId?: string;
    messageTs?: string;
  },
): string {
  const payload = buttonClickPayload({
    actionId: options.actionId,
    messageTs: options.messageTs ?? env.target.approval.ts,
    responseUrl: env.responseUrl,
    channelId: options.channelId ?? env.target.channel,
    message: env.target.approval,
    value: options.value,
    ...(options.userId === undefined ? {} : { userId: options.userId }),
    ...(options.teamId === undefined ? {} : { teamId: options.teamId }),
  });
  return blockActionsBody(payload);
}

function clickCase(
  env: CaseEnv,
  category: Category,
  describe: string,
  body: string,
  recorded: boolean,
): FuzzCase {
  return {
    category,
    describe,
    request: signed(body),
    responseId: env.responseId,
    answer: { kind: 'response', pattern: REFUSED_CLICK },
    recorded,
  };
}

const RUN_ACTIONS = [ACTION.approve, ACTION.reject, ACTION.rollback] as const;
const strangers = fc.oneof(
  fc.constantFrom('U0MALLORY', 'U0EVE', 'W0GUEST', 'U0bob', 'U0BOB ', 'USLACKBOT'),
  fc.stringMatching(/^U[A-Z0-9]{2,10}$/).map((u) => `${u}Z`),
  hostileWord.filter((u) => u.length <= 300),
);

/** The approval card's buttons with a value that names no run, or a run that does not exist. */
const clickValue: fc.Arbitrary<CaseBuilder> = fc
  .tuple(
    fc.constantFrom(...RUN_ACTIONS),
    fc.oneof(
      hostileString,
      fc.stringMatching(/^(co|rb|pf|rp)-[A-Za-z0-9-]{4,60}$/),
      fc.constantFrom('', 'co-', 'co-1', 'co-aaaa/../x', 'CO-abcdef', 'dr-abcdef'),
    ),
    fc.constantFrom('U0BOB', 'U0DAVE'),
  )
  .map(([actionId, value, userId]) => (env: CaseEnv): FuzzCase => {
    const v = value === env.target.runId ? `${value}x` : value;
    return clickCase(
      env,
      'click-value',
      `${actionId} value=${JSON.stringify(v.slice(0, 80))} by ${userId}`,
      clickBody(env, { actionId, value: v, userId }),
      false,
    );
  });

/** Action ids the bot never posted (and the drift button with a hostile value). */
const clickAction: fc.Arbitrary<CaseBuilder> = fc
  .tuple(
    fc.oneof(
      hostileString,
      fc.constantFrom(
        'run.approve ',
        'RUN.APPROVE',
        'run.approve2',
        'run.',
        'approve',
        ACTION.repairDrift,
      ),
    ),
    fc.option(hostileString, { nil: undefined }),
  )
  .map(([actionId, value]) => (env: CaseEnv): FuzzCase => {
    const known: readonly string[] = RUN_ACTIONS;
    const id = known.includes(actionId) ? `${actionId}x` : actionId;
    return clickCase(
      env,
      'click-action',
      `action ${JSON.stringify(id.slice(0, 80))}`,
      clickBody(env, { actionId: id, value: value ?? env.target.runId, userId: 'U0BOB' }),
      false,
    );
  });

/** The run's own id from another message or channel: the button does not sit on the run. */
const clickContainer: fc.Arbitrary<CaseBuilder> = fc
  .tuple(
    fc.constantFrom(...RUN_ACTIONS),
    fc.oneof(
      fc.record({
        ts: fc.stringMatching(/^1[0-9]{9}\.[0-9]{6}$/),
        channel: fc.constant(undefined),
      }),
      fc.record({
        ts: fc.constant(undefined),
        channel: fc.oneof(fc.constantFrom('C0ELSEWHERE', 'C0OPS2', 'D0DM', 'c0ops'), hostileWord),
      }),
      fc.record({ ts: hostileWord, channel: hostileWord }),
    ),
    fc.constantFrom('U0BOB', 'U0DAVE'),
  )
  .map(([actionId, where, userId]) => (env: CaseEnv): FuzzCase => {
    const ts =
      where.ts !== undefined && env.target.messageTs.includes(where.ts) ? `${where.ts}9` : where.ts;
    const channel = where.channel === env.target.channel ? `${where.channel}X` : where.channel;
    const valid = (s: string | undefined) => s === undefined || (s !== '' && s.length <= 300);
    return clickCase(
      env,
      'click-container',
      `${actionId} by ${userId} from ts=${JSON.stringify(ts?.slice(0, 40))} channel=${JSON.stringify(channel?.slice(0, 40))}`,
      clickBody(env, {
        actionId,
        value: env.target.runId,
        userId,
        ...(ts === undefined ? {} : { messageTs: ts }),
        ...(channel === undefined ? {} : { channelId: channel }),
      }),
      valid(ts) && valid(channel),
    );
  });

/** An approver of cluster-a who belongs to another team (Slack Connect, Enterprise Grid). */
const clickTeam: fc.Arbitrary<CaseBuilder> = fc
  .tuple(
    fc.constantFrom(...RUN_ACTIONS),
    fc.constantFrom('U0BOB', 'U0DAVE'),
    fc.oneof(fc.constantFrom('T0OTHER', 'E0GRID', 't0test', 'T0TEST ', 'T0TES'), hostileWord),
  )
  .map(([actionId, userId, teamId]) => (env: CaseEnv): FuzzCase => {
    const team = teamId === env.target.homeTeam ? `${teamId}X` : teamId;
    return clickCase(
      env,
      'click-team',
      `${actionId} by ${userId}@${JSON.stringify(team.slice(0, 60))}`,
      clickBody(env, { actionId, value: env.target.runId, userId, teamId: team }),
      team !== '' && team.length <= 300,
    );
  });

/** People who are not approvers, and the requester approving their own run (four-eyes). */
const clickUser: fc.Arbitrary<CaseBuilder> = fc
  .oneof(
    fc.tuple(fc.constantFrom(...RUN_ACTIONS), strangers),
    fc.tuple(fc.constantFrom(ACTION.approve, ACTION.rollback), fc.constant('@requester')),
  )
  .map(([actionId, user]) => (env: CaseEnv): FuzzCase => {
    const userId =
      user === '@requester'
        ? env.target.requester
        : env.target.approvers.includes(user) || user === env.target.requester
          ? `${user}X`
          : user;
    return clickCase(
      env,
      'click-user',
      `${actionId} by ${JSON.stringify(userId.slice(0, 60))}`,
      clickBody(env, { actionId, value: env.target.runId, userId }),
      userId !== '',
    );
  });

const hostileJson: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(
    null,
    0,
    -1,
    1e308,
    true,
    false,
    [],
    {},
    '',
    [null],
    { id: null },
    { id: 'U0BOB' },
  ),
  hostileString,
  fc.json().map((j) => JSON.parse(j) as unknown),
  fc.array(hostileString, { maxLength: 3 }),
);

const SHAPE_PATHS = [
  ['type'],
  ['user'],
  ['user', 'id'],
  ['user', 'team_id'],
  ['team'],
  ['team', 'id'],
  ['actions'],
  ['actions', '0'],
  ['actions', '0', 'action_id'],
  ['actions', '0', 'value'],
  ['container'],
  ['container', 'message_ts'],
  ['container', 'channel_id'],
  ['channel'],
  ['message'],
  ['message', 'blocks'],
  ['trigger_id'],
  ['api_app_id'],
  ['enterprise'],
  ['state'],
] as const;

function setPath(target: Record<string, unknown>, path: readonly string[], value: unknown): void {
  let at: unknown = target;
  for (const key of path.slice(0, -1)) {
    if (typeof at !== 'object' || at === null) return;
    at = (at as Record<string, unknown>)[key];
  }
  if (typeof at !== 'object' || at === null) return;
  const last = path.at(-1);
  if (last === undefined) return;
  if (value === undefined) delete (at as Record<string, unknown>)[last];
  else (at as Record<string, unknown>)[last] = value;
}

/** A stranger's click with fields removed or replaced by any JSON: nothing may crash. */
const clickShape: fc.Arbitrary<CaseBuilder> = fc
  .tuple(
    fc.constantFrom(...RUN_ACTIONS),
    fc.array(
      fc.tuple(fc.constantFrom(...SHAPE_PATHS), fc.option(hostileJson, { nil: undefined })),
      { minLength: 1, maxLength: 4 },
    ),
  )
  .map(([actionId, edits]) => (env: CaseEnv): FuzzCase => {
    const payload = JSON.parse(
      new URLSearchParams(
        clickBody(env, { actionId, value: env.target.runId, userId: 'U0MALLORY' }),
      ).get('payload') ?? '{}',
    ) as Record<string, unknown>;
    for (const [path, value] of edits) {
      // The user stays a stranger: an edit may break the user, never make it an approver.
      const v =
        typeof value === 'string' &&
        (env.target.approvers.includes(value) || value === env.target.requester)
          ? `${value}X`
          : value;
      setPath(payload, path, v);
    }
    // response_url is Slack's, not the sender's: it stays, so the answer can be seen.
    payload['response_url'] = env.responseUrl;
    return {
      category: 'click-shape',
      describe: `${actionId} with ${edits.map(([p, v]) => `${p.join('.')}=${JSON.stringify(v)?.slice(0, 40) ?? 'deleted'}`).join(', ')}`,
      request: signed(blockActionsBody(payload)),
      responseId: env.responseId,
      answer: { kind: 'http-or-response' },
      recorded: false,
    };
  });

/** The reject-reason modal: tampered metadata, reasons of any kind, users who may not reject. */
const viewReject: fc.Arbitrary<CaseBuilder> = fc
  .tuple(
    fc.oneof(
      fc.constant<'real'>('real'),
      fc.constant<'other-channel'>('other-channel'),
      fc.constant<'other-ts'>('other-ts'),
      hostileString,
      fc.json(),
      fc
        .record({ runId: hostileJson, channelId: hostileJson, messageTs: hostileJson })
        .map((m) => JSON.stringify(m)),
    ),
    fc.option(hostileString, { nil: undefined }),
    fc.oneof(
      strangers.map((u) => ({ user: u, team: undefined as string | undefined })),
      fc.record({
        user: fc.constantFrom('U0BOB', 'U0DAVE', '@requester'),
        team: fc.constantFrom('T0OTHER', 'T0TES', 'E0GRID'),
      }),
      fc.record({ user: fc.constantFrom('U0BOB', '@requester'), team: fc.constant(undefined) }),
    ),
    fc.option(hostileString, { nil: undefined }),
  )
  .map(([meta, reason, who, callback]) => (env: CaseEnv): FuzzCase => {
    const t = env.target;
    const real = { runId: t.runId, channelId: t.channel, messageTs: t.approval.ts };
    const metadata =
      meta === 'real'
        ? JSON.stringify(real)
        : meta === 'other-channel'
          ? JSON.stringify({ ...real, channelId: t.otherChannel })
          : meta === 'other-ts'
            ? JSON.stringify({ ...real, messageTs: '1700000000.000001' })
            : meta;
    const userId = who.user === '@requester' ? t.requester : who.user;
    const mayReject = t.approvers.includes(userId) || userId === t.requester;
    // An approver (or the requester) of the home team with the real metadata and a reason
    // would reject the run for real: that is the one submission the suite never makes.
    const authorized =
      metadata === JSON.stringify(real) &&
      who.team === undefined &&
      mayReject &&
      (reason ?? '').trim() !== '';
    const finalReason = authorized ? '   ' : reason;
    const modal = rejectModal(real, t.node);
    const payload = viewSubmissionPayload({
      view: {
        ...modal,
        private_metadata: metadata,
        ...(callback === undefined
          ? {}
          : { callback_id: callback === VIEW.rejectReason ? `${callback}x` : callback }),
      },
      viewId: `V0FZ${env.responseId}`,
      values: finalReason === undefined ? {} : { [REASON_BLOCK]: { [REASON_INPUT]: finalReason } },
      userId,
      ...(who.team === undefined ? {} : { teamId: who.team }),
    });
    return {
      category: 'view-reject',
      describe: `reject modal metadata=${metadata.slice(0, 80)} reason=${JSON.stringify(finalReason?.slice(0, 40))} by ${JSON.stringify(userId.slice(0, 40))}@${who.team ?? 'home'}${callback === undefined ? '' : ` callback=${JSON.stringify(callback.slice(0, 40))}`}`,
      request: signed(blockActionsBody(payload)),
      responseId: env.responseId,
      answer: { kind: 'view', user: userId },
      recorded: false,
    };
  });

/** Forged, stale, future and missing signatures on requests that would otherwise be served. */
const signature: fc.Arbitrary<CaseBuilder> = fc
  .tuple(
    fc.constantFrom<Signing>(
      'forged',
      'wrong-secret',
      'stale',
      'future',
      'missing',
      'bad-timestamp',
      'other-body',
      'upper-hex',
      'v1',
    ),
    fc.constantFrom('help', 'preflight cluster-a', 'cutover cluster-a blue-1', 'click'),
  )
  .map(([signing, what]) => (env: CaseEnv): FuzzCase => ({
    category: 'signature',
    describe: `${signing} signature on ${what}`,
    request: signed(
      what === 'click'
        ? clickBody(env, { actionId: ACTION.approve, value: env.target.runId, userId: 'U0BOB' })
        : command(env, what),
      signing,
    ),
    responseId: env.responseId,
    answer: { kind: 'http', statuses: [401] },
    recorded: false,
  }));

/** The same signed bytes delivered twice: served once. */
const replay: fc.Arbitrary<CaseBuilder> = fc
  .tuple(
    fc.constantFrom<'plain' | 'slack-retry'>('plain', 'slack-retry'),
    fc.constantFrom('help', 'clusters', 'preflight nowhere', 'click'),
  )
  .map(([kind, what]) => (env: CaseEnv): FuzzCase => {
    const click = what === 'click';
    return {
      category: 'replay',
      describe: `${what} delivered twice (${kind})`,
      request: {
        ...signed(
          click
            ? clickBody(env, {
                actionId: ACTION.approve,
                value: env.target.runId,
                userId: 'U0MALLORY',
              })
            : command(env, what),
        ),
        replay: kind,
      },
      responseId: env.responseId,
      answer: click
        ? { kind: 'response', pattern: REFUSED_CLICK }
        : { kind: 'reply', refusal: what === 'preflight nowhere' },
      recorded: click,
    };
  });

const CONTENT_TYPES = [
  'text/plain',
  'application/xml',
  'multipart/form-data; boundary=x',
  'application/x-www-form-urlencoded; charset=utf-8',
  'APPLICATION/X-WWW-FORM-URLENCODED',
  'application/json',
  '',
];

/** Bodies the edge must refuse: too large, not JSON, not a form, of the wrong type, no POST. */
const body: fc.Arbitrary<CaseBuilder> = fc
  .oneof(
    fc.record({
      kind: fc.constant('oversized' as const),
      size: fc.integer({ min: 64 * 1024 + 1, max: 400_000 }),
      chunked: fc.boolean(),
    }),
    fc.record({
      kind: fc.constant('json' as const),
      text: fc.oneof(
        fc.string({ unit: 'binary', maxLength: 200 }),
        fc.constantFrom('{', '{"type":', 'null', '[]', '[{}]', '1', '"x"', '{"payload":', '\u0000'),
      ),
    }),
    fc.record({
      kind: fc.constant('form' as const),
      text: fc.oneof(
        fc.string({ unit: 'binary', maxLength: 200 }),
        fc.constantFrom(
          'payload=',
          'payload=null',
          'payload=%7B',
          'payload=[]',
          'payload=%ZZ',
          'command=/proxy-migrate&command=/x',
          'a=1&a=2',
          '=',
          '&&&',
          'payload={"type":"block_actions"}',
        ),
      ),
    }),
    fc.record({
      kind: fc.constant('content-type' as const),
      type: fc.constantFrom(...CONTENT_TYPES),
      form: fc.boolean(),
    }),
    fc.record({
      kind: fc.constant('method' as const),
      method: fc.constantFrom('GET', 'PUT', 'DELETE', 'PATCH'),
    }),
  )
  .map((spec) => (env: CaseEnv): FuzzCase => {
    const base = { category: 'body' as const, responseId: env.responseId, recorded: false };
    switch (spec.kind) {
      case 'oversized': {
        const text = `${command(env, 'help')}&pad=${'x'.repeat(spec.size)}`;
        return {
          ...base,
          describe: `${text.length} bytes${spec.chunked ? ', chunked' : ''}`,
          request: { ...signed(text), ...(spec.chunked ? { chunked: true } : {}) },
          answer: { kind: 'http', statuses: [413] },
        };
      }
      case 'json': {
        // Whatever JSON a body is, it must be an object Bolt can dispatch; these are not.
        // A case id at the end keeps equal bodies apart (the same bytes twice are a replay).
        const text = `${spec.text} ${env.responseId}`;
        return {
          ...base,
          describe: `JSON body ${JSON.stringify(text.slice(0, 60))}`,
          request: signed(text, 'valid', 'application/json'),
          answer: { kind: 'http', statuses: [400] },
        };
      }
      case 'form': {
        // A case id keeps equal bodies apart; a form that names a command (or Slack's SSL check)
        // is one the edge serves, so it gets the command twice, which it must refuse.
        const form = parseQuery(spec.text);
        const served = typeof form['command'] === 'string' || form['ssl_check'] !== undefined;
        const text = `${served ? 'command=a&command=b&' : ''}${spec.text}&fuzz_case=${env.responseId}`;
        return {
          ...base,
          describe: `form body ${JSON.stringify(text.slice(0, 60))}`,
          request: signed(text),
          answer: { kind: 'http', statuses: [400] },
        };
      }
      case 'content-type': {
        const text = spec.form
          ? command(env, 'help')
          : JSON.stringify({ command: 'x', fuzz_case: env.responseId }).slice(0, -1);
        const request = signed(text, 'valid', spec.type);
        return {
          ...base,
          describe: `${spec.form ? 'form' : 'broken JSON'} body as ${JSON.stringify(spec.type)}`,
          request: spec.type === '' ? { method: 'POST', body: text, signing: 'valid' } : request,
          answer: { kind: 'http', statuses: [400] },
        };
      }
      case 'method':
        return {
          ...base,
          describe: `${spec.method} /slack/events`,
          request: { ...signed(command(env, 'help')), method: spec.method },
          answer: { kind: 'http', statuses: [405] },
        };
    }
  });

/** Each category with its share of the cases. */
export const generators: Record<
  Category,
  { arbitrary: fc.Arbitrary<CaseBuilder>; weight: number }
> = {
  'slash-text': { arbitrary: slashText, weight: 10 },
  'slash-cluster': { arbitrary: slashCluster, weight: 8 },
  'slash-node': { arbitrary: slashNode, weight: 8 },
  'slash-options': { arbitrary: slashOptions, weight: 4 },
  'slash-channel': { arbitrary: slashChannel, weight: 2 },
  'slash-fields': { arbitrary: slashFields, weight: 4 },
  'slash-foreign': { arbitrary: slashForeign, weight: 3 },
  'click-value': { arbitrary: clickValue, weight: 6 },
  'click-action': { arbitrary: clickAction, weight: 4 },
  'click-container': { arbitrary: clickContainer, weight: 5 },
  'click-team': { arbitrary: clickTeam, weight: 4 },
  'click-user': { arbitrary: clickUser, weight: 6 },
  'click-shape': { arbitrary: clickShape, weight: 8 },
  'view-reject': { arbitrary: viewReject, weight: 8 },
  signature: { arbitrary: signature, weight: 6 },
  replay: { arbitrary: replay, weight: 3 },
  body: { arbitrary: body, weight: 7 },
};

/** `count` builders drawn with `seed`, every category in its share. */
export function sampleCases(count: number, seed: number): CaseBuilder[] {
  const all = fc.oneof(...Object.values(generators));
  return fc.sample(all, { numRuns: count, seed }).map((build) => (env) => oversized(build(env)));
}

/** Any case whose body is past the edge's limit must be refused for that alone. */
function oversized(c: FuzzCase): FuzzCase {
  if (Buffer.byteLength(c.request.body, 'utf8') <= SLACK_BODY_LIMIT_BYTES) return c;
  if (c.request.method !== 'POST') return c;
  return { ...c, answer: { kind: 'http', statuses: [413] }, recorded: false };
}
