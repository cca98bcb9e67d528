const OWNER = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";
const AGENT = "0x90F79bf6EB2c4f870365E785982E1f101E93b906";
const ID = "fb_8Zq2X0b3VrYwqJm1kS4d1A";

/** A stored record as the owner and the submitter read it. */
const RECORD = {
  id: ID,
  namespace: "acme-app",
  targets: [],
  type: "bug",
  title: "Checkout button does nothing",
  description: "Clicking Pay on /checkout leaves the page unchanged; no request is sent.",
  severity: "high",
  verified: false,
  submitterDid: null,
  submitterWallet: AGENT,
  resolved: false,
  resolveMessage: null,
  rewardAmount: null,
  createdAt: "2026-11-24T10:05:00.000Z",
  steps: ["Open /checkout", "Click Pay"],
  expected: "The payment dialog opens",
  actual: "Nothing happens",
  metadata: null,
  resolvedAt: null,
  resolvedBy: null,
  rewardTxHash: null,
  status: "open",
  confirmation: null,
} as const;

/** Where RECORD stands among its duplicates, and its labels, as its owner reads it (never its reporter). */
const GROUPING = { groupId: null, groupKind: null, reportCount: 1, labels: [] } as const;

const RESOLVED = {
  ...RECORD,
  resolved: true,
  resolveMessage: "Fixed in 2.3.1, thanks!",
  rewardAmount: "0.25",
  resolvedAt: "2026-11-24T11:00:00.000Z",
  resolvedBy: OWNER,
  rewardTxHash: "0x5f0c8c0e1b7a4c2f7a3d9e6b1c4a8f2e0d3b6a9c5e8f1a4d7b0c3e6f9a2d5b8c",
  status: "resolved",
} as const;

/** The history of RESOLVED: acknowledged, asked for more, answered, resolved with a tip. */
const HISTORY = [
  {
    at: "2026-11-24T10:20:00.000Z",
    kind: "status",
    actor: OWNER,
    from: "open",
    to: "needs_info",
    message: "Which browser, and does it happen with an empty cart?",
    details: null,
  },
  {
    at: "2026-11-24T10:31:00.000Z",
    kind: "follow_up",
    actor: AGENT,
    from: "needs_info",
    to: "open",
    message: "Chromium 131; only with two or more items in the cart.",
    details: null,
  },
  {
    at: "2026-11-24T11:00:00.000Z",
    kind: "status",
    actor: OWNER,
    from: "open",
    to: "resolved",
    message: "Fixed in 2.3.1, thanks!",
    details: { rewardAmount: "0.25" },
  },
] as const;

const WEBHOOK = {
  namespace: "acme-app",
  url: "https://hooks.acme.example/feedback",
  secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
  format: "slack",
  events: ["feedback.created", "feedback.resolved", "reward.paid"],
  digest: "daily",
} as const;

/**
 * One worked example per operation, request and answer: shown in the OpenAPI document, in the x402
 * Bazaar discovery extension of each 402, and in llms.txt. Tests check each against its schema.
 */
