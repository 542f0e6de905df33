/**
 * 1234567 -> "1,234,567". Written out because the first toLocaleString() call sets up ICU number
 * formatting, about 15 ms of a one-page run's start-up.
 */
export function formatCount(n: number): string {
  if (!Number.isInteger(n)) return String(n);
  const digits = String(Math.abs(n));
  const grouped = digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return n < 0 ? `-${grouped}` : grouped;
}
