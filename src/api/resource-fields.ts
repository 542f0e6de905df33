// The spec's fields of each resource, in the spec's order, with how each is read (fast-parse.ts).
// The one list of them: parsing and the default csv/tsv columns (src/resources.ts) both follow it.
import type { FieldKind } from './fast-parse.js';

export const LEAD_FIELDS = {
  id: 'identity',
  name: 'text',
  address: 'text',
  phone: 'text',
  website: 'text',
  rating: 'number',
  review_count: 'number',
  category: 'text',
  saved_at: 'text',
} as const satisfies Record<string, FieldKind>;

export const HISTORY_FIELDS = {
  id: 'identity',
  query: 'text',
  location: 'text',
  results_count: 'number',
  created_at: 'text',
} as const satisfies Record<string, FieldKind>;

export const SEARCH_RESULT_FIELDS = {
  place_id: 'identity',
  name: 'text',
  address: 'text',
  phone: 'text',
  website: 'text',
  rating: 'number',
  review_count: 'number',
  category: 'text',
  lat: 'number',
  lng: 'number',
} as const satisfies Record<string, FieldKind>;
