// From a registry that serves only the platform binaries of Linux x64 (a mirror of one platform),
// `npm install` leaves the other platforms' optional packages (@next/swc-darwin-arm64, …) out
// of package-lock.json, and `npm ci` then refuses the lock as out of sync. This adds each missing
// optional platform package as a lock entry restricted to its own os/cpu: npm ci accepts the lock
// and, as for any foreign-platform package, installs nothing for it. Run after `npm install`:
//   node scripts/lock-platforms.mjs
import fs from "node:fs";

const OS = [
  "android",
  "darwin",
  "freebsd",
  "linux",
  "win32",
  "openharmony",
  "openbsd",
  "netbsd",
  "sunos",
  "aix",
  "wasi",
];
const CPU = ["arm64", "x64", "arm", "ia32", "loong64", "ppc64", "riscv64", "s390x", "mips64el", "wasm32"];

const lock = JSON.parse(fs.readFileSync("package-lock.json", "utf8"));
const packages = lock.packages;
let added = 0;
for (const [where, entry] of Object.entries(packages)) {
  for (const [name, spec] of Object.entries(entry.optionalDependencies ?? {})) {
    const base = where === "" ? "" : `${where}/`;
    if (packages[`${base}node_modules/${name}`] || packages[`node_modules/${name}`]) continue;
    const tokens = name.split("/").pop().split("-");
    const os = tokens.filter((t) => OS.includes(t));
    const cpu = tokens.filter((t) => CPU.includes(t));
    if (os.length === 0 && cpu.length === 0) continue; // not a platform package: leave it to npm
    packages[`node_modules/${name}`] = {
      version: spec.replace(/^[\^~=]/, ""),
      optional: true,
      ...(os.length ? { os } : {}),
      ...(cpu.length ? { cpu } : {}),
    };
    added += 1;
  }
}
fs.writeFileSync("package-lock.json", `${JSON.stringify(lock, null, 2)}\n`);
console.log(`lock-platforms: added ${added} foreign-platform entries`);
