// The floor of an export on this machine: undici alone, in the request pattern any pager that keeps
// every item exactly once must follow (src/api/paging): page 1 on its own (its total says how many pages
// there are, and every later page must be sent after it was read), then the other pages `concurrency`
// at a time. Each body is
// read as text and dropped: no parsing, paging checks or output. Whatever this takes beyond the bound
// is the server, the network stack and the HTTP client, which no pager can win back.
// Usage: undici-floor.mjs <base-url> <api-key> <concurrency> <pages>   (nothing on stdout)
import { Agent, request } from 'undici';

const [baseUrl, apiKey, concurrency, pages] = process.argv.slice(2);
const agent = new Agent({ connections: 16 });
const headers = { authorization: `Bearer ${apiKey}` };

async function get(page, limit) {
  const response = await request(`${baseUrl}/api/v1/leads?page=${page}&limit=${limit}`, {
    dispatcher: agent,
    headers,
  });
  await response.body.text();
  if (response.statusCode !== 200) throw new Error(`page ${page}: HTTP ${response.statusCode}`);
}

await get(1, 100);
let next = 2;
async function worker() {
  while (next <= Number(pages)) await get(next++, 100);
}
await Promise.all(Array.from({ length: Number(concurrency) }, worker));
await agent.close();
