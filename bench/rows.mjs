// `node bench/rows.mjs [--root DIR ...] [--format csv|tsv|json|ndjson] [--rows N] [--runs N]`: the CPU of
// the in-process hot path of an export, without HTTP or writes: the pager over pages of 100 sandbox leads
// (parse-response: JSON.parse, the exact-number check, the schemas; the id set), the format's renderer,
// and the writer's joins (a page's rows, then ~64 KB batches). Each --root (a checkout, e.g. one
// extracted from the commit before a change) is bundled on its own and the passes run interleaved, A B A
// B ..., so that the machine's load falls on each alike. Prints the median CPU ms of --runs passes after
// a first cold one, and the parse share.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';
import { NODE_BUNDLE } from './sandbox.mjs';

const { values: opts } = parseArgs({
  options: {
    root: { type: 'string', multiple: true, default: [fileURLToPath(new URL('..', import.meta.url))] },
    format: { type: 'string', default: 'csv' },
    rows: { type: 'string', default: '200000' },
    runs: { type: 'string', default: '7' },
  },
});
const PAGE_SIZE = 100;
const BATCH_CHARS = 64 * 1024;

/** The modules under test, bundled from a root's sources (TypeScript, not all of them exported). */
async function load(root) {
  const dir = mkdtempSync(join(tmpdir(), 'leadctl-rows-'));
  const file = join(dir, 'rows.mjs');
  const imports = {
    parse: 'src/api/parse-response.ts',
    paging: 'src/api/paging/index.ts',
    output: 'src/output/item-sink.ts',
    formats: 'src/output/formats.ts',
    data: 'src/sandbox/data.ts',
    resources: 'src/resources.ts',
  };
  try {
    await build({
      stdin: {
        contents: Object.entries(imports)
          .map(([name, path]) => `export * as ${name} from ${JSON.stringify(join(root, path))};`)
          .join('\n'),
        resolveDir: root,
        loader: 'js',
      },
      outfile: file,
      ...NODE_BUNDLE,
    });
    return await import(pathToFileURL(file).href);
  } finally {
    // A build that fails (a root without one of the files) leaves no folder behind either.
    rmSync(dir, { recursive: true, force: true });
  }
}

const roots = opts.root.map((root) => resolve(root));
const builds = await Promise.all(roots.map(load));

// The bodies a server sends: pages of 100 leads as JSON text, made once, outside the timing.
const rows = Number(opts.rows);
const start = Date.UTC(2026, 0, 1);
const bodies = [];
for (let page = 0; page * PAGE_SIZE < rows; page++) {
  const leads = [];
  for (let i = page * PAGE_SIZE; i < Math.min(rows, (page + 1) * PAGE_SIZE); i++) {
    leads.push(builds[0].data.generateLead(1, i, start - i * 60_000));
  }
  const meta = { page: page + 1, limit: PAGE_SIZE, total: rows, totalPages: Math.ceil(rows / PAGE_SIZE) };
  bodies.push(JSON.stringify({ leads, meta }));
}

const cpuMs = (since) => {
  const { user, system } = process.cpuUsage(since);
  return (user + system) / 1000;
};

async function pass({ parse, paging, output, formats, resources }) {
  const renderer = await output.createRenderer({
    format: opts.format,
    defaultFields: resources.RESOURCES.leads.fields,
    tableFields: resources.RESOURCES.leads.tableFields,
    header: true,
    sanitize: true,
    color: false,
  });
  let parseMs = 0;
  const fetchPage = async (page, limit) => {
    const t0 = process.cpuUsage();
    const { leads, meta } = parse.parseLeadsPage(
      { status: 200, body: bodies[page - 1], contentType: 'application/json' },
      { page, limit },
    );
    parseMs += cpuMs(t0);
    return { items: leads, meta };
  };
  const t0 = process.cpuUsage();
  let chars = 0;
  let batch = [];
  let batchChars = 0;
  const options = { limit: PAGE_SIZE, concurrency: 4, timeField: 'saved_at' };
  for await (const items of paging.paginatePages(fetchPage, options)) {
    const chunks = [];
    for (const item of items) chunks.push(renderer.row(item));
    const text = formats.joinChunks(chunks);
    batch.push(text);
    batchChars += text.length;
    if (batchChars >= BATCH_CHARS) {
      chars += formats.joinChunks(batch).length;
      batch = [];
      batchChars = 0;
    }
  }
  chars += formats.joinChunks(batch).length;
  return { totalMs: cpuMs(t0), parseMs, chars };
}

const median = (values) => values.toSorted((a, b) => a - b)[Math.floor(values.length / 2)];
const results = roots.map(() => []);
// The first pass of each build runs cold code; the later ones show the steady state of a long export.
for (const build of builds) await pass(build);
for (let run = 0; run < Number(opts.runs); run++) {
  for (let index = 0; index < builds.length; index++) results[index].push(await pass(builds[index]));
}
const first = median(results[0].map((r) => r.totalMs));
roots.forEach((root, index) => {
  const total = median(results[index].map((r) => r.totalMs));
  const parseMs = median(results[index].map((r) => r.parseMs));
  const all = results[index].map((r) => r.totalMs.toFixed(0)).join(' ');
  console.log(
    `${root}: ${opts.format}, ${rows} rows: median ${total.toFixed(0)} ms CPU (${((total / rows) * 10_000).toFixed(1)} ms per 10k rows; ` +
      `parse ${parseMs.toFixed(0)}), ${(total / first).toFixed(3)}x the first root; runs ${all}; ${results[index][0].chars} chars out`,
  );
});
