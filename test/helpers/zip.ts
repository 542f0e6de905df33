// Zip archives made by the test on the fly, honest or hostile: an .xlsx whose sheet is a zip bomb (a
// megabyte or two that unpacks to gigabytes), or one whose central directory understates what a part
// unpacks to. Nothing hostile is ever committed; it is built here when a test runs.
import { crc32, deflateRawSync, constants as zlib } from 'node:zlib';

export interface ZipPart {
  name: string;
  /** The stored (deflated) bytes. */
  deflated: Buffer;
  /** What the central directory and the local header declare it unpacks to. */
  size: number;
  crc: number;
}

/** A part deflated honestly. */
export function honestPart(name: string, text: string | Buffer): ZipPart {
  const data = Buffer.from(text);
  return { name, deflated: deflateRawSync(data), size: data.length, crc: crc32(data) };
}

/**
 * A part of `mib` MiB of `fill` in about a kilobyte per MiB: one MiB deflated with a full flush (so
 * that it refers to nothing before it) repeated, then an empty final block. It declares its real
 * size unless `declared` says otherwise; its CRC is not computed (nothing honest reads that far).
 */
export function bombPart(name: string, mib: number, declared = mib * 2 ** 20, fill = ' '): ZipPart {
  const one = deflateRawSync(Buffer.alloc(2 ** 20, fill), { finishFlush: zlib.Z_FULL_FLUSH });
  const deflated = Buffer.concat([...Array.from({ length: mib }, () => one), Buffer.from([0x03, 0x00])]);
  return { name, deflated, size: Math.min(declared, 0xffffffff), crc: 0 };
}

/** The parts as one zip: local headers and data, the central directory, its end record. */
export function zipArchive(parts: readonly ZipPart[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const part of parts) {
    const name = Buffer.from(part.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt32LE(part.crc >>> 0, 14);
    local.writeUInt32LE(part.deflated.length, 18);
    local.writeUInt32LE(part.size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(part.crc >>> 0, 16);
    central.writeUInt32LE(part.deflated.length, 20);
    central.writeUInt32LE(part.size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, part.deflated);
    centrals.push(central, name);
    offset += local.length + name.length + part.deflated.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** The parts of a one-sheet workbook around `sheet` (its XML, or a hostile part named xl/worksheets/sheet1.xml). */
export function workbookParts(sheet: ZipPart): ZipPart[] {
  return [
    honestPart(
      '[Content_Types].xml',
      '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>',
    ),
    honestPart(
      '_rels/.rels',
      '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>',
    ),
    honestPart(
      'xl/workbook.xml',
      '<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>',
    ),
    honestPart(
      'xl/_rels/workbook.xml.rels',
      '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>',
    ),
    sheet,
  ];
}
