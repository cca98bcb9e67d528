import { HydrationBoundary } from "@tanstack/react-query";
import { headers } from "next/headers";
import { NamespacesDashboard } from "@/components/namespaces/namespaces-dashboard";
import { SignInGate } from "@/components/wallet/sign-in-gate";
import { prefetchNamespaces } from "@/lib/api-client/server-prefetch";

export const metadata = { title: "Your namespaces · Feedback" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function DashboardPage({ searchParams }: Props) {
  // "Register this name", from the page of a name nobody owns yet.
  const register = (await searchParams).register;
  const state = await prefetchNamespaces((await headers()).get("cookie"));
  return (
    <main>
      <SignInGate title="Sign in to see your namespaces">
        <HydrationBoundary state={state}>
          <NamespacesDashboard registerName={typeof register === "string" ? register : undefined} />
        </HydrationBoundary>
      </SignInGate>
    </main>
  );
}
