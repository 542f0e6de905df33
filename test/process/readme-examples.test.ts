// Every code example in README.md and docs/*.md runs here, as a reader would paste it, so that no
// example can drift from what leadctl does: shell blocks in their own shell (bash, zsh, fish) with the
// built `leadctl` on PATH against a sandbox, JavaScript blocks as programs importing 'leadctl', JSON
// blocks parsed. The blocks are read from the files at test time: a new example is tested without
// anyone listing it. What stands for the reader's own values is declared once (PLACEHOLDERS), and the
// lines that cannot run here are listed with the reason (NOT_RUNNABLE).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SandboxHandle, startSandbox } from '../../src/sandbox/index.js';
import { BIN, cleanEnv } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

const ROOT = resolve(import.meta.dirname, '../..');

interface Example {
  file: string;
  line: number;
  lang: string;
  code: string;
}

const FILES = ['README.md', ...readdirSync(join(ROOT, 'docs')).map((name) => `docs/${name}`)].filter((file) =>
  file.endsWith('.md'),
);

/** Fenced blocks with a language; ```text blocks are prose, not code. */
function examplesOf(file: string): Example[] {
  const markdown = readFileSync(join(ROOT, file), 'utf8');
  return [...markdown.matchAll(/^```(\w+)\n([\s\S]*?)^```/gm)]
    .filter((match) => match[1] !== 'text')
    .map((match) => ({
      file,
      line: markdown.slice(0, match.index).split('\n').length,
      lang: match[1] ?? '',
      code: match[2] ?? '',
    }));
}

const EXAMPLES = FILES.flatMap(examplesOf);

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
const anchorOf = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replaceAll(' ', '-');

/** The markdown outside fenced blocks, where headings and links are. */
const proseOf = (markdown: string) => markdown.replace(/^```[\s\S]*?^```/gm, '');

/** The anchors a markdown file offers: one per heading, a repeated one numbered as GitHub does. */
function anchorsOf(file: string): Set<string> {
  const anchors = new Set<string>();
  for (const [, heading] of proseOf(readFileSync(file, 'utf8')).matchAll(/^#{1,6} +(.+?) *$/gm)) {
    const base = anchorOf(heading ?? '');
    let anchor = base;
    for (let n = 1; anchors.has(anchor); n += 1) anchor = `${base}-${n}`;
    anchors.add(anchor);
  }
  return anchors;
}

/** Each relative link of a file (`[text](target)`), with its line, for a reader who follows it. */
function relativeLinksOf(file: string): { line: number; target: string }[] {
  const prose = proseOf(readFileSync(join(ROOT, file), 'utf8'));
  return [...prose.matchAll(/\]\(([^()\s]+)\)/g)]
    .filter((match) => !/^[a-z]+:/.test(match[1] ?? ''))
    .map((match) => ({ line: prose.slice(0, match.index).split('\n').length, target: match[1] ?? '' }));
}

interface Context {
  baseUrl: string;
  apiKey: string;
}

/** Text in the docs that stands for the reader's own values or set-up, and what the tests use. */
const PLACEHOLDERS: [text: string, by: (context: Context) => string, why: string][] = [
  ['https://api.example.com', (c) => c.baseUrl, "the reader's API server: the test's sandbox"],
  ['--profile nightly auth', () => 'auth', "a profile of the reader's: the default one here"],
];

/** Lines (matched by what they start with) that cannot run here, and why. */
const NOT_RUNNABLE: [start: string, why: string][] = [
  ['npm ', 'development and install commands: they build, test or link this very tree'],
  ['git clone ', 'clones a repository: the install test installs the packed package instead'],
  ['leadctl --version', 'after the install lines above it; version.test.ts runs it'],
  [
    'leadctl sandbox --port',
    'starts a server in the background that outlives the example; sandbox-command.test.ts runs it',
  ],
  ['set -a; . ./sandbox.env', 'reads the file the background sandbox above writes'],
  [
    'leadctl auth login   ',
    'asks on a terminal; auth-login.test.ts answers its prompts in a pseudo-terminal',
  ],
  [
    'leadctl search --input searches.csv --csv -o results.csv --resume',
    'resumes a run that was stopped; batch-resume.test.ts stops one and resumes it',
  ],
];

