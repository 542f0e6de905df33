// `node bench/rows.mjs [--root DIR] [--format csv|tsv|json|ndjson] [--rows N] [--runs N]`: the CPU cost
// per row of the in-process hot path of an export, without HTTP: JSON.parse + item parsing
// (parseLeadsPage) and rendering (the format's renderer), on pages of 100 sandbox leads. --root points at
// another checkout (e.g. one extracted from HEAD) to compare before and after on the same machine.
// Prints µs per row for parse and render in the first (cold) pass, and the median of --runs more.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';

const { values: opts } = parseArgs({
  options: {
    root: { type: 'string', default: fileURLToPath(new URL('..', import.meta.url)) },
    format: { type: 'string', default: 'csv' },
    rows: { type: 'string', default: '20000' },
    runs: { type: 'string', default: '7' },
  },
});
const root = resolve(opts.root);
const PAGE_SIZE = 100;

// The modules under test, bundled from --root's sources (they are TypeScript, and not all are exported).
const dir = mkdtempSync(join(tmpdir(), 'leadctl-rows-'));
const file = join(dir, 'rows.mjs');
const imports = {
  schemas: 'src/api/schemas.ts',
  output: 'src/output/index.ts',
  data: 'src/sandbox/data.ts',
  resources: 'src/resources.ts',
};
await build({
  stdin: {
    contents: Object.entries(imports)
      .map(([name, path]) => `export * as ${name} from ${JSON.stringify(join(root, path))};`)
      .join('\n'),
    resolveDir: root,
    loader: 'js',
  },
  outfile: file,
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  logLevel: 'warning',
});
const { schemas, output, data, resources } = await import(pathToFileURL(file).href);
rmSync(dir, { recursive: true, force: true });

// The bodies a server sends: pages of 100 leads as JSON text, made once, outside the timing.
const rows = Number(opts.rows);
const start = Date.UTC(2026, 0, 1);
const bodies = [];
for (let page = 0; page * PAGE_SIZE < rows; page++) {
  const leads = [];
  for (let i = page * PAGE_SIZE; i < Math.min(rows, (page + 1) * PAGE_SIZE); i++) {
    leads.push(data.generateLead(1, i, start - i * 60_000));
  }
  const meta = { page: page + 1, limit: PAGE_SIZE, total: rows, totalPages: Math.ceil(rows / PAGE_SIZE) };
  bodies.push(JSON.stringify({ leads, meta }));
}

// createRenderer became async when table.ts moved out of the static graph; await works for both.
const renderer = await output.createRenderer({
  format: opts.format,
  defaultFields: resources.RESOURCES.leads.fields,
  tableFields: resources.RESOURCES.leads.tableFields,
  header: true,
  sanitize: true,
  color: false,
});

const cpuMs = (since) => {
  const { user, system } = process.cpuUsage(since);
  return (user + system) / 1000;
};

function pass() {
  let parseMs = 0;
  let renderMs = 0;
  let chars = 0;
  for (let page = 0; page < bodies.length; page++) {
    const t0 = process.cpuUsage();
    const { leads } = schemas.parseLeadsPage(
      { status: 200, body: bodies[page], contentType: 'application/json' },
      { page: page + 1, limit: PAGE_SIZE },
    );
    parseMs += cpuMs(t0);
    const t1 = process.cpuUsage();
    // The writer joins row chunks into ~64 KB batches; joining per page is the same work.
    const chunks = [];
    for (const lead of leads) chunks.push(renderer.row(lead));
    chars += chunks.join('').length;
    renderMs += cpuMs(t1);
  }
  return { parseMs, renderMs, chars };
}

const median = (values) => values.toSorted((a, b) => a - b)[Math.floor(values.length / 2)];
// The first pass runs cold code, as a CLI export does (one pass, in a fresh process); the later ones
// show the steady state, once the JIT has optimised everything.
const cold = pass();
const passes = Array.from({ length: Number(opts.runs) }, pass);
const perRow = (ms) => ((ms * 1000) / rows).toFixed(2);
const parse = median(passes.map((p) => p.parseMs));
const render = median(passes.map((p) => p.renderMs));
const both = median(passes.map((p) => p.parseMs + p.renderMs));
console.log(
  `${root} ${opts.format}, ${rows} rows, first pass: parse ${perRow(cold.parseMs)} µs/row, ` +
    `render ${perRow(cold.renderMs)} µs/row; median of ${opts.runs} later passes: ` +
    `parse ${perRow(parse)} µs/row, render ${perRow(render)} µs/row, both ${perRow(both)} µs/row ` +
    `(${((both / rows) * 10_000).toFixed(1)} ms per 10k rows; ${passes[0].chars} chars out)`,
);
