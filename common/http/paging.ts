import { z } from "zod";
import { integerish } from "@/common/http/fields";

// List options (docs/api.md#paging): searchLimit (default 50, max 500), searchOffset, sortOrder.
export const pagingQuery = z.object({
  searchLimit: integerish.pipe(z.number().int().min(1).max(500)).default(50),
  searchOffset: integerish.pipe(z.number().int().min(0)).default(0),
  sortOrder: z.enum(["asc", "desc"]).optional(),
});

export type Page = { limit: number; offset: number };

export type PagingAction = { name: "next" | "previous"; uri: string; methods: null; inputs: null };

export function pagingActions(requestUrl: URL, page: Page, total: number): PagingAction[] {
  const at = (offset: number) => {
    const url = new URL(requestUrl);
    url.searchParams.set("searchLimit", String(page.limit));
    url.searchParams.set("searchOffset", String(offset));
    return url.toString();
  };
  const actions: PagingAction[] = [];
  if (page.offset + page.limit < total)
    actions.push({ name: "next", uri: at(page.offset + page.limit), methods: null, inputs: null });
  if (page.offset > 0)
    actions.push({ name: "previous", uri: at(Math.max(0, page.offset - page.limit)), methods: null, inputs: null });
  return actions;
}
