import http from "node:http";

// Requests over connections the test holds open (keep-alive), for tests about what happens to
// connections a server has already accepted (the drain on SIGTERM).

export type KeepAliveReply = { status: number; headers: http.IncomingHttpHeaders; text: string };

export function keepAliveAgent(sockets: number): http.Agent {
  return new http.Agent({ keepAlive: true, maxSockets: sockets, maxFreeSockets: sockets });
}

export function send(
  agent: http.Agent,
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<KeepAliveReply> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: init.method ?? "GET", headers: init.headers, agent }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (text += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(init.body);
  });
}

/** Open sockets the agent holds, idle, for `host:port`. */
export function idleSockets(agent: http.Agent): number {
  return Object.values(agent.freeSockets).reduce((n, list) => n + (list?.length ?? 0), 0);
}
