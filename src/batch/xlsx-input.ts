// `search --input leads.xlsx`: the first sheet's rows as records (header row first), each cell as the
// text the sheet shows, so that a ZIP typed as a number (2134 shown as 02134 by a "00000" format)
// and a radius typed as a number are read as the user sees them. Loaded only for a workbook: it
// brings exceljs, which nothing else at start-up needs.
import ExcelJS from 'exceljs';
import { UsageError } from '../api/errors.js';
import type { CsvRecord } from './csv-records.js';

export async function readXlsxRecords(bytes: Buffer, source: string): Promise<CsvRecord[]> {
  const workbook = new ExcelJS.Workbook();
  try {
    // exceljs's own Buffer type is older than Node's: the bytes are what it asks for.
    await workbook.xlsx.load(bytes as unknown as ExcelJS.Buffer);
  } catch (error) {
    throw new UsageError(
      `cannot read ${source} as an Excel workbook (${error instanceof Error ? error.message : String(error)}); nothing was searched`,
      'save it from the spreadsheet as .xlsx, or as "CSV UTF-8"',
    );
  }
  // `worksheets` is in tab order: the first is the one the workbook opens on by default.
  const sheet = workbook.worksheets[0];
  if (!sheet) return [];
  const records: CsvRecord[] = [];
  sheet.eachRow({ includeEmpty: false }, (row, rowNumber) => {
    const fields: string[] = [];
    row.eachCell({ includeEmpty: true }, (cell, column) => {
      fields[column - 1] = shownText(cell);
    });
    records.push({ line: rowNumber, fields: Array.from(fields, (field) => field ?? '') });
  });
  return records;
}

function shownText(cell: ExcelJS.Cell): string {
  const { value, numFmt } = cell;
  // A whole number under a format of zeros ("00000" for ZIP codes) is shown zero-padded.
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0 && numFmt && /^0+$/.test(numFmt)) {
    return String(value).padStart(numFmt.length, '0');
  }
  return cell.text ?? '';
}
