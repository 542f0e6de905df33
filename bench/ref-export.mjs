// The reference for `leadctl leads --all --csv`: Node's own fetch, page 1 for the total, then 4 pages in
// flight written in page order as CSV (the same columns, quoted where needed). No checks of any kind.
const { LEADCTL_BASE_URL: base, LEADCTL_API_KEY: key } = process.env;
const FIELDS = [
  'id',
  'name',
  'address',
  'phone',
  'website',
  'rating',
  'review_count',
  'category',
  'saved_at',
];
const get = (page) =>
  fetch(`${base}/api/v1/leads?page=${page}&limit=100`, { headers: { authorization: `Bearer ${key}` } }).then(
    (res) => (res.ok ? res.json() : Promise.reject(new Error(`HTTP ${res.status}`))),
  );
const cell = (value) => {
  const text = value == null ? '' : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};
const write = (text) => new Promise((resolve) => process.stdout.write(text, resolve));
const rows = (leads) =>
  leads.map((lead) => `${FIELDS.map((field) => cell(lead[field])).join(',')}\r\n`).join('');

await write(`${FIELDS.join(',')}\r\n`);
const first = await get(1);
await write(rows(first.leads));
const inFlight = new Map();
let next = 2;
for (let page = 2; page <= first.meta.totalPages; page++) {
  while (next <= first.meta.totalPages && inFlight.size < 4) inFlight.set(next, get(next++));
  const body = await inFlight.get(page);
  inFlight.delete(page);
  await write(rows(body.leads));
}
