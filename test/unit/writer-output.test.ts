import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdir, readFile, stat, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { UsageError } from '../../src/api/errors.js';
import { createCsvRenderer } from '../../src/output/csv.js';
import { BrokenPipeError, openOutput } from '../../src/output/destination.js';
import { canMount, fillDisk } from '../helpers/mount.js';
import { tempDir } from '../helpers/temp.js';

/** A Writable that records what reached it and can hold each write's callback until released. */
function recordingStream(options: { hold?: boolean; highWaterMark?: number } = {}) {
  const writes: string[] = [];
  const held: Array<() => void> = [];
  const stream = new Writable({
    highWaterMark: options.highWaterMark ?? 16 * 1024,
    decodeStrings: false,
    write(chunk: string, _encoding, callback) {
      writes.push(chunk);
      if (options.hold) held.push(() => callback());
      else callback();
    },
  });
  return { stream, writes, held };
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

function epipe(): NodeJS.ErrnoException {
  return Object.assign(new Error('write EPIPE'), { code: 'EPIPE', errno: -32, syscall: 'write' });
}

describe('openOutput to a file', () => {
  let dir: string;
  beforeEach(async () => {
    dir = tempDir('writer');
  });

  it('writes FILE.<random>.partial and renames it to FILE on commit', async () => {
    const file = join(dir, 'leads.csv');
    const target = await openOutput({ file, stdout: process.stdout });
    const partial = target.partialPath as string;
    expect(partial).toMatch(/\/leads\.csv\.[0-9a-f]{8}\.partial$/);
    await target.write('id,name\r\n');
    await target.write('');
    await target.write('1,Café 東京 😀\r\n');
    expect(existsSync(partial)).toBe(true);
    expect(existsSync(file)).toBe(false);
    await target.commit();
    expect(existsSync(partial)).toBe(false);
    expect(await readFile(file, 'utf8')).toBe('id,name\r\n1,Café 東京 😀\r\n');
    expect((await stat(file)).mode & 0o777).toBe(0o644 & ~process.umask());
  });

  it('leaves the partial file with everything written so far on abandon, and no FILE', async () => {
    const file = join(dir, 'leads.json');
    const target = await openOutput({ file, stdout: process.stdout });
    await target.write('[\n{"id":1}');
    await target.abandon();
    expect(existsSync(file)).toBe(false);
    expect(await readFile(target.partialPath as string, 'utf8')).toBe('[\n{"id":1}');
  });

  it('removes the partial file on discard, leaving no file at all', async () => {
    const file = join(dir, 'leads.json');
    const target = await openOutput({ file, stdout: process.stdout });
    await target.discard();
    expect(existsSync(target.partialPath as string)).toBe(false);
    expect(existsSync(file)).toBe(false);
  });

  it('leaves a stale FILE.partial alone and replaces an existing FILE', async () => {
    const file = join(dir, 'out.txt');
    await writeFile(`${file}.partial`, 'stale stale stale');
    await writeFile(file, 'old');
    const target = await openOutput({ file, stdout: process.stdout });
    await target.write('new');
    await target.commit();
    expect(await readFile(file, 'utf8')).toBe('new');
    expect(await readFile(`${file}.partial`, 'utf8')).toBe('stale stale stale');
  });

  it('writes bytes as they are, between text chunks (a renderer such as xlsx produces bytes)', async () => {
    const file = join(dir, 'leads.bin');
    const target = await openOutput({ file, stdout: process.stdout });
    const zipMagic = Uint8Array.of(0x50, 0x4b, 0x03, 0x04, 0xff, 0x00);
    await target.write('é');
    await target.write(zipMagic);
    await target.write(new Uint8Array(0));
    await target.write('\n');
    await target.commit();
    expect(await readFile(file)).toEqual(Buffer.concat([Buffer.from('é'), zipMagic, Buffer.from('\n')]));
  });

  it('with hash, counts and hashes the bytes of text and byte chunks alike', async () => {
    const file = join(dir, 'leads.csv');
    const target = await openOutput({ file, stdout: process.stdout, hash: true });
    await target.write('é,');
    await target.write(Uint8Array.of(0xff, 0x0a));
    expect(target.bytes).toBe(5);
    const { createHash } = await import('node:crypto');
    const expected = createHash('sha256')
      .update(Buffer.from([0xc3, 0xa9, 0x2c, 0xff, 0x0a]))
      .digest('hex');
    expect(target.digest()).toBe(expected);
    await target.commit();
    expect((await readFile(file)).length).toBe(5);
  });

  it('refuses a missing folder or a directory with a usage error that names the file', async () => {
    const missing = join(dir, 'no-such-dir', 'x.csv');
    const opening = openOutput({ file: missing, stdout: process.stdout });
    await expect(opening).rejects.toBeInstanceOf(UsageError);
    await expect(opening).rejects.toMatchObject({
      message: `cannot write ${missing}: no such directory`,
      exitCode: 2,
    });
    const folder = join(dir, 'folder');
    await mkdir(folder);
    await expect(openOutput({ file: folder, stdout: process.stdout })).rejects.toMatchObject({
      message: `cannot write ${folder}: is a directory`,
    });
  });
});

describe('openOutput to stdout', () => {
  it('gathers small chunks into few writes, still writes a partial batch on the next turn', async () => {
    const { stream, writes } = recordingStream();
    const target = await openOutput({ stdout: stream, bufferBytes: 64 * 1024 });
    const renderer = createCsvRenderer({
      format: 'csv',
      defaultFields: ['id', 'name', 'phone'],
      tableFields: [],
      header: true,
      sanitize: true,
      color: false,
    });
    await target.write(renderer.start());
    await nextTurn();
    expect(writes).toEqual(['id,name,phone\r\n']); // streamed without waiting for 64 KB
    let expected = 'id,name,phone\r\n';
    for (let id = 0; id < 200_000; id += 1) {
      const row = renderer.row({ id, name: `Lead ${id}, Inc`, phone: '+1 512-555-0101' });
      expected += row;
      await target.write(row);
    }
    await target.commit();
    expect(writes.join('')).toBe(expected);
    expect(writes.length).toBeLessThanOrEqual(Math.ceil(expected.length / (64 * 1024)) + 2);
  });

  it('honours backpressure: write() waits until the stream has taken the batch', async () => {
    const { stream, writes, held } = recordingStream({ hold: true, highWaterMark: 1 });
    const target = await openOutput({ stdout: stream, bufferBytes: 4 });
    let done = false;
    const writing = target.write('12345').then(() => {
      done = true;
    });
    await nextTurn();
    expect(writes).toEqual(['12345']);
    expect(done).toBe(false);
    held.shift()?.();
    await writing;
    expect(done).toBe(true);
    await target.commit();
  });

  it('turns an EPIPE error event into BrokenPipeError for pending and later writes', async () => {
    const { stream, held } = recordingStream({ hold: true, highWaterMark: 1 });
    const target = await openOutput({ stdout: stream, bufferBytes: 0 });
    const pending = target.write('data');
    await nextTurn();
    expect(held).toHaveLength(1);
    stream.destroy(epipe()); // what a pipe whose reader exited does
    await expect(pending).rejects.toBeInstanceOf(BrokenPipeError);
    await expect(target.write('more')).rejects.toBeInstanceOf(BrokenPipeError);
    await expect(target.abandon()).resolves.toBeUndefined();
  });

  it('reports BrokenPipeError when a real pipe reader has gone away', async () => {
    // The child closes its end of our pipe but stays alive, as `head` does after its lines.
    const reader = "require('fs').closeSync(0); console.log('closed'); setTimeout(() => {}, 30000)";
    const child = spawn(process.execPath, ['-e', reader], { stdio: ['pipe', 'pipe', 'ignore'] });
    onTestFinished(() => {
      child.kill();
    });
    await once(child.stdout, 'data');
    const target = await openOutput({ stdout: child.stdin, bufferBytes: 0 });
    let failure: unknown;
    for (let attempt = 0; attempt < 1000 && failure === undefined; attempt += 1) {
      await target.write('x'.repeat(64 * 1024)).catch((error: unknown) => {
        failure = error;
      });
    }
    expect(failure).toBeInstanceOf(BrokenPipeError);
    await target.abandon();
  });

  it('reports other stream errors as a write failure, not a broken pipe', async () => {
    const stream = new Writable({
      write(_chunk, _encoding, callback) {
        callback(Object.assign(new Error('no space'), { code: 'ENOSPC' }));
      },
    });
    const target = await openOutput({ stdout: stream, bufferBytes: 0 });
    await expect(target.write('x')).rejects.toMatchObject({
      message: 'cannot write standard output: no space left on device',
      exitCode: 1,
    });
  });

  it('leaves stdout open after commit and refuses writes after it', async () => {
    const { stream, writes } = recordingStream();
    const target = await openOutput({ stdout: stream });
    await target.write('a');
    await target.commit();
    expect(writes).toEqual(['a']);
    expect(stream.writableEnded).toBe(false);
    await expect(target.write('b')).rejects.toThrow('already closed');
  });
});

describe.skipIf(!canMount())('openOutput --append on a disk that fills', () => {
  it('a commit whose last rows do not fit cuts FILE back to what it held', async () => {
    const disk = tempDir('append-full');
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', disk]);
    onTestFinished(() => {
      execFileSync('umount', [disk]);
    });
    const file = join(disk, 'leads.csv');
    await writeFile(file, 'id,name\r\n1,a\r\n');
    // Full but for 8 KB: the commit's write gets part of its rows in, then ENOSPC.
    const filler = join(disk, 'filler');
    fillDisk(filler);
    await truncate(filler, (await stat(filler)).size - 8192);
    const target = await openOutput({ file, stdout: process.stdout, append: true, bufferBytes: 1 << 20 });
    await target.write(`${'2,b\r\n'.repeat(8000)}`);
    await expect(target.commit()).rejects.toThrow(/no space left on device/);
    expect(await readFile(file, 'utf8')).toBe('id,name\r\n1,a\r\n');
  });
});
