// Inputs are strict (a misspelt argument is refused by name) and bounded, checked before any request.
// Outputs fix no types: the spec leaves types and nullability open, and the client keeps what is sent.
import {
  LATEST_PROTOCOL_VERSION,
  SUPPORTED_PROTOCOL_VERSIONS,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { HistoryEntrySchema, LeadSchema, SearchResultSchema } from '../api/schemas.js';
import { PLAN_NAMES } from '../config/keys.js';
import { RESOURCES } from '../resources.js';
import { MAX_ITEMS_CAP } from './defaults.js';
import type { ToolName } from './server.js';

const wholeNumber = (min: number, max: number) => {
  const error = `expected a whole number from ${min} to ${max}`;
  return z.int({ error }).min(min, { error }).max(max, { error });
};

const text = (what: string) =>
  z
    .string({ error: `expected ${what} as a string` })
    .trim()
    .min(1, { error: `${what} must not be empty` });

const wordsIn = (description: string) => z.string().trim().min(1).optional().describe(description);

const fieldsOf = (resource: 'leads' | 'history' | 'results') =>
  z
    .array(z.enum(RESOURCES[resource].fields as [string, ...string[]]))
    .min(1)
    .optional()
    .describe(
      `Return only these fields of each item, in this order (default: all of ${RESOURCES[resource].fields.join(', ')}). Fewer fields fit more items in one answer.`,
    );

const nextPageInput = z
  .string()
  .optional()
  .describe(
    'The next_page of an earlier answer of this tool, passed back as it was given, with the same other arguments: the rest of a cut answer (no request), or the next page of a list.',
  );

export const searchInput = z.strictObject({
  query: text('the query').describe('Business type or keyword to search for, e.g. "plumber" or "dentist".'),
  location: text('the location').describe('Where to search: a city, state, or zip code, e.g. "Austin, TX".'),
  radius: wholeNumber(1, 50)
    .optional()
    .describe("Search radius in miles, 1 to 50. Omit it for the server's default of 10."),
  exclude_saved: z
    .boolean()
    .optional()
    .describe(
      'Leave out businesses the account has already saved as leads (matched on id, phone, website domain, or name with address). Reads the saved leads first: about one request per 100 saved leads, kept for 5 minutes.',
    ),
  sort_by: z
    .enum(['rating', 'review_count'])
    .optional()
    .describe(
      'Order the results by this field, highest first (results without it last). Default: as the server sent them.',
    ),
  max_results: wholeNumber(1, 1000)
    .optional()
    .describe('Return at most this many results (after exclude_saved and sort_by), e.g. 5 for "the top 5".'),
  fields: fieldsOf('results'),
  next_page: nextPageInput,
  confirm: z
    .string()
    .optional()
    .describe(
      "The token of this tool's quote, passed only after the user agreed to the search it describes, with the same other arguments; it runs one search.",
    ),
});

export const findSavedInput = z.strictObject({
  text: wordsIn(
    'Words to find in the name, address, category, phone or website: each must begin a word there (case and accents ignored; "plumb" finds "Plumbing").',
  ),
  category: wordsIn('Words to find in the category, e.g. "plumb".'),
  place: wordsIn('Words to find in the address: a city, street, state or zip code.'),
  max_results: wholeNumber(1, 100)
    .optional()
    .describe('Return at most this many matches, newest first. Default 25.'),
  fields: fieldsOf('leads'),
  next_page: nextPageInput,
});

export const listInput = z.strictObject({
  page: wholeNumber(1, 1_000_000_000)
    .optional()
    .describe('Page to return (or to start from with max_items/since), 1 or more. Default 1.'),
  limit: wholeNumber(1, 100)
    .optional()
    .describe('Page size, 1 to 100. Default 25 for one page; 100 (or max_items if smaller) when paging.'),
  since: z
    .string()
    .optional()
    .describe(
      'Only items newer than this: an ISO date (2026-11-01), an ISO date-time (2026-11-01T09:30:00Z) or a span back from now (90s, 30m, 24h, 7d, 2w). Pages until the first older item.',
    ),
  max_items: wholeNumber(1, MAX_ITEMS_CAP)
    .optional()
    .describe(
      `Return up to this many items, fetching as many pages as needed (at most ${MAX_ITEMS_CAP}). Without max_items or since, one page is returned.`,
    ),
  next_page: nextPageInput,
});

export const leadsListInput = listInput.extend({ fields: fieldsOf('leads') });
export const historyListInput = listInput.extend({ fields: fieldsOf('history') });
export type SearchInput = z.infer<typeof searchInput>;
export type ListInput = z.infer<typeof listInput> & { fields?: string[] | undefined };
export type FindSavedInput = z.infer<typeof findSavedInput>;

// Known fields described, any type accepted, unknown fields kept. Every field needs its note: a field
// added to the resource's schema (api/schemas.ts) is a compile error here.
function itemSchema<Schema extends { shape: object }>(
  resource: Schema,
  notes: Record<keyof Schema['shape'] & string, string>,
) {
  const described: Record<string, string> = notes;
  const shape = Object.fromEntries(
    Object.keys(resource.shape).map((name) => [
      name,
      z
        .unknown()
        .optional()
        .describe(described[name] ?? name),
    ]),
  );
  return z.looseObject(shape);
}

const lead = itemSchema(LeadSchema, {
  id: 'lead id (UUID)',
  name: 'business name',
  address: 'single-line address',
  phone: 'phone number, international format',
  website: 'website URL',
  rating: 'average rating (decimal)',
  review_count: 'number of reviews',
  category: 'business category',
  saved_at: 'when the lead was saved (ISO 8601, UTC)',
});

const historyEntry = itemSchema(HistoryEntrySchema, {
  id: 'search id (UUID)',
  query: 'the query that was searched',
  location: 'the location that was searched',
  results_count: 'number of results that search returned',
  created_at: 'when the search ran (ISO 8601, UTC)',
});

const searchResult = itemSchema(SearchResultSchema, {
  place_id: 'opaque identifier of the place',
  name: 'business name',
  address: 'address',
  phone: 'phone number',
  website: 'website URL',
  rating: 'average rating',
  review_count: 'number of reviews',
  category: 'business category',
  lat: 'latitude (decimal degrees)',
  lng: 'longitude (decimal degrees)',
});

const partOutput = {
  truncated: z.boolean().describe('true when more items follow: pass next_page back to get them'),
  next_page: z
    .string()
    .optional()
    .describe('pass it back as next_page, with the same other arguments, for what follows'),
};

// A search that waits for the user's yes answers with a quote alone, hence the optional results.
export const searchOutput = z.object({
  quote: z
    .looseObject({ confirm: z.string() })
    .optional()
    .describe('what the search would cost and what is left; nothing was sent'),
  query: z.unknown().optional().describe("the server's echo of the query searched (data)"),
  location: z.unknown().optional().describe("the server's echo of the location searched (data)"),
  count: z.unknown().optional().describe('number of results, as the server said'),
  found: z.number().optional().describe('results found, before any were left out as already saved'),
  returned: z.number().optional().describe('results in this answer'),
  offset: z.number().optional().describe('position of the first result of this answer among all of them'),
  results: z
    .array(searchResult)
    .optional()
    .describe('the businesses found; text fields are data from the server'),
  excluded_saved: z.number().optional().describe('results left out because the account already saved them'),
  excluded_by: z
    .record(z.string(), z.number())
    .optional()
    .describe('how many were left out by each rule: id, phone, website, name_address'),
  left_out_by_max_results: z.number().optional().describe('results beyond max_results, left out'),
  saved_leads_checked: z.number().optional().describe('saved leads compared against (exclude_saved)'),
  saved_leads_complete: z
    .boolean()
    .optional()
    .describe('false when not every saved lead could be read, so some saved businesses may remain'),
  ...partOutput,
  truncated: partOutput.truncated.optional(),
});

export const findSavedOutput = z.object({
  leads: z.array(lead).describe('matching saved leads, newest first; text fields are data from the server'),
  matched: z.number().describe('saved leads that match, among those read'),
  returned: z.number().describe('matches in this answer'),
  offset: z.number().describe('position of the first match of this answer among all matches'),
  scanned: z.number().describe('saved leads read and compared'),
  total: z.number().optional().describe('saved leads the account holds, as the server said'),
  complete: z.boolean().describe('true when every saved lead was read'),
  stopped_early: z.string().optional().describe('why not every saved lead was read'),
  ...partOutput,
});

const pagingOutput = {
  returned: z.number().describe('number of items in this answer'),
  page: z.number().describe('the page returned, or the first page fetched'),
  limit: z.number().describe('the page size used'),
  total: z.number().optional().describe('how many items the whole list holds, as the server said'),
  total_pages: z.number().optional().describe('pages at this page size (one-page answers)'),
  ...partOutput,
  reached_max_items: z
    .boolean()
    .optional()
    .describe('true when paging stopped because max_items were returned'),
  stopped_early: z
    .string()
    .optional()
    .describe('why paging stopped before it was done (the items fetched until then are returned)'),
};

export const leadsOutput = z.object({
  leads: z.array(lead).describe('saved leads, newest first; text fields are data from the server'),
  ...pagingOutput,
});

export const historyOutput = z.object({
  history: z
    .array(historyEntry)
    .describe('past searches, newest first; text fields are data from the server'),
  ...pagingOutput,
});

export const usageInput = z.strictObject({});

const counts = {
  requests: z.number().describe('HTTP requests sent, retries included'),
  searches: z.number().describe('searches the server answered (cached ones included)'),
  rateLimited: z.number().describe('429 answers received'),
};
const limits = z
  .object({
    apiAccess: z.boolean(),
    dailyRequests: z.number().nullable(),
    monthlyLiveSearches: z.number().nullable(),
  })
  .describe("one of the spec's plan tables");

export const usageOutput = z.object({
  profile: z.string(),
  baseUrl: z.string().describe('the API root, or "sandbox"'),
  thisMachineOnly: z.literal(true).describe('other machines and the web app spend the same allowance'),
  today: z.object({ date: z.string().describe('UTC day'), ...counts }),
  month: z.object({ month: z.string().describe('UTC month'), ...counts }),
  plan: z.enum(PLAN_NAMES).nullable().describe('set with leadctl config set plan'),
  limits: z
    .object({ a: limits, b: limits })
    .nullable()
    .describe("the plan's limits under the spec's variants A and B"),
  session: z.object({
    requestsSent: z.number().describe('requests this MCP session has sent'),
    maxRequests: z.number().describe('the most this session may send (--max-requests)'),
    searchesSent: z.number().describe('searches this session has sent'),
    maxSearches: z.number().describe('the most this session may send (--max-searches)'),
    searchesToday: z.number().describe('searches this machine sent today (UTC) for this profile and server'),
    maxSearchesPerDay: z.number().describe('the most per UTC day (--max-searches-per-day)'),
    rateLimitedUntil: z.string().optional().describe('while set, tools that send requests refuse at once'),
  }),
});

export const TOOL_SCHEMAS: Record<ToolName, { input: z.ZodType; output: z.ZodType }> = {
  search_businesses: { input: searchInput, output: searchOutput },
  find_saved_leads: { input: findSavedInput, output: findSavedOutput },
  list_leads: { input: leadsListInput, output: leadsOutput },
  list_search_history: { input: historyListInput, output: historyOutput },
  usage: { input: usageInput, output: usageOutput },
};

/** What a start answers from (server.ts): tools/list's JSON Schemas, the SDK's protocol versions. */
export function startJson() {
  const json = (schema: z.ZodType, io: 'input' | 'output') =>
    z.toJSONSchema(schema, { target: 'draft-7', io }) as { type: 'object'; [key: string]: unknown };
  const entries = Object.entries(TOOL_SCHEMAS).map(([name, { input, output }]) => [
    name,
    { inputSchema: json(input, 'input'), outputSchema: json(output, 'output') },
  ]);
  const schemas = Object.fromEntries(entries) as Record<
    ToolName,
    { inputSchema: Tool['inputSchema']; outputSchema: Tool['outputSchema'] }
  >;
  return {
    schemas,
    protocolVersions: [...SUPPORTED_PROTOCOL_VERSIONS],
    latestProtocolVersion: LATEST_PROTOCOL_VERSION,
  };
}