export const EXAMPLES = {
  register: {
    request: { namespace: "acme-app", description: "Feedback on the Acme app and its API" },
    response: {
      namespace: "acme-app",
      ownerWallet: OWNER,
      existingFeedbackLinked: 3,
      createdAt: "2026-11-24T10:00:00.000Z",
    },
  },
  feedback: {
    request: {
      namespace: "acme-app",
      type: "bug",
      title: "Checkout button does nothing",
      description: "Clicking Pay on /checkout leaves the page unchanged; no request is sent.",
      severity: "high",
      steps: ["Open /checkout", "Click Pay"],
      expected: "The payment dialog opens",
      actual: "Nothing happens",
    },
    response: {
      id: ID,
      namespace: "acme-app",
      registered: true,
      createdAt: "2026-11-24T10:05:00.000Z",
    },
  },
  resolve: {
    request: {
      feedbackId: "fb_8Zq2X0b3VrYwqJm1kS4d1A",
      message: "Fixed in 2.3.1, thanks!",
      rewardAmount: "0.25",
    },
    response: {
      id: ID,
      namespace: "acme-app",
      resolved: true,
      resolvedAt: "2026-11-24T11:00:00.000Z",
      resolvedBy: OWNER,
      message: "Fixed in 2.3.1, thanks!",
      reward: {
        amount: "0.25",
        recipient: AGENT,
        txHash: "0x5f0c8c0e1b7a4c2f7a3d9e6b1c4a8f2e0d3b6a9c5e8f1a4d7b0c3e6f9a2d5b8c",
      },
    },
  },
  record: {
    query: { id: ID },
    response: {
      ...RECORD,
      ...GROUPING,
      reportCount: 2,
      context: "Chromium 131 on Linux; cart held 2 items",
      history: [],
      group: [
        {
          id: "fb_Hq7Yb2Wc0Xv9Zr4Ls1Mn3P",
          title: "Pay button on /checkout does nothing",
          status: "open",
          groupKind: "suggested",
          submitterWallet: "0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65",
          meToo: false,
          createdAt: "2026-11-24T10:12:00.000Z",
        },
      ],
    },
  },
  merge: {
    request: { namespace: "acme-app", into: ID, feedbackIds: ["fb_Hq7Yb2Wc0Xv9Zr4Ls1Mn3P"] },
    response: {
      namespace: "acme-app",
      groupId: ID,
      reportCount: 2,
      merged: ["fb_Hq7Yb2Wc0Xv9Zr4Ls1Mn3P"],
      moved: [{ id: "fb_Hq7Yb2Wc0Xv9Zr4Ls1Mn3P", from: null }],
    },
  },
  labels: {
    request: { namespace: "acme-app", feedbackIds: [ID], add: ["checkout", "safari"], remove: [] },
    response: { namespace: "acme-app", changed: [{ id: ID, labels: ["checkout", "safari"] }], unchanged: [] },
  },
  unmerge: {
    request: { namespace: "acme-app", feedbackIds: ["fb_Hq7Yb2Wc0Xv9Zr4Ls1Mn3P"] },
    response: { namespace: "acme-app", unmerged: ["fb_Hq7Yb2Wc0Xv9Zr4Ls1Mn3P"] },
  },
  export: {
    query: { namespace: "acme-app", status: "open,needs_info", format: "csv" },
    response: [{ ...RECORD, ...GROUPING, context: null }],
    csv: `id,namespace,type,status,labels,resolved,severity,title,description,steps,expected,actual,context,metadata,submitterWallet,submitterDid,verified,createdAt,resolvedAt,resolvedBy,resolveMessage,rewardAmount,rewardTxHash,groupId,groupKind,reportCount\r\n${ID},acme-app,bug,open,[],false,high,Checkout button does nothing,Clicking Pay on /checkout leaves the page unchanged; no request is sent.,"[""Open /checkout"",""Click Pay""]",The payment dialog opens,Nothing happens,,,${AGENT},,false,2026-11-24T10:05:00.000Z,,,,,,,,1\r\n`,
  },
  insights: {
    query: { namespace: "acme-app", from: "2026-11-22", to: "2026-11-24", bucket: "day" },
    response: {
      namespace: "acme-app",
      from: "2026-11-22",
      to: "2026-11-24",
      bucket: "day",
      buckets: [
        { start: "2026-11-22", bug: 3, feature: 1, feedback: 0, created: 4, resolved: 2 },
        { start: "2026-11-23", bug: 0, feature: 0, feedback: 0, created: 0, resolved: 1 },
        { start: "2026-11-24", bug: 2, feature: 0, feedback: 1, created: 3, resolved: 0 },
      ],
      totals: {
        items: 42,
        open: 30,
        resolved: 12,
        byStatus: {
          open: 21,
          acknowledged: 4,
          needs_info: 2,
          in_progress: 1,
          wont_fix: 1,
          duplicate: 1,
          spam: 0,
          resolved: 12,
        },
      },
      firstResponse: { medianSeconds: 5400, count: 5 },
      resolution: { medianSeconds: 86_400, count: 3 },
      topReporters: [
        { wallet: AGENT, count: 4 },
        { wallet: "0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65", count: 2 },
      ],
      rewardsPaid: { count: 1, totalMicroUsd: "250000", totalUsd: "0.25" },
      confirmations: { resolutions: 3, confirmed: 2, disputed: 1, confirmedShare: 0.667 },
    },
  },
  followUp: {
    request: {
      feedbackId: ID,
      message: "Chromium 131; only with two or more items in the cart.",
      steps: ["Add two items", "Open /checkout", "Click Pay"],
    },
    response: {
      id: "ev_Yq3Xn0Fb2Kd8Lm1Pz7Rs",
      feedbackId: ID,
      status: "open",
      createdAt: "2026-11-24T10:31:00.000Z",
    },
  },
  confirm: {
    request: { id: ID, outcome: "fixed", note: "Checked on 2.3.1: Pay opens the dialog now." },
    response: {
      id: ID,
      namespace: "acme-app",
      outcome: "fixed",
      status: "resolved",
      confirmedAt: "2026-11-24T12:10:00.000Z",
    },
  },
  knownIssues: {
    query: { namespace: "acme-app", q: "checkout" },
    response: {
      namespace: "acme-app",
      count: 1,
      issues: [
        {
          id: ID,
          title: "Checkout button does nothing",
          type: "bug",
          status: "in_progress",
          reports: 4,
          resolvedAt: null,
          note: null,
        },
      ],
    },
  },
  knownIssuesUpdate: {
    request: { namespace: "acme-app", published: true, hide: ["fb_Qw8r2T5yU1iO3pA6sD9fGh"] },
    response: {
      namespace: "acme-app",
      published: true,
      hidden: ["fb_Qw8r2T5yU1iO3pA6sD9fGh"],
      awaitingReview: 0,
    },
  },
  callback: {
    request: { id: ID, callbackUrl: "https://agent.example.com/hooks/feedback" },
    response: {
      id: ID,
      callbackUrl: "https://agent.example.com/hooks/feedback",
      callbackSecret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
    },
  },
  changeStatus: {
    request: {
      namespace: "acme-app",
      feedbackIds: [ID],
      status: "needs_info",
      message: "Which browser, and does it happen with an empty cart?",
    },
    response: {
      namespace: "acme-app",
      status: "needs_info",
      changedAt: "2026-11-24T10:20:00.000Z",
      changed: [{ id: ID, from: "open" }],
      unchanged: [],
    },
  },
  list: {
    query: { namespace: "acme-app", limit: 50, type: "bug" },
    response: {
      namespace: "acme-app",
      count: 1,
      feedback: [{ ...RECORD, ...GROUPING }],
      nextCursor: "WzE3OTU1MjE2NDMyNzQsImZiX3NlZWRfNTAiXQ.Y3Rt7vpm",
    },
  },
  status: {
    query: { namespace: "acme-app" },
    response: {
      submitter: AGENT,
      count: 1,
      feedback: [
        {
          ...RESOLVED,
          history: HISTORY,
          callbackUrl: "https://agent.example/hooks/feedback",
          resolution: {
            message: RESOLVED.resolveMessage,
            resolvedAt: RESOLVED.resolvedAt,
            rewardAmount: RESOLVED.rewardAmount,
            rewardTxHash: RESOLVED.rewardTxHash,
          },
        },
      ],
    },
  },
  webhook: {
    query: { namespace: "acme-app" },
    request: {
      namespace: "acme-app",
      url: WEBHOOK.url,
      format: WEBHOOK.format,
      events: WEBHOOK.events,
      digest: WEBHOOK.digest,
    },
    response: WEBHOOK,
  },
  webhookRotate: {
    request: { namespace: "acme-app" },
    response: { ...WEBHOOK, secret: "whsec_C2hQe0V9yJ1tWm4fXb7nRk3pLs8dZa6U" },
  },
  webhookTest: {
    request: { namespace: "acme-app" },
    response: { namespace: "acme-app", id: "msg_2Xq0b3Vr", eventType: "webhook.test", status: "pending" },
  },
  resend: {
    request: { namespace: "acme-app", id: "msg_7Kp1c9Qa" },
    response: {
      namespace: "acme-app",
      id: "msg_4Hd8s2Lm",
      resentFrom: "msg_7Kp1c9Qa",
      eventType: "feedback.created",
      status: "pending",
    },
  },
  deliveries: {
    query: { namespace: "acme-app", limit: 20 },
    response: {
      namespace: "acme-app",
      count: 2,
      deliveries: [
        {
          id: "msg_2Xq0b3Vr",
          eventType: "feedback.status_changed",
          status: "delivered",
          attempts: 1,
          // One owner action (a resolve of two items) in the slack format: one message, one row.
          items: [
            {
              id: ID,
              title: RECORD.title,
              url: `https://feedback.acme.example/dashboard/acme-app?status=all&item=${ID}`,
              events: ["feedback.status_changed", "feedback.resolved"],
            },
            {
              id: "fb_Hq7Yb2Wc0Xv9Zr4Ls1Mn3P",
              title: "Pay does nothing on Safari",
              url: "https://feedback.acme.example/dashboard/acme-app?status=all&item=fb_Hq7Yb2Wc0Xv9Zr4Ls1Mn3P",
              events: ["feedback.status_changed", "feedback.resolved"],
            },
          ],
          lastStatusCode: 200,
          lastError: null,
          lastResponseExcerpt: "ok",
          sentBody: '{"text":"✅ 2 items resolved in acme-app","blocks":[]}',
          lastAttemptAt: "2026-11-24T10:05:01.000Z",
          nextAttemptAt: null,
          deliveredAt: "2026-11-24T10:05:01.000Z",
          createdAt: "2026-11-24T10:05:00.000Z",
          resentFrom: null,
          resentAs: null,
        },
        {
          id: "msg_9Tn4Rb7Wd",
          eventType: "webhook.test",
          status: "pending",
          attempts: 1,
          items: [],
          lastStatusCode: null,
          lastError: "connection refused",
          lastResponseExcerpt: null,
          sentBody: '{"text":"🔔 Test message from acme-app","blocks":[]}',
          lastAttemptAt: "2026-11-24T10:04:00.000Z",
          nextAttemptAt: "2026-11-24T10:04:05.000Z",
          deliveredAt: null,
          createdAt: "2026-11-24T10:04:00.000Z",
          resentFrom: null,
          resentAs: null,
        },
      ],
    },
  },
  members: {
    query: { namespace: "acme-app" },
    response: {
      namespace: "acme-app",
      owner: OWNER,
      members: [{ wallet: AGENT, role: "triager", addedAt: "2026-11-25T09:00:00.000Z", addedBy: OWNER }],
      pendingTransfer: null,
    },
  },
  memberAdd: {
    request: { namespace: "acme-app", wallet: AGENT, role: "triager" },
    response: { namespace: "acme-app", wallet: AGENT, role: "triager", addedAt: "2026-11-25T09:00:00.000Z" },
  },
  memberRemove: {
    request: { namespace: "acme-app", wallet: AGENT },
    response: { namespace: "acme-app", wallet: AGENT, removed: true },
  },
  transfer: {
    request: { namespace: "acme-app", to: AGENT },
    response: {
      namespace: "acme-app",
      to: AGENT,
      proposedAt: "2026-11-25T10:00:00.000Z",
      expiresAt: "2026-12-02T10:00:00.000Z",
    },
  },
  transferCancel: {
    request: { namespace: "acme-app" },
    response: { namespace: "acme-app", cancelled: true },
  },
  transferAccept: {
    request: { namespace: "acme-app" },
    response: { namespace: "acme-app", ownerWallet: AGENT },
  },
} as const;
