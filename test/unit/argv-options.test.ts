// argv -> the options an action receives, as a table (changesets' habit), for every command: what
// commander parses with our parsers, choices and defaults, stopped just before the action runs (no
// action, no request, no Node spawned), and the usage error a bad line gives instead. The types
// come from the same definitions (@commander-js/extra-typings): the expectTypeOf lines fail tsc
// when a definition changes a parsed type.
import { Writable } from 'node:stream';
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { ApiFlags, Field } from '../../src/commands/api/command.js';
import type { LoginFlags } from '../../src/commands/auth/command.js';
import type { ListFlags } from '../../src/commands/list/command.js';
import type { OutputFlags } from '../../src/commands/options.js';
import type { SearchFlags } from '../../src/commands/search/command.js';
import type { SyncFlags } from '../../src/commands/sync/command.js';
import type { OutputFormat } from '../../src/output/formats.js';
import { buildProgram } from '../../src/program.js';
import type { GlobalOptions } from '../../src/session.js';

const STOP = Symbol('stop before the action');

const discard = () =>
  new Writable({
    write: (_chunk, _encoding, done) => done(),
  });

interface Parsed {
  command: string;
  args: unknown[];
  options: Record<string, unknown>;
  globals: Record<string, unknown>;
}

/** The command, its parsed arguments, its own options and the global options of `argv`. */
async function parse(argv: string[]): Promise<Parsed> {
  const io = { stdout: discard(), stderr: discard(), stdin: process.stdin, env: {} };
  const program = buildProgram(io, new AbortController().signal);
  let seen: Parsed | undefined;
  program.hook('preAction', (_program, action: CommandUnknownOpts) => {
    const names: string[] = [];
    for (let at: CommandUnknownOpts | null = action; at?.parent; at = at.parent) names.unshift(at.name());
    seen = {
      command: names.join(' '),
      args: action.processedArgs,
      options: { ...action.opts() },
      globals: { ...program.opts() },
    };
    throw STOP;
  });
  await program.parseAsync(argv, { from: 'user' }).catch((error: unknown) => {
    if (error !== STOP) throw error;
  });
  if (!seen) throw new Error(`no action ran for ${argv.join(' ')}`);
  return seen;
}

/** commander's refusal of `argv`: its code and message (cli.ts words them; exit 2). */
async function refusal(argv: string[]): Promise<{ code: string; message: string }> {
  try {
    await parse(argv);
  } catch (error) {
    const { code, message } = error as { code: string; message: string };
    return { code, message };
  }
  throw new Error(`${argv.join(' ')} was accepted`);
}

/** What every list run gets without options: the two negatable flags, on. */
const LIST = { header: true, sanitize: true };
/** The global options of a line that gives none. */
const NO_GLOBALS = { color: true, pager: true };

