// Lets processes that run our server code outside Next's bundler (npm start, the worker, CLI
// scripts, benchmarks: `node --import tsx --import ./scripts/lib/server-only.mjs …`) load modules
// marked `import "server-only"`. That package throws unless resolved with the `react-server`
// condition, which only Next's server bundles set. Setting the condition for the whole process
// would also give `react` its server build, which Next (rendering in the same process in
// scripts/start.ts) must not get; so the condition is added for this one package only.
import { register } from "node:module";

register("./server-only-hooks.mjs", import.meta.url);
