// The API key in use, masked wherever text reaches stderr: a server that echoes the key back in an
// error message ("invalid key sk_live_…") must not make leadctl print it. The settings register the
// key they resolve; the ui and the CLI's error renderer mask every line they write.
import { maskApiKey } from './mask.js';

/** Shorter values are not masked: replacing every "abc" in a message would garble it, not protect. */
const SHORTEST_MASKED = 8;

const secrets = new Set<string>();

export function rememberSecret(value: string): void {
  if (value.length >= SHORTEST_MASKED) secrets.add(value);
}

export function maskSecrets(text: string): string {
  let masked = text;
  for (const secret of secrets) masked = masked.replaceAll(secret, maskApiKey(secret));
  return masked;
}
