// A result table as a value: what a scenario returns and what the report layer formats (text in
// src/report/table.ts, HTML in src/report/html.ts). Cells are numbers, text, or null (no value).
export interface Table {
  title: string;
  columns: string[];
  rows: Array<Array<string | number | null>>;
  /** Optional lines printed under the table (explanations, "why" notes). */
  notes?: string[];
}
