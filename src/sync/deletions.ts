// Which mirror rows the server no longer lists, from as few pages as possible (docs/sync.md, "Deletions" and
// its measured cost). An item's server position is its mirror place less the deletions before it; two
// neighbouring positions name the vanished rows outright. Anything that does not fit (an unknown item,
// another order, a total that moved) ends without a verdict: the caller reads the whole list instead.
import { identityText } from '../api/exact-number.js';
import type { PageResult } from '../api/paging/index.js';

/** The mirror's live rows, ordered by rank (higher is nearer the newest end). */
export interface RankedMirror {
  ranksOf(ids: readonly string[]): Promise<Map<string, number>>;
  /** How many live rows rank above `rank`. */
  liveAbove(rank: number): Promise<number>;
  /** Live rows ranked within [low, high], highest first. */
  liveRanked(high: number, low: number): Promise<{ id: string; rank: number }[]>;
}

export type DeletionVerdict =
  | { deleted: string[] }
  /** changed: the server's total moved meanwhile; unsure: the list does not read as the mirror's less some rows. */
  | { outcome: 'changed' | 'unsure' };

/** A server position whose item is known: its place among the mirror's live rows, and its rank. */
interface Point {
  position: number;
  index: number;
  rank: number;
  /** The stretch up to the next point is accounted for. */
  settled: boolean;
}

const TOP = Number.MAX_SAFE_INTEGER;
const BOTTOM = Number.MIN_SAFE_INTEGER;

/** `total`: the server's count (below `live`); `onPage` gets each page known to hold only mirror rows. */
export async function findDeletions(options: {
  readPage(page: number): Promise<PageResult<Record<string, unknown>>>;
  onPage?(items: Record<string, unknown>[]): Promise<void>;
  mirror: RankedMirror;
  total: number;
  live: number;
  limit: number;
}): Promise<DeletionVerdict> {
  const { mirror, total, live, limit } = options;
  const points: Point[] = [
    { position: -1, index: -1, rank: TOP, settled: false },
    { position: total, index: live, rank: BOTTOM, settled: true },
  ];
  const deleted: string[] = [];
  for (;;) {
    const at = points.findIndex((point) => !point.settled);
    if (at < 0) break;
    const [a, b] = [points[at] as Point, points[at + 1] as Point];
    const vanished = b.index - a.index - (b.position - a.position);
    if (vanished < 0) return { outcome: 'unsure' };
    if (vanished === 0 || b.position - a.position === 1) {
      // Neighbours on the server: every mirror row ranked between them is gone.
      const between = vanished === 0 ? [] : await mirror.liveRanked(a.rank - 1, b.rank + 1);
      if (between.length !== vanished) return { outcome: 'unsure' };
      deleted.push(...between.map((row) => row.id));
      a.settled = true;
      continue;
    }
    // The page holding the middle position: no position of it is known yet (pages are read whole).
    const page = Math.floor(Math.floor((a.position + b.position) / 2) / limit) + 1;
    const start = (page - 1) * limit;
    const { items, meta } = await options.readPage(page);
    if (meta.total !== total) return { outcome: 'changed' };
    const ids = items.map((item) => identityText(item.id) ?? '');
    const ranks = await mirror.ranksOf(ids);
    if (items.length !== Math.min(limit, total - start) || ids.some((id) => !ranks.has(id))) {
      return { outcome: 'unsure' };
    }
    const segment = await mirror.liveRanked(
      ranks.get(ids[0] as string) as number,
      ranks.get(ids.at(-1) as string) as number,
    );
    const firstIndex = await mirror.liveAbove(ranks.get(ids[0] as string) as number);
    const found: Point[] = [];
    segment.forEach((row, offset) => {
      if (row.id === ids[found.length]) {
        found.push({
          position: start + found.length,
          index: firstIndex + offset,
          rank: row.rank,
          settled: true,
        });
      } else deleted.push(row.id);
    });
    if (found.length !== ids.length) return { outcome: 'unsure' };
    (found.at(-1) as Point).settled = false;
    points.splice(at + 1, 0, ...found);
    await options.onPage?.(items);
  }
  return deleted.length === live - total ? { deleted } : { outcome: 'unsure' };
}