describe('argv -> options, per command', () => {
  it.each<[string[], string, unknown[], Record<string, unknown>]>([
    [['leads'], 'leads', [], LIST],
    [
      ['leads', '--all', '--csv', '-o', 'x.csv', '--limit', '50', '--max-items', '7'],
      'leads',
      [],
      { ...LIST, all: true, csv: true, output: 'x.csv', limit: 50, maxItems: 7 },
    ],
    [
      ['leads', '--checkpoint', 'l.ckpt', '--append', '-o', 'l.csv', '--max-requests', '12', '--bom'],
      'leads',
      [],
      { ...LIST, checkpoint: 'l.ckpt', append: true, output: 'l.csv', maxRequests: 12, bom: true },
    ],
    [
      ['leads', '--since', '7d', '-a', '--concurrency', '1', '-f', 'ndjson', '--no-sanitize'],
      'leads',
      [],
      { header: true, sanitize: false, since: '7d', all: true, concurrency: 1, format: 'ndjson' },
    ],
    [
      ['history', '--no-header', '--fields', 'id, query ,', '--concurrency', '16', '--page', '3'],
      'history',
      [],
      { header: false, sanitize: true, fields: ['id', 'query'], concurrency: 16, page: 3 },
    ],
    [['history', '--json', '--limit', '+7 '], 'history', [], { ...LIST, json: true, limit: 7 }],
    [
      ['search', 'plumber', 'near', '-l', ' Austin ', '-r', '15'],
      'search',
      [['plumber', 'near']],
      { ...LIST, location: 'Austin', radius: 15 },
    ],
    [
      ['search', '--input', 'in.csv', '--unique', '--max-requests', '9', '--resume', '--resend-unknown'],
      'search',
      [[]],
      { ...LIST, input: 'in.csv', unique: true, maxRequests: 9, resume: true, resendUnknown: true },
    ],
    [
      ['search', '--input', '-', '--dry-run', '--concurrency', '3', '--csv'],
      'search',
      [[]],
      { ...LIST, input: '-', dryRun: true, concurrency: 3, csv: true },
    ],
    [
      ['search', '--input', 'big.csv', '--max-input-rows', '200000', '--max-input-bytes', '200M'],
      'search',
      [[]],
      { ...LIST, input: 'big.csv', maxInputRows: 200_000, maxInputBytes: 200 * 2 ** 20 },
    ],
    [
      ['search', '--input', 'big.csv', '--max-input-bytes', '1 GiB'],
      'search',
      [[]],
      { ...LIST, input: 'big.csv', maxInputBytes: 2 ** 30 },
    ],
    [
      ['search', 'x', '-l', 'y', '--db', 'a.db', '--new-only', '--cache', '24h', '--exclude', 'crm.csv'],
      'search',
      [['x']],
      { ...LIST, location: 'y', db: 'a.db', newOnly: true, cache: 86_400_000, exclude: 'crm.csv' },
    ],
    [['api', 'leads?limit=5'], 'api', ['leads?limit=5'], { field: [], rawField: [] }],
    [
      ['api', 'search', '-X', 'post', '-F', 'radius=15', '-f', 'query=a=b', '-F', 'n=null'],
      'api',
      ['search'],
      {
        method: 'POST',
        field: [
          { key: 'radius', value: '15', typed: true },
          { key: 'n', value: 'null', typed: true },
        ],
        rawField: [{ key: 'query', value: 'a=b', typed: false }],
      },
    ],
    [['api', 'history', '--paginate'], 'api', ['history'], { field: [], rawField: [], paginate: true }],
    [['auth', 'login', '--with-token'], 'auth login', [], { withToken: true }],
    [['auth', 'logout'], 'auth logout', [], {}],
    [['auth', 'status'], 'auth status', [], {}],
    [['config', 'set', 'format', 'csv'], 'config set', ['format', 'csv'], {}],
    [['config', 'set', 'api-key'], 'config set', ['api-key', undefined], {}],
    [['config', 'get', 'api-key', '--reveal'], 'config get', ['api-key'], { reveal: true }],
    [['config', 'unset', 'apikey'], 'config unset', ['apikey'], {}],
    [['config', 'list', '--json', '--reveal'], 'config list', [], { json: true, reveal: true }],
    [['config', 'profiles', '--json'], 'config profiles', [], { json: true }],
    [['config', 'remove-profile', 'old', '-y'], 'config remove-profile', ['old'], { yes: true }],
    [['config', 'path'], 'config path', [], {}],
    [['completion', 'zsh'], 'completion', ['zsh'], {}],
    [['sandbox'], 'sandbox', [], { port: 0, host: '127.0.0.1', plan: 'agency', variant: 'b' }],
    [
      [
        'sandbox',
        '--port',
        '8080',
        '--plan',
        'free',
        '--variant',
        'a',
        '--latency',
        '50',
        '--fail-rate',
        '0.1',
      ],
      'sandbox',
      [],
      { port: 8080, host: '127.0.0.1', plan: 'free', variant: 'a', latency: 50, failRate: 0.1 },
    ],
    [
      ['sandbox', '--leads', '0', '--history', '5', '--seed', '7', '--daily-limit', '20', '--hostile-data'],
      'sandbox',
      [],
      {
        port: 0,
        host: '127.0.0.1',
        plan: 'agency',
        variant: 'b',
        leads: 0,
        history: 5,
        seed: 7,
        dailyLimit: 20,
        hostileData: true,
      },
    ],
    [['sync'], 'sync', [], {}],
    [['sync', '--db', 'agency.db'], 'sync', [], { db: 'agency.db' }],
    [['usage', '--json'], 'usage', [], { json: true }],
    [
      ['mcp', '--max-requests', '200', '--max-searches', '20', '--read-only', '--tools', 'usage'],
      'mcp',
      [],
      { maxRequests: 200, maxSearches: 20, readOnly: true, tools: 'usage', confirm: true },
    ],
    [['mcp', '--max-searches-per-day', '3'], 'mcp', [], { maxSearchesPerDay: 3, confirm: true }],
    [['mcp', '--no-confirm'], 'mcp', [], { confirm: false }],
    [['help', 'config', 'set'], 'help', [['config', 'set']], {}],
    [['help', 'environment'], 'help environment', [], {}],
    [['help', 'exit-codes'], 'help exit-codes', [], {}],
  ])('%j', async (argv, command, args, options) => {
    const seen = await parse(argv);
    expect(seen.command).toBe(command);
    expect(seen.args).toEqual(args);
    expect(seen.options).toEqual(options);
    expect(seen.globals).toEqual(NO_GLOBALS);
  });
});

