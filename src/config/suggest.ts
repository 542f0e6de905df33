// "Did you mean …?" for mistyped names: the closest candidate by edit distance, if close enough.

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, substitution);
    }
    previous = current;
  }
  return previous[b.length]!;
}

/** The candidate nearest to `input`, or undefined when none is plausibly what the user meant. */
export function closestMatch(input: string, candidates: readonly string[]): string | undefined {
  // Compare without case and separators so that `apiKey`, `api_key` and `APIKEY` all find `api-key`.
  const normalize = (text: string) => text.toLowerCase().replace(/[-_.\s]/g, '');
  const wanted = normalize(input);
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of candidates) {
    const normalized = normalize(candidate);
    // A truncated name ("retry", "max") is close whatever its edit distance.
    const isPrefix = wanted.length >= 3 && normalized.startsWith(wanted);
    const distance = isPrefix ? 1 : editDistance(wanted, normalized);
    if (!best || distance < best.distance) best = { candidate, distance };
  }
  if (!best) return undefined;
  const tolerance = Math.max(1, Math.floor(best.candidate.length / 2));
  return best.distance <= tolerance ? best.candidate : undefined;
}
