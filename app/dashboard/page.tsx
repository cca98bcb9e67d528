import { HydrationBoundary } from "@tanstack/react-query";
import { headers } from "next/headers";
import { NamespacesDashboard } from "@/components/namespaces/namespaces-dashboard";
import { SignInGate } from "@/components/wallet/sign-in-gate";
import { prefetchNamespaces } from "@/lib/api-client/server-prefetch";

export const metadata = { title: "Your namespaces · Feedback" };

export default async function DashboardPage() {
  const state = await prefetchNamespaces((await headers()).get("cookie"));
  return (
    <main>
      <SignInGate title="Sign in to see your namespaces">
        <HydrationBoundary state={state}>
          <NamespacesDashboard />
        </HydrationBoundary>
      </SignInGate>
    </main>
  );
}
