// The lead task in one or two calls, sized for a context window: a search without the businesses
// already saved, saved leads found by their words, a 5,000-result search cut into parts that come
// back without a request, `fields`, and progress notifications while paging.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Answer, type FakeServer, json, startFakeServer } from '../helpers/fake-server.js';
import { callTool, readContent, startMcp } from '../helpers/mcp-session.js';

const LEADS = '/api/v1/leads';

/** GET /leads paged from `all` as the API does (page, limit; meta with totalPages). */
function pagedLeads(all: Record<string, unknown>[]): Answer {
  return (res, request) => {
    const query = new URL(request.url, 'http://x').searchParams;
    const page = Number(query.get('page') ?? 1);
    const limit = Number(query.get('limit') ?? 25);
    const leads = all.slice((page - 1) * limit, page * limit);
    const meta = { page, limit, total: all.length, totalPages: Math.ceil(all.length / limit) };
    json(200, { leads, meta })(res, request, () => {});
  };
}

const saved = [
  {
    id: 'l1',
    name: 'Joe’s Plumbing, LLC',
    address: '12 North Lamar Boulevard, Austin, TX',
    phone: '+1 512 555 0101',
    website: 'https://www.joesplumbing.com/',
  },
  { id: 'l2', name: 'Ann Drains', address: '9 Oak St, Austin, TX', phone: '(512) 555-0102' },
  { id: 'l3', name: 'Bob Pipes', address: '3 Elm St, Austin, TX', website: 'bobpipes.com' },
  { id: 'p4', name: 'Cara Flow', address: '7 Pine St, Austin, TX' },
  {
    id: 'l5',
    name: 'Social Plumber',
    address: '1 A St, Dallas, TX',
    website: 'https://facebook.com/socialplumber',
  },
];

const results = [
  // Saved, by name with address (accents, punctuation, street words and the legal suffix differ).
  {
    place_id: 'x1',
    name: 'JOES PLUMBING',
    address: '12 N. Lamar Blvd, Austin, TX',
    phone: '+1 512 555 0199',
  },
  // Saved, by phone written another way.
  { place_id: 'x2', name: 'Ann Drains & Sewers', address: 'elsewhere', phone: '+15125550102' },
  // Saved, by website host.
  { place_id: 'x3', name: 'Bob P.', address: 'elsewhere', website: 'http://bobpipes.com/contact' },
  // Saved, by id.
  { place_id: 'p4', name: 'Cara' },
  // New: shares only facebook.com with a saved lead, which is no match on its own.
  {
    place_id: 'x5',
    name: 'Other Plumber',
    address: '5 B St, Austin',
    website: 'https://www.facebook.com/otherplumber',
  },
  // New.
  { place_id: 'x6', name: 'Dan Plumbing', address: '6 C St, Austin', phone: '+1 512 555 0106' },
];

