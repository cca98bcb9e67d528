/** The columns of a CSV export, in order: the record's fields, its status, then its group; the JSON export's fields. */
export const CSV_COLUMNS = [
  "id",
  "namespace",
  "type",
  "status",
  "labels",
  "resolved",
  "severity",
  "title",
  "description",
  "steps",
  "expected",
  "actual",
  "context",
  "metadata",
  "targets",
  "submitterWallet",
  "submitterDid",
  "verified",
  "createdAt",
  "resolvedAt",
  "resolvedBy",
  "resolveMessage",
  "rewardAmount",
  "rewardTxHash",
  "confirmation",
  "groupId",
  "groupKind",
  "reportCount",
] as const;
export type CsvRecord = Record<(typeof CSV_COLUMNS)[number], unknown>;

// A spreadsheet runs a cell that starts with one of these as a formula (CSV injection, OWASP), also
// behind leading white space or line breaks, and in their full-width forms. Such a cell is prefixed
// with a single quote, which spreadsheets show as text and never evaluate.
const FORMULA_START = /^(?:[\t\r]|\s*[=+\-@\uff1d\uff0b\uff0d\uff20])/;

/** One CSV cell: text as is, lists and objects as JSON, null empty; quoted (RFC 4180) and defused. */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return "";
  let text =
    typeof value === "string" ? value : typeof value === "object" ? JSON.stringify(value) : String(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) || text !== text.trim() ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One CSV line, CRLF-terminated as RFC 4180 asks. */
export function csvLine(cells: readonly unknown[]): string {
  return `${cells.map(csvCell).join(",")}\r\n`;
}

/** The header line, after a byte order mark so spreadsheets read the file as UTF-8. */
export const CSV_HEADER = `\uFEFF${csvLine(CSV_COLUMNS)}`;

export const csvRecordLine = (record: CsvRecord) => csvLine(CSV_COLUMNS.map((c) => record[c]));
