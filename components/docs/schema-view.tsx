import { typeOf, type JsonSchema } from "./examples";

// An object schema as a table of its members (nested objects one level down, by name).
export function SchemaTable({ schema, caption }: { schema: JsonSchema; caption: string }) {
  const props = Object.entries(schema.properties ?? {});
  if (props.length === 0) return <p className="text-sm text-slate-700">{typeOf(schema)}</p>;
  return (
    // Focusable, so keyboard users can scroll it on a narrow screen.
    <div className="overflow-x-auto" tabIndex={0} role="region" aria-label={caption}>
      <table className="w-full min-w-[30rem] text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr className="border-b border-slate-200 text-slate-700">
            <th scope="col" className="py-1 pr-3">Field</th>
            <th scope="col" className="py-1 pr-3">Type</th>
            <th scope="col" className="py-1">Notes</th>
          </tr>
        </thead>
        <tbody>
          {props.map(([name, s]) => (
            <tr key={name} className="border-b border-slate-100 align-top">
              <td className="py-1 pr-3 font-mono">
                {name}
                {schema.required?.includes(name) ? <span className="ml-1 text-xs font-semibold text-red-800">required</span> : null}
              </td>
              <td className="break-all py-1 pr-3 font-mono text-xs">{typeOf(s)}</td>
              <td className="py-1 text-slate-700">
                {s.description ?? ""}
                {s.properties ? ` Members: ${Object.keys(s.properties).join(", ")}.` : ""}
                {s.maxLength ? ` At most ${s.maxLength} characters.` : ""}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
