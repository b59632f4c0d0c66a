import type { Page } from "@/common/http/paging";

// What a handler returns; the wrapper turns it into the API's envelope (docs/api.md#the-envelope).
export type ApiResult =
  | { kind: "one"; value: unknown; totalRecords: number | null }
  | { kind: "list"; items: unknown[]; total: number; page: Page }
  | { kind: "deleted" }
  /** A page read by cursor (the event feed): its items, and the envelope members beside them. */
  | { kind: "cursorPage"; items: unknown[]; members: Record<string, unknown> };

export const one = (value: unknown, totalRecords: number | null = null): ApiResult => ({
  kind: "one",
  value,
  totalRecords,
});
export const list = (items: unknown[], total: number, page: Page): ApiResult => ({ kind: "list", items, total, page });
export const deleted = (): ApiResult => ({ kind: "deleted" });
export const cursorPage = (items: unknown[], members: Record<string, unknown>): ApiResult => ({
  kind: "cursorPage",
  items,
  members,
});
