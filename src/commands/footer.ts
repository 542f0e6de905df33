// The notices that follow a single page: where the user is and how to get the rest.
import { formatCount } from '../ui/count.js';

const count = formatCount;

export interface FooterMeta {
  page: number;
  limit: number;
  total: number;
  totalPages: number;
}

export function pageFooter(meta: FooterMeta, shown: number, noun: string): string {
  if (shown === 0) {
    if (meta.total === 0) return `No ${noun}.`;
    return `No ${noun} on page ${count(meta.page)}: there are ${count(meta.total)} ${noun} on ${count(meta.totalPages)} pages of ${meta.limit}.`;
  }
  const first = (meta.page - 1) * meta.limit + 1;
  const last = first + shown - 1;
  const where = `Showing ${count(first)}–${count(last)} of ${count(meta.total)} ${noun} (page ${count(meta.page)} of ${count(meta.totalPages)}).`;
  return meta.page < meta.totalPages ? `${where} Next: --page ${meta.page + 1}, or --all.` : where;
}

export function progressLine(
  noun: string,
  p: { pagesFetched: number; totalPages: number; itemsYielded: number; total: number },
) {
  return `Fetching ${noun}… page ${count(p.pagesFetched)} of ${count(p.totalPages)} (${count(p.itemsYielded)} of ${count(p.total)})`;
}
