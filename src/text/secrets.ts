// API keys, masked wherever text is shown, even when a server echoes one back. A SecretMask belongs to
// one session (the MCP server makes one per session); the CLI's one run per process keeps its in `cliRun`.

/** Shorter values are not masked: replacing every "abc" in a message would garble it, not protect. */
const SHORTEST_MASKED = 8;

export class SecretMask {
  readonly #secrets = new Set<string>();
  readonly #shown: (secret: string) => string;

  /** `shown` is what replaces a secret (default: "…" and its last 4 characters). */
  constructor(shown: (secret: string) => string = maskApiKey) {
    this.#shown = shown;
  }

  remember(value: string | undefined): void {
    if (value && value.length >= SHORTEST_MASKED) this.#secrets.add(value);
  }

  mask(text: string): string {
    let masked = text;
    for (const secret of this.#secrets) {
      // LeadClient's errors already show an echoed key as maskApiKey does: a mask of its own form
      // (MCP's) shows that form as its own too. A bare "…" (a short key) reveals nothing.
      for (const form of [secret, maskApiKey(secret)]) {
        if (form !== '…' && masked.includes(form)) masked = masked.split(form).join(this.#shown(secret));
      }
    }
    return masked;
  }
}

const cliRun = new SecretMask();

export function rememberSecret(value: string): void {
  cliRun.remember(value);
}

export function maskSecrets(text: string): string {
  return cliRun.mask(text);
}

// How an API key is shown when not revealed: "…" and its last 4 characters.
/** Keys shorter than this are masked whole: their last 4 characters would give too much away. */
const SHORTEST_KEY_WITH_VISIBLE_TAIL = 12;

export function maskApiKey(key: string): string {
  if (key.length < SHORTEST_KEY_WITH_VISIBLE_TAIL) return '…';
  return `…${key.slice(-4)}`;
}
