import fs from "node:fs";
import path from "node:path";
import { chromium } from "@playwright/test";

// `npx tsx scripts/draw-icons.ts`: the PNG and ICO icons in public/, drawn from public/icon.svg
// (the one source) by the same Chromium the browser tests use. Run it after changing the SVG and
// commit what it writes: the site serves the files as they are.

const PUBLIC = path.join(import.meta.dirname, "..", "public");
const svg = fs.readFileSync(path.join(PUBLIC, "icon.svg"), "utf8");

async function main() {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox"],
  });
  const page = await browser.newPage();
  const png = async (size: number) => {
    await page.setViewportSize({ width: size, height: size });
    await page.setContent(
      `<style>html,body{margin:0;background:transparent}svg{display:block;width:${size}px;height:${size}px}</style>${svg}`,
    );
    return page.screenshot({ omitBackground: true });
  };
  for (const [file, size] of [
    ["icon-192.png", 192],
    ["icon-512.png", 512],
    ["apple-touch-icon.png", 180],
  ] as const) {
    fs.writeFileSync(path.join(PUBLIC, file), await png(size));
  }
  // An ICO may hold PNG images as they are: a 6-byte header, one 16-byte entry each, the PNGs.
  const sizes = [16, 32, 48];
  const images: Buffer[] = [];
  for (const size of sizes) images.push(await png(size));
  const header = Buffer.alloc(6 + 16 * sizes.length);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(sizes.length, 4);
  let offset = header.length;
  sizes.forEach((size, i) => {
    const entry = 6 + 16 * i;
    header.writeUInt8(size, entry);
    header.writeUInt8(size, entry + 1);
    header.writeUInt16LE(1, entry + 4);
    header.writeUInt16LE(32, entry + 6);
    header.writeUInt32LE(images[i]!.length, entry + 8);
    header.writeUInt32LE(offset, entry + 12);
    offset += images[i]!.length;
  });
  fs.writeFileSync(path.join(PUBLIC, "favicon.ico"), Buffer.concat([header, ...images]));
  await browser.close();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
