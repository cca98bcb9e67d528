"use client";

import { Button } from "@/components/ui/button";

/** Anything a page failed to render: said plainly, with a way to try again. */
export default function PageError({ reset }: { error: Error; reset: () => void }) {
  return (
    <main role="alert" className="mx-auto max-w-md px-6 py-24 text-center">
      <h1 className="text-2xl font-semibold">Something went wrong on this page</h1>
      <p className="mt-2 text-sm text-zinc-600">
        Nothing was paid or changed. Try again, or reload the page.
      </p>
      <Button className="mt-6" onClick={reset}>
        Try again
      </Button>
    </main>
  );
}
