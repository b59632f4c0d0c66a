import fs from "node:fs";
import path from "node:path";

/** Every Markdown file under `dir`, its subfolders included (the docs' checks read them all). */
export const markdownFiles = (dir: string): string[] =>
  fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) =>
      e.isDirectory() ? markdownFiles(path.join(dir, e.name)) : e.name.endsWith(".md") ? [path.join(dir, e.name)] : [],
    );
