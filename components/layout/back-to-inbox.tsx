import Link from "next/link";
import { ArrowLeftIcon } from "@/components/ui/icons";

/** The arrow back to a namespace's inbox, at the head of its settings and insights pages. */
export function BackToInbox({ namespace }: { namespace: string }) {
  return (
    <Link
      href={`/dashboard/${encodeURIComponent(namespace)}`}
      className="rounded-md p-1 text-zinc-500 hover:bg-zinc-100 hover:text-zinc-900"
      aria-label="Back to the inbox"
    >
      <ArrowLeftIcon className="size-4" />
    </Link>
  );
}
