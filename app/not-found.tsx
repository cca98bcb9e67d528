import Link from "next/link";
import { buttonClass } from "@/components/ui/button";

export default function NotFound() {
  return (
    <main className="mx-auto max-w-md px-6 py-24 text-center">
      <p className="font-mono text-sm text-zinc-500">404</p>
      <h1 className="mt-2 text-2xl font-semibold">This page does not exist</h1>
      <Link href="/" className={buttonClass("secondary", "md", "mt-6")}>
        Go home
      </Link>
    </main>
  );
}
