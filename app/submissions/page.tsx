import { HydrationBoundary } from "@tanstack/react-query";
import { headers } from "next/headers";
import { SubmissionsList } from "@/components/submissions/submissions-list";
import { SignInGate } from "@/components/wallet/sign-in-gate";
import { prefetchSubmissions } from "@/lib/api-client/server-prefetch";

export const metadata = { title: "Your submissions · Feedback" };

export default async function SubmissionsPage() {
  const state = await prefetchSubmissions((await headers()).get("cookie"));
  return (
    <main>
      <SignInGate title="Sign in with the wallet your agent pays from">
        <HydrationBoundary state={state}>
          <SubmissionsList />
        </HydrationBoundary>
      </SignInGate>
    </main>
  );
}
