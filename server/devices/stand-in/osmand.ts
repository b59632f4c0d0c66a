import { encodeOsmAnd, type OsmAndForm } from "../protocols/osmand/encode";
import { StandInError } from "./errors";
import type { Link } from "./link";

// A phone app speaking OsmAnd: one HTTP request a record, sent again until it is answered 200.

type Options = { host: string; port: number; form: OsmAndForm; timeoutMs: number };

export function osmandLink(options: Options): Link {
  const origin = `http://${options.host.includes(":") ? `[${options.host}]` : options.host}:${options.port}`;
  return {
    open: async () => {},
    batchOf: () => 1,
    async send([record]) {
      const request = encodeOsmAnd(record!, options.form);
      let response: Response;
      try {
        response = await fetch(`${origin}${request.url}`, {
          method: request.method,
          headers: request.contentType ? { "content-type": request.contentType } : {},
          body: request.method === "GET" ? undefined : new TextDecoder().decode(request.body), // a form or JSON
          signal: AbortSignal.timeout(options.timeoutMs),
        });
      } catch (error) {
        // fetch says "fetch failed" and keeps the reason (ECONNREFUSED, a reset) as its cause.
        const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
        throw new StandInError("lost", cause instanceof Error ? cause.message : String(cause));
      }
      const text = (await response.text().catch(() => "")).trim().slice(0, 200);
      if (response.status === 200) return;
      const said = text ? `: ${text}` : "";
      if (response.status === 400)
        throw new StandInError("refused", `the gateway answered 400${said} (an unknown id, or a request it refused)`);
      throw new StandInError("lost", `the gateway answered ${response.status}${said}`);
    },
    close() {},
  };
}
