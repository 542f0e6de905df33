// Runs leadctl's main(argv, io) inside the test process: for tests that only parse argv, print help or
// refuse a command line before any request, where spawning Node (~300 ms each, much more on a busy
// machine) would measure start-up and not the behaviour. The streams are plain ones, not terminals,
// and the environment is the clean one every spawned run gets (cli.ts), never the developer's.
import { Readable, Writable } from 'node:stream';
import { main } from '../../src/cli.js';
import type { Io } from '../../src/session.js';
import { type CliResult, cleanEnv, tempConfigHome } from './cli.js';

class Collected extends Writable {
  text = '';
  override _write(chunk: Buffer | string, _encoding: BufferEncoding, done: () => void): void {
    this.text += String(chunk);
    done();
  }
}

export async function runInProcess(
  args: string[],
  options: { env?: Record<string, string | undefined>; input?: string } = {},
): Promise<CliResult> {
  const stdout = new Collected();
  const stderr = new Collected();
  const io: Io = {
    stdout,
    stderr,
    stdin: Readable.from(options.input === undefined ? [] : [options.input]),
    env: cleanEnv({ XDG_CONFIG_HOME: await tempConfigHome(), ...options.env }),
  };
  const exitCode = await main(args, io);
  return { exitCode, stdout: stdout.text, stderr: stderr.text };
}
