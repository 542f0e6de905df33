// The ledger's periods are UTC days and months, as the API's counters are (the spec does not say when
// its daily counter resets; UTC midnight is the common choice and the sandbox's).

/** `2026-11-23` */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** `2026-11` */
export function utcMonth(ms: number): string {
  return new Date(ms).toISOString().slice(0, 7);
}

/** The month `back` months before the one of `ms`: the oldest month the ledger keeps. */
export function utcMonthBefore(ms: number, back: number): string {
  const date = new Date(ms);
  return utcMonth(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() - back, 1));
}
