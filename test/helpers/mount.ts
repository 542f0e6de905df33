// Root in a container that allows mount(2) can make a small or read-only tmpfs: the only way here to
// get a full file system, or one that refuses root. Tests that need one skip elsewhere.
import { execFileSync } from 'node:child_process';
import { tempDir } from './temp.js';

export function canMount(): boolean {
  if (process.getuid?.() !== 0) return false;
  const probe = tempDir('mount-probe');
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4k', 'tmpfs', probe], { stdio: 'ignore' });
    execFileSync('umount', [probe], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Writes until the file system says ENOSPC, leaving it full. */
export function fillDisk(file: string): void {
  try {
    execFileSync('dd', ['if=/dev/zero', `of=${file}`, 'bs=64k'], { stdio: 'ignore' });
  } catch {
    // dd ends with an error once the disk is full: that is the point.
  }
}
