// Turns the medians into the table of bench/RESULTS.md and checks them against the goals.
import { cpus, platform, release, totalmem } from 'node:os';

const ms = (v) => (v === undefined ? 'n/a' : `${Math.round(v)} ms`);
const mb = (v) => (v === undefined ? 'n/a' : `${v.toFixed(1)} MB`);
const count = (v) => (v === undefined ? '' : Math.round(v).toLocaleString('en-US'));

/** One verdict per goal: text for the last column, and whether it is met. */
export function judge(rows, { pageSize }) {
  const find = (kind) => rows.find((row) => row.kind === kind);
  const bare = find('bare')?.wallMs;
  const notes = new Map();
  const against = (kind, limit, label) => {
    const row = find(kind);
    if (!row || !bare) return;
    const ratio = row.wallMs / bare;
    notes.set(row, { text: `${ratio.toFixed(2)}x node (goal <= ${limit}x)`, ok: ratio <= limit, label });
  };
  against('version', 1.2, 'start-up: --version');
  against('help', 1.5, 'start-up: leads --help');
  against('complete', 1.5, 'tab completion: __complete');
  against('page', 2.2, 'one page --json');
  for (const kind of ['export', 'export-c1', 'floor', 'curl-jq']) {
    const row = find(kind);
    if (!row) continue;
    const boundMs = (Math.ceil(row.leads / pageSize) * row.latencyMs) / row.concurrency;
    const ratio = row.wallMs / boundMs;
    // The paging alone, as the server saw it: the first request's arrival to the last answer.
    const paging = row.spanMs === undefined ? '' : `; paging ${(row.spanMs / boundMs).toFixed(2)}x`;
    // The fewest requests an export that checks its work can spend: every page, plus one head read.
    const minimum = Math.ceil(row.leads / pageSize) + 1;
    const requests =
      kind === 'export' && row.requests !== undefined
        ? `; ${count(row.requests)} requests (minimum ${count(minimum)})`
        : '';
    const text = `${ratio.toFixed(2)}x bound ${ms(boundMs)}${kind === 'export' ? ' (goal <= 1.2x)' : ''}${paging}${requests}`;
    const ok =
      kind === 'export' ? ratio <= 1.2 && (row.requests === undefined || row.requests <= minimum) : undefined;
    notes.set(row, { text, ok, label: kind });
  }
  const memory = rows.filter((row) => row.kind === 'memory').sort((a, b) => a.leads - b.leads);
  if (memory.length >= 2) {
    const [small, big, huge] = memory;
    const growth = big.peakRssMb / small.peakRssMb;
    notes.set(small, { text: 'peak RSS reference', ok: undefined });
    notes.set(big, {
      text: `${growth.toFixed(2)}x the ${count(small.leads)} run (goal < 100 MB, flat)`,
      // "Flat": ten times the rows may not cost more than a quarter more memory.
      ok: big.peakRssMb < 100 && growth <= 1.25,
      label: 'memory',
    });
    // One day's quota on the biggest plan: the pager remembers every id written to stay exact.
    if (huge) {
      notes.set(huge, {
        text: `${(huge.peakRssMb / small.peakRssMb).toFixed(2)}x the ${count(small.leads)} run (goal < 150 MB)`,
        ok: huge.peakRssMb < 150,
        label: 'memory, 1,000,000 leads',
      });
    }
  }
  // A table streams like csv: at most twice its time (issue 22).
  const csv = find('table-csv');
  const laidOut = find('table');
  if (csv && laidOut) {
    const ratio = laidOut.wallMs / csv.wallMs;
    notes.set(laidOut, {
      text: `${ratio.toFixed(2)}x csv (goal <= 2x)`,
      ok: ratio <= 2,
      label: 'table vs csv',
    });
  }
  return notes;
}

export function table(rows, notes) {
  const lines = [
    '| measurement | runs | wall (median) | CPU user+sys | CPU per 10k rows | peak RSS | requests | rows out | against the goal |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---|',
  ];
  for (const row of rows) {
    const note = notes.get(row);
    const verdict = note ? `${note.text}${note.ok === undefined ? '' : note.ok ? ' ✅' : ' ❌'}` : '';
    const perTenK =
      row.records > 1000 && row.cpuMs !== undefined ? ms((row.cpuMs / row.records) * 10_000) : '';
    lines.push(
      `| ${row.name} | ${row.runs} | ${ms(row.wallMs)} | ${ms(row.cpuMs)} | ${perTenK} | ${mb(row.peakRssMb)} | ${count(row.requests)} | ${count(row.records)} | ${verdict} |`,
    );
  }
  return lines.join('\n');
}

export function machine() {
  const cpu = cpus();
  return `${cpu[0]?.model ?? 'unknown CPU'} x ${cpu.length}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB RAM, ${platform()} ${release()}, Node ${process.version}`;
}
