// Lists are paged by searchOffset and searchLimit (docs/api.md#lists): this walks them, one page at a time.

export type Page = { searchOffset: number; searchLimit: number };

/**
 * Every item of a list: `fetchPage` reads one page (pass `page` as the query), and the walk follows
 * searchOffset until a page comes back short.
 *
 *   for await (const v of paginate(async (page) => unwrap(await api.GET("/vehicle/", { params: { query: page } })).vehicle))
 */
export async function* paginate<Item>(
  fetchPage: (page: Page) => Promise<Item[]>,
  { searchLimit = 100 }: { searchLimit?: number } = {},
): AsyncGenerator<Item> {
  for (let searchOffset = 0; ; searchOffset += searchLimit) {
    const items = await fetchPage({ searchOffset, searchLimit });
    yield* items;
    if (items.length < searchLimit) return;
  }
}
