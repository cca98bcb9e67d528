/**
 * Words that name one of several alternatives which cannot all be meant at once: "drops the first row" and
 * "drops the last row" are two bugs however much else the reports share. Each group lists its alternatives,
 * each alternative the words that name it (matched whole, case aside, in titles). Two titles that name
 * alternatives of a group, other ones or in another order, are never suggested as alike (alike.ts).
 */
const CONTRASTS: Record<string, Record<string, string[]>> = {
  order: {
    first: ["first", "initial", "earliest", "oldest"],
    last: ["last", "final", "latest", "newest"],
  },
  change: {
    add: ["add", "adds", "added", "adding", "insert", "inserts", "inserted", "create", "creates", "created"],
    remove: ["remove", "removes", "removed", "removing", "delete", "deletes", "deleted", "deleting"],
  },
  switch: {
    enable: ["enable", "enables", "enabled", "enabling"],
    disable: ["disable", "disables", "disabled", "disabling"],
  },
  amount: {
    more: ["increase", "increases", "increased", "higher", "raise", "raises", "more"],
    less: [
      "decrease",
      "decreases",
      "decreased",
      "lower",
      "lowers",
      "reduce",
      "reduces",
      "reduced",
      "less",
      "fewer",
    ],
  },
  time: { before: ["before", "early", "earlier", "ahead"], after: ["after", "late", "later", "delayed"] },
  bound: { min: ["min", "minimum", "minimal"], max: ["max", "maximum", "maximal"] },
  visibility: {
    show: ["show", "shows", "shown", "showing", "visible", "displayed"],
    hide: ["hide", "hides", "hidden", "hiding", "invisible"],
  },
  transfer: {
    upload: ["upload", "uploads", "uploaded", "uploading"],
    download: ["download", "downloads", "downloaded", "downloading"],
  },
  exchange: {
    import: ["import", "imports", "imported", "importing"],
    export: ["export", "exports", "exported", "exporting"],
  },
  theme: { light: ["light"], dark: ["dark"] },
  vertical: { top: ["top"], bottom: ["bottom"] },
  horizontal: { left: ["left"], right: ["right"] },
  state: { open: ["open", "opens", "opened", "opening"], close: ["close", "closes", "closed", "closing"] },
  span: {
    start: ["start", "starts", "started", "starting", "begin", "begins", "beginning"],
    end: ["end", "ends", "ended", "ending", "finish", "finishes", "stop", "stops", "stopped"],
  },
  verdict: {
    accept: ["accept", "accepts", "accepted", "allow", "allows", "allowed"],
    reject: ["reject", "rejects", "rejected", "refuse", "refuses", "refused", "block", "blocks", "blocked"],
  },
  plan: {
    upgrade: ["upgrade", "upgrades", "upgrading"],
    downgrade: ["downgrade", "downgrades", "downgrading"],
  },
  session: {
    in: ["login", "log in", "logging in", "sign in", "signing in", "signin"],
    out: ["logout", "log out", "logging out", "sign out", "signing out", "signout"],
  },
  platform: { ios: ["ios", "iphone", "ipad", "ipados"], android: ["android"] },
  device: {
    mobile: ["mobile", "phone", "phones", "tablet", "ios", "iphone", "ipad", "ipados", "android"],
    desktop: ["desktop", "windows", "macos", "linux"],
  },
  network: { online: ["online"], offline: ["offline"] },
  access: { public: ["public"], private: ["private"] },
  period: {
    daily: ["daily", "day"],
    weekly: ["weekly", "week"],
    monthly: ["monthly", "month"],
    yearly: ["yearly", "annual", "year"],
  },
  step: { next: ["next"], previous: ["previous", "prev"] },
  direction: {
    send: ["send", "sends", "sent", "sending", "outgoing"],
    receive: ["receive", "receives", "received", "receiving", "incoming"],
  },
  lock: { lock: ["lock", "locks", "locked"], unlock: ["unlock", "unlocks", "unlocked"] },
  count: {
    none: ["never"],
    once: ["once", "single"],
    many: ["twice", "double", "doubled", "duplicate", "duplicates", "duplicated", "repeated", "multiple"],
  },
  environment: {
    sandbox: ["sandbox", "staging", "test mode"],
    production: ["production", "prod", "live mode"],
  },
  // What went wrong: a report of a missing thing and one of a wrong thing are two bugs of one feature.
  symptom: {
    absent: [
      ...["missing", "absent", "gone", "empty", "blank", "lost"],
      ...["disappear", "disappears", "disappeared", "disappearing", "vanish", "vanishes", "vanished"],
    ],
    wrong: ["wrong", "incorrect", "incorrectly", "inaccurate", "mismatch", "mismatched", "invalid", "off by"],
    repeated: ["duplicate", "duplicates", "duplicated", "twice", "double", "doubled", "repeated", "repeats"],
    slow: [
      ...["slow", "slowly", "slower", "slowness", "lag", "lags", "lagging", "laggy", "sluggish"],
      ...["delay", "delays", "delayed"],
    ],
    stuck: [
      ...["stuck", "hang", "hangs", "hanging", "hung", "unresponsive"],
      ...["freeze", "freezes", "freezing", "frozen"],
    ],
    crash: ["crash", "crashes", "crashed", "crashing"],
    typo: ["typo", "typos", "spelling", "misspelled", "misspelt", "misspelling"],
    layout: [
      ...["misaligned", "misalignment", "overlap", "overlaps", "overlapping", "overflow", "overflows"],
      ...["cut off", "cuts off", "clipped", "truncated", "truncates", "unreadable"],
    ],
  },
};

/** The lexicon as rows: each word (lower case, one space between words) with its group and alternative. */
export const contrastWords = () =>
  Object.entries(CONTRASTS).flatMap(([group, alternatives]) =>
    Object.entries(alternatives).flatMap(([name, words]) => words.map((word) => ({ word, group, name }))),
  );
