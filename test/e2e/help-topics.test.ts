// `leadctl help environment` and `leadctl help exit-codes` print the tables of
// src/commands/help/command.ts, and the README carries exactly the same rows: one source of truth.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENVIRONMENT, EXIT_CODES } from '../../src/commands/help/command.js';
import { runCli } from '../helpers/cli.js';

const README = readFileSync(resolve(import.meta.dirname, '../../README.md'), 'utf8');
const CONFIG_DOC = readFileSync(resolve(import.meta.dirname, '../../docs/config.md'), 'utf8');

/** The cells of the first markdown table after `heading`, header and separator rows left out. */
function tableAfter(heading: string, markdown = README): string[][] {
  const start = markdown.indexOf(`\n${heading}\n`);
  expect(start, `no "${heading}" heading`).toBeGreaterThanOrEqual(0);
  const lines = markdown.slice(start).split('\n');
  const first = lines.findIndex((line) => line.startsWith('|'));
  const rows: string[][] = [];
  for (const line of lines.slice(first + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(
      line
        .slice(1, -1)
        .split(/(?<!\\)\|/)
        .map((cell) => cell.trim()),
    );
  }
  return rows;
}

/** The rows as README markdown cells (empty cells stay empty). */
const code = (text: string) => (text === '' ? '' : `\`${text}\``);
const environmentMarkdownRows = () =>
  ENVIRONMENT.map((row) => [code(row.variable), code(row.flag), code(row.configKey), row.meaning]);
const exitCodeMarkdownRows = () => EXIT_CODES.map((row) => [String(row.code), row.when]);

/** What a person reads: code spans plain, line breaks and column padding as single spaces. */
const plain = (text: string) => text.replaceAll('`', '').replace(/\s+/g, ' ');

describe('help topics', () => {
  it('the README environment table is the one `help environment` prints', () => {
    expect(tableAfter('### Environment variables')).toEqual(environmentMarkdownRows());
  });

  it('the README exit-code table is the one `help exit-codes` prints', () => {
    expect(tableAfter('## Exit codes')).toEqual(exitCodeMarkdownRows());
  });

  it("every variable in docs/config.md's settings table has the same flag and key in the environment table", () => {
    const settings = tableAfter('## Settings', CONFIG_DOC);
    expect(settings.length).toBeGreaterThan(10);
    for (const [flag, variable, configKey] of settings) {
      const name = /^`([A-Z_]+)/.exec(variable ?? '')?.[1];
      if (!name) continue;
      const row = ENVIRONMENT.find((entry) => entry.variable === name);
      expect(row, `${name} is missing from help environment`).toBeDefined();
      expect(flag).toContain(row?.flag);
      expect(configKey).toBe(row?.configKey ? `\`${row.configKey}\`` : '');
    }
  });

  it('leadctl help environment: every variable, its flag, config key and meaning, and the precedence', async () => {
    const { exitCode, stdout, stderr } = await runCli(['help', 'environment']);
    expect(exitCode).toBe(0);
    expect(stderr).toBe('');
    expect(plain(stdout)).toContain('flag > environment > profile > default');
    for (const row of ENVIRONMENT) {
      const setBy = [row.flag && `flag ${row.flag}`, row.configKey && `config key ${row.configKey}`]
        .filter(Boolean)
        .join(', ');
      expect(plain(stdout)).toContain(plain(`${row.variable} ${setBy} ${row.meaning}`.replace(/ +/g, ' ')));
    }
  });

  it('leadctl help exit-codes: every code and when', async () => {
    const { exitCode, stdout, stderr } = await runCli(['help', 'exit-codes']);
    expect(exitCode).toBe(0);
    expect(stderr).toBe('');
    for (const row of EXIT_CODES) expect(plain(stdout)).toContain(plain(`${row.code} ${row.when}`));
  });

  it('the root --help points to both topics', async () => {
    const { stdout } = await runCli(['--help']);
    expect(stdout).toContain('leadctl help environment');
    expect(stdout).toContain('leadctl help exit-codes');
  });

  it('leadctl help <command> shows that command’s help and exits 0', async () => {
    const { exitCode, stdout, stderr } = await runCli(['help', 'config', 'set']);
    expect(stderr).toBe('');
    expect(exitCode).toBe(0);
    expect(stdout).toMatch(/^Usage: leadctl config set /);
  });

  it('a group’s own help command (leadctl config help set) exits 0 too', async () => {
    const { exitCode, stdout } = await runCli(['config', 'help', 'set']);
    expect(exitCode).toBe(0);
    expect(stdout).toMatch(/^Usage: leadctl config set /);
  });

  it('leadctl help <unknown> is exit 2 and lists the topics', async () => {
    const { exitCode, stdout, stderr } = await runCli(['help', 'enviroment']);
    expect(exitCode).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      'leadctl: no help for "enviroment": not a command or a topic\n' +
        'topics: leadctl help environment, leadctl help exit-codes; commands: leadctl --help\n',
    );
  });
});
