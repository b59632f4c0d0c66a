import type { ReactNode } from "react";

// The console's one table: a horizontally scrolling region (keyboard-focusable, named), a caption
// for screen readers, column headers, and rows from a list. Used by the notifications list, the
// delivery log, the connected vehicles and the simulator's runs, so they read and behave alike.

export type Column<T> = { key: string; header: ReactNode; cell: (row: T) => ReactNode; className?: string };

type RowAttributes = { id?: string; className?: string; "data-testid"?: string };

export function DataTable<T>({
  label,
  caption,
  columns,
  rows,
  rowKey,
  rowAttributes,
  minWidth = "36rem",
  framed = false,
  className = "",
}: {
  label: string;
  caption: string;
  columns: Column<T>[];
  rows: T[];
  rowKey: (row: T) => string | number;
  rowAttributes?: (row: T) => RowAttributes;
  minWidth?: string;
  framed?: boolean;
  className?: string;
}) {
  return (
    // The region itself scrolls (no wrapper between it and the page's layout), so a wide table never widens the page.
    <div
      className={`overflow-x-auto ${framed ? "rounded-xl border border-slate-200 bg-white" : ""} ${className}`}
      tabIndex={0}
      role="region"
      aria-label={label}
    >
      <table className="w-full text-left text-sm" style={{ minWidth }}>
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr className="border-b border-slate-200 text-slate-700">
            {columns.map((c) => (
              <th key={c.key} scope="col" className="px-3 py-2">
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => {
            const attributes = rowAttributes?.(row) ?? {};
            return (
              <tr
                key={rowKey(row)}
                {...attributes}
                className={`border-b border-slate-100 align-top ${attributes.className ?? ""}`}
              >
                {columns.map((c) => (
                  <td key={c.key} className={`px-3 py-2 ${c.className ?? ""}`}>
                    {c.cell(row)}
                  </td>
                ))}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