describe('argv -> global options', () => {
  it.each<[string[], Record<string, unknown>]>([
    [
      ['--profile', 'work', '--max-wait', '5', '-q', 'leads'],
      { ...NO_GLOBALS, profile: 'work', maxWait: '5', quiet: true },
    ],
    [['--sandbox', '--no-color', '--no-pager', 'usage'], { sandbox: true, color: false, pager: false }],
    [
      [
        '--api-key',
        'k',
        '--base-url',
        'http://x.test',
        '--timeout',
        '3',
        '--retries',
        '0',
        '--verbose',
        'sync',
      ],
      { ...NO_GLOBALS, apiKey: 'k', baseUrl: 'http://x.test', timeout: '3', retries: '0', verbose: true },
    ],
  ])('%j', async (argv, globals) => {
    expect((await parse(argv)).globals).toEqual(globals);
  });
});

describe('argv -> usage error (exit 2), before anything loads', () => {
  it.each<[string[], string, string]>([
    [['leads', '--page', '0'], 'commander.invalidArgument', '--page <n>'],
    [['leads', '--limit', '101'], 'commander.invalidArgument', 'from 1 to 100'],
    [['leads', '--max-items', '1.5'], 'commander.invalidArgument', 'of at least 1'],
    [['leads', '--concurrency', '17'], 'commander.invalidArgument', 'from 1 to 16'],
    [['leads', '-f', 'xml'], 'commander.invalidArgument', 'Allowed choices are'],
    [
      ['leads', '--json', '--csv'],
      'commander.conflictingOption',
      "'--json' cannot be used with option '--csv'",
    ],
    [['leads', '--json', '-f', 'csv'], 'commander.conflictingOption', '--json'],
    [['history', '--bogus'], 'commander.unknownOption', "unknown option '--bogus'"],
    [['history', 'extra'], 'commander.excessArguments', 'too many arguments'],
    [['search', 'x', '-l', '  '], 'commander.invalidArgument', 'must not be empty'],
    [['search', 'x', '-r', '51'], 'commander.invalidArgument', 'from 1 to 50'],
    [['search', 'x', '--cache', '5y'], 'commander.invalidArgument', 'a span of time'],
    [
      ['search', '--input', 'x', '--max-input-bytes', '1.5G'],
      'commander.invalidArgument',
      'a size such as 200M',
    ],
    [['search', '--input', 'x', '--max-input-rows', '0'], 'commander.invalidArgument', 'of at least 1'],
    [['api'], 'commander.missingArgument', "missing required argument 'path'"],
    [['api', 'x', '-F', 'novalue'], 'commander.invalidArgument', 'expected key=value'],
    [['api', 'x', '-X', 'P0ST'], 'commander.invalidArgument', 'a method such as GET'],
    [['config', 'set', 'nope', 'x'], 'commander.invalidArgument', 'Allowed choices are'],
    [['config', 'remove-profile'], 'commander.missingArgument', "missing required argument 'profile'"],
    [['completion', 'tcsh'], 'commander.invalidArgument', 'Allowed choices are bash, zsh, fish'],
    [['sandbox', '--plan', 'gold'], 'commander.invalidArgument', 'Allowed choices are free, pro, agency'],
    [['sandbox', '--fail-rate', '2'], 'commander.invalidArgument', 'from 0 to 1'],
    [['sandbox', '--port', '65536'], 'commander.invalidArgument', 'from 0 to 65535'],
    [['mcp', '--max-requests', '0'], 'commander.invalidArgument', 'from 1 to 1000000'],
    [['usage', '--reveal'], 'commander.unknownOption', "unknown option '--reveal'"],
    [['serch'], 'commander.unknownCommand', "unknown command 'serch'"],
  ])('%j', async (argv, code, words) => {
    const { code: seen, message } = await refusal(argv);
    expect(seen).toBe(code);
    expect(message).toContain(words);
  });

  it("a --fields list with no names is our usage error (its grammar in the hint), not commander's", async () => {
    await expect(parse(['leads', '--fields', ' , '])).rejects.toMatchObject({
      name: 'UsageError',
      message: 'invalid --fields: expected field names separated by commas',
    });
  });
});

describe('the parsed types come from the definitions', () => {
  it('is checked by tsc', () => {
    expectTypeOf<ListFlags['limit']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<ListFlags['header']>().toEqualTypeOf<boolean>();
    expectTypeOf<ListFlags['fields']>().toEqualTypeOf<string[] | undefined>();
    expectTypeOf<ListFlags['format']>().toEqualTypeOf<OutputFormat | undefined>();
    expectTypeOf<ListFlags>().toMatchTypeOf<OutputFlags>();
    expectTypeOf<SearchFlags>().toMatchTypeOf<OutputFlags>();
    expectTypeOf<SearchFlags['cache']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<SearchFlags['radius']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<ApiFlags['field']>().toEqualTypeOf<Field[]>();
    expectTypeOf<SyncFlags['db']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<LoginFlags['withToken']>().toEqualTypeOf<true | undefined>();
    expectTypeOf<GlobalOptions['color']>().toEqualTypeOf<boolean | undefined>();
  });
});
