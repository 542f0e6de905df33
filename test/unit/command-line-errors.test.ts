// Every refused command line is one `leadctl: ...` line and at most one hint, exit 2, nothing on
// stdout: commander's own refusals included. Run in-process through main(): no request is involved.
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

describe('refused command lines', () => {
  it.each([
    [
      ['search', 'plumber', '-l', 'Austin', '-r', '51'],
      "leadctl: invalid --radius '51': expected a whole number from 1 to 50",
      'see: leadctl search --help',
    ],
    [
      ['leads', '--limit', '500'],
      "leadctl: invalid --limit '500': expected a whole number from 1 to 100",
      '--limit is the page size (at most 100 a request); for more items use --max-items <n> or --all',
    ],
    [
      ['leads', '--max-items', '0'],
      "leadctl: invalid --max-items '0': expected a whole number of at least 1",
      'see: leadctl leads --help',
    ],
    [['leads', '--limt', '5'], "leadctl: unknown option '--limt'", 'did you mean --limit?'],
    [['serch', 'plumber'], "leadctl: unknown command 'serch'", 'did you mean search?'],
    [['frobnicate'], "leadctl: unknown command 'frobnicate'", 'see: leadctl --help'],
    [
      ['leads', '-f', 'xml'],
      "leadctl: invalid --format 'xml': expected one of table, json, ndjson, csv, tsv, xlsx, geojson",
      'see: leadctl leads --help',
    ],
    [
      ['completion', 'tcsh'],
      "leadctl: invalid <shell> 'tcsh': expected one of bash, zsh, fish",
      'see: leadctl completion --help',
    ],
    [['completion'], 'leadctl: missing <shell>', 'see: leadctl completion --help'],
    [['leads', '--limit'], 'leadctl: --limit needs a value: --limit <n>', 'see: leadctl leads --help'],
    [['leads', 'extra'], 'leadctl: leads takes no arguments, got 1', 'see: leadctl leads --help'],
    [['config', 'get'], 'leadctl: missing <key>', 'see: leadctl config get --help'],
    [['config', 'sett', 'format'], "leadctl: unknown command 'sett'", 'did you mean set?'],
    [['auth', 'whoami'], "leadctl: unknown command 'whoami'", 'see: leadctl auth --help'],
  ])('%j', async (argv, what, hint) => {
    const { exitCode, stdout, stderr } = await runCli(argv);
    expect({ exitCode, stdout, stderr }).toEqual({ exitCode: 2, stdout: '', stderr: `${what}\n${hint}\n` });
  });

  it('with --json, the same lines and then the same facts as one JSON line', async () => {
    const { exitCode, stdout, stderr } = await runCli(['history', '--json', '--csv']);
    expect({ exitCode, stdout }).toEqual({ exitCode: 2, stdout: '' });
    const error = {
      exit: 2,
      code: 'conflicting_options',
      message: '--json cannot be used with --csv',
      hint: 'see: leadctl history --help',
    };
    expect(stderr).toBe(`leadctl: ${error.message}\n${error.hint}\n${JSON.stringify({ error })}\n`);
  });
});

describe('bare leadctl, and a group of commands alone', () => {
  it.each([
    [[], 'leadctl'],
    [['auth'], 'leadctl auth'],
    [['--profile', 'work', 'config'], 'leadctl config'],
  ])('%j prints its help on stdout with exit 0, as gh does', async (argv, usage) => {
    const { exitCode, stdout, stderr } = await runCli(argv);
    expect(exitCode).toBe(0);
    expect(stderr).toBe('');
    expect(stdout.startsWith(`Usage: ${usage} [options] [command]\n`)).toBe(true);
    expect(stdout).toContain('\nCommands:\n');
  });
});

describe('a profile without a base URL', () => {
  it('the hint names the profile the run used, not default', async () => {
    const env = { XDG_CONFIG_HOME: tempDir('home') };
    const stored = await runCli(['--profile', 'work', 'config', 'set', 'api-key'], {
      env,
      input: 'k1\n',
    });
    expect(stored.exitCode).toBe(0);
    const { exitCode, stderr } = await runCli(['--profile', 'work', 'leads'], { env });
    expect(exitCode).toBe(2);
    expect(stderr).toBe(
      'leadctl: no API base URL is configured\n' +
        'set one: leadctl --profile work config set base-url <url> (or export LEADCTL_BASE_URL=<url>, or --base-url <url>); or try any command with --sandbox\n',
    );
  });

  it('a profile that does not exist points to auth login for it', async () => {
    const { exitCode, stderr } = await runCli(['--profile', 'nope', 'leads']);
    expect(exitCode).toBe(2);
    expect(stderr.split('\n')[1]).toBe(
      'create it with: leadctl --profile nope auth login (or: leadctl --profile nope config set api-key)',
    );
  });

  it('usage runs without one: it reads only the local ledger', async () => {
    const { exitCode, stdout, stderr } = await runCli(['usage', '--json']);
    expect(stderr).toBe('');
    expect(exitCode).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ profile: 'default', baseUrl: null, today: { requests: 0 } });
  });
});
