import { fieldKinds, HistoryEntrySchema, LeadSchema, SearchResultSchema } from './api/schemas.js';

export type ResourceName = 'leads' | 'history' | 'results';

export interface ResourceInfo {
  /** Plural noun for messages: "Showing 1–25 of 1,234 leads". */
  noun: string;
  /** In spec order: csv/tsv's default columns. */
  fields: readonly string[];
  tableFields: readonly string[];
  /** The identity of an item, for de-duplication. */
  idField: string;
  /** The timestamp that orders list items newest first (none for search results). */
  timeField?: string;
}

export const RESOURCES: Record<ResourceName, ResourceInfo> = {
  leads: {
    noun: 'leads',
    fields: Object.keys(LeadSchema.shape),
    tableFields: ['name', 'phone', 'website', 'rating', 'review_count', 'category', 'saved_at'],
    idField: 'id',
    timeField: 'saved_at',
  },
  history: {
    noun: 'searches',
    fields: Object.keys(HistoryEntrySchema.shape),
    tableFields: ['query', 'location', 'results_count', 'created_at'],
    idField: 'id',
    timeField: 'created_at',
  },
  results: {
    noun: 'results',
    fields: Object.keys(SearchResultSchema.shape),
    tableFields: ['name', 'address', 'phone', 'website', 'rating', 'review_count', 'category'],
    idField: 'place_id',
  },
};

/** The spec's number fields (rating, review_count, results_count, lat, lng): --where compares them as numbers. */
export const NUMBER_FIELDS: ReadonlySet<string> = new Set(
  [LeadSchema, HistoryEntrySchema, SearchResultSchema].flatMap((schema) =>
    [...fieldKinds(schema)].flatMap(([name, kind]) => (kind === 'number' ? [name] : [])),
  ),
);
