// Whether a pager (output/pager.ts) has the screen: the progress line then stays off, or it would
// draw over the pager's page.
let paging = false;

export function setPaging(on: boolean): void {
  paging = on;
}

export function isPaging(): boolean {
  return paging;
}
