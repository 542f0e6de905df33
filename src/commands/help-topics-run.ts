// The text of the help topics, rendered for a terminal from the tables of help-topic-tables.ts, and
// the help of a command named by words (`leadctl help config set`).
import type { Command } from 'commander';
import { UsageError } from '../api/errors.js';
import { ENVIRONMENT, EXIT_CODES, PRECEDENCE } from './help-topic-tables.js';

const WIDTH = 80;

export function environmentTopic(): string {
  const nameWidth = Math.max(...ENVIRONMENT.map((row) => row.variable.length)) + 2;
  const entries = ENVIRONMENT.map((row) => {
    const setBy = [row.flag && `flag ${row.flag}`, row.configKey && `config key ${row.configKey}`]
      .filter(Boolean)
      .join(', ');
    const lines = [...(setBy ? [setBy] : []), ...wrap(plain(row.meaning), WIDTH - 2 - nameWidth)];
    return hanging(row.variable, nameWidth, lines);
  });
  return `Environment variables\n\n${wrap(plain(PRECEDENCE), WIDTH).join('\n')}\n\n${entries.join('\n')}\n`;
}

export function exitCodesTopic(): string {
  const codeWidth = Math.max(...EXIT_CODES.map((row) => String(row.code).length)) + 2;
  const entries = EXIT_CODES.map((row) =>
    hanging(String(row.code), codeWidth, wrap(plain(row.when), WIDTH - 2 - codeWidth)),
  );
  return `Exit codes\n\n${entries.join('\n')}\n`;
}

/** `help config set`: the help of that command; words that name no command are a usage error. */
export function showCommandHelp(program: Command, words: string[]): void {
  let target = program;
  for (const word of words) {
    const next = target.commands.find((sub) => sub.name() === word || sub.aliases().includes(word));
    if (!next) {
      throw new UsageError(
        `no help for "${words.join(' ')}": not a command or a topic`,
        'topics: leadctl help environment, leadctl help exit-codes; commands: leadctl --help',
      );
    }
    target = next;
  }
  target.outputHelp();
}

/** The README's markdown code spans, as plain text. */
function plain(text: string): string {
  return text.replaceAll('`', '');
}

/** `  label   first line` then the other lines under the first. */
function hanging(label: string, width: number, lines: string[]): string {
  const indent = ' '.repeat(2 + width);
  return lines
    .map((line, index) => (index === 0 ? `  ${label.padEnd(width)}${line}` : `${indent}${line}`))
    .join('\n');
}

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  if (line) lines.push(line);
  return lines;
}
