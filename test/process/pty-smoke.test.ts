import { expect, test } from 'vitest';
import { runInPty } from '../helpers/pty.js';

test('pty helper: leadctl sees a terminal of the asked size and the modes are read back', async () => {
  const run = runInPty(['--version'], { cols: 40, rows: 10 });
  const result = await run.exited;
  expect(result.exitCode).toBe(0);
  expect(result.signal).toBeUndefined();
  expect(run.screen()).toMatch(/\d+\.\d+\.\d+/);
  expect(result.modes.text).toContain('columns 40');
  expect(result.modes).toMatchObject({ isig: true, icanon: true, echo: true });
});
