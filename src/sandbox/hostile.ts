// Values that are hostile on purpose, served only with `hostileData: true`: spreadsheet formula
// starts, CSV metacharacters, newlines, non-ASCII, and terminal escape sequences (CSI, OSC 8, C1).
// Other engineers' tests assert that renderers neutralise every one of them.

export const HOSTILE_NAMES: readonly string[] = [
  '=HYPERLINK("http://evil.example/x","Click me")',
  "@SUM(1+1)*cmd|' /C calc'!A0",
  '+1+1 Plumbing',
  '-2+3 Roofing',
  'Smith, Jones & "Partners"',
  'Line one\nLine two Plumbing',
  'Carriage\r\nReturn Electric',
  'Café Crème 東京 Bakery',
  '\u001b[31mRed Alert\u001b[0m Plumbing',
  '\u001b]8;;https://evil.example\u0007Trusted Bank\u001b]8;;\u0007',
  '\u009b31mC1 Control Cleaning',
  '\tTabbed Tax & Accounting',
];

export const HOSTILE_CATEGORIES: readonly string[] = [
  '=1+2',
  '@Category',
  'Plumber, Emergency',
  'Say "cheese" Photography',
  'Multi\nLine',
  'Électricien 東京',
  '\u001b[2J\u001b[HClear Screen',
  '\u009b0mC1 Category',
];

/** Every other lead or result is hostile, so a first page of 24 covers every name. */
export function hostileNameFor(index: number): string | undefined {
  return index % 2 === 0 ? HOSTILE_NAMES[(index / 2) % HOSTILE_NAMES.length] : undefined;
}

export function hostileCategoryFor(index: number): string | undefined {
  return index % 3 === 1 ? HOSTILE_CATEGORIES[((index - 1) / 3) % HOSTILE_CATEGORIES.length] : undefined;
}
