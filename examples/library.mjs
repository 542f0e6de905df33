// Using leadctl as a library: the same client, retries and paging as the CLI.
// Run: LEADCTL_BASE_URL=… LEADCTL_API_KEY=… node examples/library.mjs
import { LeadClient, RateLimitedError } from 'leadctl';

const client = new LeadClient({
  baseUrl: process.env.LEADCTL_BASE_URL,
  apiKey: process.env.LEADCTL_API_KEY,
  maxWaitMs: 60_000, // wait out a 429 of up to a minute
});

try {
  const { leads, meta } = await client.listLeads({ page: 1, limit: 5 });
  console.log(`${meta.total} saved leads; newest: ${leads[0]?.name}`);

  const { results } = await client.search({ query: 'plumber', location: 'Austin, TX', radius: 15 });
  console.log(`${results.length} plumbers near Austin`);

  let recent = 0;
  for await (const lead of client.paginate('leads', { since: '7d', concurrency: 4 })) {
    if (lead.phone) recent += 1;
  }
  console.log(`${recent} leads saved in the last 7 days have a phone number`);
} catch (error) {
  if (error instanceof RateLimitedError) console.error(`rate limited until ${error.resetAt?.toISOString()}`);
  else throw error;
} finally {
  await client.close();
}
