const MAX_ENTRIES = 200;
const MAX_DEPTH = 12;

function Scalar({ value }: { value: unknown }) {
  if (value === null) return <span className="text-zinc-500">null</span>;
  if (typeof value === "string")
    return <span className="break-words whitespace-pre-wrap text-emerald-800">&quot;{value}&quot;</span>;
  if (typeof value === "number") return <span className="text-sky-700">{String(value)}</span>;
  if (typeof value === "boolean") return <span className="text-violet-700">{String(value)}</span>;
  return <span className="text-zinc-500">{String(value)}</span>;
}

function summary(value: object): string {
  if (Array.isArray(value)) return `[${value.length} ${value.length === 1 ? "item" : "items"}]`;
  const n = Object.keys(value).length;
  return `{${n} ${n === 1 ? "key" : "keys"}}`;
}

function Entries({ value, depth }: { value: object; depth: number }) {
  const entries = Object.entries(value);
  return (
    <dl className="ml-3 border-l border-zinc-200 pl-3">
      {entries.slice(0, MAX_ENTRIES).map(([key, child]) => (
        <Node key={key} name={key} value={child} depth={depth + 1} />
      ))}
      {entries.length > MAX_ENTRIES ? (
        <dd className="text-zinc-500">… {entries.length - MAX_ENTRIES} more</dd>
      ) : null}
    </dl>
  );
}

function Node({ name, value, depth }: { name: string; value: unknown; depth: number }) {
  if (value !== null && typeof value === "object" && depth < MAX_DEPTH) {
    return (
      <details open={depth < 2} className="py-0.5">
        <summary className="cursor-pointer rounded select-none hover:bg-zinc-100">
          <span className="text-zinc-700">{name}</span>{" "}
          <span className="text-zinc-500">{summary(value)}</span>
        </summary>
        <Entries value={value} depth={depth} />
      </details>
    );
  }
  return (
    <div className="flex gap-2 py-0.5">
      <dt className="shrink-0 text-zinc-700">{name}:</dt>
      <dd className="min-w-0">
        {value !== null && typeof value === "object" ? JSON.stringify(value) : <Scalar value={value} />}
      </dd>
    </div>
  );
}

/**
 * Untrusted structured data (metadata, JSON context) as a collapsible tree. Everything renders as
 * text: nothing here is ever interpreted as HTML or followed as a link.
 */
export function DataTree({ value }: { value: unknown }) {
  return (
    <div className="overflow-x-auto rounded-lg bg-zinc-50 p-3 font-mono text-xs leading-relaxed">
      {value !== null && typeof value === "object" ? (
        <Entries value={value} depth={0} />
      ) : (
        <Scalar value={value} />
      )}
    </div>
  );
}

/** Context is free text; when it is JSON it reads better as a tree. */
export function parseMaybeJson(text: string): { json: true; value: unknown } | { json: false } {
  const trimmed = text.trim();
  if (!/^[[{]/.test(trimmed)) return { json: false };
  try {
    return { json: true, value: JSON.parse(trimmed) };
  } catch {
    return { json: false };
  }
}
