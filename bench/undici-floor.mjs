// The floor of an export on this machine: undici alone, `concurrency` requests in flight over the
// same pages, each body read as text and dropped (no parsing, paging checks or output). Whatever this
// takes beyond the bound is the server, the network stack and the HTTP client, which no pager can
// win back. Usage: undici-floor.mjs <base-url> <api-key> <concurrency> <pages>   (nothing on stdout)
import { Agent, request } from 'undici';

const [baseUrl, apiKey, concurrency, pages] = process.argv.slice(2);
const agent = new Agent({ connections: 16 });
const headers = { authorization: `Bearer ${apiKey}` };
let next = 1;
async function worker() {
  while (next <= Number(pages)) {
    const page = next++;
    const response = await request(`${baseUrl}/api/v1/leads?page=${page}&limit=100`, {
      dispatcher: agent,
      headers,
    });
    await response.body.text();
    if (response.statusCode !== 200) throw new Error(`page ${page}: HTTP ${response.statusCode}`);
  }
}
await Promise.all(Array.from({ length: Number(concurrency) }, worker));
await agent.close();
