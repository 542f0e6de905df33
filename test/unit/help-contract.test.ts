// `leadctl help --json` is the contract agents read (issue 33.3), `leadctl __complete` answers every
// shell (35.4): both are read off the commander tree --help prints, so this checks them against that
// tree and against each other. In-process (main()): no Node started per case, no request.
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../src/api/errors.js';
import type { CommandSpec, FlagSpec } from '../../src/commands/help/spec.js';
import { buildProgram } from '../../src/program.js';
import { runCli } from '../helpers/cli.js';

const io = { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: {} };
const program = buildProgram(io, new AbortController().signal);

/** Every command a user can run, by the words that name it, as commander holds them. */
function commanderPaths(command: CommandUnknownOpts, words: string[] = []): string[][] {
  return command.commands
    .filter((sub) => !(sub as { _hidden?: boolean })._hidden)
    .flatMap((sub) => [[...words, sub.name()], ...commanderPaths(sub, [...words, sub.name()])]);
}

const contract = JSON.parse((await runCli(['help', '--json'])).stdout) as {
  globalFlags: FlagSpec[];
  commands: CommandSpec[];
  exitCodes: { code: number; when: string }[];
  errors: { code: string; exit: number }[];
};
const byName = new Map(contract.commands.map((command) => [command.name, command]));

describe('help --json', () => {
  it('lists every command commander knows, and only those', () => {
    expect(contract.commands.map((command) => command.name)).toEqual(
      commanderPaths(program).map((words) => words.join(' ')),
    );
    expect(byName.has('__complete')).toBe(false);
  });

  it("gives each command's flags as its --help does, typed, with defaults and repeatable ones", async () => {
    for (const command of contract.commands) {
      const help = (await runCli([...command.name.split(' '), '--help'])).stdout;
      for (const flag of command.flags) expect(help, `${command.name} ${flag.name}`).toContain(flag.name);
    }
    const leads = byName.get('leads')?.flags ?? [];
    const flag = (name: string) => leads.find((spec) => spec.name === name);
    expect(flag('--limit')).toMatchObject({ type: 'integer', value: 'n', repeatable: false });
    expect(flag('--concurrency')).toMatchObject({ type: 'integer', default: 4 });
    expect(flag('--where')).toMatchObject({ type: 'string', repeatable: true });
    expect(flag('--format')).toMatchObject({
      short: '-f',
      choices: expect.arrayContaining(['csv', 'ndjson']),
    });
    expect(flag('--output')).toMatchObject({ type: 'file', short: '-o' });
    expect(flag('--all')).toMatchObject({ type: 'boolean', short: '-a' });
    expect(byName.get('api')?.flags.find((spec) => spec.name === '--field')).toMatchObject({
      repeatable: true,
    });
    expect(contract.globalFlags.find((spec) => spec.name === '--timeout')).toMatchObject({
      type: 'number',
      default: 30,
    });
  });

  it('says which commands send requests and which spend live searches', () => {
    const costs = Object.fromEntries(
      contract.commands.map(({ name, sendsRequests, spendsSearches }) => [
        name,
        spendsSearches ? 'searches' : sendsRequests ? 'requests' : 'none',
      ]),
    );
    expect(costs).toEqual({
      leads: 'requests',
      history: 'requests',
      search: 'searches',
      config: 'none',
      'config set': 'none',
      'config get': 'none',
      'config unset': 'none',
      'config list': 'none',
      'config profiles': 'none',
      'config remove-profile': 'none',
      'config path': 'none',
      completion: 'none',
      sandbox: 'none',
      auth: 'none',
      'auth login': 'requests',
      'auth logout': 'none',
      'auth status': 'requests',
      sync: 'requests',
      usage: 'none',
      api: 'searches',
      mcp: 'searches',
      help: 'none',
      'help environment': 'none',
      'help exit-codes': 'none',
    });
  });

  it('gives output formats, every exit code and every error code', () => {
    expect(byName.get('search')?.formats).toEqual([
      'table',
      'json',
      'ndjson',
      'csv',
      'tsv',
      'xlsx',
      'geojson',
    ]);
    expect(byName.get('usage')?.formats).toEqual(['text', 'json']);
    expect(byName.get('config path')?.formats).toEqual(['text']);
    expect(contract.exitCodes.map((row) => row.code)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 129, 130, 143]);
    expect(contract.errors).toHaveLength(Object.keys(ERROR_CODES).length);
    expect(contract.errors).toContainEqual(expect.objectContaining({ code: 'no_api_key', exit: 3 }));
  });

  it('help <command> --json is that command and the ones under it', async () => {
    const result = await runCli(['help', 'auth', '--json']);
    const names = (JSON.parse(result.stdout) as typeof contract).commands.map((command) => command.name);
    expect(names).toEqual(['auth', 'auth login', 'auth logout', 'auth status']);
  });
});

/** What `leadctl __complete -- <words>` offers, values only. */
async function completions(...words: string[]): Promise<string[]> {
  const { exitCode, stdout, stderr } = await runCli(['__complete', '--', ...words]);
  expect({ exitCode, stderr }).toEqual({ exitCode: 0, stderr: '' });
  return stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => line.split('\t')[0] as string)
    .sort();
}

describe('__complete agrees with help --json', () => {
  it.each(contract.commands.map((command) => [command.name]))(
    '%s: its flags and subcommands',
    async (name) => {
      const words = name.split(' ');
      const inScope = words.flatMap((_word, at) => byName.get(words.slice(0, at + 1).join(' '))?.flags ?? []);
      const flags = [...contract.globalFlags, ...inScope].flatMap((flag) =>
        [flag.name, flag.short ?? []].flat(),
      );
      expect(await completions(...words, '-')).toEqual([...new Set([...flags, '-h', '--help'])].sort());
      const subcommands = contract.commands
        .filter(
          (command) =>
            command.name.startsWith(`${name} `) && command.name.split(' ').length === words.length + 1,
        )
        .map((command) => command.name.split(' ').at(-1) as string);
      if (subcommands.length > 0 && name !== 'help') {
        expect(await completions(...words, '')).toEqual([...subcommands, 'help'].sort());
      }
    },
  );

  it('completes values the way bash splits them, and files with one word', async () => {
    expect(await completions('leads', '--format', '=', 'nd')).toEqual(['ndjson']);
    expect(await completions('leads', '--format=j')).toEqual(['--format=json']);
    expect(await completions('leads', '--format', '=', '')).toEqual([
      'csv',
      'geojson',
      'json',
      'ndjson',
      'table',
      'tsv',
      'xlsx',
    ]);
    expect(await completions('search', '-o', 'x')).toEqual([':files']);
    expect(await completions('search', 'plumber', '')).toEqual([]);
    expect(await completions('search', '--', '-')).toEqual([]);
  });

  it('tells a subcommand from an option value, wherever global options stand', async () => {
    expect(await completions('--profile', 'leads', 'con')).toEqual(['config']);
    expect(await completions('leads', '--profile', 'config', '--all', '')).toEqual([]);
    expect(await completions('-q', 'config', 'get', '--rev')).toEqual(['--reveal']);
  });
});
