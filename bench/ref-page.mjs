// The reference for one page of `leadctl leads --json`: Node's own fetch, nothing else.
const res = await fetch(`${process.env.LEADCTL_BASE_URL}/api/v1/leads?page=1&limit=25`, {
  headers: { authorization: `Bearer ${process.env.LEADCTL_API_KEY}` },
});
if (!res.ok) throw new Error(`HTTP ${res.status}`);
process.stdout.write(`${JSON.stringify((await res.json()).leads, null, 2)}\n`);
