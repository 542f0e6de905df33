// The items of a list answer as the exact text the server sent, so that `leadctl api --paginate` can
// merge pages without re-serialising anything (64-bit ids, `4.50`, key order and escapes all kept).
// Runs on text JSON.parse has already accepted, so it only has to find boundaries, not validate.

/** The elements of the array at `key` of the top-level object (or of a top-level array when key is ''). */
export function arrayItemTexts(text: string, key: string): string[] {
  let i = skipSpace(text, 0);
  if (key === '') return elements(text, i);
  i = skipSpace(text, i + 1); // past `{`
  while (text[i] !== '}') {
    const keyEnd = skipString(text, i);
    const name = JSON.parse(text.slice(i, keyEnd)) as string;
    i = skipSpace(text, skipSpace(text, keyEnd) + 1); // past `:`
    if (name === key) return elements(text, i);
    i = skipSpace(text, skipValue(text, i));
    if (text[i] === ',') i = skipSpace(text, i + 1);
  }
  return [];
}

function elements(text: string, start: number): string[] {
  const items: string[] = [];
  let i = skipSpace(text, start + 1); // past `[`
  while (text[i] !== ']') {
    const end = skipValue(text, i);
    items.push(text.slice(i, end));
    i = skipSpace(text, end);
    if (text[i] === ',') i = skipSpace(text, i + 1);
  }
  return items;
}

function skipSpace(text: string, i: number): number {
  while (i < text.length && (text[i] === ' ' || text[i] === '\n' || text[i] === '\r' || text[i] === '\t'))
    i++;
  return i;
}

function skipString(text: string, i: number): number {
  for (i += 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i + 1;
  }
  return i;
}

function skipValue(text: string, i: number): number {
  const first = text[i];
  if (first === '"') return skipString(text, i);
  if (first === '{' || first === '[') {
    let depth = 0;
    while (i < text.length) {
      const char = text[i];
      if (char === '"') {
        i = skipString(text, i);
        continue;
      }
      if (char === '{' || char === '[') depth++;
      else if (char === '}' || char === ']') {
        depth--;
        if (depth === 0) return i + 1;
      }
      i++;
    }
    return i;
  }
  while (i < text.length && !',}] \n\r\t'.includes(text[i] as string)) i++;
  return i;
}