describe('the lead task', () => {
  let server: FakeServer;
  let env: Record<string, string>;
  beforeAll(async () => {
    server = await startFakeServer();
    env = { LEADCTL_BASE_URL: server.baseUrl, LEADCTL_API_KEY: 'lk_test_leads_0123456789' };
  });
  afterAll(() => server.close());
  const sentSince = (before: number) => server.requests.slice(before).map((r) => `${r.method} ${r.url}`);

  it('search_businesses with exclude_saved leaves out what is saved, says by which rule, and reads leads first', async () => {
    server.route('GET', LEADS, pagedLeads(saved));
    server.route(
      'POST',
      '/api/v1/search',
      json(200, { query: 'plumber', location: 'Austin', count: 6, results }),
    );
    const mcp = await startMcp(['--no-confirm'], env);
    const before = server.requests.length;
    const result = await callTool(mcp, 'search_businesses', {
      query: 'plumber',
      location: 'Austin',
      exclude_saved: true,
      fields: ['place_id', 'name'],
    });
    const { ours, data } = readContent(result);
    expect(data[0]).toEqual(result.structuredContent);
    expect(result.structuredContent).toMatchObject({
      found: 6,
      excluded_saved: 4,
      excluded_by: { name_address: 1, phone: 1, website: 1, id: 1 },
      saved_leads_checked: 5,
      saved_leads_complete: true,
      returned: 2,
      truncated: false,
      results: [
        { place_id: 'x5', name: 'Other Plumber' },
        { place_id: 'x6', name: 'Dan Plumbing' },
      ],
    });
    expect(ours).toMatch(/^6 results for "plumber" near Austin\. 4 left out as already saved; 2 new\. /);
    expect(sentSince(before)).toEqual(['GET /api/v1/leads?page=1&limit=100', 'POST /api/v1/search']);
    // The answer is a few hundred bytes, not the saved list.
    expect(JSON.stringify(result.content).length).toBeLessThan(2000);
  });

  it('"plumbers in Austin I have not saved, top 5 by rating" is one call of a few KB', async () => {
    const many = Array.from({ length: 40 }, (_, i) => ({
      place_id: `r${i}`,
      name: `Plumber ${i}`,
      address: `${i} Congress Ave, Austin, TX`,
      phone: `+1 512 555 ${String(1000 + i)}`,
      rating: i === 3 ? null : (i % 10) / 2,
      review_count: i,
    }));
    // The two best are saved already (by phone, and by name with address).
    const savedBest = [
      { id: 's9', name: 'x', phone: '(512) 555-1009' },
      { id: 's19', name: 'Plumber 19', address: '19 Congress Avenue, Austin, TX' },
    ];
    server.route('GET', LEADS, pagedLeads(savedBest));
    server.route(
      'POST',
      '/api/v1/search',
      json(200, { query: 'plumber', location: 'Austin', count: 40, results: many }),
    );
    const mcp = await startMcp(['--no-confirm'], env);
    const result = await callTool(mcp, 'search_businesses', {
      query: 'plumber',
      location: 'Austin',
      exclude_saved: true,
      sort_by: 'rating',
      max_results: 5,
      fields: ['name', 'rating', 'phone'],
    });
    const data = result.structuredContent as { results: { name: string; rating: number }[] };
    expect(data.results.map((r) => r.name)).toEqual([
      'Plumber 29',
      'Plumber 39',
      'Plumber 8',
      'Plumber 18',
      'Plumber 28',
    ]);
    expect(result.structuredContent).toMatchObject({
      found: 40,
      excluded_saved: 2,
      left_out_by_max_results: 33,
      truncated: false,
    });
    expect(readContent(result).ours).toMatch(
      /^40 results for "plumber" near Austin\. 2 left out as already saved; 38 new\. Returning the first 5 by rating \(max_results\)\./,
    );
    expect(JSON.stringify(result).length).toBeLessThan(3000);
  });

  it('find_saved_leads returns only the matches of all saved leads, read 100 a page', async () => {
    const many = Array.from({ length: 250 }, (_, i) => ({
      id: `m${i}`,
      name: i % 50 === 7 ? `Plumbing Co ${i}` : `Bakery ${i}`,
      category: i % 50 === 7 ? 'Plumber' : 'Bakery',
      address: i % 2 === 0 ? `${i} Congress Ave, Austin, TX` : `${i} Main St, Dallas, TX`,
      saved_at: '2026-11-01T00:00:00Z',
    }));
    server.route('GET', LEADS, pagedLeads(many));
    const mcp = await startMcp(['--no-confirm'], env);
    const before = server.requests.length;
    const result = await callTool(mcp, 'find_saved_leads', { category: 'plumb', place: 'dallas' });
    expect(result.structuredContent).toMatchObject({
      matched: 5,
      returned: 5,
      scanned: 250,
      total: 250,
      complete: true,
    });
    const leads = result.structuredContent?.leads as { name: string }[];
    const names = leads.map((l) => l.name);
    expect(names).toEqual([
      'Plumbing Co 7',
      'Plumbing Co 57',
      'Plumbing Co 107',
      'Plumbing Co 157',
      'Plumbing Co 207',
    ]);
    expect(sentSince(before)).toEqual([
      'GET /api/v1/leads?page=1&limit=100',
      'GET /api/v1/leads?page=2&limit=100',
      'GET /api/v1/leads?page=3&limit=100',
    ]);
    expect(readContent(result).ours).toMatch(
      /^5 saved leads match category "plumb", place "dallas", among 250 read \(all of them\)\./,
    );
    // Kept for a few minutes: a second question sends nothing.
    const again = await callTool(mcp, 'find_saved_leads', { text: 'plumbing co 57' });
    expect(again.structuredContent).toMatchObject({ matched: 1 });
    expect(server.requests.length - before).toBe(3);
    // Without any filter it points to list_leads.
    const none = await callTool(mcp, 'find_saved_leads', {});
    expect(readContent(none).ours).toBe(
      'leadctl: find_saved_leads needs text, category or place\nTo read saved leads without a filter, use list_leads.',
    );
  });

  it('a 5,000-result search is cut to fit, and next_page returns the rest without a request', async () => {
    const big = Array.from({ length: 5000 }, (_, i) => ({
      place_id: `place-${i}`,
      name: `Business number ${i}`,
      address: `${i} Long Street Name, Austin, TX 78701`,
      phone: `+1 512 555 ${String(i).padStart(4, '0')}`,
      website: `https://business-${i}.example.com`,
      rating: 4.5,
      review_count: i,
      category: 'Plumber',
      lat: 30.26,
      lng: -97.74,
    }));
    server.route(
      'POST',
      '/api/v1/search',
      json(200, { query: 'plumber', location: 'Austin', count: 5000, results: big }),
    );
    const mcp = await startMcp(['--no-confirm'], env);
    const before = server.requests.length;
    const args = { query: 'plumber', location: 'Austin' };
    const first = await callTool(mcp, 'search_businesses', args);
    const firstData = first.structuredContent as {
      results: { place_id: string }[];
      truncated: boolean;
      next_page: string;
      returned: number;
    };
    expect(firstData.truncated).toBe(true);
    expect(firstData.returned).toBeGreaterThan(10);
    expect(firstData.returned).toBeLessThan(5000);
    expect(JSON.stringify(firstData).length).toBeLessThan(21_000);
    expect(readContent(first).ours).toContain(
      `pass next_page "${firstData.next_page}" with the same arguments`,
    );

    const seen = firstData.results.map((r) => r.place_id);
    let next: string | undefined = firstData.next_page;
    let parts = 1;
    while (next !== undefined) {
      const part = await callTool(mcp, 'search_businesses', { ...args, next_page: next });
      const data = part.structuredContent as {
        results: { place_id: string }[];
        next_page?: string;
        offset: number;
      };
      expect(data.offset).toBe(seen.length);
      seen.push(...data.results.map((r) => r.place_id));
      next = data.next_page;
      parts += 1;
    }
    expect(seen).toEqual(big.map((b) => b.place_id));
    expect(parts).toBeGreaterThan(20);
    // One search sent; every other part came from what the session held.
    expect(server.requests.length - before).toBe(1);

    // Fewer fields, more per part; a token used with other arguments is refused.
    const slim = await callTool(mcp, 'search_businesses', {
      ...args,
      next_page: firstData.next_page,
      fields: ['place_id'],
    });
    expect((slim.structuredContent as { returned: number }).returned).toBeGreaterThan(firstData.returned * 5);
    const other = await callTool(mcp, 'search_businesses', {
      query: 'roofer',
      location: 'Austin',
      next_page: firstData.next_page,
    });
    expect(other.isError).toBe(true);
    expect(readContent(other).ours).toMatch(/belongs to a call with other arguments/);
    expect(server.requests.length - before).toBe(1);
  });

  it('sends progress notifications while paging when the client gives a progress token', async () => {
    const many = Array.from({ length: 300 }, (_, i) => ({
      id: `q${i}`,
      name: `Lead ${i}`,
      saved_at: '2026-11-01T00:00:00Z',
    }));
    server.route('GET', LEADS, pagedLeads(many));
    const mcp = await startMcp(['--no-confirm'], env);
    // The notifications as sent: the SDK client drops one that arrives in the same read as the answer.
    const sent = () =>
      mcp.received.flatMap((m) =>
        'method' in m && m.method === 'notifications/progress'
          ? [m.params as { progress: number; total?: number; message?: string }]
          : [],
      );
    const result = await mcp.client.callTool(
      { name: 'list_leads', arguments: { max_items: 300, fields: ['id'] } },
      undefined,
      { onprogress: () => {} },
    );
    expect(result.isError).toBeFalsy();
    expect(sent().map((p) => [p.progress, p.total])).toEqual([
      [100, 300],
      [200, 300],
      [300, 300],
    ]);
    expect(sent()[0]?.message).toBe('read 100 leads');
    const before = sent().length;
    const saved = await mcp.client.callTool(
      { name: 'find_saved_leads', arguments: { text: 'lead 1' } },
      undefined,
      { onprogress: () => {} },
    );
    expect(saved.isError).toBeFalsy();
    expect(sent().length - before).toBeGreaterThanOrEqual(3);
  });
});
