import http from "node:http";
import path from "node:path";
import next from "next";
import type { Env } from "@/server/platform/env";
import { drainServer, markDraining } from "@/server/platform/fleet/drain";
import { setProcessPhase } from "@/server/platform/fleet/process-state";
import { stampClientAddress } from "@/server/platform/request/client-address";
import { answerBeforeNext, clientErrorAnswer } from "@/server/http/before-next";
import { answerDuplicateHost } from "@/server/http/host-header";
import { answerSharePage } from "@/server/http/share-page";
import { withinBodyLimit } from "@/server/http/body-limits";
import { requestTimeouts } from "@/server/http/request-timeouts";
import { stampRequestId } from "@/server/http/request-id";
import { endStalledStreams } from "@/server/http/stream-stalls";
import { logger, withLogContext } from "@/server/platform/log";
import { countRoutesOf, observeRequest } from "@/server/platform/metrics/http-requests";
import { loadRouteTable } from "@/server/platform/metrics/route-table";
import { answerMetrics, METRICS_PATH } from "@/server/platform/metrics/scrape";
import { rememberListeningPort } from "@/server/platform/request/public-origin";
import { buildDir } from "./build";

// The HTTP front of every process that serves Next.js: timeouts, the client's address, request ids
// and log context, metrics, the answers given before Next.js (a duplicate Host, methods it cannot
// route, oversized bodies, a shared location whose link ended), then Next.js's handler for the app in `dir`. `npm start` serves the
// product with it; the benchmarks' baseline app (bench/baseline/) is served by the same front, so
// that a bare handler and ours differ only below it.

export const drainMs = (config: Env) => config.DRAIN_TIMEOUT_SECONDS * 1000;

export async function serveHttp(
  config: Env,
  { dir, dev = false }: { dir: string; dev?: boolean },
): Promise<{ port: number; drain(): Promise<void> }> {
  const app = next({ dev, dir, hostname: config.HOST, port: config.PORT });
  await app.prepare();
  const handle = app.getRequestHandler();
  countRoutesOf(
    loadRouteTable({ distDir: await buildDir(dir), publicDir: path.join(dir, "public"), own: [METRICS_PATH] }),
  );
  const server = http.createServer(requestTimeouts(config.REQUEST_TIMEOUT_SECONDS), (req, res) => {
    stampClientAddress(req);
    markDraining(res);
    endStalledStreams(res, config.STREAM_STALL_SECONDS * 1000);
    observeRequest(req, res);
    // Every log line written while this request is handled, by us or below Next.js, carries its id.
    const requestId = stampRequestId(req, res);
    withLogContext({ requestId }, () => {
      if (answerDuplicateHost(req, res)) return;
      if ((req.url ?? "").split("?")[0] === METRICS_PATH) return void answerMetrics(req, res);
      if (answerBeforeNext(req, res)) return;
      const toNext = () => withinBodyLimit(req, res, () => void handle(req, res));
      // A shared location's page whose link ended is 410, which a Next.js page cannot answer.
      const share = answerSharePage(req, res);
      if (!share) return toNext();
      void share
        .catch((error: unknown) => {
          logger.warn({ err: error }, "checking a shared location's link failed: Next.js answers");
          return false;
        })
        .then((answered) => answered || toNext());
    });
  });
  server.on("clientError", (error: NodeJS.ErrnoException, socket) => {
    const answer = socket.writable ? clientErrorAnswer(error) : null;
    if (answer) socket.end(answer);
    else socket.destroy();
  });
  // A port taken (EADDRINUSE) or not ours to take (EACCES) ends the start with the reason: unheard,
  // the error would reach Next.js's uncaught-exception handler, which logs it and keeps a process
  // that serves nothing running.
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(config.PORT, config.HOST, () => {
      server.off("error", reject);
      resolve();
    });
  });
  setProcessPhase("serving");
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : config.PORT;
  rememberListeningPort(port);
  return {
    port,
    async drain() {
      const finished = await drainServer(server, drainMs(config));
      if (!finished)
        logger.info({ seconds: config.DRAIN_TIMEOUT_SECONDS }, "drain timed out: the requests still open were cut");
      await app.close?.();
    },
  };
}
