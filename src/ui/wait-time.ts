// A wait as a person reads it: "250 ms", "1.3 s", "12 s", "2 min 5 s"; never "0.0 s" for a short
// backoff (full jitter often picks a few milliseconds) and never more digits than are meaningful.
export function formatWait(ms: number): string {
  if (ms < 1) return 'now';
  if (ms < 1000) return `in ${Math.round(ms)} ms`;
  if (ms < 10_000) return `in ${Math.round(ms / 100) / 10} s`;
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `in ${seconds} s`;
  const rest = seconds % 60;
  return `in ${Math.floor(seconds / 60)} min${rest === 0 ? '' : ` ${rest} s`}`;
}
