// Reads an xlsx back without exceljs (the writer under test): the zip's central directory, Node's
// inflateRaw, and the few parts of SpreadsheetML the tests assert on, read straight from the XML.
import { inflateRawSync } from 'node:zlib';

/** Every file of a zip archive by name, as text. */
export function unzip(bytes: Buffer): Map<string, string> {
  let end = bytes.length - 22;
  while (end >= 0 && bytes.readUInt32LE(end) !== 0x06054b50) end -= 1;
  if (end < 0) throw new Error('not a zip: no end of central directory');
  const count = bytes.readUInt16LE(end + 10);
  let entry = bytes.readUInt32LE(end + 16);
  const files = new Map<string, string>();
  for (let index = 0; index < count; index += 1) {
    if (bytes.readUInt32LE(entry) !== 0x02014b50) throw new Error('broken central directory');
    const method = bytes.readUInt16LE(entry + 10);
    const size = bytes.readUInt32LE(entry + 20);
    const nameLength = bytes.readUInt16LE(entry + 28);
    const extraLength = bytes.readUInt16LE(entry + 30);
    const commentLength = bytes.readUInt16LE(entry + 32);
    const local = bytes.readUInt32LE(entry + 42);
    const name = bytes.toString('utf8', entry + 46, entry + 46 + nameLength);
    const dataStart = local + 30 + bytes.readUInt16LE(local + 26) + bytes.readUInt16LE(local + 28);
    const data = bytes.subarray(dataStart, dataStart + size);
    files.set(name, (method === 8 ? inflateRawSync(data) : data).toString('utf8'));
    entry += 46 + nameLength + extraLength + commentLength;
  }
  return files;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const decode = (text: string) =>
  text.replace(/&(amp|lt|gt|quot|apos|#x[0-9a-f]+|#\d+);/gi, (_, name: string) =>
    name.startsWith('#x')
      ? String.fromCodePoint(Number.parseInt(name.slice(2), 16))
      : name.startsWith('#')
        ? String.fromCodePoint(Number(name.slice(1)))
        : (ENTITIES[name] as string),
  );

const attribute = (tag: string, name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];

export interface Cell {
  ref: string;
  /** The t attribute: `inlineStr`, `s`, `str`, `b`, or undefined for a number. */
  type: string | undefined;
  style: string | undefined;
  /** The text of the cell, or its <v>. */
  value: string;
  formula: boolean;
}

export interface Sheet {
  rows: Cell[][];
  /** The pane of the first sheet view. */
  pane: { state?: string; ySplit?: string } | undefined;
  autoFilter: string | undefined;
  /** Cell reference -> hyperlink target (through the sheet's relationships). */
  hyperlinks: Map<string, string>;
  /** Column widths as written (<col min max width>). */
  widths: { min: number; max: number; width: number }[];
  /** Whether the styles hold a bold font. */
  boldFont: boolean;
}

/** The first worksheet of an xlsx file's bytes. */
export function readWorkbook(bytes: Buffer): Sheet {
  const files = unzip(bytes);
  const xml = files.get('xl/worksheets/sheet1.xml');
  if (xml === undefined) throw new Error(`no sheet1.xml in ${[...files.keys()].join(', ')}`);
  const rows: Cell[][] = [];
  for (const [, rowXml] of xml.matchAll(/<row\b[^>]*>(.*?)<\/row>/gs)) {
    const cells: Cell[] = [];
    for (const [, tag, body = ''] of (rowXml as string).matchAll(/(<c\b[^>]*?)(?:\/>|>(.*?)<\/c>)/gs)) {
      const texts = [...body.matchAll(/<t\b[^>]*>(.*?)<\/t>/gs)].map((match) => match[1]);
      const v = /<v>(.*?)<\/v>/s.exec(body)?.[1];
      cells.push({
        ref: attribute(tag as string, 'r') ?? '',
        type: attribute(tag as string, 't'),
        style: attribute(tag as string, 's'),
        value: decode(texts.length > 0 ? texts.join('') : (v ?? '')),
        formula: /<f\b/.test(body),
      });
    }
    rows.push(cells);
  }
  const paneTag = /<pane\b[^>]*>/.exec(xml)?.[0];
  const rels = files.get('xl/worksheets/_rels/sheet1.xml.rels') ?? '';
  const targets = new Map(
    [...rels.matchAll(/<Relationship\b[^>]*>/g)].map(([tag]) => [
      attribute(tag, 'Id'),
      attribute(tag, 'Target'),
    ]),
  );
  const hyperlinks = new Map(
    [...xml.matchAll(/<hyperlink\b[^>]*>/g)].map(([tag]) => [
      attribute(tag, 'ref') ?? '',
      decode(targets.get(attribute(tag, 'r:id')) ?? ''),
    ]),
  );
  return {
    rows,
    pane: paneTag ? { state: attribute(paneTag, 'state'), ySplit: attribute(paneTag, 'ySplit') } : undefined,
    autoFilter: /<autoFilter\b[^>]*ref="([^"]*)"/.exec(xml)?.[1],
    hyperlinks,
    widths: [...xml.matchAll(/<col\b[^>]*>/g)].map(([tag]) => ({
      min: Number(attribute(tag, 'min')),
      max: Number(attribute(tag, 'max')),
      width: Number(attribute(tag, 'width')),
    })),
    boldFont: /<font>(?:(?!<\/font>).)*<b\/>/s.test(files.get('xl/styles.xml') ?? ''),
  };
}
