import { Writable } from 'node:stream';
import { Argument, Command, Option } from '@commander-js/extra-typings';
import { describe, expect, it } from 'vitest';
import { registerCompletion } from '../../src/commands/completion/command.js';
import { bashScript } from '../../src/completion/bash.js';
import { commandTree, plainWord } from '../../src/completion/command-tree.js';
import { fishScript } from '../../src/completion/fish.js';
import { completionScript } from '../../src/completion/index.js';
import { zshScript } from '../../src/completion/zsh.js';
import { buildProgram } from '../../src/program.js';
import type { ContextFor, Io } from '../../src/session.js';

function sampleTree() {
  const program = new Command('tool')
    .option('-q, --quiet', 'say less')
    .option('--profile <name>', 'which profile');
  program
    .command('export')
    .alias('ex')
    .description("export the team's rows")
    .addOption(new Option('-f, --format <format>', 'output format').choices(['csv', 'json']))
    .option('-o, --output <file>', 'write there')
    .option('--no-header', 'no header row');
  program
    .command('remote')
    .command('add')
    .addArgument(new Argument('<kind>').choices(['http', 'ssh']));
  return commandTree(program);
}

/** The real leadctl program, with `completion` registered when program.ts does not do it yet. */
function leadctlProgram(): { program: Command; stdout: () => string } {
  let written = '';
  const stdout = new Writable({
    write(chunk, _encoding, done) {
      written += String(chunk);
      done();
    },
  });
  const io = { stdout, stderr: stdout, stdin: process.stdin, env: {} } as unknown as Io;
  const signal = new AbortController().signal;
  const program = buildProgram(io, signal);
  if (!program.commands.some((command) => command.name() === 'completion')) {
    const contextFor: ContextFor = (command) => ({ io, globals: command.optsWithGlobals(), signal });
    registerCompletion(program, contextFor);
  }
  return { program, stdout: () => written };
}

describe('bashScript', () => {
  const script = bashScript(sampleTree());
  it('registers one function, resolves aliases, and knows values, files and argument choices', () => {
    expect(script).toContain('complete -F _tool tool\n');
    expect(script).toContain("'tool:export'|'tool:ex') echo export ;;");
    expect(script).toContain("'tool export:-f'|'tool export:--format') printf '%s\\n' choices csv json ;;");
    expect(script).toContain("'tool export:-o'|'tool export:--output') echo files ;;");
    expect(script).toContain("'tool:--profile') echo profiles ;;");
    expect(script).toContain("'tool remote add:0') printf '%s\\n' http ssh ;;");
    expect(script).toMatch(
      /'tool export:'\) printf '%s\\n' -q --quiet --profile -f --format -o --output --no-header -h --help ;;/,
    );
  });
});

describe('zshScript', () => {
  const script = zshScript(sampleTree());
  it('is a #compdef function with _arguments per command', () => {
    expect(script.startsWith('#compdef tool\n')).toBe(true);
    expect(script).toContain(`'(-f --format)'{-f+,--format=}'[output format]:format:(csv json)'`);
    expect(script).toContain(`'(-o --output)'{-o+,--output=}'[write there]:file:_files'`);
    expect(script).toContain(`--no-header'[no header row]'`);
    expect(script).toContain(`'export:export the team'\\''s rows'`);
    expect(script).toContain('export|ex) _tool__export && ret=0 ;;');
    expect(script).toContain(`'1:kind:(http ssh)'`);
  });
});

describe('fishScript', () => {
  const script = fishScript(sampleTree());
  it('has complete lines for subcommands, options with values and files, and argument choices', () => {
    expect(script).toContain(
      "complete -c tool -n '__tool_argument_at \"tool\" 0' -a export -d 'export the team\\'s rows'",
    );
    expect(script).toContain(
      "complete -c tool -n '__tool_within \"tool export\"' -s f -l format -x -a 'csv json' -d 'output format'",
    );
    expect(script).toContain("-s o -l output -r -F -d 'write there'");
    expect(script).toContain("complete -c tool -n '__tool_argument_at \"tool remote add\" 0' -a 'http ssh'");
    expect(script).toContain("complete -c tool -s q -l quiet -d 'say less'");
    // --help is offered once, by the root, for every command.
    expect(script.match(/-l help/g)).toHaveLength(1);
  });
});

describe('plainWord', () => {
  it('refuses words a shell would expand', () => {
    expect(plainWord('max-wait')).toBe('max-wait');
    expect(() => plainWord('$(rm -rf ~)')).toThrow(/not a plain word/);
    expect(() => plainWord('two words')).toThrow(/not a plain word/);
  });
});

describe('leadctl completion <shell>', () => {
  it.each(['bash', 'zsh', 'fish'] as const)(
    'prints the %s script of the whole program, the same every time',
    async (shell) => {
      const { program, stdout } = leadctlProgram();
      await program.parseAsync(['completion', shell], { from: 'user' });
      expect(stdout()).toBe(completionScript(shell, leadctlProgram().program));
      for (const word of [
        'leads',
        'history',
        'search',
        'config',
        'sandbox',
        'completion',
        'ndjson',
        'max-wait',
        'agency',
      ]) {
        expect(stdout()).toContain(word);
      }
    },
  );

  it('refuses an unknown shell', async () => {
    const { program } = leadctlProgram();
    program.exitOverride();
    await expect(program.parseAsync(['completion', 'tcsh'], { from: 'user' })).rejects.toThrow(
      /Allowed choices are bash, zsh, fish/,
    );
  });
});
