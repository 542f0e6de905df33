// The checkpoint file of `--checkpoint FILE`: which list it belongs to (resource, profile, base URL)
// and the ids at the newest end of that list when the last committed run began (docs/checkpoint.md).
// Written atomically through held-file.ts (a temporary file, 0600, renamed over FILE, or over the
// file a symlink FILE names) and read back through a schema: anything else, a tampered file or
// another program's, is refused with exit 2.
import { readFile } from 'node:fs/promises';
import * as z from 'zod/mini';
import { UsageError } from '../api/errors.js';
import { errorCode, reasonOf } from '../output/destination.js';
import { describeIssue } from '../text/schema-issues.js';

export const CHECKPOINT_VERSION = 1;

/** Ids kept from the newest end: deletions of fewer than this many there still leave a boundary. */
export const HEAD_IDS = 100;

const CHECKPOINT = z.strictObject({
  kind: z.literal('leadctl-checkpoint'),
  version: z.literal(CHECKPOINT_VERSION),
  resource: z.enum(['leads', 'history']),
  profile: z.string().check(z.minLength(1)),
  baseUrl: z.string().check(z.minLength(1)),
  /** Ids of the list's first items, newest first, as the last committed run saw them at its start. */
  head: z.array(z.string().check(z.minLength(1))).check(z.maxLength(HEAD_IDS)),
  /** meta.total then: for the user's eyes and for the report of what changed. */
  total: z.int().check(z.minimum(0)),
  /** When that run committed (ISO 8601). Not used to decide anything. */
  savedAt: z.string(),
});

export type Checkpoint = z.infer<typeof CHECKPOINT>;

/** What a checkpoint must match: the list this run reads. */
export interface CheckpointOwner {
  resource: 'leads' | 'history';
  profile: string;
  baseUrl: string;
}

/** undefined when FILE does not exist yet (a first run); UsageError (exit 2) when it is not usable. */
export async function loadCheckpoint(file: string, owner: CheckpointOwner): Promise<Checkpoint | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return undefined;
    throw new UsageError(`cannot read checkpoint ${file}: ${reasonOf(error)}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw notACheckpoint(file, 'it is not valid JSON');
  }
  const parsed = CHECKPOINT.safeParse(json);
  if (!parsed.success) throw notACheckpoint(file, describeIssue(parsed.error.issues[0] as z.core.$ZodIssue));
  const checkpoint = parsed.data;
  for (const key of ['resource', 'profile', 'baseUrl'] as const) {
    if (checkpoint[key] !== owner[key]) {
      throw new UsageError(
        `checkpoint ${file} belongs to another list: ${describeKey(key)} ${checkpoint[key]}, not ${owner[key]}`,
        'use one checkpoint file per resource, profile and server',
      );
    }
  }
  return checkpoint;
}

/** The file's text: written by the run through its held file (held-file.ts), never directly. */
export function checkpointText(checkpoint: Checkpoint): string {
  return `${JSON.stringify(checkpoint, null, 2)}\n`;
}

function describeKey(key: 'resource' | 'profile' | 'baseUrl'): string {
  return key === 'baseUrl' ? 'base URL' : key;
}

function notACheckpoint(file: string, why: string): UsageError {
  return new UsageError(
    `${file} is not a leadctl checkpoint: ${why}`,
    'name another --checkpoint file, or delete this one to export everything again',
  );
}
