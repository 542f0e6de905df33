// argv -> the options an action receives, as a table (changesets' habit): what commander parses,
// with our parsers and defaults, stopped just before the action runs. No action, no request.
import { Writable } from 'node:stream';
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/program.js';

const STOP = Symbol('stop before the action');

const discard = () =>
  new Writable({
    write: (_chunk, _encoding, done) => done(),
  });

/** The options (globals included) and arguments the action of `argv` would be called with. */
async function parsed(argv: string[]): Promise<{ command: string; options: object; args: string[] }> {
  const io = { stdout: discard(), stderr: discard(), stdin: process.stdin, env: {} };
  const program = buildProgram(io, new AbortController().signal);
  let seen: { command: string; options: object; args: string[] } | undefined;
  program.hook('preAction', (_program, action: CommandUnknownOpts) => {
    const names: string[] = [];
    for (let at: CommandUnknownOpts | null = action; at?.parent; at = at.parent) names.unshift(at.name());
    seen = { command: names.join(' '), options: action.optsWithGlobals(), args: action.args };
    throw STOP;
  });
  await program.parseAsync(argv, { from: 'user' }).catch((error: unknown) => {
    if (error !== STOP) throw error;
  });
  if (!seen) throw new Error(`no action ran for ${argv.join(' ')}`);
  return seen;
}

describe('argv -> options', () => {
  it.each([
    [['leads'], 'leads', { header: true, sanitize: true }],
    [
      ['leads', '--all', '--csv', '-o', 'x.csv', '--limit', '50', '--max-items', '7'],
      'leads',
      { all: true, csv: true, output: 'x.csv', limit: 50, maxItems: 7, header: true, sanitize: true },
    ],
    [
      ['history', '--no-header', '--fields', 'id, query ,', '--concurrency', '16', '--page', '3'],
      'history',
      { header: false, sanitize: true, fields: ['id', 'query'], concurrency: 16, page: 3 },
    ],
    [
      ['--profile', 'work', '--max-wait', '5', 'leads', '-f', 'tsv', '--no-sanitize', '-q'],
      'leads',
      { profile: 'work', maxWait: '5', format: 'tsv', header: true, sanitize: false, quiet: true },
    ],
    [
      ['search', 'plumber', 'near', '-l', ' Austin ', '-r', '15'],
      'search',
      { location: 'Austin', radius: 15 },
    ],
    [['--sandbox', '--no-color', 'usage', '--json'], 'usage', { sandbox: true, color: false, json: true }],
    [
      ['auth', 'login', '--with-token', '--base-url', 'https://x.test'],
      'auth login',
      {
        withToken: true,
        baseUrl: 'https://x.test',
      },
    ],
    [['auth', 'logout'], 'auth logout', {}],
    [['api', 'leads', '-X', 'post', '-F', 'a=1'], 'api', { method: 'POST' }],
    [['config', 'get', 'api-key', '--reveal'], 'config get', { reveal: true }],
  ])('%j', async (argv, command, options) => {
    const seen = await parsed(argv);
    expect(seen.command).toBe(command);
    expect(seen.options).toMatchObject(options);
  });

  it('positional words of a search stay separate until the action joins them', async () => {
    expect((await parsed(['search', 'plumber', 'near', '-l', 'Austin'])).args).toEqual(['plumber', 'near']);
  });
});
