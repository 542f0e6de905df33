// Paired rows into the table of bench/RESULTS.md. A ratio is taken round by round (leadctl's run over
// the reference's run of the same round), then its median and range are shown: a burst of load that
// hits one round moves one ratio, not the median.
import { cpus, loadavg, platform, release, totalmem } from 'node:os';

export function median(values) {
  const sorted = values.filter((v) => typeof v === 'number' && Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return undefined;
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Median and range of `key` over runs, or of `key` of a over b round by round (`over`). */
export function spread(runs, key, over) {
  const values = runs.map((run, i) => (over ? run[key] / over[i]?.[key] : run[key]));
  const finite = values.filter(Number.isFinite);
  return { median: median(finite), min: Math.min(...finite), max: Math.max(...finite) };
}

/** leadctl's own cost over bare Node, in CPU ms: the median of the per-round differences. */
export const ownCost = (runs, bare) =>
  median(runs.map((run, i) => run.cpuMs - (bare[i]?.cpuMs ?? Number.NaN)));

const ms = (v) => (v === undefined ? 'n/a' : `${Math.round(v).toLocaleString('en-US')}`);
const range = ({ median: m, min, max }, digits, unit = '') =>
  m === undefined ? 'n/a' : `${m.toFixed(digits)}${unit} (${min.toFixed(digits)}-${max.toFixed(digits)})`;

/** The row's verdict against its goal: text, and whether it is met (undefined: a figure only). */
export function verdict(row) {
  const { goal, judged = true } = row;
  if (!goal || !row.leadctl.length) return { text: '', ok: undefined };
  const checks = [];
  if (goal.cpu)
    checks.push([`CPU <= ${goal.cpu}x`, spread(row.leadctl, 'cpuMs', row.ref).median <= goal.cpu]);
  if (goal.wall)
    checks.push([`wall <= ${goal.wall}x`, spread(row.leadctl, 'wallMs', row.ref).median <= goal.wall]);
  if (goal.requests) {
    const most = Math.max(...row.leadctl.map((run) => run.requests ?? Number.POSITIVE_INFINITY));
    checks.push([`<= ${goal.requests.toLocaleString('en-US')} requests`, most <= goal.requests]);
  }
  if (goal.ownMs) {
    const own = ownCost(row.leadctl, row.bare);
    checks.push([`own cost <= ${goal.ownMs} ms CPU`, own <= goal.ownMs]);
  }
  if (goal.rssMb) {
    const most = Math.max(...row.leadctl.map((run) => run.peakRssMb ?? Number.POSITIVE_INFINITY));
    checks.push([`peak RSS < ${goal.rssMb} MB`, most < goal.rssMb]);
  }
  const ok = checks.every(([, met]) => met);
  const text = checks.map(([what, met]) => `${what} ${met ? '✅' : '❌'}`).join(', ');
  return judged
    ? { text, ok }
    : { text: `${checks.map(([what]) => what).join(', ')}: not judged`, ok: undefined };
}

export function table(rows) {
  const lines = [
    '| measure | reference | runs | leadctl CPU ms | reference CPU ms | CPU ratio | wall ratio | own cost over `node -e 0`, CPU ms | peak RSS MB (most) | requests | goal |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|',
  ];
  for (const row of rows) {
    const { leadctl, ref } = row;
    const cpuRatio = ref ? range(spread(leadctl, 'cpuMs', ref), 2) : '';
    const wallRatio = ref ? range(spread(leadctl, 'wallMs', ref), 2) : '';
    const own = row.bare ? `${ms(ownCost(leadctl, row.bare))}; reference ${ms(ownCost(ref, row.bare))}` : '';
    const rss = spread(leadctl, 'peakRssMb');
    const refRss = ref ? ` / ${spread(ref, 'peakRssMb').max.toFixed(0)}` : '';
    const requests = (runs) => ms(median(runs.map((run) => run.requests)));
    lines.push(
      `| ${row.name} | ${row.reference || '-'} | ${leadctl.length} | ${range(spread(leadctl, 'cpuMs'), 0)} | ${ref ? range(spread(ref, 'cpuMs'), 0) : ''} | ${cpuRatio} | ${wallRatio} | ${own} | ${rss.max.toFixed(1)}${refRss} | ${requests(leadctl)}${ref ? ` / ${requests(ref)}` : ''} | ${verdict(row).text} |`,
    );
  }
  return lines.join('\n');
}

export const load = () =>
  loadavg()
    .map((v) => v.toFixed(2))
    .join(' ');

export function machine() {
  const cpu = cpus();
  return `${cpu[0]?.model ?? 'unknown CPU'} x ${cpu.length}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB RAM, ${platform()} ${release()}`;
}
