// Reading the config file with plain fs (every command reads it; conf is slow to load). Shape checked here,
// values by keys.ts; a broken file is reported, never wiped (profiles.ts refuses to write over it).
import fs from 'node:fs';
import { dirname } from 'node:path';
import * as z from 'zod/mini';
import { UsageError } from '../api/errors.js';

/** The file's structure: an object, whose `profiles` (if any) maps names to objects of values. */
const CONFIG_DOCUMENT = z.looseObject({
  profiles: z.optional(z.record(z.string(), z.record(z.string(), z.unknown()))),
});

export type RawProfile = Record<string, unknown>;

export interface ConfigFileContents {
  path: string;
  /** False when there is no file (an empty config). */
  exists: boolean;
  /** The parsed top level, other keys than `profiles` included; {} when missing or blank. */
  document: Record<string, unknown>;
  /** Profiles as stored: structure checked, values not (see profiles.ts, keys.ts). */
  profiles: Record<string, RawProfile>;
  /** Notes for the user, e.g. a file others can read. */
  warnings: string[];
}

export function readConfigFile(path: string): ConfigFileContents {
  let text: string;
  let mode: number;
  try {
    // Open once and stat the same descriptor, so the mode we check is the file's we read.
    const fd = fs.openSync(path, 'r');
    try {
      mode = fs.fstatSync(fd).mode;
      text = fs.readFileSync(fd, 'utf8');
    } finally {
      fs.closeSync(fd);
    }
  } catch (error) {
    if (errorCode(error) === 'ENOENT')
      return { path, exists: false, document: {}, profiles: {}, warnings: [] };
    throw new UsageError(`cannot read config file ${path}: ${describeFsError(error)}`);
  }
  const warnings = [...permissionWarnings(path, mode), ...folderWarnings(dirname(path))];
  // A blank file (`touch config.json`) holds nothing: treat it as empty rather than as broken.
  if (text.trim() === '') return { path, exists: true, document: {}, profiles: {}, warnings };
  const document = parseDocument(path, text);
  // Kept on write, but a hand-written `{ "default": { ... } }` would otherwise be silently unused.
  for (const key of Object.keys(document).filter((name) => name !== 'profiles')) {
    warnings.push(
      `unknown top-level key ${JSON.stringify(key)} in config file ${path} is ignored; profiles go under "profiles"`,
    );
  }
  return {
    path,
    exists: true,
    document,
    profiles: (document.profiles ?? {}) as Record<string, RawProfile>,
    warnings,
  };
}

function parseDocument(path: string, text: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new UsageError(
      `config file ${path} is not valid JSON (${describeJsonError(error, text)}); fix or remove it`,
    );
  }
  const checked = CONFIG_DOCUMENT.safeParse(parsed, { reportInput: true });
  if (!checked.success) throw structureError(path, checked.error.issues[0] as z.core.$ZodIssue);
  return checked.data;
}

/** `"profiles" in config file X must be an object, found a string`: what, where, and what was found. */
function structureError(path: string, issue: z.core.$ZodIssue): UsageError {
  const found = describeType(issue.input);
  const [first, name] = issue.path;
  if (first === undefined) {
    return new UsageError(`config file ${path} must hold a JSON object, found ${found}; fix or remove it`);
  }
  const subject = name === undefined ? `"${String(first)}"` : `profile ${JSON.stringify(String(name))}`;
  return new UsageError(`${subject} in config file ${path} must be an object, found ${found}`);
}

function permissionWarnings(path: string, mode: number): string[] {
  // Windows reports synthetic modes; the check only means something on POSIX systems.
  if (process.platform === 'win32' || (mode & 0o077) === 0) return [];
  const octal = (mode & 0o777).toString(8);
  return [`config file ${path} is readable by group or others (mode ${octal}); run: chmod 600 ${path}`];
}

/** The folder holds the key's file, its lock and conf's temporary files: private like the file. */
function folderWarnings(dir: string): string[] {
  if (process.platform === 'win32') return [];
  let mode: number;
  try {
    mode = fs.statSync(dir).mode;
  } catch {
    return [];
  }
  if ((mode & 0o077) === 0) return [];
  const octal = (mode & 0o777).toString(8);
  return [`config folder ${dir} is open to group or others (mode ${octal}); run: chmod 700 ${dir}`];
}

/** JSON.parse quotes the text near the error, maybe an API key: keep the reason, the position as line:col. */
function describeJsonError(error: unknown, text: string): string {
  const message = error instanceof Error ? error.message : String(error);
  // `Unexpected token 's', "…source…" is not valid JSON` (or `…"…source…"…`): cut at the quote.
  const quoteStart = message.search(/,\s*(?:\.\.\.)?"/);
  const reason = quoteStart >= 0 ? message.slice(0, quoteStart) : message;
  // Node 22+ adds its own " (line L column C)": one wording on every Node.
  return reason.replace(
    / in JSON at position (\d+)(?: \(line \d+ column \d+\))?$/,
    (_match, offset: string) => {
      const before = text.slice(0, Number(offset));
      const line = before.split('\n').length;
      const column = Number(offset) - before.lastIndexOf('\n');
      return ` at line ${line}, column ${column}`;
    },
  );
}

function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}

export function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : undefined;
}

export function describeFsError(error: unknown): string {
  const code = errorCode(error);
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EISDIR') return 'it is a folder';
  return code ?? (error instanceof Error ? error.message : String(error));
}
