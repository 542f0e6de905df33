// The commands as data, read off the commander definitions (`help --json`, `__complete`): a flag's type from
// its placeholder, its default from commander or its help's "(default: …)", repeatable from "repeatable".
import type { Argument, CommandUnknownOpts, Option } from '@commander-js/extra-typings';
import { ERROR_CODES } from '../../api/errors.js';
import { VERSION } from '../../version.js';
import { EXIT_CODES, plain } from './command.js';

export interface FlagSpec {
  /** `--format`; the short flag for an option that has no long one. */
  name: string;
  short?: string;
  description: string;
  type: 'boolean' | 'string' | 'integer' | 'number' | 'file';
  /** The placeholder: `format` for `--format <format>`. */
  value?: string;
  choices?: string[];
  default?: unknown;
  repeatable: boolean;
}

export interface CommandSpec {
  /** The words after `leadctl`: `config set`. */
  name: string;
  aliases?: string[];
  description: string;
  arguments: { name: string; required: boolean; variadic: boolean; choices?: string[] }[];
  flags: FlagSpec[];
  /** What its stdout carries: the --format choices, else text (and json with --json). */
  formats: string[];
  sendsRequests: boolean;
  spendsSearches: boolean;
}

/** Placeholders that name a type; any other is a string. */
const VALUE_TYPES: Record<string, FlagSpec['type']> = {
  n: 'integer',
  miles: 'integer',
  ms: 'integer',
  s: 'number',
  p: 'number',
  file: 'file',
};

// What a command may cost: requests to the API, and live searches of the plan's allowance. Listed
// once, here (a test names every command's expected entry, so a new command must be placed).
const SENDS_REQUESTS = new Set([
  'leads',
  'history',
  'search',
  'sync',
  'api',
  'mcp',
  'auth login',
  'auth status',
]);
const SPENDS_SEARCHES = new Set(['search', 'api', 'mcp']);
/** What stdout carries where no --format or --json says it: the body as sent, MCP's messages. */
const FIXED_FORMATS: Record<string, string[]> = { api: ['json'], mcp: ['json-rpc'] };

function flagSpec(option: Option): FlagSpec {
  const value = /[<[]([^>\]]+?)(\.\.\.)?[>\]]/.exec(option.flags)?.[1];
  const takesValue = option.required || option.optional;
  const stated = /\(default: "?([^)"]+)"?\)/.exec(option.description)?.[1];
  const fallback = option.negate ? undefined : option.defaultValue;
  const defaultValue = fallback ?? (stated && /^\d+$/.test(stated) ? Number(stated) : stated);
  return {
    name: option.long ?? option.short ?? option.flags,
    ...(option.long && option.short ? { short: option.short } : {}),
    description: option.description,
    type: takesValue ? (VALUE_TYPES[value ?? ''] ?? 'string') : 'boolean',
    ...(takesValue && value ? { value } : {}),
    ...(option.argChoices ? { choices: [...option.argChoices] } : {}),
    ...(defaultValue === undefined ? {} : { default: defaultValue }),
    repeatable: option.variadic || /\brepeatable\b/.test(option.description),
  };
}

function argumentSpec(argument: Argument): CommandSpec['arguments'][number] {
  const choices = argument.argChoices ? { choices: [...argument.argChoices] } : {};
  return { name: argument.name(), required: argument.required, variadic: argument.variadic, ...choices };
}

/** The flags --help lists for a command (its own; --help itself only `withHelp`). */
export function ownFlags(command: CommandUnknownOpts, withHelp = false): FlagSpec[] {
  return command
    .createHelp()
    .visibleOptions(command)
    .filter((option) => withHelp || option.long !== '--help')
    .map(flagSpec);
}

/** The subcommands --help lists, with commander's implicit `help` of a group. */
export function visibleSubcommands(command: CommandUnknownOpts): CommandUnknownOpts[] {
  return command.createHelp().visibleCommands(command);
}

/** Every command below `root` that --help shows (not commander's implicit `help`), parents first. */
export function commandSpecs(root: CommandUnknownOpts, words: string[] = []): CommandSpec[] {
  return root.commands
    .filter((command) => !(command as { _hidden?: boolean })._hidden)
    .flatMap((command) => {
      const path = [...words, command.name()];
      const name = path.join(' ');
      const flags = ownFlags(command);
      const json = flags.some((flag) => flag.name === '--json') ? ['json'] : [];
      const formats = flags.find((flag) => flag.name === '--format')?.choices ??
        FIXED_FORMATS[name] ?? ['text', ...json];
      const spec: CommandSpec = {
        name,
        ...(command.aliases().length > 0 ? { aliases: command.aliases() } : {}),
        description: command.description(),
        arguments: command.registeredArguments.map(argumentSpec),
        flags,
        formats,
        sendsRequests: SENDS_REQUESTS.has(name),
        spendsSearches: SPENDS_SEARCHES.has(name),
      };
      return [spec, ...commandSpecs(command, path)];
    });
}

/** `leadctl help --json`: the whole contract, or the commands under the words given. */
export function contractJson(program: CommandUnknownOpts, words: string[]): string {
  const prefix = words.join(' ');
  const commands = commandSpecs(program).filter(
    (command) => prefix === '' || command.name === prefix || command.name.startsWith(`${prefix} `),
  );
  const contract = {
    name: program.name(),
    version: VERSION,
    globalFlags: ownFlags(program),
    commands,
    exitCodes: EXIT_CODES.map((row) => ({ code: row.code, when: plain(row.when) })),
    errors: Object.entries(ERROR_CODES).map(([code, [exit, when]]) => ({ code, exit, when })),
    jsonErrors:
      'with --json, -f json or -f ndjson, an error ends stderr with one line {"error":{"exit","code","message","hint"}}',
  };
  return `${JSON.stringify(contract, null, 2)}\n`;
}
