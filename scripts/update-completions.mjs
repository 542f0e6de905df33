// Regenerates the checked-in completion scripts from the BUILT cli (run `npm run build` first):
//   node scripts/update-completions.mjs
// test/e2e/completion-freshness.test.ts fails when completions/ and `leadctl completion <shell>` differ.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const files = {
  bash: 'completions/leadctl.bash',
  zsh: 'completions/_leadctl',
  fish: 'completions/leadctl.fish',
};

if (!existsSync(join(root, 'dist/cli.js'))) {
  console.error('update-completions: dist/ is missing; run `npm run build` first');
  process.exit(1);
}
mkdirSync(join(root, 'completions'), { recursive: true });
for (const [shell, file] of Object.entries(files)) {
  // A clean environment, so that nothing from the caller's shell (LEADCTL_*, NO_COLOR) can colour the output.
  const script = execFileSync(process.execPath, [join(root, 'bin/leadctl.cjs'), 'completion', shell], {
    cwd: root,
    encoding: 'utf8',
    env: { PATH: process.env.PATH, HOME: process.env.HOME },
  });
  writeFileSync(join(root, file), script);
  console.log(`wrote ${file}`);
}
