// A public, cacheable JSON answer of text already serialised (the maps' road cells): the same for
// every caller and changed only by a deploy, so browsers keep it for a day.
export const cachedJson = (text: string) =>
  new Response(text, {
    headers: { "Content-Type": "application/json", "Cache-Control": "public, max-age=86400" },
  });
