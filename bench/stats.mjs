// Small helpers for summarising repeated runs.

export function median(values) {
  const sorted = values.filter((v) => typeof v === 'number' && Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return undefined;
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Median of every numeric field across runs. */
export function summarise(runs) {
  const pick = (key) => median(runs.map((run) => run[key]));
  return {
    runs: runs.length,
    wallMs: pick('wallMs'),
    cpuMs: pick('cpuMs'),
    peakRssMb: pick('peakRssMb'),
    requests: pick('requests'),
    spanMs: pick('spanMs'),
    records: pick('records'),
    bytes: pick('bytes'),
  };
}
