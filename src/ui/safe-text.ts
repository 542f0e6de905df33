// What every line leadctl writes to stderr goes through: the key in use masked, control, escape and
// invisible characters made visible (so server text quoted anywhere cannot drive the terminal),
// and each line capped. Our own words pass unchanged.
import { maskSecrets } from '../text/secrets.js';
import { capLength, sanitizeForTerminal } from '../text/terminal-text.js';

/** Far longer than any message of ours: only quoted server text could reach it. */
const MAX_LINE_LENGTH = 1000;

export function safeForStderr(text: string): string {
  return text
    .split('\n')
    .map((line) => capLength(sanitizeForTerminal(maskSecrets(line)), MAX_LINE_LENGTH))
    .join('\n');
}
