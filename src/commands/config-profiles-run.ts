// `leadctl config profiles` and `leadctl config remove-profile <name>`. The list is data on stdout,
// `git branch` style (`* ` marks the profile this run would use), so shell completion reads it too.
import { InterruptedError, UsageError } from '../api/errors.js';
import { configFile } from '../config/paths.js';
import { checkProfileName, noSuchProfile, profileNames, removeProfile } from '../config/profiles.js';
import { readConfigFile } from '../config/store.js';
import type { ConfigIo } from './config-run.js';

export async function runConfigProfiles(options: { json: boolean }, io: ConfigIo): Promise<void> {
  const file = readConfigFile(configFile(io.env));
  const names = profileNames(file);
  const current = io.profile;
  if (options.json) {
    const list = names.map((name) => ({ name, current: name === current }));
    io.stdout.write(`${JSON.stringify(list, null, 2)}\n`);
  } else {
    for (const name of names) io.stdout.write(`${name === current ? '*' : ' '} ${name}\n`);
  }
  if (names.length === 0)
    note(io, `no profiles are stored yet in ${file.path}; create one with: leadctl config set api-key`);
  else if (!names.includes(current)) {
    note(io, `this run would use profile "${current}", which is not stored (empty)`);
  }
}

export async function runConfigRemoveProfile(
  name: string,
  options: { yes: boolean },
  io: ConfigIo,
): Promise<void> {
  const profile = checkProfileName(name, 'profile name');
  const file = readConfigFile(configFile(io.env));
  if (!Object.hasOwn(file.profiles, profile)) throw noSuchProfile(file, profile);
  if (!options.yes) {
    // A script must say what it means: no question it cannot answer, no silent removal.
    if (!io.stdin.isTTY) {
      throw new UsageError(
        `refusing to remove profile "${profile}" without --yes: standard input is not a terminal`,
        `run: leadctl config remove-profile ${profile} --yes`,
      );
    }
    const keys = Object.keys(file.profiles[profile] ?? {});
    const holding = keys.length > 0 ? ` (${keys.join(', ')})` : '';
    if (!(await confirm(io, `Remove profile "${profile}"${holding} from ${file.path}? [y/N] `))) {
      note(io, 'Nothing removed');
      return;
    }
  }
  const path = await removeProfile(io.env, profile);
  note(io, `Removed profile "${profile}" from ${path}`);
}

async function confirm(io: ConfigIo, question: string): Promise<boolean> {
  // Loaded only to ask: this module is part of every command's run code (runs.ts).
  const { createInterface } = await import('node:readline/promises');
  const reader = createInterface({ input: io.stdin, output: io.stderr, terminal: true });
  try {
    const closed = new Promise<never>((_resolve, reject) =>
      reader.once('SIGINT', () => reject(new InterruptedError())),
    );
    const answer = await Promise.race([reader.question(question), closed]);
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    reader.close();
  }
}

function note(io: ConfigIo, line: string): void {
  if (!io.quiet) io.stderr.write(`${line}\n`);
}
