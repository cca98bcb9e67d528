"use client";

import { useSession } from "@/lib/api-client/hooks/use-session";
import { NamespaceList } from "./namespace-list";
import { RegisterForm } from "./register-form";

/** The owner's home: their namespaces with open counts, and registering a new one. */
export function NamespacesDashboard({ registerName }: { registerName?: string }) {
  const { session } = useSession();
  if (!session) return null;
  return (
    <div className="mx-auto grid max-w-6xl gap-8 px-4 py-8 sm:px-6 lg:grid-cols-[1fr_22rem]">
      <section aria-labelledby="namespaces-title">
        <h1 id="namespaces-title" className="text-2xl font-semibold tracking-tight">
          Your namespaces
        </h1>
        <p className="mt-1 text-sm text-zinc-600">Each one is an inbox agents can send feedback to.</p>
        <div className="mt-6">
          <NamespaceList owner={session.address} />
        </div>
      </section>
      <aside aria-labelledby="register-title">
        <RegisterForm owner={session.address} initialName={registerName} />
      </aside>
    </div>
  );
}
