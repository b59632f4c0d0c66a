// The methods of the driver site's JSON routes (app/(driver)/me/…, and a shared location's stream
// and poll under app/share/), for the 405 that npm start's
// server answers, before Next.js, to a method Next.js cannot route (TRACE and the like: Next.js
// would answer 500). The route files are the source; test/integration/shared/method-and-path-errors.test.ts
// holds this table to them through Next.js's own OPTIONS answer, which lists a route's exports.
const ROUTES: [RegExp, string[]][] = [
  [/^\/me\/account\/?$/, ["GET", "POST", "DELETE"]],
  [/^\/me\/account\/password\/?$/, ["POST"]],
  [/^\/me\/vehicles\/?$/, ["POST"]],
  [/^\/me\/vehicles\/[^/]+\/?$/, ["GET", "POST", "DELETE"]],
  [/^\/me\/vehicles\/[^/]+\/location-pause\/?$/, ["POST"]],
  [/^\/me\/vehicles\/[^/]+\/shares\/?$/, ["GET", "POST"]],
  [/^\/me\/vehicles\/[^/]+\/shares\/[^/]+\/?$/, ["DELETE"]],
  [/^\/me\/positions\/?$/, ["GET"]],
  [/^\/me\/positions\/stream\/?$/, ["GET"]],
  [/^\/me\/access-log\/?$/, ["GET"]],
  [/^\/me\/export\/?$/, ["GET"]],
  [/^\/me\/alerts\/?$/, ["GET"]],
  [/^\/me\/alerts\/settings\/?$/, ["GET", "POST"]],
  [/^\/me\/alerts\/test\/?$/, ["POST"]],
  [/^\/me\/places\/?$/, ["GET", "POST"]],
  [/^\/me\/places\/export\/?$/, ["GET"]],
  [/^\/me\/places\/import\/?$/, ["POST"]],
  [/^\/me\/places\/[^/]+\/?$/, ["PATCH", "DELETE"]],
  [/^\/me\/push\/?$/, ["GET"]],
  [/^\/me\/push\/subscribe\/?$/, ["POST"]],
  [/^\/me\/push\/unsubscribe\/?$/, ["POST"]],
  [/^\/me\/push\/test\/?$/, ["POST"]],
  [/^\/share\/[^/]+\/(stream|position)\/?$/, ["GET"]],
];

/** The methods served at a driver-site JSON path, or null when it is none. */
export const driverRouteMethods = (path: string): string[] | null =>
  ROUTES.find(([pattern]) => pattern.test(path))?.[1] ?? null;
