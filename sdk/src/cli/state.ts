import fs from "node:fs";
import path from "node:path";

// Where `wayline listen` left off: the event feed's cursor of the last event it forwarded, per service and
// app, in a small JSON file. It is written (to a temporary file, then renamed, so a kill never leaves half
// a file) after each event, so a restart resumes with the next one.

type State = Record<string, { cursor: string; savedAt: string }>;

export function stateStore(file: string, key: string) {
  const read = (): State => {
    try {
      return JSON.parse(fs.readFileSync(file, "utf8")) as State;
    } catch {
      return {};
    }
  };
  return {
    cursor: (): string | undefined => read()[key]?.cursor,
    save(cursor: string) {
      fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
      const next = { ...read(), [key]: { cursor, savedAt: new Date().toISOString() } };
      const temporary = `${file}.${process.pid}.tmp`;
      fs.writeFileSync(temporary, JSON.stringify(next, null, 2) + "\n");
      fs.renameSync(temporary, file);
    },
  };
}