/** What some blocks need that a machine may lack: such a block is skipped there, saying why. */
const NEEDS: [uses: RegExp, present: () => boolean, what: string][] = [
  [
    /\bleadctl sync\b|--db\b|--new-only\b|--cache\b/,
    () => process.getBuiltinModule?.('node:sqlite') !== undefined,
    "Node's built-in SQLite (node:sqlite, Node 22.13+); CI's Node 22 and 24 runs execute it",
  ],
  [/^sqlite3 /m, () => hasCommand('sqlite3'), 'the sqlite3 shell (.ci/run installs it)'],
];

const SHELLS: Record<string, string> = { sh: 'bash', bash: 'bash', shell: 'bash', zsh: 'zsh', fish: 'fish' };

const hasCommand = (name: string) => {
  try {
    execFileSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};

/** The commands of a shell block: `$ ` transcript lines alone when it has any, placeholders replaced. */
function commandsOf(example: Example, context: Context): string[] {
  let lines = example.code.split('\n').filter((line) => line.trim() !== '');
  if (lines.some((line) => line.startsWith('$ '))) {
    lines = lines.filter((line) => line.startsWith('$ ')).map((line) => line.slice(2));
  }
  return lines
    .map((line) => PLACEHOLDERS.reduce((text, [from, by]) => text.replaceAll(from, by(context)), line))
    .filter((line) => !line.trim().startsWith('#'))
    .filter((line) => !NOT_RUNNABLE.some(([start]) => line.trim().startsWith(start)));
}

let sandbox: SandboxHandle;
let context: Context;
beforeAll(async () => {
  sandbox = await startSandbox({ leads: 60 });
  context = { baseUrl: sandbox.url, apiKey: sandbox.apiKey };
});
afterAll(() => sandbox?.close());

/** A reader's machine in a temp folder: HOME, config, the built `leadctl` on PATH, a batch input file. */
function readerMachine() {
  const home = tempDir('reader-home');
  const bin = join(home, 'bin');
  const work = join(home, 'work');
  mkdirSync(bin);
  mkdirSync(work);
  writeFileSync(join(bin, 'leadctl'), `#!/bin/sh\nexec node ${JSON.stringify(BIN)} "$@"\n`, { mode: 0o755 });
  writeFileSync(join(work, 'searches.csv'), 'query,location\nplumber,Austin\nelectrician,Dallas\n');
  // The reader's CRM export, for --exclude.
  writeFileSync(join(work, 'crm.csv'), 'name,phone,website\nAcme Plumbing,+1 512-555-0100,acme.example\n');
  const env = cleanEnv({
    HOME: home,
    PATH: `${bin}:${process.env.PATH}`,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: undefined,
    // The reader has leadctl set up (README "Configuration") and keeps their key in a variable.
    LEADCTL_BASE_URL: context.baseUrl,
    LEADCTL_API_KEY: context.apiKey,
  });
  return { home, work, env };
}

describe('code examples in README.md and docs/', () => {
  it('finds them, and every placeholder and not-runnable entry is used', () => {
    expect(EXAMPLES.length).toBeGreaterThan(20);
    const all = EXAMPLES.map((example) => example.code).join('\n');
    for (const [text] of PLACEHOLDERS) expect(all, text).toContain(text);
    for (const [start] of NOT_RUNNABLE) expect(all, start).toContain(start);
  });

  it('every relative link leads to a file that exists, and to a heading of it', () => {
    const broken: string[] = [];
    for (const file of FILES) {
      for (const { line, target } of relativeLinksOf(file)) {
        const [path = '', anchor] = target.split('#');
        const to = path === '' ? join(ROOT, file) : resolve(ROOT, file, '..', path);
        if (!existsSync(to)) broken.push(`${file}:${line}: ${target} (no such file)`);
        else if (anchor !== undefined && to.endsWith('.md') && !anchorsOf(to).has(anchor)) {
          broken.push(`${file}:${line}: ${target} (no such heading)`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  const shellExamples = EXAMPLES.filter((example) => SHELLS[example.lang] !== undefined);
  it.each(shellExamples.map((example) => [`${example.file}:${example.line}`, example] as const))(
    'shell %s',
    async (_, example) => {
      const shell = SHELLS[example.lang] as string;
      if (!hasCommand(shell)) {
        console.warn(`${example.file}:${example.line}: skipped, ${shell} is not installed`);
        return;
      }
      const commands = commandsOf(example, context);
      if (commands.length === 0) return;
      const missing = NEEDS.find(([uses, present]) => uses.test(commands.join('\n')) && !present());
      if (missing) {
        console.warn(`${example.file}:${example.line}: skipped, it needs ${missing[2]}`);
        return;
      }
      const { home, work, env } = readerMachine();
      const strict =
        shell === 'fish' ? [] : ['set -e', shell === 'bash' ? 'set -o pipefail' : 'setopt pipefail'];
      const script = [...strict, ...commands].join('\n');
      const result = await execa(shell, ['-c', script], {
        cwd: work,
        reject: false,
        extendEnv: false,
        env,
        input: `${context.apiKey}\n`,
      });
      // Notes and warnings are for the reader (the env key wins over a stored one); errors are not.
      expect(result.stderr).not.toMatch(/^leadctl: (?!note: |warning: )/m);
      expect({ exitCode: result.exitCode, stderr: result.stderr }).toMatchObject({ exitCode: 0 });
      await completionIsInstalled(example, shell, home, env);
    },
  );

  const jsExamples = EXAMPLES.filter((example) => example.lang === 'js');
  it.each(jsExamples.map((example) => [`${example.file}:${example.line}`, example] as const))(
    'JavaScript %s',
    async (_, example) => {
      const { work, env } = readerMachine();
      // `import … from 'leadctl'` finds this tree, as after `npm install leadctl`.
      mkdirSync(join(work, 'node_modules'));
      symlinkSync(ROOT, join(work, 'node_modules/leadctl'), 'dir');
      writeFileSync(join(work, 'example.mjs'), example.code);
      const result = await execa('node', ['example.mjs'], {
        cwd: work,
        reject: false,
        extendEnv: false,
        env,
      });
      expect(result.stderr).toBe('');
      expect(result.exitCode).toBe(0);
      expect(String(result.stdout).length).toBeGreaterThan(0);
    },
  );

  const jsonExamples = EXAMPLES.filter((example) => example.lang === 'json');
  it.each(jsonExamples.map((example) => [`${example.file}:${example.line}`, example] as const))(
    'JSON %s',
    async (_, example) => {
      const value = JSON.parse(example.code) as Record<string, unknown>;
      // An MCP client configuration: the command it names must start leadctl's MCP server.
      const servers = (value.mcpServers ?? value.servers) as
        | Record<string, { command: string; args: string[] }>
        | undefined;
      if (servers === undefined) return;
      for (const { command, args } of Object.values(servers)) {
        // An absolute path, as hosts need (docs/mcp.md): leadctl's own, wherever it is installed.
        expect(command).toMatch(/^(\/usr\/local\/bin\/)?leadctl$/);
        const help = await execa('node', [BIN, ...args, '--help'], {
          reject: false,
          extendEnv: false,
          env: cleanEnv(),
        });
        expect(help.exitCode).toBe(0);
      }
    },
  );
});

/** After a block that installs a completion script: a new shell of that kind finds it. */
async function completionIsInstalled(
  example: Example,
  shell: string,
  home: string,
  env: Record<string, string | undefined>,
): Promise<void> {
  if (!example.code.includes(`leadctl completion ${shell}`)) return;
  const check = {
    // bash-completion loads completions/<command> from this folder on first use.
    bash: [
      'bash',
      ['-c', 'source ~/.local/share/bash-completion/completions/leadctl && complete -p leadctl'],
      /complete .* leadctl$/,
    ],
    zsh: ['zsh', ['-i', '-c', 'print -r -- $_comps[leadctl]'], /^_leadctl$/],
    fish: ['fish', ['-c', 'complete -C "leadctl comp"'], /^completion\b/m],
  } as const;
  const [command, args, expected] = check[shell as keyof typeof check];
  const result = await execa(command, [...args], { cwd: home, reject: false, extendEnv: false, env });
  expect(result.stdout.trim(), `${example.file}:${example.line} in a new ${shell}`).toMatch(expected);
  expect(existsSync(home)).toBe(true);
}
