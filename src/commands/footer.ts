// The notices that follow a single page: where the user is and how to get the rest.
import { formatCount } from '../ui/ui.js';

const count = formatCount;

export interface FooterMeta {
  page: number;
  limit: number;
  total: number;
  totalPages: number;
}

/** The options that shaped the page, which the next page's command must repeat to continue it. */
export interface PageShape {
  limit?: number | undefined;
  fields?: string[] | undefined;
}

export function pageFooter(meta: FooterMeta, shown: number, noun: string, shape: PageShape = {}): string {
  if (shown === 0) {
    if (meta.total === 0) return `No ${noun}.`;
    return `No ${noun} on page ${count(meta.page)}: there are ${count(meta.total)} ${noun} on ${count(meta.totalPages)} pages of ${meta.limit}.`;
  }
  const first = (meta.page - 1) * meta.limit + 1;
  const last = first + shown - 1;
  const where = `Showing ${count(first)}–${count(last)} of ${count(meta.total)} ${noun} (page ${count(meta.page)} of ${count(meta.totalPages)}).`;
  if (meta.page >= meta.totalPages) return where;
  return `${where} Next: --page ${meta.page + 1}${shapeOptions(shape)}, or --all.`;
}

/** " --limit 10 --fields name,phone", quoted for a shell where a name needs it. */
function shapeOptions(shape: PageShape): string {
  let text = shape.limit === undefined ? '' : ` --limit ${shape.limit}`;
  if (shape.fields && shape.fields.length > 0) text += ` --fields ${shellWord(shape.fields.join(','))}`;
  return text;
}

function shellWord(text: string): string {
  return /^[\w,.@%+=:/-]+$/.test(text) ? text : `'${text.replaceAll("'", "'\\''")}'`;
}

export function progressLine(
  noun: string,
  p: { pagesFetched: number; totalPages: number; itemsYielded: number; total: number },
) {
  return `Fetching ${noun}… page ${count(p.pagesFetched)} of ${count(p.totalPages)} (${count(p.itemsYielded)} of ${count(p.total)})`;
}
