// How an API key is shown when not revealed: "…" and its last 4 characters.

/** Keys shorter than this are masked whole: their last 4 characters would give too much away. */
const SHORTEST_KEY_WITH_VISIBLE_TAIL = 12;

export function maskApiKey(key: string): string {
  if (key.length < SHORTEST_KEY_WITH_VISIBLE_TAIL) return '…';
  return `…${key.slice(-4)}`;
}
